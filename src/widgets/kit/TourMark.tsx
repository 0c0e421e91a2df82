/**
 * A part of a widget's picture (a chart, a panel) that a tour step or "Try this" item can highlight by id, as it
 * highlights a read-out: `<TourStep widget="…" highlight="<id>">` finds it by its `data-mark` (stage.ts findMark),
 * rings it, and scrolls it clear of the tour's caption. A step whose caption talks about a chart highlights the chart.
 */
import type { ReactNode } from 'react';
import './tour.css';

export function TourMark({
  id,
  className,
  children,
}: {
  id: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className ? `tour-mark ${className}` : 'tour-mark'} data-mark={id}>
      {children}
    </div>
  );
}
