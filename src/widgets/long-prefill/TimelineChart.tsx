/**
 * The replica's iterations on a time axis, in one SVG (so it exports whole):
 *  - top: the tokens each iteration computes, drawn across its duration: the decodes' tokens (one per session)
 *    under the prompt's chunk;
 *  - a lane marking which iterations give the decodes a token, and the whole-prompt iteration that pauses them;
 *  - bottom: the gap before each decode token (log scale), for this schedule and, dashed, for whole-prompt
 *    prefill of the same prompt.
 * The picture is a function of the run and the transport's time t: iterations after t are faint, the gaps after
 * t not yet drawn, so scrubbing backwards costs nothing. Built from the charts kit's pieces; the panels are in
 * timelinePanels.tsx.
 */
import { FillPattern } from '../kit/charts/patterns';
import { EntryLegend, type LegendEntry } from '../kit/charts/Legend';
import { useCallback, useMemo } from 'react';
import { ChartShell, useSafeId } from '../kit/charts/ChartShell';
import { pointerInPlot } from '../kit/charts/zoom';
import { Readout, readoutSentence, useReadout, type ReadoutRow } from '../kit/charts/Readout';
import { useChartSize } from '../kit/charts/useChartSize';
import { axisTicks, makeScale, resolveDomain } from '../kit/charts/scales';
import { computeMargins, legendLayout, r2 } from '../kit/charts/layout';
import { stackPanels } from '../kit/charts/panels';
import type { AxisSpec, Tone } from '../kit/charts/types';
import { toneColor } from '../kit/charts/theme';
import { formatCount, formatDuration, formatNumber, formatTokens } from '../../lib/format';
import type { TimelineRun } from '../../worker/prefillTimelineMethods';
import { gapPoints, iterationAt } from './timelineData';
import {
  DecodeLane,
  GAP_RUN,
  GAP_WHOLE,
  GapPanel,
  PARTS,
  partFill,
  sym,
  TokensPanel,
} from './timelinePanels';

/**
 * The first token's rule, dashed through every panel, in ink (the kit's default marker tone): the chunks and the
 * gap line it stands beside are blue (timelinePanels.ts PARTS, GAP_RUN), and so was the rule.
 */
export const FIRST_TOKEN_TONE: Tone = 'fg';

/** Room at the top of the tokens panel for the rules' labels (chart units). */
const MARKER_LABEL_BAND = 16;

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
    // Tokens (48%), the decodes' lane, the gaps (52%); at least 260 units, or 200 zoomed (presentation), where
    // the text is larger and the panels keep about reading size's height on screen, beside the read-outs.
    const laneH = 18;
    const room = Math.max(size.zoom > 1 ? 200 : 260, size.height - provisional.top - provisional.bottom);
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
  }, [hasPause, runLabel, whole, width, run.endS, runGaps, wholeGaps, its, size.height, size.zoom]);

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
            return { kind: 'bar', color: PARTS[kind].color, fill: partFill(prefix, PARTS[kind], kind) };
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
        <TokensPanel
          its={its}
          xs={xs}
          scaleA={scaleA}
          ticks={L.ticksA}
          top={top}
          height={hA}
          innerWidth={innerWidth}
          leftMargin={m.left}
          t={t}
          narrow={narrow}
          separate={separate}
          prefix={prefix}
        />
        <DecodeLane
          its={its}
          xs={xs}
          top={laneTop}
          height={laneH}
          t={t}
          narrow={narrow}
          separate={separate}
          prefix={prefix}
        />
        <GapPanel
          run={run}
          whole={whole}
          runLabel={runLabel}
          runGaps={runGaps}
          wholeGaps={wholeGaps}
          xs={xs}
          scaleC={scaleC}
          xTicks={L.xTicks}
          ticks={L.ticksC}
          top={cTop}
          height={hC}
          innerWidth={innerWidth}
          leftMargin={m.left}
          t={t}
          narrow={narrow}
        />
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
                className="chart-marker-rule"
                x1={firstX}
                x2={firstX}
                y1={-2}
                y2={plotHeight}
                style={{ stroke: toneColor(FIRST_TOKEN_TONE) }}
              />
              <text
                className="chart-marker-label"
                x={firstX - 4}
                y={10}
                textAnchor="end"
                style={{
                  fill: toneColor(FIRST_TOKEN_TONE),
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
