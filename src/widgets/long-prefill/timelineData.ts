/** What the prefill timeline (TimelineChart.tsx) reads off a run: the decodes' gaps, the iteration at a time. */
import type { TimelineIteration } from '../../sim/lessons/longPrefill';

export interface GapPoint {
  /** When the token arrives (the iteration's end), s. */
  t: number;
  /** Time since the decodes' previous token, s. */
  gap: number;
  /** The iteration that produced it. */
  iteration: number;
}

/** The decodes' tokens over the run: one at the end of every iteration they join, with the gap since the last. */
export function gapPoints(iterations: readonly TimelineIteration[]): GapPoint[] {
  const out: GapPoint[] = [];
  let last = NaN;
  for (const it of iterations) {
    if (it.decodeTokens === 0) continue;
    const from = Number.isFinite(last) ? last : it.startS;
    out.push({ t: it.endS, gap: it.endS - from, iteration: it.index });
    last = it.endS;
  }
  return out;
}

/** The iteration running at time t (the last one when t is at the end), by binary search. */
export function iterationAt(iterations: readonly TimelineIteration[], t: number): number {
  let lo = 0;
  let hi = iterations.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (iterations[mid].endS <= t) lo = mid + 1;
    else hi = mid;
  }
  return Math.max(0, lo);
}
