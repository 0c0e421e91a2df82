/**
 * The two figures of the trajectory widget, built from the charts kit's pieces (scales, axes, legend, patterns,
 * read-out): per-turn stacked columns of tokens (reused prefix, new input, output) and a two-lane timeline
 * (the model's prefill and decode; the tool call or the human in between).
 */
import { useCallback, useMemo } from 'react';
import { ticks as d3ticks } from 'd3';
import type { TrajectoryTurn } from '../../sim/lessons/agentSession';
import { formatCount, formatDuration, formatPercent, formatTokens } from '../../lib/format';
import { ChartShell, useSafeId } from '../kit/charts/ChartShell';
import { GridLines, XAxis } from '../kit/charts/Axes';
import { Legend } from '../kit/charts/Legend';
import { XYPlot } from '../kit/charts/XYPlot';
import { Readout, readoutSentence, useReadout, type ReadoutRow } from '../kit/charts/Readout';
import { SeriesPatterns, seriesFill } from '../kit/charts/patterns';
import { seriesColor } from '../kit/charts/theme';
import { useChartSize } from '../kit/charts/useChartSize';
import { xyLayout } from '../kit/charts/xyLayout';
import { axisTicks, makeScale, durationAxis } from '../kit/charts/scales';
import { legendLayout, r2, textWidth, TICK_FONT, LABEL_FONT } from '../kit/charts/layout';
import type { AxisSpec } from '../kit/charts/types';
import type { Ref } from 'react';

/** Series slots (colour + fill pattern): reused = solid blue, new input = hatched vermillion, output = lined green. */
const SLOT = { reused: 0, fresh: 1, output: 2, wait: 6 } as const;
const COLUMN_SERIES = ['Reused prefix (seen before)', 'New input (tool result, message)', 'Output'];

function integerTicks(domain: [number, number], count: number): number[] {
  return d3ticks(Math.ceil(domain[0]), Math.floor(domain[1]), count).filter(
    (v) => Number.isInteger(v) && v >= 1,
  );
}

export function TurnColumns({
  turns,
  xMax,
  yMax,
  title,
  ref,
}: {
  turns: readonly TrajectoryTurn[];
  xMax: number;
  yMax: number;
  title: string;
  ref?: Ref<SVGSVGElement>;
}) {
  const size = useChartSize({ aspect: 0.5, minHeight: 240, maxHeight: 400 });
  const { width, height } = size;
  const prefix = useSafeId('turns');
  const x: AxisSpec = useMemo(
    () => ({
      label: 'Turn (model call)',
      domain: [0.5, Math.max(1, xMax) + 0.5],
      ticks: integerTicks,
      format: (v) => String(v),
    }),
    [xMax],
  );
  const y: AxisSpec = useMemo(() => ({ label: 'Tokens', unit: 'tokens', format: (v) => formatCount(v) }), []);
  const L = useMemo(
    () =>
      xyLayout({
        width,
        height,
        x,
        y,
        xExtent: [0.5, Math.max(1, xMax) + 0.5],
        yExtent: [0, Math.max(1, yMax)],
        legendLabels: COLUMN_SERIES,
        yZero: true,
        xNice: false,
      }),
    [width, height, x, y, xMax, yMax],
  );
  const { xScale, yScale, innerWidth, innerHeight } = L;
  const step = Math.abs(xScale(2) - xScale(1));
  const bw = Math.max(1, Math.min(48, step * 0.78));
  const indexAt = useCallback(
    (px: number) => {
      if (!turns.length) return null;
      const k = Math.round(xScale.invert(px)) - 1;
      return Math.max(0, Math.min(turns.length - 1, k));
    },
    [turns.length, xScale],
  );
  const ro = useReadout(turns.length, indexAt);
  const legendItems = L.legend.items.map((it) => ({
    ...it,
    index: [SLOT.reused, SLOT.fresh, SLOT.output][it.index],
  }));

  const rects = [];
  for (let i = 0; i < turns.length; i++) {
    const t = turns[i];
    const cx = xScale(i + 1);
    const parts: [number, number][] = [
      [SLOT.reused, t.reusedTokens],
      [SLOT.fresh, t.newTokens],
      [SLOT.output, t.outputTokens],
    ];
    let base = 0;
    for (const [slot, v] of parts) {
      if (v <= 0) continue;
      const y0 = yScale(base);
      const y1 = yScale(base + v);
      rects.push(
        <rect
          key={`${i}-${slot}`}
          className="chart-bar"
          x={r2(cx - bw / 2)}
          y={r2(y1)}
          width={r2(bw)}
          height={r2(Math.max(0.5, y0 - y1))}
          style={{
            fill: seriesFill(prefix, slot),
            stroke: seriesColor(slot),
            strokeWidth: ro.index === i ? 2 : 0.5,
          }}
          data-turn={i + 1}
        />,
      );
      base += v;
    }
  }

  let readout = null;
  let live = '';
  if (ro.index !== null) {
    const t = turns[ro.index];
    const rows: ReadoutRow[] = [
      { label: 'Reused prefix', value: formatTokens(t.reusedTokens), index: SLOT.reused },
      { label: 'New input', value: formatTokens(t.newTokens), index: SLOT.fresh },
      { label: 'Output', value: formatTokens(t.outputTokens), index: SLOT.output },
      { label: 'Prefix share r/I', value: t.turn > 0 ? formatPercent(t.prefixShare) : '— (first turn)' },
    ];
    const titleText = `Turn ${t.turn + 1}: prompt ${formatTokens(t.promptTokens)}`;
    readout = (
      <Readout
        x={r2(xScale(ro.index + 1))}
        crosshair={false}
        innerWidth={innerWidth}
        innerHeight={innerHeight}
        title={titleText}
        rows={rows}
        swatch="bar"
        prefix={prefix}
      />
    );
    live = readoutSentence(titleText, rows);
  }

  return (
    <ChartShell
      kind="turn-columns"
      size={size}
      title={title}
      svgRef={ref}
      empty={!turns.length}
      interactive
      onKeyDown={ro.onKeyDown}
      onBlur={ro.onBlur}
      live={live}
    >
      <SeriesPatterns prefix={prefix} count={SLOT.wait + 1} />
      <Legend items={legendItems} x={4} y={4} kind="bar" prefix={prefix} />
      <XYPlot
        layout={L}
        grid="y"
        under={
          ro.index !== null ? (
            <rect
              className="chart-marker-band"
              x={r2(xScale(ro.index + 1) - step / 2)}
              y={0}
              width={r2(step)}
              height={innerHeight}
            />
          ) : null
        }
        readout={readout}
        overlay={ro.overlay}
      >
        {rects}
      </XYPlot>
    </ChartShell>
  );
}

const LANE_H = 30;

/** Two lanes over the session's wall time: the model (prefill, decode) and the wait (tool call or human). */
export function SessionTimeline({
  turns,
  waitLabel,
  title,
}: {
  turns: readonly TrajectoryTurn[];
  waitLabel: string;
  title: string;
}) {
  const prefix = useSafeId('timeline');
  const labels = ['Prefill', 'Decode', waitLabel];
  const size = useChartSize({ height: 1 }); // width only; the height follows the lanes
  const { width } = size;
  const legend = legendLayout(labels, Math.max(100, width - 8));
  const laneNames = ['Model', waitLabel.replace(/ wait$/, '')];
  const left = Math.ceil(Math.max(...laneNames.map((n) => textWidth(n, TICK_FONT)))) + 14;
  const top = legend.height + 14;
  const innerHeight = LANE_H * 2 + 10;
  const bottom = TICK_FONT + 8 + 6 + LABEL_FONT + 10;
  const height = top + innerHeight + bottom;
  const last = turns[turns.length - 1];
  const wall = last ? last.startS + last.prefillS + last.decodeS : 0;
  const innerWidth = Math.max(40, width - left - 16);
  const x: AxisSpec = useMemo(() => durationAxis('Session time', { digits: 2 }), []);
  const xScale = useMemo(
    () => makeScale(x, [0, Math.max(wall, 1e-3)], [0, innerWidth]),
    [x, wall, innerWidth],
  );
  const xTicks = useMemo(() => axisTicks(x, xScale, 'x'), [x, xScale]);
  const indexAt = useCallback(
    (px: number) => {
      if (!turns.length) return null;
      const t = xScale.invert(px);
      let k = 0;
      while (k + 1 < turns.length && turns[k + 1].startS <= t) k++;
      return k;
    },
    [turns, xScale],
  );
  const ro = useReadout(turns.length, indexAt);
  const legendItems = legend.items.map((it) => ({
    ...it,
    index: [SLOT.fresh, SLOT.output, SLOT.wait][it.index],
  }));
  const bars = [];
  const minW = 0.75;
  for (let i = 0; i < turns.length; i++) {
    const t = turns[i];
    const a = xScale(t.startS);
    const b = xScale(t.startS + t.prefillS);
    const c = xScale(t.startS + t.prefillS + t.decodeS);
    const d = xScale(t.startS + t.prefillS + t.decodeS + t.gapS);
    const hl = ro.index === i ? 2 : 0.4;
    bars.push(
      <rect
        key={`p${i}`}
        x={r2(a)}
        y={4}
        width={r2(Math.max(minW, b - a))}
        height={LANE_H - 8}
        style={{ fill: seriesFill(prefix, SLOT.fresh), stroke: seriesColor(SLOT.fresh), strokeWidth: hl }}
      />,
      <rect
        key={`d${i}`}
        x={r2(b)}
        y={4}
        width={r2(Math.max(minW, c - b))}
        height={LANE_H - 8}
        style={{ fill: seriesFill(prefix, SLOT.output), stroke: seriesColor(SLOT.output), strokeWidth: hl }}
      />,
    );
    if (t.gapS > 0)
      bars.push(
        <rect
          key={`g${i}`}
          x={r2(c)}
          y={LANE_H + 10 + 4}
          width={r2(Math.max(minW, d - c))}
          height={LANE_H - 8}
          style={{ fill: seriesFill(prefix, SLOT.wait), stroke: seriesColor(SLOT.wait), strokeWidth: hl }}
        />,
      );
  }
  let readout = null;
  let live = '';
  if (ro.index !== null) {
    const t = turns[ro.index];
    const rows: ReadoutRow[] = [
      { label: 'Starts at', value: formatDuration(t.startS) },
      { label: 'Prefill', value: formatDuration(t.prefillS), index: SLOT.fresh },
      { label: 'Decode', value: formatDuration(t.decodeS), index: SLOT.output },
      {
        label: t.gapKind === 'end' ? 'Session ends' : waitLabel,
        value: t.gapKind === 'end' ? '—' : formatDuration(t.gapS),
        index: SLOT.wait,
      },
    ];
    const titleText = `Turn ${t.turn + 1}`;
    readout = (
      <Readout
        x={r2(xScale(t.startS))}
        innerWidth={innerWidth}
        innerHeight={innerHeight}
        title={titleText}
        rows={rows}
        swatch="bar"
        prefix={prefix}
      />
    );
    live = readoutSentence(titleText, rows);
  }
  return (
    <ChartShell
      kind="session-timeline"
      size={{ ...size, height }}
      title={title}
      empty={!turns.length}
      interactive
      onKeyDown={ro.onKeyDown}
      onBlur={ro.onBlur}
      live={live}
    >
      <SeriesPatterns prefix={prefix} count={SLOT.wait + 1} />
      <Legend items={legendItems} x={4} y={4} kind="bar" prefix={prefix} />
      <g className="chart-plot" transform={`translate(${left},${top})`}>
        <GridLines xTicks={xTicks} innerWidth={innerWidth} innerHeight={innerHeight} />
        {laneNames.map((n, i) => (
          <text
            key={n}
            className="chart-tick"
            x={-8}
            y={i * (LANE_H + 10) + LANE_H / 2}
            dy="0.32em"
            textAnchor="end"
          >
            {n}
          </text>
        ))}
        <g className="chart-series">{bars}</g>
        <XAxis
          ticks={xTicks}
          innerWidth={innerWidth}
          innerHeight={innerHeight}
          title={`${x.label}, wall clock`}
          titleOffset={TICK_FONT + 8 + 6 + LABEL_FONT + 4}
        />
        {readout}
        <rect className="chart-overlay" width={innerWidth} height={innerHeight} {...ro.overlay} />
      </g>
    </ChartShell>
  );
}
