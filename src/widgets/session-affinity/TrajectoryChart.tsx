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
import { useCallback, useMemo, type CSSProperties } from 'react';
import { scaleBand, symbol as d3symbol, symbolCircle, symbolDiamond, symbolX } from 'd3';
import { ChartShell, useSafeId } from '../kit/charts/ChartShell';
import { pointerInPlot } from '../kit/charts/zoom';
import { GridLines, XAxis, YAxis } from '../kit/charts/Axes';
import { PanelTitle, stackPanels } from '../kit/charts/panels';
import { Readout, readoutSentence, useReadout, type ReadoutRow } from '../kit/charts/Readout';
import { useChartSize } from '../kit/charts/useChartSize';
import { axisTicks, makeScale, resolveDomain, type Tick } from '../kit/charts/scales';
import { computeMargins, legendLayout, r2, textWidth, TICK_FONT, X_TITLE_OFFSET } from '../kit/charts/layout';
import type { AxisSpec } from '../kit/charts/types';
import { formatCount, formatDuration, formatPercent, formatTokens } from '../../lib/format';
import type { ReplayRun, TurnKind, TurnRow } from '../../sim/lessons/affinity';

export const KIND_TEXT: Record<TurnKind, string> = {
  first: 'first turn (nothing to reuse anywhere)',
  warm: 'warm (found everything computed before)',
  partial: 'older prefix (part computed again)',
  cold: 'cold (never saw the session)',
};

const KIND_COLOR: Record<TurnKind, string> = {
  first: 'var(--chart-muted)',
  warm: 'var(--chart-ok)',
  partial: 'var(--series-5)',
  cold: 'var(--chart-danger)',
};

const KIND_SYMBOL = {
  first: symbolCircle,
  warm: symbolCircle,
  partial: symbolDiamond,
  cold: symbolX,
} as const;

function symbolPath(kind: TurnKind, size: number): string {
  return d3symbol(KIND_SYMBOL[kind], size)() ?? '';
}

/** A turn kind's symbol in the legend: the first turn hollow, a cold one a stroked cross, the others filled. */
function legendSymbolStyle(kind: TurnKind): CSSProperties {
  if (kind === 'first') return { fill: 'var(--chart-bg)', stroke: KIND_COLOR.first, strokeWidth: 1.5 };
  if (kind === 'cold') return { fill: 'none', stroke: KIND_COLOR.cold, strokeWidth: 2.5 };
  return { fill: KIND_COLOR[kind] };
}

/** Fills of the three parts of a prompt: colour and a texture (colour never alone). */
const PARTS = [
  { key: 'reused', label: 'reused from cache', color: 'var(--series-3)', pattern: null },
  {
    key: 're',
    label: 're-prefilled (computed before)',
    color: 'var(--chart-danger)',
    pattern: 'M-1,1 l2,-2 M0,8 l8,-8 M7,9 l2,-2',
  },
  { key: 'new', label: 'prefilled: new tokens', color: 'var(--series-1)', pattern: 'M0,2 h8 M0,6 h8' },
] as const;

const ROUTE_LEGEND: { kind: TurnKind; label: string }[] = [
  { kind: 'warm', label: 'warm' },
  { kind: 'partial', label: 'older prefix' },
  { kind: 'cold', label: 'cold' },
  { kind: 'first', label: 'first turn' },
];

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
  const narrow = width < 520;

  const L = useMemo(() => {
    const labels = [...PARTS.map((p) => p.label), ...ROUTE_LEGEND.map((r) => r.label)];
    const legend = legendLayout(labels, Math.max(100, width - 8));
    const yAxis: AxisSpec = { label: 'Prompt', unit: 'tokens', format: (v) => formatCount(v) };
    const maxPrompt = Math.max(1, ...rows.map((r) => r.promptTokens));
    const domain = resolveDomain(yAxis, [0, maxPrompt], { zero: true });
    const provisional = computeMargins({
      yTickLabels: ['00k'],
      hasXTitle: true,
      hasYTitle: true,
      legendHeight: legend.height,
    });
    const rowH = replicas <= 4 ? 20 : replicas <= 8 ? 16 : 12;
    const hA = replicas * rowH;
    // The prompt panel takes what the window leaves it (useChartSize's height caps a chart at a share of the
    // window), between 120 units and its natural height, so picture and read-outs share a short screen.
    const natural = Math.max(150, Math.min(240, width * 0.3));
    const room = sizeHeight - provisional.top - provisional.bottom;
    const left = stackPanels(provisional.top, [{ height: hA }, { gapAbove: 12 }], room, 120).heights[1];
    const hB = Math.round(Math.min(natural, left));
    const panels = stackPanels(provisional.top, [{ height: hA }, { height: hB, gapAbove: 12 }]);
    const [top, bTop] = panels.tops;
    const height = panels.bottom + provisional.bottom;
    const yB = makeScale(yAxis, domain, [hB, 0]);
    const yTicks = axisTicks(yAxis, yB, 'y');
    const m = computeMargins({
      yTickLabels: [...yTicks.map((t) => t.label), 'r15'],
      hasXTitle: true,
      hasYTitle: true,
      legendHeight: legend.height,
    });
    const right = narrow ? 46 : 72;
    const innerWidth = Math.max(60, width - m.left - right);
    const x = scaleBand<number>()
      .domain(rows.map((_, i) => i))
      .range([0, innerWidth])
      .paddingInner(n > 30 ? 0.12 : 0.2)
      .paddingOuter(0.1);
    const yA = scaleBand<number>()
      .domain(Array.from({ length: replicas }, (_, i) => i))
      .range([0, hA]);
    return {
      legend,
      yAxis,
      yB,
      yTicks,
      m,
      right,
      innerWidth,
      x,
      yA,
      hA,
      hB,
      top,
      bTop,
      plotHeight: panels.span,
      height,
      rowH,
    };
  }, [rows, replicas, width, n, narrow, sizeHeight]);

  const { x, yA, yB, innerWidth, m, hB, top, bTop, plotHeight, height } = L;
  const band = x.bandwidth();
  const stride = xStride(n, x.step());
  const cx = (i: number) => r2((x(i) ?? 0) + band / 2);
  const turnTicks: Tick[] = rows.flatMap((_, i) =>
    i % stride === 0 ? [{ value: i, pos: cx(i), label: String(i) }] : [],
  );
  const cyA = (r: number) => r2((yA(r) ?? 0) + yA.bandwidth() / 2);
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
  const labelFont = 10.5;

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
            style: legendSymbolStyle(kind),
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
          {rows.map((r, i) => {
            const isCur = i === cur;
            const s = isCur ? symSize * 2.2 : symSize;
            const style =
              r.kind === 'first'
                ? { fill: 'var(--chart-bg)', stroke: KIND_COLOR.first, strokeWidth: 1.5 }
                : r.kind === 'cold'
                  ? { fill: 'none', stroke: KIND_COLOR.cold, strokeWidth: isCur ? 3 : 2.2 }
                  : {
                      fill: KIND_COLOR[r.kind],
                      stroke: isCur ? 'var(--chart-fg)' : 'none',
                      strokeWidth: 1.5,
                    };
            return (
              <path
                key={i}
                data-turn={i}
                data-kind={r.kind}
                transform={`translate(${cx(i)},${cyA(r.replica)})`}
                d={symbolPath(r.kind, s)}
                style={style}
              />
            );
          })}
        </g>
        {/* ── Panel B: the prompt of each turn ── */}
        <PanelTitle top={bTop}>
          {narrow ? 'Prompt tokens per turn' : 'Prompt tokens of each turn: where they came from'}
        </PanelTitle>
        <g transform={`translate(0,${bTop})`}>
          <GridLines yTicks={L.yTicks} innerWidth={innerWidth} innerHeight={hB} />
          <YAxis ticks={L.yTicks} innerHeight={hB} title="Prompt (tokens)" titleOffset={m.left - 4} />
          {rows.map((r, i) => (
            <Bar key={i} row={r} x={x(i) ?? 0} w={band} y={yB} prefix={prefix} current={i === cur} />
          ))}
          {/* Extra TTFT above cold and partial turns: all when they fit, else the current and the first one. */}
          {rows.map((r, i) => {
            if (r.rePrefilledTokens <= 0) return null;
            const text = `+${formatDuration(r.extraS, 2)}`;
            const fits = textWidth(text, labelFont) + 2 <= x.step();
            if (!fits && i !== cur && r.turn !== firstCold) return null;
            return (
              <text
                key={i}
                className="chart-marker-label"
                data-extra-turn={i}
                x={cx(i)}
                y={r2(yB(r.promptTokens) - 4)}
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
            ticks={turnTicks}
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

/** Label every k-th turn, k in 1, 2, 4, 5, 10, 20, so labels do not touch. */
function xStride(n: number, step: number): number {
  const need = (textWidth(String(n), TICK_FONT) + 10) / Math.max(1, step);
  return [1, 2, 4, 5, 10, 20].find((s) => s >= need) ?? Math.ceil(need);
}

function Bar({
  row,
  x,
  w,
  y,
  prefix,
  current,
}: {
  row: TurnRow;
  x: number;
  w: number;
  y: (v: number) => number;
  prefix: string;
  current: boolean;
}) {
  const parts = [
    row.reusedTokens,
    row.rePrefilledTokens,
    row.promptTokens - row.reusedTokens - row.rePrefilledTokens,
  ];
  let acc = 0;
  return (
    <g data-bar-turn={row.turn}>
      {parts.map((v, k) => {
        if (!(v > 0)) return null;
        const y0 = y(acc);
        acc += v;
        const y1 = y(acc);
        return (
          <rect
            key={k}
            x={r2(x)}
            y={r2(y1)}
            width={r2(w)}
            height={r2(Math.max(0.5, y0 - y1))}
            style={{ fill: partFill(prefix, PARTS, k) }}
          />
        );
      })}
      {current ? (
        <rect
          x={r2(x - 1)}
          y={r2(y(row.promptTokens) - 1)}
          width={r2(w + 2)}
          height={r2(y(0) - y(row.promptTokens) + 2)}
          style={{ fill: 'none', stroke: 'var(--chart-fg)', strokeWidth: 1.5 }}
        />
      ) : null}
    </g>
  );
}
