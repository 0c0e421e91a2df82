/** The root of every chart: the sized container, the accessible <svg>, the "No data" state and a live region for read-outs. */
import { useId, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import type { ChartSize } from './useChartSize';

export interface ChartShellProps {
  size: ChartSize;
  /** Fixed width requested by the caller (the container then takes that width too). */
  fixedWidth?: number;
  title: string;
  description?: string;
  className?: string;
  svgRef?: Ref<SVGSVGElement>;
  empty?: boolean;
  emptyMessage?: string;
  /** Focusable with a keyboard read-out. */
  interactive?: boolean;
  keyboardHint?: string;
  onKeyDown?: (e: KeyboardEvent<SVGSVGElement>) => void;
  onBlur?: () => void;
  /** Text announced politely when the read-out changes. */
  live?: string;
  /** Rendered beneath the SVG in the same box (a canvas layer). */
  underlay?: ReactNode;
  kind: string;
  /** ARIA role of the <svg>: 'img' (default; one accessible name) or 'group' (children such as heatmap cells carry their own labels). */
  role?: 'img' | 'group';
  /** Content after the figure, outside the SVG (e.g. a data table). */
  after?: ReactNode;
  children?: ReactNode;
}

/** A DOM-id-safe version of React's useId. */
export function useSafeId(prefix: string): string {
  return `${prefix}-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
}

export function ChartShell(props: ChartShellProps) {
  const {
    size,
    fixedWidth,
    title,
    description,
    className,
    svgRef,
    empty,
    emptyMessage,
    interactive,
    keyboardHint,
    onKeyDown,
    onBlur,
    live,
    underlay,
    kind,
    role = 'img',
    after,
    children,
  } = props;
  const descId = useSafeId('chart-desc');
  const { observe, width, height } = size;
  const zoom = size.zoom ?? 1;
  const canInteract = interactive && !empty;
  const hint = canInteract
    ? (keyboardHint ?? 'Use the left and right arrow keys to read values; Escape hides the read-out.')
    : '';
  const desc = [description, hint].filter(Boolean).join(' ');
  return (
    <div
      className={`chart chart-${kind}${className ? ` ${className}` : ''}`}
      ref={observe}
      style={fixedWidth ? { width: fixedWidth, maxWidth: '100%' } : undefined}
      data-zoom={zoom !== 1 ? zoom : undefined}
    >
      <div className="chart-stage" style={{ width: width * zoom, height: height * zoom }}>
        {!empty && underlay}
        <svg
          ref={svgRef}
          className="chart-svg"
          xmlns="http://www.w3.org/2000/svg"
          width={width * zoom}
          height={height * zoom}
          viewBox={`0 0 ${width} ${height}`}
          role={role}
          aria-label={title}
          aria-describedby={desc ? descId : undefined}
          tabIndex={canInteract ? 0 : undefined}
          onKeyDown={canInteract ? onKeyDown : undefined}
          onBlur={canInteract ? onBlur : undefined}
          data-chart={kind}
          style={{ position: 'relative' }}
        >
          {desc ? <desc id={descId}>{desc}</desc> : null}
          {empty ? (
            <text
              className="chart-empty"
              x={width / 2}
              y={height / 2}
              textAnchor="middle"
              dominantBaseline="middle"
            >
              {emptyMessage ?? 'No data'}
            </text>
          ) : (
            children
          )}
        </svg>
      </div>
      {after}
      {canInteract ? (
        <div className="chart-sr-only" aria-live="polite" aria-atomic="true">
          {live ?? ''}
        </div>
      ) : null}
    </div>
  );
}
