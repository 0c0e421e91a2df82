/**
 * A bar chart's bars and the text printed on them (BarChart.tsx): each bar's value at its end, or, where a value
 * draws no bar, the reason why at its foot.
 */
import type { ReactNode } from 'react';
import type { ScaleBand } from 'd3';
import type { AxisSpec } from './types';
import type { NumScale } from './scales';
import type { BarSeries } from './BarChart';
import { usable } from './scales';
import { seriesColor } from './theme';
import { seriesFill } from './patterns';
import { r2, textWidth } from './layout';

export interface BarMarksProps {
  series: readonly BarSeries[];
  categories: readonly string[];
  value: AxisSpec;
  horizontal: boolean;
  vScale: NumScale;
  /** The categories' bands, and the series' sub-bands within one. */
  band: ScaleBand<number>;
  inner: ScaleBand<number>;
  /** Where bars start on the value axis (zero, or the log axis's floor). */
  base: number;
  /** Print each bar's value (it fits). */
  labelsFit: boolean;
  fmt: (v: number) => string;
  /** The chart's pattern ids' prefix (patterns.ts). */
  prefix: string;
  /** The category the read-out shows: its bars drawn with a heavier outline. */
  active: number | null;
  /** Where category i sits: its column's offset right of the first (horizontal bars in columns) and its row. */
  colX: (i: number) => number;
  slotOf: (i: number) => number;
}

export function BarMarks(props: BarMarksProps) {
  const { series, categories, value, horizontal, vScale, band, inner, base, labelsFit, fmt, prefix, active } =
    props;
  const { colX, slotOf } = props;

  // A gap's reason sits at the bar's foot: across the band when it fits, else reading up along it.
  const gapLabel = (text: string, key: string, off: number, bw: number) => {
    if (horizontal)
      return (
        <text key={key} className="chart-gap-label" x={r2(base) + 4} y={r2(off + bw / 2)} dy="0.35em">
          {text}
        </text>
      );
    const x = r2(off + bw / 2);
    const y = r2(base) - 4;
    return textWidth(text, 11) + 4 <= Math.max(bw, inner.step()) ? (
      <text key={key} className="chart-gap-label" x={x} y={y} textAnchor="middle">
        {text}
      </text>
    ) : (
      <text key={key} className="chart-gap-label" transform={`translate(${x},${y}) rotate(-90)`} dy="0.35em">
        {text}
      </text>
    );
  };

  const bars = [];
  const labels = [];
  for (let s = 0; s < series.length; s++) {
    for (let c = 0; c < categories.length; c++) {
      const v = series[s].values[c];
      if (!usable(value, v)) {
        const gap = series[s].gaps?.[c];
        if (gap)
          labels.push(
            <Shifted key={`g${s}-${c}`} x={colX(c)}>
              {gapLabel(gap, 'gap', r2(band(slotOf(c))! + inner(s)!), inner.bandwidth())}
            </Shifted>,
          );
        continue;
      }
      const p = r2(vScale(v));
      const off = r2(band(slotOf(c))! + inner(s)!);
      const bw = r2(Math.max(1, inner.bandwidth()));
      const lo = Math.min(p, r2(base)) + colX(c);
      const len = r2(Math.max(v === 0 ? 0 : 1, Math.abs(p - base)));
      const fill = series[s].color ?? seriesFill(prefix, s);
      const stroke = series[s].color ?? seriesColor(s);
      const style = { fill, stroke, strokeWidth: active === c ? 2 : 0.5 };
      bars.push(
        <rect
          key={`${s}-${c}`}
          className="chart-bar"
          x={horizontal ? lo : off}
          y={horizontal ? off : lo}
          width={horizontal ? len : bw}
          height={horizontal ? bw : len}
          style={style}
          data-series={series[s].name}
          data-category={categories[c]}
        />,
      );
      if (labelsFit) {
        const neg = p < base === horizontal;
        labels.push(
          horizontal ? (
            <text
              key={`l${s}-${c}`}
              className="chart-value-label"
              x={neg ? lo - 4 : lo + len + 4}
              y={r2(off + bw / 2)}
              dy="0.35em"
              textAnchor={neg ? 'end' : 'start'}
            >
              {series[s].labels?.[c] ?? fmt(v)}
            </text>
          ) : (
            <text
              key={`l${s}-${c}`}
              className="chart-value-label"
              x={r2(off + bw / 2)}
              y={neg ? lo + len + 12 : lo - 4}
              textAnchor="middle"
            >
              {series[s].labels?.[c] ?? fmt(v)}
            </text>
          ),
        );
      }
    }
  }
  return (
    <>
      <g className="chart-series">{bars}</g>
      <g className="chart-value-labels">{labels}</g>
    </>
  );
}

/** Its children moved right by x (a column of horizontal bars); left as they are when x is 0. */
export function Shifted({ x, children }: { x: number; children: ReactNode }) {
  return x ? <g transform={`translate(${x},0)`}>{children}</g> : <>{children}</>;
}
