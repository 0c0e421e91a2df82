/** A lesson section heading (MDX `##`) that registers itself as a presentation screen. */
import type { ComponentProps } from 'react';
import { useStageScreen } from '../widgets/kit/stage';

function textOf(node: unknown): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node)
    return textOf((node as { props: { children?: unknown } }).props.children);
  return '';
}

export function StageHeading({ className, ...props }: ComponentProps<'h2'>) {
  const ref = useStageScreen('section', props.id ?? '', textOf(props.children));
  return (
    <h2
      ref={ref}
      tabIndex={-1}
      className={className ? `stage-heading ${className}` : 'stage-heading'}
      {...props}
    />
  );
}
