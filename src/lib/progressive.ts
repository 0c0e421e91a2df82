/**
 * Progressive sweeps: the order in which a sweep's points are computed so that the picture is useful early.
 * A sweep over x values (loads, fleet sizes) for several series (policies) is computed coarse to fine: first
 * both ends of the x range for every series, then the middle, then the points between, so after the first few
 * points every curve spans the whole axis and later points only refine it. Pure; shared by the worker (which
 * computes in this order) and the widgets (which say how much of the sweep is drawn).
 */

/** Indices 0…n−1, coarse to fine: both ends, then the midpoints of the gaps, widest gap first. */
export function coarseToFine(n: number): number[] {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`a sweep has a whole number of points, got ${n}`);
  if (n <= 2) return Array.from({ length: n }, (_, i) => i);
  const out = [0, n - 1];
  // Gaps between chosen indices, split at their midpoint, widest (then leftmost) first.
  let gaps: [number, number][] = [[0, n - 1]];
  while (out.length < n) {
    const next: [number, number][] = [];
    gaps.sort((a, b) => b[1] - b[0] - (a[1] - a[0]) || a[0] - b[0]);
    for (const [lo, hi] of gaps) {
      if (hi - lo < 2) continue;
      const mid = (lo + hi) >> 1;
      out.push(mid);
      next.push([lo, mid], [mid, hi]);
    }
    gaps = next;
  }
  return out;
}

/** A sweep point by its indices: x (the swept value) and series. */
export interface SweepCell {
  x: number;
  series: number;
}

/** Every (x, series) cell, coarse to fine over x and, at each x, every series in order. */
export function sweepOrder(xCount: number, seriesCount: number): SweepCell[] {
  const out: SweepCell[] = [];
  for (const x of coarseToFine(xCount))
    for (let series = 0; series < seriesCount; series++) out.push({ x, series });
  return out;
}

/** Points in the first pass of sweepOrder: both ends of the x range for every series. */
export function coarsePassSize(xCount: number, seriesCount: number): number {
  return Math.min(xCount, 2) * seriesCount;
}
