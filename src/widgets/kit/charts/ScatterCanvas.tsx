/** Scatter/strip plot for thousands of points: axes, legend, markers and read-out in SVG; the points on a canvas layer. */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { quadtree } from 'd3';
import type { AxisSpec, ChartBaseProps, XY } from './types';
import { useChartSize } from './useChartSize';
import { ChartShell } from './ChartShell';
import { XYPlot } from './XYPlot';
import { Legend } from './Legend';
import { Readout, readoutSentence, useReadout } from './Readout';
import { CanvasLayer } from './CanvasLayer';
import { extentOf, usable } from './scales';
import { seriesColor } from './theme';
import { valueText } from './chartFormat';
import { xyLayout } from './xyLayout';
import { r2 } from './layout';

export interface ScatterSeries {
  name: string;
  points: readonly XY[];
  color?: string;
}

export interface ScatterCanvasProps extends ChartBaseProps {
  series: readonly ScatterSeries[];
  x: AxisSpec;
  y: AxisSpec;
  /** Point radius in px (default 3, or 2 above 2,000 points). */
  radius?: number;
  /** Point opacity (default 0.85, or 0.5 above 2,000 points). */
  opacity?: number;
}

interface Flat {
  xs: Float64Array;
  ys: Float64Array;
  series: Uint16Array;
  /** Flat indices sorted by x (keyboard order). */
  order: Uint32Array;
  /** Position of each flat index in `order`. */
  rank: Uint32Array;
}

function flatten(xLog: boolean, yLog: boolean, series: readonly ScatterSeries[]): Flat {
  const x: AxisSpec = { label: '', scale: xLog ? 'log' : 'linear' };
  const y: AxisSpec = { label: '', scale: yLog ? 'log' : 'linear' };
  const xs: number[] = [];
  const ys: number[] = [];
  const ss: number[] = [];
  series.forEach((s, i) => {
    for (const p of s.points) {
      if (!usable(x, p.x) || !usable(y, p.y)) continue;
      xs.push(p.x);
      ys.push(p.y);
      ss.push(i);
    }
  });
  const order = Uint32Array.from(xs.keys()).sort((a, b) => xs[a] - xs[b] || ys[a] - ys[b]);
  const rank = new Uint32Array(xs.length);
  order.forEach((f, k) => (rank[f] = k));
  return { xs: Float64Array.from(xs), ys: Float64Array.from(ys), series: Uint16Array.from(ss), order, rank };
}

/** Trace one series symbol (circle, square, triangle, diamond, cross …) into the current path. */
function traceSymbol(ctx: CanvasRenderingContext2D, shape: number, x: number, y: number, r: number) {
  switch (shape % 5) {
    case 1:
      ctx.rect(x - r * 0.9, y - r * 0.9, r * 1.8, r * 1.8);
      break;
    case 2:
      ctx.moveTo(x, y - r * 1.15);
      ctx.lineTo(x + r, y + r * 0.75);
      ctx.lineTo(x - r, y + r * 0.75);
      ctx.closePath();
      break;
    case 3:
      ctx.moveTo(x, y - r * 1.2);
      ctx.lineTo(x + r, y);
      ctx.lineTo(x, y + r * 1.2);
      ctx.lineTo(x - r, y);
      ctx.closePath();
      break;
    case 4:
      ctx.rect(x - r, y - r * 0.35, r * 2, r * 0.7);
      ctx.rect(x - r * 0.35, y - r, r * 0.7, r * 2);
      break;
    default:
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, Math.PI * 2);
  }
}

export function ScatterCanvas(props: ScatterCanvasProps) {
  const { series, x, y, markers, title, description, className, ref, emptyMessage } = props;
  const size = useChartSize({
    width: props.width,
    height: props.height,
    aspect: props.aspect,
    legendLabels: (props.legend ?? props.series.length > 1) ? props.series.map((s) => s.name) : undefined,
  });
  const { width, height } = size;
  // Keyed on what matters, so inline axis objects do not redo 10k points on every render.
  const xLog = x.scale === 'log';
  const yLog = y.scale === 'log';
  const flat = useMemo(() => flatten(xLog, yLog, series), [xLog, yLog, series]);
  const n = flat.xs.length;
  const empty = n === 0;
  const radius = props.radius ?? (n > 2000 ? 2 : 3);
  const opacity = props.opacity ?? (n > 2000 ? 0.5 : 0.85);
  const showLegend = (props.legend ?? series.length > 1) && series.length > 0;

  const L = useMemo(
    () =>
      xyLayout({
        width,
        height,
        x,
        y,
        xExtent: extentOf(x, flat.xs),
        yExtent: extentOf(y, flat.ys),
        legendLabels: showLegend ? series.map((s) => s.name) : [],
      }),
    [width, height, x, y, flat, showLegend, series],
  );
  const { xScale, yScale, innerWidth, innerHeight, margin } = L;

  const tree = useMemo(
    () =>
      quadtree<number>()
        .x((i) => xScale(flat.xs[i]))
        .y((i) => yScale(flat.ys[i]))
        .addAll(Array.from(flat.xs.keys())),
    [flat, xScale, yScale],
  );
  const indexAt = useCallback(
    (px: number, py: number) => {
      const f = tree.find(px, py, 32);
      return f === undefined ? null : flat.rank[f];
    },
    [tree, flat],
  );
  const ro = useReadout(n, indexAt);

  // The canvas redraws only when this key changes: points, scale domains/ranges, radius, opacity.
  const [dx0, dx1] = xScale.domain();
  const [dy0, dy1] = yScale.domain();
  const drawKey = useMemo(
    () => ({ flat, series, radius, opacity, xLog, yLog, dx0, dx1, dy0, dy1, innerWidth, innerHeight }),
    [flat, series, radius, opacity, xLog, yLog, dx0, dx1, dy0, dy1, innerWidth, innerHeight],
  );

  const draw = useCallback(
    (ctx: CanvasRenderingContext2D, info: { color: (v: string) => string }) => {
      ctx.globalAlpha = opacity;
      for (let s = 0; s < series.length; s++) {
        ctx.fillStyle = info.color(series[s].color ?? seriesColor(s));
        ctx.beginPath();
        for (let i = 0; i < n; i++) {
          if (flat.series[i] !== s) continue;
          traceSymbol(ctx, s, xScale(flat.xs[i]), yScale(flat.ys[i]), radius);
        }
        ctx.fill();
      }
      ctx.globalAlpha = 1;
    },
    [opacity, series, n, flat, xScale, yScale, radius],
  );

  // A bitmap of the points inside the SVG, hidden on screen (charts.css) but present in an exported standalone SVG.
  const [snapshot, setSnapshot] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onDrawn = useCallback((canvas: HTMLCanvasElement) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      try {
        setSnapshot(canvas.toDataURL('image/png'));
      } catch {
        setSnapshot(null);
      }
    }, 200);
  }, []);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  let readout = null;
  let live = '';
  if (ro.index !== null) {
    const f = flat.order[ro.index];
    const s = flat.series[f];
    const head = series[s]?.name ?? '';
    const rows = [
      { label: x.label, value: valueText(x, flat.xs[f]) },
      { label: y.label, value: valueText(y, flat.ys[f]) },
    ];
    const px = r2(xScale(flat.xs[f]));
    const py = r2(yScale(flat.ys[f]));
    readout = (
      <Readout
        x={px}
        y={py}
        innerWidth={innerWidth}
        innerHeight={innerHeight}
        title={head}
        rows={rows}
        dots={[{ x: px, y: py, color: series[s]?.color ?? seriesColor(s) }]}
      />
    );
    live = readoutSentence(head, rows);
  }

  return (
    <ChartShell
      kind="scatter"
      size={size}
      fixedWidth={props.width}
      title={title}
      description={description ?? `${n.toLocaleString('en-US')} points.`}
      className={className}
      svgRef={ref}
      empty={empty}
      emptyMessage={emptyMessage}
      interactive
      keyboardHint="Use the left and right arrow keys to step through the points in x order; Escape hides the read-out."
      onKeyDown={ro.onKeyDown}
      onBlur={ro.onBlur}
      live={live}
      underlay={
        <CanvasLayer
          width={innerWidth}
          height={innerHeight}
          left={margin.left}
          top={margin.top}
          data={drawKey}
          draw={draw}
          onDrawn={onDrawn}
        />
      }
    >
      {showLegend ? (
        <Legend items={L.legend.items} x={4} y={4} kind="symbol" colors={series.map((s) => s.color)} />
      ) : null}
      <XYPlot
        layout={L}
        markers={markers}
        under={
          snapshot ? (
            <image
              className="chart-export-only"
              href={snapshot}
              x={0}
              y={0}
              width={innerWidth}
              height={innerHeight}
              preserveAspectRatio="none"
            />
          ) : null
        }
        readout={readout}
        overlay={ro.overlay}
      />
    </ChartShell>
  );
}
