/**
 * The prefill timeline's three panels (TimelineChart.tsx), each a function of the run and the transport's time t:
 * the tokens each iteration computes, the lane of iterations that give the decodes a token, and the gap before
 * each decode token.
 */
import { useCallback } from 'react';
import { curveStepBefore, line as d3line, symbol as d3symbol, symbolCircle, symbolSquare } from 'd3';
import { GridLines, XAxis, YAxis } from '../kit/charts/Axes';
import { r2, textWidth, X_TITLE_OFFSET } from '../kit/charts/layout';
import { PanelTitle } from '../kit/charts/panels';
import type { NumScale, Tick } from '../kit/charts/scales';
import { formatDuration } from '../../lib/format';
import type { TimelineIteration } from '../../sim/lessons/longPrefill';
import type { TimelineRun } from '../../worker/prefillTimelineMethods';
import type { GapPoint } from './timelineData';

export const PARTS = {
  chunk: { label: 'prompt chunk', color: 'var(--series-1)', pattern: 'M-1,1 l2,-2 M0,8 l8,-8 M7,9 l2,-2' },
  decode: { label: 'decode tokens', color: 'var(--series-3)', pattern: null },
  paused: { label: 'decodes paused', color: 'var(--chart-danger)', pattern: 'M0,2 h8 M0,6 h8' },
} as const;

export const GAP_RUN = { color: 'var(--series-1)', dash: undefined as string | undefined };
export const GAP_WHOLE = { color: 'var(--series-2)', dash: '6 4' };

/** A part's fill: its pattern (defined once in the chart's defs under `prefix`-`key`) or its colour. */
export function partFill(prefix: string, p: (typeof PARTS)[keyof typeof PARTS], key: string): string {
  return p.pattern ? `url(#${prefix}-${key})` : p.color;
}

export function sym(kind: 'circle' | 'square', size: number): string {
  return d3symbol(kind === 'circle' ? symbolCircle : symbolSquare, size)() ?? '';
}

interface PanelBase {
  its: readonly TimelineIteration[];
  xs: NumScale;
  /** The panel's top in the plot, and its height. */
  top: number;
  height: number;
  /** The transport's time: iterations after it are faint. */
  t: number;
  /** A phone's width: shorter titles. */
  narrow: boolean;
}

export interface TokensPanelProps extends PanelBase {
  scaleA: NumScale;
  ticks: readonly Tick[];
  innerWidth: number;
  leftMargin: number;
  /** Thin separators between iterations (when the average one is wide enough to show them). */
  separate: boolean;
  prefix: string;
}

/** Tokens each iteration computes, drawn across its duration: the decodes' tokens under the prompt's chunk. */
export function TokensPanel(props: TokensPanelProps) {
  const { its, xs, scaleA, ticks, top, height, innerWidth, leftMargin, t, narrow, separate, prefix } = props;
  return (
    <>
      <PanelTitle top={top}>
        {narrow ? 'Tokens in each iteration' : 'Tokens each iteration computes, drawn across its duration'}
      </PanelTitle>
      <g transform={`translate(0,${top})`}>
        <GridLines yTicks={ticks} innerWidth={innerWidth} innerHeight={height} />
        <YAxis ticks={ticks} innerHeight={height} title="Tokens" titleOffset={leftMargin - 4} />
        {its.map((it) => {
          const x0 = xs(it.startS);
          const x1 = xs(it.endS);
          const w = Math.max(0.6, x1 - x0);
          const yDec = scaleA(it.decodeTokens);
          const yTop = scaleA(it.decodeTokens + it.prefillTokens);
          const done = it.endS <= t + 1e-12;
          const running = !done && it.startS <= t;
          const opacity = done ? 1 : running ? 0.6 : 0.2;
          const sep = separate ? { stroke: 'var(--chart-bg)', strokeWidth: 0.6 } : {};
          return (
            <g key={it.index} opacity={opacity} data-iteration={it.index} data-kind={it.kind}>
              {it.decodeTokens > 0 ? (
                <rect
                  x={r2(x0)}
                  y={r2(yDec)}
                  width={r2(w)}
                  height={r2(Math.max(0.8, height - yDec))}
                  style={{ fill: PARTS.decode.color, ...sep }}
                />
              ) : null}
              {it.prefillTokens > 0 ? (
                <rect
                  x={r2(x0)}
                  y={r2(yTop)}
                  width={r2(w)}
                  height={r2(Math.max(0.8, yDec - yTop))}
                  style={{ fill: partFill(prefix, PARTS.chunk, 'chunk'), ...sep }}
                />
              ) : null}
            </g>
          );
        })}
        <line className="chart-domain" x1={0} x2={innerWidth} y1={height + 0.5} y2={height + 0.5} />
      </g>
    </>
  );
}

export interface DecodeLaneProps extends PanelBase {
  separate: boolean;
  prefix: string;
}

/** Which iterations give the decodes a token, and the whole-prompt iteration that pauses them. */
export function DecodeLane({ its, xs, top, height, t, narrow, separate, prefix }: DecodeLaneProps) {
  return (
    <>
      <PanelTitle top={top}>
        {narrow ? 'Decodes get a token?' : 'Do the decoding sessions get a token in this iteration?'}
      </PanelTitle>
      <g transform={`translate(0,${top})`}>
        {its.map((it) => {
          const x0 = xs(it.startS);
          const w = Math.max(0.6, xs(it.endS) - x0);
          const done = it.endS <= t + 1e-12;
          const opacity = done ? 1 : it.startS <= t ? 0.6 : 0.2;
          const paused = it.decodeTokens === 0;
          return (
            <rect
              key={it.index}
              x={r2(x0)}
              y={0}
              width={r2(w)}
              height={height}
              opacity={opacity}
              style={{
                fill: paused ? partFill(prefix, PARTS.paused, 'paused') : PARTS.decode.color,
                fillOpacity: paused ? 1 : 0.55,
                stroke: separate ? 'var(--chart-bg)' : 'none',
                strokeWidth: 0.6,
              }}
            />
          );
        })}
        {its
          .filter((it) => it.decodeTokens === 0)
          .map((it) => {
            const x0 = xs(it.startS);
            const w = xs(it.endS) - x0;
            const text = `decodes paused ${formatDuration(it.durationS, 3)}`;
            return textWidth(text, 11) + 8 < w ? (
              <text
                key={it.index}
                className="chart-marker-label"
                x={r2(x0 + w / 2)}
                y={height / 2}
                dy="0.35em"
                textAnchor="middle"
                style={{
                  fill: 'var(--chart-fg)',
                  fontWeight: 700,
                  fontSize: 11,
                  stroke: 'var(--chart-bg)',
                  strokeWidth: 3,
                  paintOrder: 'stroke',
                }}
              >
                {text}
              </text>
            ) : null;
          })}
      </g>
    </>
  );
}

export interface GapPanelProps extends Omit<PanelBase, 'its'> {
  run: TimelineRun;
  /** Whole-prompt prefill of the same prompt (null when `run` is that). */
  whole: TimelineRun | null;
  runLabel: string;
  runGaps: readonly GapPoint[];
  wholeGaps: readonly GapPoint[];
  scaleC: NumScale;
  xTicks: readonly Tick[];
  ticks: readonly Tick[];
  innerWidth: number;
  leftMargin: number;
}

/** The gap before each decode token (log scale), for this schedule and, dashed, for whole-prompt prefill. */
export function GapPanel(props: GapPanelProps) {
  const { run, whole, runLabel, runGaps, wholeGaps, xs, scaleC, xTicks, ticks, top, height, innerWidth } =
    props;
  const { leftMargin, t, narrow } = props;
  // Each gap is drawn across the wait it measures, from the previous token to this one (a step before the point).
  const gapLine = useCallback(
    (pts: readonly GapPoint[]) => {
      if (!pts.length) return '';
      const start: GapPoint = { t: pts[0].t - pts[0].gap, gap: pts[0].gap, iteration: -1 };
      return (
        d3line<GapPoint>()
          .digits(2)
          .curve(curveStepBefore)
          .x((p) => xs(p.t))
          .y((p) => scaleC(p.gap))([start, ...pts]) ?? ''
      );
    },
    [xs, scaleC],
  );
  const shownGaps = runGaps.filter((g) => g.t <= t + 1e-12);
  const symbols = runGaps.length <= 80;
  return (
    <>
      <PanelTitle top={top}>
        {narrow ? 'Gap before each decode token' : 'Gap before each decode token (log scale)'}
      </PanelTitle>
      <g transform={`translate(0,${top})`}>
        <GridLines xTicks={xTicks} yTicks={ticks} innerWidth={innerWidth} innerHeight={height} />
        <YAxis ticks={ticks} innerHeight={height} title="Gap" titleOffset={leftMargin - 4} />
        <XAxis
          ticks={xTicks}
          innerWidth={innerWidth}
          innerHeight={height}
          title="Time (s)"
          titleOffset={X_TITLE_OFFSET}
        />
        {whole ? (
          <g className="chart-series-item" data-series="gap: no chunking">
            <path
              d={gapLine(wholeGaps)}
              style={{ fill: 'none', stroke: GAP_WHOLE.color, strokeWidth: 1.6 }}
              strokeDasharray={GAP_WHOLE.dash}
            />
            {wholeGaps
              .filter((g) => g.gap > 10 * (whole.decodeStepS || 0))
              .map((g) => (
                <path
                  key={g.iteration}
                  transform={`translate(${r2(xs(g.t))},${r2(scaleC(g.gap))})`}
                  d={sym('square', 40)}
                  style={{ fill: GAP_WHOLE.color }}
                />
              ))}
          </g>
        ) : null}
        <g className="chart-series-item" data-series={`gap: ${runLabel}`}>
          <path d={gapLine(shownGaps)} style={{ fill: 'none', stroke: GAP_RUN.color, strokeWidth: 2 }} />
          {(symbols ? shownGaps : shownGaps.filter((g) => g.gap > 10 * (run.decodeStepS || 0))).map((g) => (
            <path
              key={g.iteration}
              transform={`translate(${r2(xs(g.t))},${r2(scaleC(g.gap))})`}
              d={sym('circle', 30)}
              style={{ fill: GAP_RUN.color }}
            />
          ))}
        </g>
      </g>
    </>
  );
}
