/** Empirical CDF (or complementary CDF for tails) of raw samples, one step line per series; log-x for heavy tails. */
import { useMemo } from 'react';
import { bisectRight } from 'd3';
import { formatPercent } from '../../../lib/format';
import type { AxisSpec, ChartBaseProps, XY } from './types';
import { LineChart, type LineSeries } from './LineChart';
import { usable } from './scales';

export interface CdfSeries {
  name: string;
  samples: ArrayLike<number>;
  color?: string;
  dash?: string;
}

export interface CdfChartProps extends ChartBaseProps {
  series: readonly CdfSeries[];
  /** The sample axis; `scale: 'log'` for heavy tails (non-positive samples are then skipped). */
  x: AxisSpec;
  /** Defaults to "Cumulative share" (or "Share above x" when complementary) in percent, domain [0, 1]. */
  y?: AxisSpec;
  /** Plot 1 − F(x), the tail; pair with `y: { scale: 'log' }` to read p99/p99.9. */
  complementary?: boolean;
  /** Most points drawn per series (the samples are thinned by rank; read-outs stay exact). Default 1000. */
  maxPoints?: number;
}

/** Sorted usable samples. */
export function sortedSamples(x: AxisSpec, samples: ArrayLike<number>): Float64Array {
  const out: number[] = [];
  for (let i = 0; i < samples.length; i++) if (usable(x, samples[i])) out.push(samples[i]);
  return Float64Array.from(out).sort();
}

/** Fraction of sorted samples ≤ v. */
export function ecdf(sorted: Float64Array, v: number): number {
  return sorted.length ? bisectRight(sorted, v) / sorted.length : NaN;
}

/** The q-quantile (0 ≤ q ≤ 1) of sorted samples, by the nearest-rank method. */
export function quantileSorted(sorted: Float64Array, q: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

/** Step points of the ECDF, thinned by rank to at most `max` points. */
export function cdfPoints(sorted: Float64Array, max = 1000, complementary = false): XY[] {
  const n = sorted.length;
  if (!n) return [];
  const pts: XY[] = [];
  const f = (i: number) => (complementary ? 1 - (i + 1) / n : (i + 1) / n);
  pts.push({ x: sorted[0], y: complementary ? 1 : 0 });
  const step = Math.max(1, Math.ceil(n / max));
  let i = 0;
  while (i < n) {
    // Take the last sample of a run of equal values so the step height is right.
    let j = Math.min(n - 1, i + step - 1);
    while (j + 1 < n && sorted[j + 1] === sorted[j]) j++;
    pts.push({ x: sorted[j], y: f(j) });
    i = j + 1;
  }
  return pts;
}

export function CdfChart(props: CdfChartProps) {
  const { series, x, complementary = false, maxPoints = 1000, ...rest } = props;
  const yProp = props.y;
  const y: AxisSpec = useMemo(
    () =>
      yProp ?? {
        label: complementary ? 'Share above x' : 'Cumulative share',
        format: (v: number) => formatPercent(v),
        domain: [0, 1],
      },
    [yProp, complementary],
  );
  const sorted = useMemo(() => series.map((s) => sortedSamples(x, s.samples)), [series, x]);
  const lines: LineSeries[] = useMemo(
    () =>
      series.map((s, i) => ({
        name: s.name,
        color: s.color,
        dash: s.dash,
        points: cdfPoints(sorted[i], maxPoints, complementary).filter((p) => usable(y, p.y)),
      })),
    [series, sorted, maxPoints, complementary, y],
  );
  const valueAtX = (i: number, v: number) => {
    const s = sorted[i];
    if (!s.length || v < s[0]) return complementary ? 1 : 0;
    const f = ecdf(s, v);
    return complementary ? 1 - f : f;
  };
  return (
    <LineChart
      {...rest}
      kind="cdf"
      series={lines}
      x={x}
      y={y}
      curve="step-after"
      points={false}
      valueAtX={valueAtX}
    />
  );
}
