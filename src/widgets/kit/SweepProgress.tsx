/**
 * How much of a progressive sweep is drawn (src/lib/progressive.ts): a line above the picture while points are
 * still computing, and muted rules at the x values some of whose points are not in yet, so a half-drawn curve
 * is never mistaken for the finished one.
 */
import { useMemo } from 'react';
import { coarsePassSize } from '../../lib/progressive';
import type { Marker } from './charts/types';
import type { StreamingState } from './useSimulation';
import { streamingFrame, type SimulationFrameProps } from './frameProps';

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

/**
 * What a progressive sweep's widget draws from its streaming simulation: the finished result's points, else the
 * points streamed so far for the current settings, else the last finished ones; ready once the coarse pass (every
 * series at both ends of the swept axis) is in; muted rules where an x still lacks a series' point.
 */
const NO_MARKERS: Marker[] = [];

export function useSweepState<P>(
  sim: StreamingState<{ points: P[] }, P>,
  xs: readonly number[],
  seriesCount: number,
  xOf: (p: P) => number,
): {
  points: P[];
  complete: boolean;
  /** The frame's props (streamingFrame): ready once the coarse pass is in, stale until the sweep is complete. */
  frame: SimulationFrameProps;
  pending: Marker[];
  total: number;
} {
  const result = sim.result;
  const complete = result !== null && !sim.stale;
  const points = useMemo(
    () => (complete ? result.points : sim.frames.length ? sim.frames : (result?.points ?? [])),
    [complete, sim.frames, result],
  );
  const frame = streamingFrame(
    sim,
    sim.frames.length >= coarsePassSize(xs.length, seriesCount),
    result !== null,
  );
  // One array per set of points, so a picture memoised on it is not redrawn by a render that changed nothing here.
  const pending = useMemo(
    () =>
      complete
        ? NO_MARKERS
        : pendingMarkers(xs, (x) => points.filter((p) => Math.abs(xOf(p) - x) < 1e-9).length === seriesCount),
    // xOf reads a point's x (callers pass it inline); it does not change what the points are.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [complete, points, xs, seriesCount],
  );
  return { points, complete, frame, pending, total: xs.length * seriesCount };
}
