/** Rows × columns matrix coloured on a sequential ramp from the theme, with a colour legend, cell labels and a 2-D read-out. */
import { useMemo, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { scaleBand, scaleLinear, scaleLog } from 'd3';
import type { AxisSpec, ChartBaseProps } from './types';
import { heightFor, useChartSize } from './useChartSize';
import { ChartShell } from './ChartShell';
import { Readout, readoutSentence } from './Readout';
import { axisTicks, extentOf, isLog, resolveDomain, usable } from './scales';
import { axisTitle, tickFormatter, valueText } from './chartFormat';
import { AXIS_TITLE_BAND, LABEL_FONT, r2, TICK_FONT, textWidth, truncate, X_TITLE_OFFSET } from './layout';
import { HorizontalAxisTitle, VerticalAxisTitle } from './Axes';
import { pointerInPlot } from './zoom';

export interface HeatmapProps extends Omit<ChartBaseProps, 'markers' | 'legend'> {
  rows: readonly string[];
  columns: readonly string[];
  /** values[row][column]; null or non-finite cells are drawn as "no data". */
  values: readonly (readonly (number | null | undefined)[])[];
  /** The colour axis: label, unit, format, linear/log, domain. */
  value: AxisSpec;
  rowAxis?: { label?: string };
  columnAxis?: { label?: string };
  /** Print values in cells that are big enough (default true). */
  cellLabels?: boolean;
}

/** Fill for a position t ∈ [0, 1] on the theme's 3-stop ramp (--heat-1 → --heat-2 → --heat-3), mixed by the browser. */
export function heatFill(t: number): string {
  const u = Math.max(0, Math.min(1, t));
  if (u <= 0.5) return `color-mix(in oklab, var(--heat-2) ${r2(u * 200)}%, var(--heat-1))`;
  return `color-mix(in oklab, var(--heat-3) ${r2((u - 0.5) * 200)}%, var(--heat-2))`;
}

const LEGEND_H = 40;
const LEGEND_STEPS = 32;

export interface Cell {
  r: number;
  c: number;
}

/** The active cell after a key press (undefined: not our key; null: hide). Arrows move, Home/End go along the row. */
export function stepCell(
  key: string,
  act: Cell | null,
  nRows: number,
  nCols: number,
): Cell | null | undefined {
  if (!nRows || !nCols) return undefined;
  const cur = act ?? { r: 0, c: -1 };
  switch (key) {
    case 'ArrowRight':
      return { r: Math.max(0, cur.r), c: Math.min(nCols - 1, cur.c + 1) };
    case 'ArrowLeft':
      return act ? { r: cur.r, c: Math.max(0, cur.c - 1) } : { r: 0, c: nCols - 1 };
    case 'ArrowDown':
      return act ? { r: Math.min(nRows - 1, cur.r + 1), c: cur.c } : { r: 0, c: 0 };
    case 'ArrowUp':
      return act ? { r: Math.max(0, cur.r - 1), c: cur.c } : { r: nRows - 1, c: 0 };
    case 'Home':
      return { r: Math.max(0, cur.r), c: 0 };
    case 'End':
      return { r: Math.max(0, cur.r), c: nCols - 1 };
    case 'Escape':
      return null;
    default:
      return undefined;
  }
}

export function Heatmap(props: HeatmapProps) {
  const {
    rows,
    columns,
    values,
    value,
    rowAxis,
    columnAxis,
    cellLabels = true,
    title,
    description,
    className,
    ref,
    emptyMessage,
  } = props;
  const size0 = useChartSize({ width: props.width, height: props.height ?? 1, aspect: props.aspect });
  const width = size0.width;
  const fmt = tickFormatter(value);

  const flat = useMemo(() => values.flatMap((r) => r.slice(0, columns.length)), [values, columns.length]);
  const ext = extentOf(value, flat);
  const empty = !ext || rows.length === 0 || columns.length === 0;

  const rowTitle = rowAxis?.label ?? '';
  const colTitle = columnAxis?.label ?? '';
  const maxRow = Math.min(width * 0.35, Math.max(0, ...rows.map((s) => textWidth(s, TICK_FONT))));
  const margin = {
    top: LEGEND_H + 8,
    right: 12,
    bottom: 8 + TICK_FONT + 6 + (colTitle ? AXIS_TITLE_BAND : 0),
    left: Math.ceil(maxRow) + 10 + (rowTitle ? AXIS_TITLE_BAND : 0),
  };
  const innerWidth = Math.max(40, Math.floor(width - margin.left - margin.right));
  const cell = Math.max(12, Math.min(36, innerWidth / Math.max(1, columns.length)));
  const autoHeight = margin.top + margin.bottom + Math.round(cell * Math.max(1, rows.length));
  const height = props.height !== undefined ? heightFor(width, { height: props.height }) : autoHeight;
  const innerHeight = Math.max(20, height - margin.top - margin.bottom);
  const size = { ...size0, height };

  const xBand = useMemo(
    () =>
      scaleBand<number>()
        .domain(columns.map((_, i) => i))
        .range([0, innerWidth])
        .paddingInner(0.04),
    [columns, innerWidth],
  );
  const yBand = useMemo(
    () =>
      scaleBand<number>()
        .domain(rows.map((_, i) => i))
        .range([0, innerHeight])
        .paddingInner(0.04),
    [rows, innerHeight],
  );
  const domain = resolveDomain(value, ext, { nice: false });
  const [dom0, dom1] = domain;
  const norm = (isLog(value) ? scaleLog() : scaleLinear()).domain([dom0, dom1]).range([0, 1]).clamp(true);

  // Colour legend: a gradient with ticks from the same domain.
  const legendW = Math.min(260, Math.max(120, innerWidth));
  const legendScale = (isLog(value) ? scaleLog() : scaleLinear()).domain(domain).range([0, legendW]);
  const legendTicks = axisTicks(value, legendScale, 'x');

  const [active, setActive] = useState<Cell | null>(null);
  const act = active && active.r < rows.length && active.c < columns.length ? active : null;
  const onKeyDown = (e: KeyboardEvent<SVGSVGElement>) => {
    const next = stepCell(e.key, act, rows.length, columns.length);
    if (next === undefined) return;
    e.preventDefault();
    setActive(next);
  };
  const fromPointer = (e: PointerEvent<SVGRectElement>) => {
    const at = pointerInPlot(e);
    const c = Math.floor((at.x / innerWidth) * columns.length);
    const r = Math.floor((at.y / innerHeight) * rows.length);
    setActive(r >= 0 && r < rows.length && c >= 0 && c < columns.length ? { r, c } : null);
  };

  const bw = xBand.bandwidth();
  const bh = yBand.bandwidth();
  const colStride = Math.max(
    1,
    Math.ceil(
      (Math.max(...columns.map((c) => Math.min(textWidth(c, TICK_FONT), 60)), 10) + 6) /
        Math.max(1, xBand.step()),
    ),
  );
  const rowStride = Math.max(1, Math.ceil((TICK_FONT * 1.2) / Math.max(1, yBand.step())));
  const labelsFit =
    cellLabels &&
    bh >= 14 &&
    flat.every((v) => !usable(value, v) || textWidth(fmt(v as number), 11) + 4 <= bw);

  const cells = [];
  for (let r = 0; r < rows.length; r++) {
    for (let c = 0; c < columns.length; c++) {
      const v = values[r]?.[c];
      const x = r2(xBand(c)!);
      const y = r2(yBand(r)!);
      const ok = usable(value, v);
      const t = ok ? norm(v) : 0;
      const label = `${rows[r]}, ${columns[c]}: ${ok ? valueText(value, v) : 'no data'}`;
      cells.push(
        <g key={`${r}-${c}`}>
          <rect
            className={`chart-heat-cell${ok ? '' : ' chart-heat-missing'}${act && act.r === r && act.c === c ? ' is-active' : ''}`}
            x={x}
            y={y}
            width={r2(bw)}
            height={r2(bh)}
            role="img"
            aria-label={label}
            style={
              ok
                ? { fill: heatFill(t) }
                : { fill: 'none', stroke: 'var(--chart-grid)', strokeDasharray: '2 2' }
            }
          />
          {labelsFit && ok ? (
            <text
              className="chart-heat-text"
              x={r2(x + bw / 2)}
              y={r2(y + bh / 2)}
              dy="0.35em"
              textAnchor="middle"
              style={{ fill: t > 0.55 ? 'var(--heat-text-hi)' : 'var(--heat-text-lo)' }}
              aria-hidden="true"
            >
              {fmt(v)}
            </text>
          ) : null}
        </g>,
      );
    }
  }

  let readout = null;
  let live = '';
  if (act) {
    const v = values[act.r]?.[act.c];
    const head = `${rowTitle ? `${rowTitle} ` : ''}${rows[act.r]} · ${colTitle ? `${colTitle} ` : ''}${columns[act.c]}`;
    const rowsOut = [{ label: value.label, value: usable(value, v) ? valueText(value, v) : 'no data' }];
    readout = (
      <Readout
        x={r2(xBand(act.c)! + bw / 2)}
        y={r2(yBand(act.r)! + bh / 2)}
        crosshair={false}
        innerWidth={innerWidth}
        innerHeight={innerHeight}
        title={head}
        rows={rowsOut}
      />
    );
    live = readoutSentence(head, rowsOut);
  }

  return (
    <ChartShell
      kind="heatmap"
      role="group"
      size={size}
      fixedWidth={props.width}
      title={title}
      description={description}
      className={className}
      svgRef={ref}
      empty={empty}
      emptyMessage={emptyMessage}
      interactive
      keyboardHint="Use the arrow keys to move between cells; Escape hides the read-out."
      onKeyDown={onKeyDown}
      onBlur={() => setActive(null)}
      live={live}
    >
      <g className="chart-color-legend" transform={`translate(${margin.left},6)`} aria-hidden="true">
        <text className="chart-axis-label" x={0} y={10}>
          {truncate(axisTitle(value), innerWidth, LABEL_FONT)}
        </text>
        {/* Steps rather than a <linearGradient>: each step's fill resolves on export like any other mark. */}
        {Array.from({ length: LEGEND_STEPS }, (_, i) => (
          <rect
            key={i}
            x={r2((i * legendW) / LEGEND_STEPS)}
            y={16}
            width={r2(legendW / LEGEND_STEPS + 0.5)}
            height={10}
            style={{ fill: heatFill((i + 0.5) / LEGEND_STEPS) }}
          />
        ))}
        <rect
          x={0}
          y={16}
          width={legendW}
          height={10}
          style={{ fill: 'none', stroke: 'var(--chart-muted)', strokeWidth: 0.5 }}
        />
        {legendTicks.map((t) => (
          <text
            key={t.value}
            className="chart-tick"
            x={t.pos}
            y={38}
            textAnchor={t.pos < 8 ? 'start' : t.pos > legendW - 8 ? 'end' : 'middle'}
          >
            {t.label}
          </text>
        ))}
      </g>
      <g className="chart-plot" transform={`translate(${margin.left},${margin.top})`}>
        <g className="chart-cells">{cells}</g>
        <g className="chart-axis chart-axis-y" aria-hidden="true">
          {rows.map((rw, i) =>
            i % rowStride === 0 ? (
              <text
                key={i}
                className="chart-tick"
                x={-6}
                y={r2(yBand(i)! + bh / 2)}
                dy="0.32em"
                textAnchor="end"
              >
                {truncate(rw, maxRow, TICK_FONT)}
              </text>
            ) : null,
          )}
          <VerticalAxisTitle
            title={rowTitle}
            x={-margin.left + 4}
            innerHeight={innerHeight}
            roomBelow={margin.bottom - 4}
          />
        </g>
        <g className="chart-axis chart-axis-x" transform={`translate(0,${innerHeight})`} aria-hidden="true">
          {columns.map((cl, i) =>
            i % colStride === 0 ? (
              <text key={i} className="chart-tick" x={r2(xBand(i)! + bw / 2)} y={16} textAnchor="middle">
                {truncate(cl, xBand.step() * colStride - 4, TICK_FONT)}
              </text>
            ) : null,
          )}
          <HorizontalAxisTitle
            title={colTitle}
            y={X_TITLE_OFFSET}
            innerWidth={innerWidth}
            roomLeft={margin.left - (rowTitle ? AXIS_TITLE_BAND : 0) - 4}
            roomRight={margin.right - 4}
          />
        </g>
        {readout}
        <rect
          className="chart-overlay"
          width={innerWidth}
          height={innerHeight}
          onPointerMove={fromPointer}
          onPointerDown={fromPointer}
          onPointerLeave={(e) => e.pointerType === 'mouse' && setActive(null)}
        />
      </g>
    </ChartShell>
  );
}
