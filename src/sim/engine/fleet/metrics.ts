/**
 * Metric accumulators: growable sample columns with exact percentiles, and a weighted log-scale histogram for
 * quantities that would otherwise be per token (inter-token gaps: one update per iteration covers every token
 * the iteration produced).
 */

import { widened } from '../widened';

/** A growable column of doubles. */
export class Samples {
  private buf: Float64Array<ArrayBuffer>;
  private n = 0;
  constructor(capacity = 64) {
    this.buf = new Float64Array(Math.max(4, capacity));
  }
  get length(): number {
    return this.n;
  }
  push(x: number): void {
    if (this.n === this.buf.length) this.buf = widened(this.buf, this.buf.length * 2);
    this.buf[this.n++] = x;
  }
  get(i: number): number {
    return this.buf[i];
  }
  set(i: number, x: number): void {
    this.buf[i] = x;
  }
  add(i: number, x: number): void {
    this.buf[i] += x;
  }
  /** A trimmed copy. */
  toArray(): Float64Array {
    return this.buf.slice(0, this.n);
  }
}

export interface Summary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

const EMPTY: Summary = { count: 0, mean: 0, p50: 0, p90: 0, p99: 0, max: 0 };

/** Percentile of sorted values by linear interpolation between closest ranks (numpy's default). */
export function percentileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * The values whose index passes `mask`, in order, as a view of `into`'s start: a report that picks many subsets
 * passes one array for all of them (read each pick before the next), else each gets its own.
 */
export function pick(
  values: ArrayLike<number>,
  mask: (i: number) => boolean,
  into: Float64Array = new Float64Array(values.length),
): Float64Array {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (mask(i)) into[n++] = values[i];
  return into.subarray(0, n);
}

/**
 * Summary of the values (NaN values are skipped). `scratch`, when it has room, is where they are sorted (its
 * contents are lost): a report that summarizes many columns sorts them all in one array instead of a new one
 * each, whose fresh pages are each a fault.
 */
export function summarize(values: ArrayLike<number>, scratch?: Float64Array): Summary {
  // Copied and sorted natively; a typed array's sort puts NaN last, so the values are the first n. A report runs
  // once per process, mostly before its loops are compiled: two passes of the interpreter over forty thousand
  // values (count, then copy) cost more than the sort.
  let all: Float64Array;
  if (scratch && scratch.length >= values.length) {
    all = scratch.subarray(0, values.length);
    if (values instanceof Float64Array) all.set(values);
    else for (let i = 0; i < values.length; i++) all[i] = values[i];
  } else all = values instanceof Float64Array ? values.slice() : Float64Array.from(values);
  all.sort();
  let n = all.length;
  if (n > 0 && Number.isNaN(all[n - 1])) {
    // The first NaN's index, by bisection: every index below lo holds a number, and hi holds a NaN.
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (Number.isNaN(all[mid])) hi = mid;
      else lo = mid + 1;
    }
    n = lo;
  }
  if (n === 0) return { ...EMPTY };
  const s = n === all.length ? all : all.subarray(0, n);
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += s[i];
  return {
    count: s.length,
    mean: sum / s.length,
    p50: percentileSorted(s, 0.5),
    p90: percentileSorted(s, 0.9),
    p99: percentileSorted(s, 0.99),
    max: s[s.length - 1],
  };
}

/**
 * A weighted histogram on a log scale: `perDecade` bins per factor of 10 from `min` to `max` (values outside are
 * clamped into the end bins). Percentiles are read at the bins' geometric centres: relative error ≤ 10^(1/(2·perDecade)) − 1
 * (≈ 1.2 % at the default 100 bins per decade). Exact mean and max are kept alongside.
 */
export class LogHistogram {
  private readonly w: Float64Array;
  private readonly logMin: number;
  private readonly perDecade: number;
  private total = 0;
  private sum = 0;
  private maxV = 0;
  private lastValue = NaN;
  private lastBin = 0;
  constructor(min = 1e-6, max = 1e5, perDecade = 100) {
    this.logMin = Math.log10(min);
    this.perDecade = perDecade;
    this.w = new Float64Array(Math.ceil((Math.log10(max) - this.logMin) * perDecade) + 1);
  }
  add(value: number, weight = 1): void {
    if (!(weight > 0) || !(value >= 0)) return;
    let i: number;
    // A fleet adds the same gap for every sequence of a decode step: its bin is worked out once.
    if (value === this.lastValue) i = this.lastBin;
    else {
      i = value > 0 ? Math.floor((Math.log10(value) - this.logMin) * this.perDecade) : 0;
      if (i < 0) i = 0;
      else if (i >= this.w.length) i = this.w.length - 1;
      this.lastValue = value;
      this.lastBin = i;
    }
    this.w[i] += weight;
    this.total += weight;
    this.sum += value * weight;
    if (value > this.maxV) this.maxV = value;
  }
  get count(): number {
    return this.total;
  }
  quantile(q: number): number {
    if (this.total === 0) return 0;
    const target = q * this.total;
    let acc = 0;
    for (let i = 0; i < this.w.length; i++) {
      acc += this.w[i];
      if (acc >= target && this.w[i] > 0)
        return Math.min(this.maxV, 10 ** (this.logMin + (i + 0.5) / this.perDecade));
    }
    return this.maxV;
  }
  summary(): Summary {
    if (this.total === 0) return { ...EMPTY };
    return {
      count: this.total,
      mean: this.sum / this.total,
      p50: this.quantile(0.5),
      p90: this.quantile(0.9),
      p99: this.quantile(0.99),
      max: this.maxV,
    };
  }
}

/** A time-weighted mean of a piecewise-constant quantity (batch size, KV blocks in use). */
export class TimeWeighted {
  private area = 0;
  private lastT = 0;
  private lastV = 0;
  private peak = 0;
  constructor(t0 = 0) {
    this.lastT = t0;
  }
  /** The quantity changes to `v` at time `t`. */
  set(t: number, v: number): void {
    if (t > this.lastT) {
      this.area += this.lastV * (t - this.lastT);
      this.lastT = t;
    }
    this.lastV = v;
    if (v > this.peak) this.peak = v;
  }
  mean(tEnd: number, t0 = 0): number {
    const area = this.area + (tEnd > this.lastT ? this.lastV * (tEnd - this.lastT) : 0);
    return tEnd > t0 ? area / (tEnd - t0) : 0;
  }
  get max(): number {
    return this.peak;
  }
}

/** Rounds for stable, readable JSON (9 significant digits keeps seed replays byte-identical and diffs small). */
export function round(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  return Number(x.toPrecision(9));
}

export function roundSummary(s: Summary): Summary {
  return {
    count: round(s.count),
    mean: round(s.mean),
    p50: round(s.p50),
    p90: round(s.p90),
    p99: round(s.p99),
    max: round(s.max),
  };
}
