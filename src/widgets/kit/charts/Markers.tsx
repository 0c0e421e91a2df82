/**
 * Markers and annotations: vertical/horizontal rules with labels, labelled points, shaded x-ranges. Labels go where
 * no data line, rule or other label runs through them (markerPlacement.ts), over a halo in the chart's background.
 */
import { useMemo } from 'react';
import type { Marker, XY } from './types';
import { r2 } from './layout';
import { toneColor } from './theme';
import { placeMarkerLabels, pointRadius, type PlacedMark } from './markerPlacement';

export { xRuleLabelPlace } from './markerPlacement';

/** Data → px on one axis: `at` rejects values off the axis; `clamp` pins them to its ends. */
export interface Positioner {
  at(v: number): number | null;
  clamp(v: number): number | null;
}

export interface MarkersProps {
  markers: readonly Marker[] | undefined;
  /** Data → px on the horizontal axis; null when the value is off the axis. */
  x?: Positioner;
  /** Data → px on the vertical axis. */
  y?: Positioner;
  innerWidth: number;
  innerHeight: number;
  /** Draw bands only (they go beneath the data) or everything else (above). */
  layer: 'under' | 'over';
  /** The chart's data lines in plot pixels: labels are placed where none of them runs (markerPlacement.ts). */
  avoid?: readonly (readonly XY[])[];
}

/** A position function that rejects values outside the scale's domain (and non-finite ones). */
export function positionIn(scale: { (v: number): number; domain(): number[] }, log = false): Positioner {
  const [a, b] = scale.domain();
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  const eps = (hi - lo) * 1e-9;
  const at = (v: number) => {
    if (!Number.isFinite(v) || (log && v <= 0)) return null;
    if (v < lo - eps || v > hi + eps) return null;
    const p = scale(v);
    return Number.isFinite(p) ? r2(p) : null;
  };
  const clamp = (v: number) => {
    if (Number.isNaN(v)) return null;
    const c = log && v <= 0 ? lo : Math.min(hi, Math.max(lo, v));
    const p = scale(c);
    return Number.isFinite(p) ? r2(p) : null;
  };
  return { at, clamp };
}

function Label({
  x,
  y,
  text,
  whole,
  color,
  anchor,
  alongRule,
}: {
  x: number;
  y: number;
  text: string;
  /** The whole label, where `text` is its short form: a title, so the pointer and a screen reader get it all. */
  whole?: string;
  color: string;
  anchor: 'start' | 'middle' | 'end';
  /** Up along its vertical rule, turned a quarter turn about (x, y) (markerPlacement.ts LabelSpot). */
  alongRule?: boolean;
}) {
  const drawn = (
    <text
      className="chart-marker-label"
      x={x}
      y={y}
      textAnchor={anchor}
      transform={alongRule ? `rotate(-90 ${x} ${y})` : undefined}
      style={{ fill: color }}
    >
      {text}
    </text>
  );
  // The title beside the text, not in it: the label's text stays what is drawn.
  return whole ? (
    <g>
      <title>{whole}</title>
      {drawn}
    </g>
  ) : (
    drawn
  );
}

export function Markers({ markers, x, y, innerWidth, innerHeight, layer, avoid }: MarkersProps) {
  // Marks in plot pixels (null: off the axis), then where each label goes (markerPlacement.ts). Both layers compute
  // the same placement, so a band's label (drawn under the data) and the rest agree; the layer under the data
  // skips it when it has no band's label to draw.
  const marks = useMemo(() => resolveMarks(markers, x, y), [markers, x, y]);
  const needed = layer === 'over' || marks.some((m) => m?.kind === 'band' && !!m.label);
  const spots = useMemo(
    () => (needed ? placeMarkerLabels(marks, innerWidth, innerHeight, { lines: avoid }) : []),
    [needed, marks, innerWidth, innerHeight, avoid],
  );
  if (!markers?.length) return null;
  const out = markers.map((m, i) => {
    const color = toneColor(m.tone);
    const key = `${m.kind}-${i}`;
    const mark = marks[i];
    const spot = spots[i] ?? null;
    const label =
      m.label && spot ? (
        <Label
          x={r2(spot.x)}
          y={r2(spot.y)}
          text={spot.short && m.shortLabel ? m.shortLabel : m.label}
          whole={spot.short ? m.label : undefined}
          color={color}
          anchor={spot.anchor}
          alongRule={spot.alongRule}
        />
      ) : null;
    if (!mark) return null;
    if (mark.kind === 'band') {
      if (layer !== 'under') return null;
      const x0 = Math.min(mark.x0, mark.x1);
      const w = Math.abs(mark.x1 - mark.x0);
      return (
        <g key={key} className="chart-marker chart-marker-band-group" data-marker="band">
          <rect className="chart-marker-band" x={x0} y={0} width={w} height={innerHeight} />
          {label}
        </g>
      );
    }
    if (layer !== 'over') return null;
    if (mark.kind === 'x') {
      const px = mark.px;
      return (
        <g key={key} className="chart-marker" data-marker="x" data-x={px}>
          <line
            className="chart-marker-rule"
            x1={px}
            x2={px}
            y1={0}
            y2={innerHeight}
            style={{ stroke: color }}
          />
          {label}
        </g>
      );
    }
    if (mark.kind === 'y') {
      const py = mark.py;
      return (
        <g key={key} className="chart-marker" data-marker="y" data-y={py}>
          <line
            className="chart-marker-rule"
            x1={0}
            x2={innerWidth}
            y1={py}
            y2={py}
            style={{ stroke: color }}
          />
          {label}
        </g>
      );
    }
    const { px, py } = mark;
    const radius = pointRadius(mark.ringsSymbol);
    return (
      <g key={key} className="chart-marker" data-marker="point" data-x={px} data-y={py}>
        {mark.ringsSymbol ? (
          // Round the series' own symbol, unfilled and thin: its colour is what the point says.
          <circle className="chart-marker-ring" cx={px} cy={py} r={radius} style={{ stroke: color }} />
        ) : (
          <circle
            cx={px}
            cy={py}
            r={radius}
            style={{ fill: 'var(--chart-bg)', stroke: color, strokeWidth: 2.5 }}
          />
        )}
        {label}
      </g>
    );
  });
  return <g className={`chart-markers chart-markers-${layer}`}>{out}</g>;
}

/** Each marker in plot pixels, or null where it is off its axis (a band's edges clamp to the axis). */
function resolveMarks(
  markers: readonly Marker[] | undefined,
  x: Positioner | undefined,
  y: Positioner | undefined,
): (PlacedMark | null)[] {
  return (markers ?? []).map((m): PlacedMark | null => {
    if (m.kind === 'band') {
      const a = x?.clamp(m.x0) ?? null;
      const b = x?.clamp(m.x1) ?? null;
      if (a === null || b === null || a === b) return null;
      return { kind: 'band', x0: a, x1: b, label: m.label, shortLabel: m.shortLabel };
    }
    if (m.kind === 'x') {
      const px = x?.at(m.x) ?? null;
      return px === null
        ? null
        : { kind: 'x', px, label: m.label, shortLabel: m.shortLabel, labelAt: m.labelAt };
    }
    if (m.kind === 'y') {
      const py = y?.at(m.y) ?? null;
      return py === null ? null : { kind: 'y', py, label: m.label, shortLabel: m.shortLabel };
    }
    const px = x?.at(m.x) ?? null;
    const py = y?.at(m.y) ?? null;
    return px === null || py === null
      ? null
      : {
          kind: 'point',
          px,
          py,
          label: m.label,
          shortLabel: m.shortLabel,
          labelBelow: m.labelBelow,
          ringsSymbol: m.ringsSymbol,
        };
  });
}
