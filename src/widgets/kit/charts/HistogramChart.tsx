/** Histogram of raw samples (d3.bin), linear or log-spaced bins, counts or shares, with reference markers. */
import { useCallback, useMemo } from 'react';
import { area as d3area, bin, curveStepAfter, line as d3line, scaleLinear, scaleLog } from 'd3';
import { formatCount, formatPercent } from '../../../lib/format';
import type { AxisSpec, ChartBaseProps } from './types';
import { useChartSize } from './useChartSize';
import { ChartShell } from './ChartShell';
import { XYPlot } from './XYPlot';
import { Legend } from './Legend';
import { Readout, readoutSentence, useReadout, type ReadoutRow } from './Readout';
import { extentOf, isLog, usable } from './scales';
import { seriesColor, seriesDash } from './theme';
import { valueText } from './chartFormat';
import { xyLayout } from './xyLayout';
import { r2 } from './layout';

export interface HistogramSeries {
  name: string;
  samples: ArrayLike<number>;
  color?: string;
}

export interface HistogramChartProps extends ChartBaseProps {
  series: readonly HistogramSeries[];
  /** The sample axis; `scale: 'log'` bins geometrically (non-positive samples are skipped). */
  x: AxisSpec;
  /** Defaults to "Samples" (counts) or "Share of samples" (normalize). */
  y?: AxisSpec;
  /** Approximate number of bins (default from the width, 8–50), or explicit thresholds. */
  bins?: number | readonly number[];
  /** 'fraction': each series' bins sum to 1, so series of different sizes compare. */
  normalize?: 'count' | 'fraction';
}

export interface Bins {
  /** Bin edges: bin i covers [edges[i], edges[i+1]); the last bin includes its upper edge. */
  edges: number[];
  /** counts[series][bin] */
  counts: number[][];
  totals: number[];
}

/** Shared thresholds for all series, then d3.bin per series. */
export function computeBins(
  x: AxisSpec,
  series: readonly { samples: ArrayLike<number> }[],
  bins: number | readonly number[],
): Bins | null {
  const clean = series.map((s) => {
    const out: number[] = [];
    for (let i = 0; i < s.samples.length; i++) if (usable(x, s.samples[i])) out.push(s.samples[i]);
    return out;
  });
  let edges: number[];
  if (Array.isArray(bins)) {
    edges = [...(bins as readonly number[])].filter((v) => usable(x, v)).sort((a, b) => a - b);
  } else {
    const ext =
      x.domain && usable(x, x.domain[0]) && usable(x, x.domain[1])
        ? ([Math.min(...x.domain), Math.max(...x.domain)] as [number, number])
        : extentOf(x, clean.flat());
    if (!ext) return null;
    let [lo, hi] = ext;
    const n = Math.max(1, Math.round(bins as number));
    if (isLog(x)) {
      if (lo === hi) {
        lo /= 2;
        hi *= 2;
      }
      const s = scaleLog().domain([lo, hi]).nice();
      const [a, b] = s.domain().map(Math.log10);
      // A whole number of bins per decade, so decade ticks fall on bin edges.
      const perDecade = Math.max(1, Math.round(n / Math.max(1, b - a)));
      edges = [];
      for (let k = 0; k <= Math.round((b - a) * perDecade); k++)
        edges.push(Number((10 ** (a + k / perDecade)).toPrecision(12)));
    } else {
      if (lo === hi) {
        lo -= lo === 0 ? 0.5 : Math.abs(lo) * 0.05;
        hi += hi === 0 ? 0.5 : Math.abs(hi) * 0.05;
      }
      const s = scaleLinear().domain([lo, hi]).nice(n);
      edges = s.ticks(n);
      const [d0, d1] = s.domain();
      if (edges[0] > d0) edges.unshift(d0);
      if (edges[edges.length - 1] < d1) edges.push(d1);
    }
  }
  if (edges.length < 2) return null;
  const first = edges[0];
  const last = edges[edges.length - 1];
  const binner = bin<number, number>().domain([first, last]).thresholds(edges.slice(1, -1));
  const counts = clean.map((c) => {
    const bs = binner(c.filter((v) => v >= first && v <= last));
    const out = new Array<number>(edges.length - 1).fill(0);
    for (const b of bs) {
      const i = edges.indexOf(b.x0 as number);
      if (i >= 0 && i < out.length) out[i] += b.length;
    }
    return out;
  });
  return { edges, counts, totals: clean.map((c) => c.length) };
}

export function HistogramChart(props: HistogramChartProps) {
  const { series, x, normalize = 'count', markers, title, description, className, ref, emptyMessage } = props;
  const size = useChartSize({
    width: props.width,
    height: props.height,
    aspect: props.aspect,
    legendLabels: (props.legend ?? props.series.length > 1) ? props.series.map((s) => s.name) : undefined,
  });
  const { width, height } = size;
  const nBins = props.bins ?? Math.max(8, Math.min(50, Math.round(width / 18)));
  const data = useMemo(() => computeBins(x, series, nBins), [x, series, nBins]);
  const frac = normalize === 'fraction';
  const yProp = props.y;
  const y: AxisSpec = useMemo(
    () =>
      yProp ??
      (frac
        ? { label: 'Share of samples', format: (v: number) => formatPercent(v) }
        : { label: 'Samples', format: (v: number) => formatCount(v) }),
    [yProp, frac],
  );
  const heights = useMemo(
    () =>
      data
        ? data.counts.map((c, s) => c.map((v) => (frac ? (data.totals[s] ? v / data.totals[s] : 0) : v)))
        : [],
    [data, frac],
  );
  const empty = !data || data.totals.every((t) => t === 0);
  const showLegend = (props.legend ?? series.length > 1) && series.length > 0;
  const single = series.length === 1;

  const L = useMemo(
    () =>
      xyLayout({
        width,
        height,
        x: { ...x, domain: data ? [data.edges[0], data.edges[data.edges.length - 1]] : x.domain },
        y,
        xExtent: data ? [data.edges[0], data.edges[data.edges.length - 1]] : null,
        yExtent: extentOf(y, heights.flat()),
        legendLabels: showLegend ? series.map((s) => s.name) : [],
        yZero: true,
        xNice: false,
      }),
    [width, height, x, y, data, heights, showLegend, series],
  );
  const { xScale, yScale, innerWidth, innerHeight } = L;
  const nb = data ? data.edges.length - 1 : 0;

  const indexAt = useCallback(
    (px: number) => {
      if (!data) return null;
      const v = xScale.invert(px);
      let i = 0;
      while (i < nb - 1 && data.edges[i + 1] <= v) i++;
      return i;
    },
    [data, xScale, nb],
  );
  const ro = useReadout(nb, indexAt);
  const base = yScale(yScale.domain()[0] > 0 ? yScale.domain()[0] : 0);

  const marks = [];
  if (data) {
    if (single) {
      for (let b = 0; b < nb; b++) {
        const h = heights[0][b];
        const x0 = r2(xScale(data.edges[b]));
        const x1 = r2(xScale(data.edges[b + 1]));
        const yv = r2(yScale(h));
        marks.push(
          <rect
            key={b}
            className="chart-bar"
            x={x0 + 0.5}
            y={Math.min(yv, base)}
            width={Math.max(0.5, x1 - x0 - 1)}
            height={r2(Math.abs(base - yv))}
            style={{
              fill: series[0].color ?? seriesColor(0),
              fillOpacity: ro.index === null || ro.index === b ? 0.85 : 0.55,
            }}
          />,
        );
      }
    } else {
      const ln = d3line<[number, number]>()
        .x((d) => xScale(d[0]))
        .y((d) => yScale(d[1]))
        .curve(curveStepAfter)
        .digits(2);
      const ar = d3area<[number, number]>()
        .x((d) => xScale(d[0]))
        .y0(base)
        .y1((d) => yScale(d[1]))
        .curve(curveStepAfter)
        .digits(2);
      series.forEach((s, i) => {
        const pts: [number, number][] = data.edges.map((e, b) => [e, heights[i][Math.min(b, nb - 1)]]);
        pts.unshift([data.edges[0], 0]);
        pts.push([data.edges[nb], 0]);
        const color = s.color ?? seriesColor(i);
        marks.push(
          <g key={i} className="chart-series-item" data-series={s.name}>
            <path className="chart-area" d={ar(pts) ?? ''} style={{ fill: color, fillOpacity: 0.1 }} />
            <path
              className="chart-line chart-step"
              d={ln(pts) ?? ''}
              style={{ stroke: color }}
              strokeDasharray={seriesDash(i)}
            />
          </g>,
        );
      });
    }
  }

  let readout = null;
  let readoutBand = null;
  let live = '';
  if (data && ro.index !== null) {
    const b = ro.index;
    const head = `${x.label}: ${valueText(x, data.edges[b])} – ${valueText(x, data.edges[b + 1])}`;
    const rows: ReadoutRow[] = series.map((s, i) => {
      const c = data.counts[i][b];
      const share = data.totals[i] ? c / data.totals[i] : NaN;
      return {
        label: s.name,
        value: `${formatCount(c)} (${formatPercent(share)})`,
        index: i,
        color: s.color,
      };
    });
    const cx = r2((xScale(data.edges[b]) + xScale(data.edges[b + 1])) / 2);
    readoutBand = (
      <rect
        className="chart-marker-band"
        x={r2(xScale(data.edges[b]))}
        y={0}
        width={r2(xScale(data.edges[b + 1]) - xScale(data.edges[b]))}
        height={innerHeight}
      />
    );
    readout = (
      <Readout
        x={cx}
        crosshair={false}
        innerWidth={innerWidth}
        innerHeight={innerHeight}
        title={head}
        rows={rows}
        swatch={single ? 'bar' : 'line'}
        symbol={false}
      />
    );
    live = readoutSentence(head, rows);
  }

  return (
    <ChartShell
      kind="histogram"
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
          kind={single ? 'bar' : 'line'}
          symbol={false}
          colors={series.map((s) => s.color)}
        />
      ) : null}
      <XYPlot
        layout={L}
        grid="y"
        markers={markers}
        under={readoutBand}
        readout={readout}
        overlay={ro.overlay}
      >
        {marks}
      </XYPlot>
    </ChartShell>
  );
}
