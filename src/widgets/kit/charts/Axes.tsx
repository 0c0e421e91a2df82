/** Axes drawn by React from D3 ticks: D3 never touches the DOM. */
import type { Tick } from './scales';
import { LABEL_FONT, r2, textWidth, truncate } from './layout';

export function GridLines({
  xTicks,
  yTicks,
  innerWidth,
  innerHeight,
}: {
  xTicks?: readonly Tick[];
  yTicks?: readonly Tick[];
  innerWidth: number;
  innerHeight: number;
}) {
  return (
    <g className="chart-grids" aria-hidden="true">
      {yTicks?.map((t) => (
        <line key={`y${t.value}`} className="chart-grid" x1={0} x2={innerWidth} y1={r(t.pos)} y2={r(t.pos)} />
      ))}
      {xTicks?.map((t) => (
        <line
          key={`x${t.value}`}
          className="chart-grid"
          x1={r(t.pos)}
          x2={r(t.pos)}
          y1={0}
          y2={innerHeight}
        />
      ))}
    </g>
  );
}

/** Round to half pixels so 1 px lines stay crisp. */
function r(v: number): number {
  return Math.round(v) + 0.5;
}

export function XAxis({
  ticks,
  innerWidth,
  innerHeight,
  title,
  titleOffset,
  roomLeft = 0,
  roomRight = 0,
  marks = true,
}: {
  ticks: readonly Tick[];
  innerWidth: number;
  innerHeight: number;
  title?: string;
  titleOffset: number;
  /**
   * Widths left and right of the plot the title may use when it is wider than the plot: under the y tick labels,
   * and the direct labels' column.
   */
  roomLeft?: number;
  roomRight?: number;
  /** The axis line and a mark at each tick; a bar chart's value axis prints its tick labels alone. */
  marks?: boolean;
}) {
  return (
    <g className="chart-axis chart-axis-x" transform={`translate(0,${innerHeight})`}>
      {marks ? <line className="chart-domain" x1={0} x2={innerWidth} y1={0.5} y2={0.5} /> : null}
      {ticks.map((t) =>
        marks ? (
          <g key={t.value} className="chart-tick-mark" transform={`translate(${r(t.pos)},0)`}>
            <line className="chart-domain" y1={0} y2={5} />
            <text className="chart-tick" y={17} textAnchor="middle">
              {t.label}
            </text>
          </g>
        ) : (
          <text key={t.value} className="chart-tick" x={r2(t.pos)} y={17} textAnchor="middle">
            {t.label}
          </text>
        ),
      )}
      <HorizontalAxisTitle
        title={title}
        y={titleOffset}
        innerWidth={innerWidth}
        roomLeft={roomLeft}
        roomRight={roomRight}
      />
    </g>
  );
}

/**
 * The title of a horizontal axis at `y` below it, centred under the plot when it fits there; otherwise centred over
 * the plot and the room beside it (under the tick labels on the left, a direct labels' column on the right), so
 * "Offered load (new sessions/s)" over a narrow plot reads whole instead of ending in "…".
 */
export function HorizontalAxisTitle({
  title,
  y,
  innerWidth,
  roomLeft = 0,
  roomRight = 0,
}: {
  title?: string;
  y: number;
  innerWidth: number;
  roomLeft?: number;
  roomRight?: number;
}) {
  if (!title) return null;
  const wide = textWidth(title, LABEL_FONT) > innerWidth;
  const left = wide ? -Math.max(0, roomLeft) : 0;
  const right = wide ? innerWidth + Math.max(0, roomRight) : innerWidth;
  return (
    <text className="chart-axis-label" x={r2((left + right) / 2)} y={y} textAnchor="middle">
      {truncate(title, right - left, LABEL_FONT)}
    </text>
  );
}

export function YAxis({
  ticks,
  innerHeight,
  title,
  titleOffset,
  roomBelow = 0,
  marks = true,
}: {
  ticks: readonly Tick[];
  innerHeight: number;
  title?: string;
  titleOffset: number;
  /** Height below the plot the title may run on into when it is longer than the plot is tall. */
  roomBelow?: number;
  /** The axis line and a mark at each tick; a bar chart's value axis prints its tick labels alone. */
  marks?: boolean;
}) {
  return (
    <g className="chart-axis chart-axis-y">
      {marks ? <line className="chart-domain" x1={-0.5} x2={-0.5} y1={0} y2={innerHeight} /> : null}
      {ticks.map((t) =>
        marks ? (
          <g key={t.value} className="chart-tick-mark" transform={`translate(0,${r(t.pos)})`}>
            <line className="chart-domain" x1={-5} x2={0} />
            <text className="chart-tick" x={-8} dy="0.32em" textAnchor="end">
              {t.label}
            </text>
          </g>
        ) : (
          <text key={t.value} className="chart-tick" x={-8} y={r2(t.pos)} dy="0.32em" textAnchor="end">
            {t.label}
          </text>
        ),
      )}
      <VerticalAxisTitle title={title} x={-titleOffset} innerHeight={innerHeight} roomBelow={roomBelow} />
    </g>
  );
}

/**
 * The title of a vertical axis, read bottom to top at `x` (the left edge of its band), centred on the plot when it
 * fits there. A short chart's title ("Agents per MW" beside a 90 px plot) runs on into the room below the plot (the
 * corner under the tick labels, `roomBelow`) before it is cut with "…".
 */
export function VerticalAxisTitle({
  title,
  x,
  innerHeight,
  roomBelow = 0,
}: {
  title?: string;
  x: number;
  innerHeight: number;
  roomBelow?: number;
}) {
  if (!title) return null;
  const length =
    textWidth(title, LABEL_FONT) > innerHeight ? innerHeight + Math.max(0, roomBelow) : innerHeight;
  return (
    <text
      className="chart-axis-label"
      transform={`translate(${r2(x)},${r2(length / 2)}) rotate(-90)`}
      textAnchor="middle"
      dy="0.7em"
    >
      {truncate(title, length, LABEL_FONT)}
    </text>
  );
}
