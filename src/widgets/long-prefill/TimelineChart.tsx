/**
 * The replica's iterations on a time axis, in one SVG (so it exports whole):
 *  - top: the tokens each iteration computes, drawn across its duration: the decodes' tokens (one per session)
 *    under the prompt's chunk;
 *  - a lane marking which iterations give the decodes a token, and the whole-prompt iteration that pauses them;
 *  - bottom: the gap before each decode token (log scale), for this schedule and, dashed, for whole-prompt
 *    prefill of the same prompt.
 * The picture is a function of the run and the transport's time t: iterations after t are faint, the gaps after
 * t not yet drawn, so scrubbing backwards costs nothing. Built from the charts kit's pieces.
 */
import { FillPattern } from '../kit/charts/patterns';
import { EntryLegend, type LegendEntry } from '../kit/charts/Legend';
import { useCallback, useMemo } from 'react';
import { curveStepBefore, line as d3line, symbol as d3symbol, symbolCircle, symbolSquare } from 'd3';
import { ChartShell, useSafeId } from '../kit/charts/ChartShell';
import { pointerInPlot } from '../kit/charts/zoom';
import { GridLines, XAxis, YAxis } from '../kit/charts/Axes';
import { Readout, readoutSentence, useReadout, type ReadoutRow } from '../kit/charts/Readout';
import { useChartSize } from '../kit/charts/useChartSize';
import { axisTicks, makeScale, resolveDomain } from '../kit/charts/scales';
import { computeMargins, legendLayout, r2, textWidth, X_TITLE_OFFSET } from '../kit/charts/layout';
import { PanelTitle, stackPanels } from '../kit/charts/panels';
import type { AxisSpec } from '../kit/charts/types';
import { formatCount, formatDuration, formatNumber, formatTokens } from '../../lib/format';
import type { TimelineIteration } from '../../sim/lessons/longPrefill';
import type { TimelineRun } from '../../worker/prefillTimelineMethods';

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

const PARTS = {
  chunk: { label: 'prompt chunk', color: 'var(--series-1)', pattern: 'M-1,1 l2,-2 M0,8 l8,-8 M7,9 l2,-2' },
  decode: { label: 'decode tokens', color: 'var(--series-3)', pattern: null },
  paused: { label: 'decodes paused', color: 'var(--chart-danger)', pattern: 'M0,2 h8 M0,6 h8' },
} as const;

/** Room at the top of the tokens panel for the rules' labels (chart units). */
const MARKER_LABEL_BAND = 16;

const GAP_RUN = { color: 'var(--series-1)', dash: undefined as string | undefined };
const GAP_WHOLE = { color: 'var(--series-2)', dash: '6 4' };

function sym(kind: 'circle' | 'square', size: number): string {
  return d3symbol(kind === 'circle' ? symbolCircle : symbolSquare, size)() ?? '';
}

export interface TimelineChartProps {
  run: TimelineRun;
  /** Whole-prompt prefill of the same prompt (null when `run` is that). */
  whole: TimelineRun | null;
  runLabel: string;
  t: number;
  onPick?: (t: number) => void;
  title: string;
  description?: string;
}

export function TimelineChart({ run, whole, runLabel, t, onPick, title, description }: TimelineChartProps) {
  const size = useChartSize({ aspect: 0.62, minHeight: 420, maxHeight: 600 });
  const { width } = size;
  const prefix = useSafeId('tl');
  const its = run.iterations;
  const narrow = width < 520;
  const hasPause = its.some((x) => x.kind === 'whole');

  const runGaps = useMemo(() => gapPoints(its), [its]);
  const wholeGaps = useMemo(() => (whole ? gapPoints(whole.iterations) : []), [whole]);

  const L = useMemo(() => {
    const legendItems: { label: string; kind: 'chunk' | 'decode' | 'paused' | 'gapRun' | 'gapWhole' }[] = [
      { label: PARTS.chunk.label, kind: 'chunk' },
      { label: PARTS.decode.label, kind: 'decode' },
      ...(hasPause ? [{ label: PARTS.paused.label, kind: 'paused' as const }] : []),
      { label: `gap: ${runLabel}`, kind: 'gapRun' },
      ...(whole ? [{ label: 'gap: no chunking', kind: 'gapWhole' as const }] : []),
    ];
    const legendLabels = legendItems.map((x) => x.label);
    const legend = legendLayout(legendLabels, Math.max(100, width - 8));
    const xMax = Math.max(run.endS, whole?.endS ?? 0);
    const xAxis: AxisSpec = { label: 'Time', unit: 's', format: (v) => formatNumber(v) };
    const yA: AxisSpec = { label: 'Tokens', format: (v) => formatCount(v) };
    const allGaps = [...runGaps, ...wholeGaps].map((g) => g.gap).filter((g) => g > 0);
    const gMin = Math.min(...allGaps);
    const gMax = Math.max(...allGaps);
    const yC: AxisSpec = {
      label: 'Gap',
      unit: 's',
      scale: 'log',
      format: (v) => formatDuration(v, 2),
      domain: [gMin / 1.6, gMax * 2],
    };
    const maxTokens = Math.max(1, ...its.map((x) => x.prefillTokens + x.decodeTokens));
    const domA = resolveDomain(yA, [0, maxTokens], { zero: true });
    const provisional = computeMargins({
      yTickLabels: ['000k'],
      hasXTitle: true,
      hasYTitle: true,
      legendHeight: legend.height,
    });
    // Tokens (48%), the decodes' lane, the gaps (52%).
    const laneH = 18;
    const room = Math.max(260, size.height - provisional.top - provisional.bottom);
    const panels = stackPanels(
      provisional.top,
      [{ share: 0.48 }, { height: laneH, gapAbove: 8 }, { share: 0.52, gapAbove: 4 }],
      room,
    );
    const [top, laneTop, cTop] = panels.tops;
    const [hA, , hC] = panels.heights;
    const height = panels.bottom + provisional.bottom;
    // The tallest iteration stops short of the panel's top: the rules' labels ("prompt arrives", "first token")
    // stand in that band, not over the bars.
    const scaleA = makeScale(yA, domA, [hA, Math.min(MARKER_LABEL_BAND, hA / 4)]);
    const ticksA = axisTicks(yA, scaleA, 'y');
    const scaleC = makeScale(yC, yC.domain!, [hC, 0]);
    const ticksC = axisTicks(yC, scaleC, 'y');
    const m = computeMargins({
      yTickLabels: [...ticksA.map((x) => x.label), ...ticksC.map((x) => x.label)],
      hasXTitle: true,
      hasYTitle: true,
      legendHeight: legend.height,
      lastXTickLabel: formatNumber(xMax),
    });
    const innerWidth = Math.max(60, width - m.left - m.right);
    const xs = makeScale(xAxis, resolveDomain(xAxis, [0, xMax], { zero: true, nice: false }), [
      0,
      innerWidth,
    ]);
    const xTicks = axisTicks(xAxis, xs, 'x');
    return {
      legend,
      legendItems,
      xs,
      xTicks,
      scaleA,
      ticksA,
      scaleC,
      ticksC,
      hA,
      hC,
      top,
      laneTop,
      laneH,
      cTop,
      plotHeight: panels.span,
      height,
      m,
      innerWidth,
      xMax,
    };
  }, [hasPause, runLabel, whole, width, run.endS, runGaps, wholeGaps, its, size.height]);

  const { xs, scaleA, scaleC, hA, hC, top, laneTop, laneH, cTop, plotHeight, m, innerWidth } = L;
  // Thin separators between iterations only when the average one is wide enough to show them (the same for all).
  const separate = its.length > 0 && innerWidth / its.length >= 4;
  const cur = iterationAt(its, t);
  const firstTokenIt = its.find((x) => x.firstToken);

  const indexAt = useCallback(
    (px: number) => {
      if (!its.length) return null;
      return iterationAt(its, xs.invert(px));
    },
    [its, xs],
  );
  const ro = useReadout(its.length, indexAt);

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

  let readout = null;
  let live = '';
  if (ro.index !== null) {
    const it = its[ro.index];
    const head =
      it.kind === 'decode'
        ? `Iteration ${it.index}: decodes only`
        : it.kind === 'whole'
          ? `Iteration ${it.index}: the whole prompt`
          : `Iteration ${it.index}: a ${formatCount(it.prefillTokens)}-token chunk`;
    const rows: ReadoutRow[] = [
      {
        label: 'Time',
        value: `${formatNumber(it.startS, 4)}–${formatNumber(it.endS, 4)} s (${formatDuration(it.durationS)})`,
      },
    ];
    if (it.prefillTokens > 0)
      rows.push({
        label: 'Prompt tokens',
        value: `${formatNumber(it.prefillCached + 1)}–${formatNumber(it.prefillCached + it.prefillTokens)} (after ${formatTokens(it.prefillCached)})`,
      });
    rows.push({
      label: 'Decode tokens',
      value: it.decodeTokens > 0 ? formatNumber(it.decodeTokens) : 'none: the decodes wait',
    });
    rows.push({
      label: 'Roofline',
      value: `compute ${formatDuration(it.computeS)}, memory ${formatDuration(it.memoryS)}: ${it.bound}-bound`,
    });
    const g = runGaps.find((x) => x.iteration === it.index);
    if (g) rows.push({ label: 'Gap before this token', value: formatDuration(g.gap) });
    readout = (
      <Readout
        x={r2(xs((it.startS + it.endS) / 2))}
        innerWidth={innerWidth}
        innerHeight={plotHeight}
        title={head}
        rows={rows}
      />
    );
    live = readoutSentence(head, rows);
  }

  const fill = (p: (typeof PARTS)[keyof typeof PARTS], key: string) =>
    p.pattern ? `url(#${prefix}-${key})` : p.color;
  const shownGaps = runGaps.filter((g) => g.t <= t + 1e-12);
  const symbols = runGaps.length <= 80;
  const arrivalX = r2(xs(run.arrivalS));
  const firstX = r2(xs(run.firstTokenS));
  const tx = r2(xs(Math.min(t, L.xMax)));

  return (
    <ChartShell
      kind="prefill-timeline"
      size={{ ...size, height: L.height }}
      title={title}
      description={description}
      interactive
      onKeyDown={ro.onKeyDown}
      onBlur={ro.onBlur}
      live={live}
    >
      <defs>
        {(['chunk', 'paused'] as const).map((k) => (
          <FillPattern key={k} id={`${prefix}-${k}`} color={PARTS[k].color} pattern={PARTS[k].pattern} />
        ))}
      </defs>
      <EntryLegend
        items={L.legend.items}
        entries={L.legendItems.map(({ kind }): LegendEntry => {
          if (kind === 'chunk' || kind === 'decode' || kind === 'paused')
            return { kind: 'bar', color: PARTS[kind].color, fill: fill(PARTS[kind], kind) };
          const gap = kind === 'gapWhole' ? GAP_WHOLE : GAP_RUN;
          return {
            kind: 'line',
            color: gap.color,
            dash: kind === 'gapWhole' ? GAP_WHOLE.dash : undefined,
            symbolPath: sym(kind === 'gapWhole' ? 'square' : 'circle', 36),
          };
        })}
      />
      <g
        className="chart-plot"
        transform={`translate(${m.left},0)`}
        data-iterations={its.length}
        data-current-iteration={cur}
      >
        {/* ── Panel A: tokens per iteration ── */}
        <PanelTitle top={top}>
          {narrow ? 'Tokens in each iteration' : 'Tokens each iteration computes, drawn across its duration'}
        </PanelTitle>
        <g transform={`translate(0,${top})`}>
          <GridLines yTicks={L.ticksA} innerWidth={innerWidth} innerHeight={hA} />
          <YAxis ticks={L.ticksA} innerHeight={hA} title="Tokens" titleOffset={m.left - 4} />
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
                    height={r2(Math.max(0.8, hA - yDec))}
                    style={{ fill: PARTS.decode.color, ...sep }}
                  />
                ) : null}
                {it.prefillTokens > 0 ? (
                  <rect
                    x={r2(x0)}
                    y={r2(yTop)}
                    width={r2(w)}
                    height={r2(Math.max(0.8, yDec - yTop))}
                    style={{ fill: fill(PARTS.chunk, 'chunk'), ...sep }}
                  />
                ) : null}
              </g>
            );
          })}
          <line className="chart-domain" x1={0} x2={innerWidth} y1={hA + 0.5} y2={hA + 0.5} />
        </g>
        {/* ── Lane B: do the decodes get a token? ── */}
        <PanelTitle top={laneTop}>
          {narrow ? 'Decodes get a token?' : 'Do the decoding sessions get a token in this iteration?'}
        </PanelTitle>
        <g transform={`translate(0,${laneTop})`}>
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
                height={laneH}
                opacity={opacity}
                style={{
                  fill: paused ? fill(PARTS.paused, 'paused') : PARTS.decode.color,
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
                  y={laneH / 2}
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
        {/* ── Panel C: the gap before each decode token ── */}
        <PanelTitle top={cTop}>
          {narrow ? 'Gap before each decode token' : 'Gap before each decode token (log scale)'}
        </PanelTitle>
        <g transform={`translate(0,${cTop})`}>
          <GridLines xTicks={L.xTicks} yTicks={L.ticksC} innerWidth={innerWidth} innerHeight={hC} />
          <YAxis ticks={L.ticksC} innerHeight={hC} title="Gap" titleOffset={m.left - 4} />
          <XAxis
            ticks={L.xTicks}
            innerWidth={innerWidth}
            innerHeight={hC}
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
        {/* Rules through all panels: the prompt's arrival and first token, and the transport's time. */}
        <g transform={`translate(0,${top})`}>
          <line
            x1={arrivalX}
            x2={arrivalX}
            y1={-2}
            y2={plotHeight}
            style={{ stroke: 'var(--chart-muted)', strokeDasharray: '3 3' }}
            data-marker="arrival"
          />
          <text
            className="chart-marker-label"
            x={arrivalX + 4}
            y={10}
            style={{
              fill: 'var(--chart-fg)',
              fontSize: 11,
              stroke: 'var(--chart-bg)',
              strokeWidth: 3,
              paintOrder: 'stroke',
            }}
          >
            {narrow ? 'arrives' : 'prompt arrives'}
          </text>
          {firstTokenIt ? (
            <g data-marker="first-token">
              <line
                x1={firstX}
                x2={firstX}
                y1={-2}
                y2={plotHeight}
                style={{ stroke: 'var(--chart-accent)', strokeWidth: 1.5 }}
              />
              <text
                className="chart-marker-label"
                x={firstX - 4}
                y={10}
                textAnchor="end"
                style={{
                  fill: 'var(--chart-accent)',
                  fontSize: 11,
                  fontWeight: 600,
                  stroke: 'var(--chart-bg)',
                  strokeWidth: 3,
                  paintOrder: 'stroke',
                }}
              >
                {`first token, TTFT ${formatDuration(run.ttftS, 3)}`}
              </text>
            </g>
          ) : null}
          <line
            x1={tx}
            x2={tx}
            y1={-4}
            y2={plotHeight + 4}
            style={{ stroke: 'var(--chart-fg)', strokeWidth: 1.5 }}
            data-marker="now"
            data-t={formatNumber(t, 4)}
          />
          {readout}
          <rect
            className="chart-overlay"
            width={innerWidth}
            height={plotHeight}
            {...ro.overlay}
            onClick={(e) => {
              onPick?.(Math.max(0, Math.min(L.xMax, xs.invert(pointerInPlot(e).x))));
            }}
          />
        </g>
      </g>
    </ChartShell>
  );
}
