/**
 * One trajectory, turn by turn, in one SVG (so it exports whole):
 *  - top: which replica served each turn, the route drawn as a path, each turn's symbol by what it found
 *    (warm ●, an older prefix ◆, cold ✕, the first turn ○), and at the right what every replica holds of
 *    the session just before the current turn;
 *  - bottom: each turn's prompt as a stacked bar: reused from the cache, re-prefilled (computed before,
 *    computed again), prefilled new; cold and partial turns carry their extra TTFT.
 * Built from the charts kit's pieces (size, shell, axes, grid, read-out); the picture is a function of the
 * run and the current turn, so the transport can scrub it.
 */
import { PartPatterns, partFill } from '../kit/charts/patterns';
import { EntryLegend, type LegendEntry } from '../kit/charts/Legend';
import { useCallback, useMemo } from 'react';
import { ChartShell, useSafeId } from '../kit/charts/ChartShell';
import { pointerInPlot } from '../kit/charts/zoom';
import { GridLines, XAxis, YAxis } from '../kit/charts/Axes';
import { PanelTitle } from '../kit/charts/panels';
import { Readout, readoutSentence, useReadout, type ReadoutRow } from '../kit/charts/Readout';
import { useChartSize } from '../kit/charts/useChartSize';
import { r2, textWidth, X_TITLE_OFFSET } from '../kit/charts/layout';
import { formatCount, formatDuration, formatPercent, formatTokens } from '../../lib/format';
import type { ReplayRun } from '../../sim/lessons/affinity';
import { PromptBar } from './PromptBar';
import { trajectoryLayout } from './trajectoryLayout';
import { KIND_TEXT, PARTS, ROUTE_LEGEND, symbolPath, turnSymbolStyle } from './turnMarks';

export interface TrajectoryChartProps {
  run: ReplayRun;
  /** The same trajectory under the other policy, for the read-out's comparison. */
  compare: ReplayRun;
  compareLabel: string;
  replicas: number;
  /** Current turn (transport). */
  current: number;
  onPick?: (turn: number) => void;
  title: string;
  description?: string;
}

/**
 * Which row a turn's extra-TTFT label takes above its bar (0 on the bar, 1 a line higher), or null to leave it out:
 * one row when a label fits its turn's width, two staggered rows (odd turns higher) when it fits two turns' width,
 * else only the labels that must show (the current turn's and the first cold one's), on the bar.
 */
export function extraLabelRow(need: number, step: number, turn: number, mustShow: boolean): 0 | 1 | null {
  if (need <= step) return 0;
  if (need <= 2 * step) return turn % 2 === 1 ? 1 : 0;
  return mustShow ? 0 : null;
}

export function TrajectoryChart({
  run,
  compare,
  compareLabel,
  replicas,
  current,
  onPick,
  title,
  description,
}: TrajectoryChartProps) {
  // The chart's height is its panels' natural height; `size.height` only bounds it by the window (the aspect
  // and maximum here never bind). Two panels make the widget's whole picture, so it may take more of the
  // window than one chart.
  const size = useChartSize({ aspect: 2, maxHeight: 1000, windowShare: 0.55 });
  const { width, height: sizeHeight } = size;
  const prefix = useSafeId('traj');
  const rows = run.rows;
  const n = rows.length;

  // Zoomed (presentation), the prompt panel may give up more of its height to the window, as many units as keep
  // its screen height near reading size's 120 pixels: its text is larger, not the picture.
  const zoomed = size.zoom > 1;
  const L = useMemo(
    () => trajectoryLayout(rows, replicas, width, sizeHeight, zoomed ? 72 : 120, zoomed ? 14 : 0),
    [rows, replicas, width, sizeHeight, zoomed],
  );

  const { x, yA, yB, innerWidth, m, hB, top, bTop, plotHeight, height, band, cx, cyA, narrow } = L;
  const cur = Math.max(0, Math.min(n - 1, current));
  const holdings = run.holdings[cur] ?? [];
  const maxHeld = Math.max(1, ...rows.map((r) => r.promptTokens));
  const firstCold = rows.find((r) => r.kind === 'cold' || r.kind === 'partial')?.turn ?? -1;

  const indexAt = useCallback(
    (px: number) => {
      if (n === 0) return null;
      const i = Math.floor((px - x.paddingOuter() * x.step()) / x.step());
      return Math.max(0, Math.min(n - 1, i));
    },
    [n, x],
  );
  const ro = useReadout(n, indexAt);

  let readout = null;
  let live = '';
  if (ro.index !== null) {
    const r = rows[ro.index];
    const c = compare.rows[ro.index];
    const head = `Turn ${r.turn} → replica ${r.replica}`;
    const rowsOut: ReadoutRow[] = [
      { label: 'Found', value: KIND_TEXT[r.kind] },
      { label: 'Prompt', value: formatTokens(r.promptTokens) },
      { label: 'Reused', value: `${formatTokens(r.reusedTokens)} (hit ${formatPercent(r.hitRate)})` },
      { label: 'Re-prefilled', value: formatTokens(r.rePrefilledTokens) },
      {
        label: 'TTFT',
        value: `${formatDuration(r.ttftS)} (${compareLabel}: ${c ? formatDuration(c.ttftS) : '—'})`,
      },
    ];
    if (r.rePrefilledTokens > 0)
      rowsOut.push({
        label: 'Extra TTFT',
        value: `${formatDuration(r.extraS)} = ${formatCount(r.rePrefilledTokens)} × ${formatDuration(r.perTokenS)}`,
      });
    readout = (
      <Readout
        x={cx(ro.index)}
        innerWidth={innerWidth}
        innerHeight={plotHeight}
        title={head}
        rows={rowsOut}
      />
    );
    live = readoutSentence(head, rowsOut);
  }

  const routePath = rows.map((r, i) => `${i === 0 ? 'M' : 'L'}${cx(i)},${cyA(r.replica)}`).join('');
  const symSize = Math.max(24, Math.min(90, band * band * 0.5));
  // Presented, 11 units as a chart's ticks (16.5 px on a 1280 × 720 projector).
  const labelFont = size.zoom > 1 ? 11 : 10.5;

  return (
    <ChartShell
      kind="trajectory"
      size={{ ...size, height }}
      title={title}
      description={description}
      interactive
      onKeyDown={ro.onKeyDown}
      onBlur={ro.onBlur}
      live={live}
    >
      <PartPatterns prefix={prefix} parts={PARTS} />
      {/* Legend: the prompt's parts (bar swatches), then what a turn found (symbols). */}
      <EntryLegend
        items={L.legend.items}
        entries={[
          ...PARTS.map((p, i): LegendEntry => ({
            kind: 'bar',
            color: p.color,
            fill: partFill(prefix, PARTS, i),
          })),
          ...ROUTE_LEGEND.map(({ kind }): LegendEntry => ({
            kind: 'symbol',
            path: symbolPath(kind, 60),
            style: turnSymbolStyle(kind, 'legend'),
          })),
        ]}
      />
      <g className="chart-plot" transform={`translate(${m.left},0)`}>
        {/* Current turn: a band through both panels. */}
        <rect
          data-current-turn={cur}
          x={r2((x(cur) ?? 0) - (x.step() - band) / 2)}
          y={top - 4}
          width={r2(x.step())}
          height={r2(plotHeight + 8)}
          style={{ fill: 'var(--chart-band)' }}
        />
        {/* ── Panel A: the route ── */}
        <PanelTitle top={top}>
          {narrow ? 'Replica of each turn' : 'Which replica served each turn'}
        </PanelTitle>
        <PanelTitle top={top} x={innerWidth + L.right - 4} anchor="end">
          {narrow ? 'holds' : `holds, turn ${cur}`}
        </PanelTitle>
        <g transform={`translate(0,${top})`}>
          {Array.from({ length: replicas }, (_, r) => (
            <g key={r}>
              <line className="chart-grid" x1={0} x2={innerWidth} y1={cyA(r)} y2={cyA(r)} />
              {replicas <= 8 || r % 2 === 0 ? (
                <text className="chart-tick" x={-8} y={cyA(r)} dy="0.32em" textAnchor="end">
                  {`r${r}`}
                </text>
              ) : null}
              {/* What replica r holds of the session before the current turn. */}
              <rect
                x={innerWidth + 8}
                y={r2((yA(r) ?? 0) + 2)}
                width={r2(Math.max(0, ((L.right - 14) * (holdings[r] ?? 0)) / maxHeld))}
                height={Math.max(2, yA.bandwidth() - 4)}
                style={{ fill: 'var(--series-3)', opacity: 0.35 }}
              />
              {L.rowH >= 14 ? (
                <text className="chart-tick" x={innerWidth + 10} y={cyA(r)} dy="0.32em" data-holds={r}>
                  {holdings[r] ? formatCount(holdings[r]) : '—'}
                </text>
              ) : null}
            </g>
          ))}
          <path
            d={routePath}
            style={{ fill: 'none', stroke: 'var(--chart-muted)', strokeWidth: 1, strokeOpacity: 0.7 }}
          />
          {rows.map((r, i) => (
            <path
              key={i}
              data-turn={i}
              data-kind={r.kind}
              transform={`translate(${cx(i)},${cyA(r.replica)})`}
              d={symbolPath(r.kind, i === cur ? symSize * 2.2 : symSize)}
              style={turnSymbolStyle(r.kind, i === cur ? 'current' : 'turn')}
            />
          ))}
        </g>
        {/* ── Panel B: the prompt of each turn ── */}
        <PanelTitle top={bTop}>
          {narrow ? 'Prompt tokens per turn' : 'Prompt tokens of each turn: where they came from'}
        </PanelTitle>
        <g transform={`translate(0,${bTop})`}>
          <GridLines yTicks={L.yTicks} innerWidth={innerWidth} innerHeight={hB} />
          <YAxis ticks={L.yTicks} innerHeight={hB} title="Prompt (tokens)" titleOffset={m.left - 4} />
          {rows.map((r, i) => (
            <PromptBar key={i} row={r} x={x(i) ?? 0} w={band} y={yB} prefix={prefix} current={i === cur} />
          ))}
          {/* Extra TTFT above cold and partial turns: all when they fit, in one row or in two staggered ones
              (odd turns a line higher, so neighbours never touch), else the current and the first one. */}
          {rows.map((r, i) => {
            if (r.rePrefilledTokens <= 0) return null;
            const text = `+${formatDuration(r.extraS, 2)}`;
            // Bold: a fifth wider than textWidth's estimate (DejaVu Sans Bold's digits are 0.7 em), and a gap
            // between neighbours.
            const row = extraLabelRow(
              textWidth(text, labelFont) * 1.2 + 4,
              x.step(),
              i,
              i === cur || r.turn === firstCold,
            );
            if (row === null) return null;
            const lift = row * labelFont * 1.25;
            return (
              <text
                key={i}
                className="chart-marker-label"
                data-extra-turn={i}
                x={cx(i)}
                y={r2(yB(r.promptTokens) - 4 - lift)}
                textAnchor={cx(i) < 20 ? 'start' : cx(i) > innerWidth - 20 ? 'end' : 'middle'}
                style={{
                  fill: 'var(--chart-danger)',
                  fontSize: labelFont,
                  stroke: 'var(--chart-bg)',
                  strokeWidth: 3,
                  paintOrder: 'stroke',
                  fontWeight: 600,
                }}
              >
                {text}
              </text>
            );
          })}
          <XAxis
            ticks={L.turnTicks}
            innerWidth={innerWidth}
            innerHeight={hB}
            title="Turn"
            titleOffset={X_TITLE_OFFSET}
          />
        </g>
        <g transform={`translate(0,${top})`}>
          {readout}
          <rect
            className="chart-overlay"
            width={innerWidth}
            height={plotHeight}
            {...ro.overlay}
            onClick={(e) => {
              const i = indexAt(pointerInPlot(e).x);
              if (i !== null) onPick?.(i);
            }}
          />
        </g>
      </g>
    </ChartShell>
  );
}
