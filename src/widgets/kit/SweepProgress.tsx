/**
 * How much of a progressive sweep is drawn (src/lib/progressive.ts): a line above the picture while points are
 * still computing, and muted rules at the x values some of whose points are not in yet, so a half-drawn curve
 * is never mistaken for the finished one.
 */
import type { Marker } from './charts/types';

export function SweepProgress({ drawn, total, what }: { drawn: number; total: number; what: string }) {
  if (drawn >= total) return null;
  return (
    <p className="sweep-progress" role="status" data-sweep-drawn={drawn} data-sweep-total={total}>
      Computing: {drawn} of {total} points drawn; grey rules mark the {what} still running.
    </p>
  );
}

/** A muted rule at each x that still lacks a point. */
export function pendingMarkers(xs: readonly number[], hasAll: (x: number) => boolean): Marker[] {
  return xs.filter((x) => !hasAll(x)).map((x) => ({ kind: 'x', x, tone: 'muted' }) as Marker);
}
