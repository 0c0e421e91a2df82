/** Multi-series line chart (optionally filled: AreaChart), linear or log axes, hover/keyboard read-out, markers. */
import { useCallback, useMemo } from 'react';
import {
  area as d3area,
  bisector,
  curveLinear,
  curveMonotoneX,
  curveStepAfter,
  curveStepBefore,
  line as d3line,
  type CurveFactory,
} from 'd3';
import type { AxisSpec, ChartBaseProps, XY } from './types';
import { useChartSize } from './useChartSize';
import { ChartShell } from './ChartShell';
import { Legend } from './Legend';
import { XYPlot } from './XYPlot';
import { Readout, readoutSentence, useReadout, type ReadoutRow } from './Readout';
import { extentOf, usable } from './scales';
import { seriesColor, seriesDash, seriesSymbolPath } from './theme';
import { valueText } from './chartFormat';
import { xyLayout } from './xyLayout';
import { r2, SEMIBOLD_WIDTH, textWidth, truncate } from './layout';

export type CurveKind = 'linear' | 'monotone' | 'step-after' | 'step-before';

export interface LineSeries {
  name: string;
  points: readonly XY[];
  /** Override the slot colour (a CSS colour, normally a var(--…)). */
  color?: string;
  /** Override the slot dash pattern ('' for solid). */
  dash?: string;
  /** The series a widget has selected: drawn over the others, with a heavier line, so no other line hides it. */
  emphasis?: boolean;
}

export interface LineChartProps extends ChartBaseProps {
  series: readonly LineSeries[];
  x: AxisSpec;
  y: AxisSpec;
  /** Fill the area under each line (AreaChart sets this). */
  area?: boolean;
  curve?: CurveKind;
  /** Draw a symbol at each point: 'auto' when a series has at most 40 points. */
  points?: boolean | 'auto';
  /** Exact read-out value of series i at x (CdfChart uses it); default: `valueAt` on the drawn points. */
  valueAtX?: (seriesIndex: number, x: number) => number | null;
  /** Chart kind, for data-chart and the class name (default 'line' or 'area'). */
  kind?: string;
  /**
   * Name each line at its last point, so a reader (or a projector that washes colours out) needs neither the
   * legend nor the colour to tell the lines apart.
   */
  directLabels?: boolean;
}

/** Label positions at the lines' ends, pushed apart vertically so none overlaps another (px, plot coordinates). */
export function spreadLabels(ys: readonly number[], gap: number, top: number, bottom: number): number[] {
  const order = ys.map((y, i) => ({ y, i })).sort((a, b) => a.y - b.y);
  const out = new Array<number>(ys.length);
  let prev = -Infinity;
  for (const o of order) {
    const y = Math.max(o.y, prev + gap, top);
    out[o.i] = y;
    prev = y;
  }
  // Past the bottom: shift the whole run up, keeping the gaps.
  const over = (order.length ? out[order[order.length - 1].i] : 0) - bottom;
  if (over > 0) for (const o of order) out[o.i] -= over;
  return out;
}

const CURVES: Record<CurveKind, CurveFactory> = {
  linear: curveLinear,
  monotone: curveMonotoneX,
  'step-after': curveStepAfter,
  'step-before': curveStepBefore,
};

const byX = bisector<XY, number>((p) => p.x);

/** The series' value at x: interpolated on a linear/monotone line, held on a step line; null outside the series. */
export function valueAt(sorted: readonly XY[], x: number, curve: CurveKind = 'linear'): number | null {
  if (!sorted.length || x < sorted[0].x || x > sorted[sorted.length - 1].x) return null;
  const i = byX.left(sorted, x);
  const hi = sorted[Math.min(i, sorted.length - 1)];
  if (hi.x === x) return hi.y;
  const lo = sorted[i - 1];
  if (curve === 'step-after') return lo.y;
  if (curve === 'step-before') return hi.y;
  const t = (x - lo.x) / (hi.x - lo.x);
  return lo.y + t * (hi.y - lo.y);
}

export function LineChart(props: LineChartProps) {
  const {
    series,
    x,
    y,
    area = false,
    curve = 'linear',
    points = 'auto',
    markers,
    title,
    description,
    className,
    ref,
    emptyMessage,
    valueAtX,
    kind,
    directLabels = false,
  } = props;
  const size = useChartSize({
    width: props.width,
    height: props.height,
    aspect: props.aspect,
    legendLabels: (props.legend ?? props.series.length > 1) ? props.series.map((s) => s.name) : undefined,
  });
  const { width, height } = size;

  const clean = useMemo(
    () =>
      series.map((s) => s.points.filter((p) => usable(x, p.x) && usable(y, p.y)).sort((a, b) => a.x - b.x)),
    [series, x, y],
  );
  const xs = useMemo(() => {
    const set = new Set<number>();
    for (const c of clean) for (const p of c) set.add(p.x);
    return Float64Array.from(set).sort();
  }, [clean]);
  const empty = xs.length === 0;
  const showLegend = (props.legend ?? series.length > 1) && series.length > 0;

  const L = useMemo(
    () =>
      xyLayout({
        width,
        height,
        x,
        y,
        xExtent: extentOf(x, xs),
        yExtent: extentOf(
          y,
          clean.flatMap((c) => c.map((p) => p.y)),
        ),
        legendLabels: showLegend ? series.map((s) => s.name) : [],
        yZero: area,
        xNice: false,
        extraRight: directLabels
          ? Math.min(140, 10 + Math.max(0, ...series.map((s) => textWidth(s.name, 11) * SEMIBOLD_WIDTH)))
          : 0,
      }),
    [width, height, x, y, xs, clean, showLegend, series, area, directLabels],
  );
  const { xScale, yScale, innerWidth, innerHeight } = L;

  const indexAt = useCallback(
    (px: number) => {
      if (!xs.length) return null;
      const v = xScale.invert(px);
      let i = 0;
      let best = Infinity;
      // xs is sorted: binary search, then compare neighbours in pixel space (works for log scales too).
      let lo = 0;
      let hi = xs.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (xs[mid] < v) lo = mid + 1;
        else hi = mid;
      }
      for (const j of [lo - 1, lo]) {
        if (j < 0 || j >= xs.length) continue;
        const d = Math.abs(xScale(xs[j]) - px);
        if (d < best) {
          best = d;
          i = j;
        }
      }
      return i;
    },
    [xs, xScale],
  );
  const ro = useReadout(xs.length, indexAt);

  const curveFactory = CURVES[curve];
  const pathFor = useMemo(() => {
    const ln = d3line<XY>()
      .digits(2)
      .defined((p) => usable(x, p.x) && usable(y, p.y))
      .x((p) => xScale(p.x))
      .y((p) => yScale(p.y))
      .curve(curveFactory);
    const [d0] = yScale.domain();
    const base = yScale(y.scale === 'log' ? d0 : Math.max(d0, Math.min(0, yScale.domain()[1])));
    const ar = d3area<XY>()
      .digits(2)
      .defined((p) => usable(x, p.x) && usable(y, p.y))
      .x((p) => xScale(p.x))
      .y0(base)
      .y1((p) => yScale(p.y))
      .curve(curveFactory);
    return {
      line: (pts: readonly XY[]) => ln(pts as XY[]) ?? '',
      area: (pts: readonly XY[]) => ar(pts as XY[]) ?? '',
    };
  }, [x, y, xScale, yScale, curveFactory]);

  // The lines in plot pixels as drawn (a step's corners included), for the markers' labels to keep clear of.
  const linesPx = useMemo(() => {
    if (!markers?.length) return undefined;
    return clean.map((c) => {
      const out: XY[] = [];
      c.forEach((p, j) => {
        const px = xScale(p.x);
        const py = yScale(p.y);
        if (j > 0 && curve === 'step-after') out.push({ x: px, y: out[out.length - 1].y });
        if (j > 0 && curve === 'step-before') out.push({ x: out[out.length - 1].x, y: py });
        out.push({ x: px, y: py });
      });
      return out;
    });
  }, [markers, clean, xScale, yScale, curve]);

  let endLabels = null;
  if (directLabels) {
    const ends = clean.map((c) => (c.length ? c[c.length - 1] : null));
    const ys = spreadLabels(
      ends.map((p) => (p ? yScale(p.y) : 0)),
      12,
      4,
      innerHeight - 4,
    );
    endLabels = (
      <g className="chart-end-labels">
        {ends.map((p, i) =>
          p ? (
            <text
              key={i}
              className="chart-end-label"
              x={r2(xScale(p.x) + 6)}
              y={r2(ys[i])}
              dy="0.32em"
              style={{ fill: series[i].color ?? seriesColor(i) }}
            >
              {truncate(series[i].name, 134 / SEMIBOLD_WIDTH, 11)}
            </text>
          ) : null,
        )}
      </g>
    );
  }

  let readout = null;
  let live = '';
  if (ro.index !== null) {
    const xv = xs[ro.index];
    const rows: ReadoutRow[] = [];
    const dots = [];
    for (let i = 0; i < series.length; i++) {
      const v = valueAtX ? valueAtX(i, xv) : valueAt(clean[i], xv, curve);
      rows.push({
        label: series[i].name,
        value: valueText(y, v),
        index: i,
        color: series[i].color,
        dash: series[i].dash,
      });
      if (v !== null && usable(y, v))
        dots.push({ x: r2(xScale(xv)), y: r2(yScale(v)), color: series[i].color ?? seriesColor(i) });
    }
    const head = `${x.label}: ${valueText(x, xv)}`;
    readout = (
      <Readout
        x={r2(xScale(xv))}
        innerWidth={innerWidth}
        innerHeight={innerHeight}
        title={head}
        rows={rows}
        dots={dots}
        symbol={points !== false}
      />
    );
    live = readoutSentence(head, rows);
  }

  return (
    <ChartShell
      kind={kind ?? (area ? 'area' : 'line')}
      size={size}
      fixedWidth={props.width}
      title={title}
      description={description}
      className={className}
      svgRef={ref}
      empty={empty}
      emptyMessage={emptyMessage}
      interactive
      onKeyDown={ro.onKeyDown}
      onBlur={ro.onBlur}
      live={live}
    >
      {showLegend ? (
        <Legend
          items={L.legend.items}
          x={4}
          y={4}
          kind="line"
          symbol={points !== false}
          colors={series.map((s) => s.color)}
          dashes={series.map((s) => s.dash)}
        />
      ) : null}
      <XYPlot
        layout={L}
        markers={markers}
        markerAvoid={linesPx}
        readout={readout}
        overlay={ro.overlay}
        over={endLabels}
      >
        {drawOrder(series).map((i) => {
          const s = series[i];
          const color = s.color ?? seriesColor(i);
          const dash = s.dash !== undefined ? s.dash || undefined : seriesDash(i);
          const showPts = points === true || (points === 'auto' && clean[i].length <= 40);
          return (
            <g
              key={i}
              className={s.emphasis ? 'chart-series-item is-emphasis' : 'chart-series-item'}
              data-series={s.name}
            >
              {area ? (
                <path className="chart-area" d={pathFor.area(s.points)} style={{ fill: color }} />
              ) : null}
              <path
                className="chart-line"
                d={pathFor.line(s.points)}
                style={{ stroke: color }}
                strokeDasharray={dash}
              />
              {showPts
                ? clean[i].map((p, j) => (
                    <path
                      key={j}
                      className="chart-symbol chart-point"
                      transform={`translate(${r2(xScale(p.x))},${r2(yScale(p.y))})`}
                      d={seriesSymbolPath(i, 36)}
                      style={{ fill: color }}
                    />
                  ))
                : null}
            </g>
          );
        })}
      </XYPlot>
    </ChartShell>
  );
}

/** Series indices in drawing order: as given, an emphasised series last (on top); colours stay by index. */
export function drawOrder(series: readonly LineSeries[]): number[] {
  const order = series.map((_, i) => i);
  return [...order.filter((i) => !series[i].emphasis), ...order.filter((i) => series[i].emphasis)];
}

/** LineChart with the area under each series filled. */
export function AreaChart(props: Omit<LineChartProps, 'area'>) {
  return <LineChart {...props} area />;
}
