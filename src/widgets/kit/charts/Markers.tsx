/** Markers and annotations: vertical/horizontal rules with labels, labelled points, shaded x-ranges. */
import type { Marker } from './types';
import { r2, textWidth } from './layout';
import { toneColor } from './theme';

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
}

const FONT = 11;

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
  color,
  anchor,
}: {
  x: number;
  y: number;
  text: string;
  color: string;
  anchor: 'start' | 'middle' | 'end';
}) {
  return (
    <text className="chart-marker-label" x={x} y={y} textAnchor={anchor} style={{ fill: color }}>
      {text}
    </text>
  );
}

/**
 * Where a vertical rule's label goes: beside the rule, right of it in the plot's left part and left of it in the
 * right part, on whichever side has room; a label wider than either side is kept inside the plot (ending at its
 * right edge, or starting at its left) rather than run over the y axis's ticks or out of the chart.
 */
export function xRuleLabelPlace(
  px: number,
  width: number,
  innerWidth: number,
): { x: number; anchor: 'start' | 'end' } {
  const fitsRight = px + 4 + width <= innerWidth;
  const fitsLeft = px - 4 - width >= 0;
  if (fitsRight && (px <= innerWidth * 0.62 || !fitsLeft)) return { x: px + 4, anchor: 'start' };
  if (fitsLeft) return { x: px - 4, anchor: 'end' };
  return { x: Math.max(0, innerWidth - width), anchor: 'start' };
}

export function Markers({ markers, x, y, innerWidth, innerHeight, layer }: MarkersProps) {
  if (!markers?.length) return null;
  // Rule labels stack in up to three rows from the top (or from the bottom, labelAt 'bottom'), so neighbours
  // do not print over each other.
  const rows = { top: 0, bottom: 0 };
  const out = markers.map((m, i) => {
    const color = toneColor(m.tone);
    const key = `${m.kind}-${i}`;
    if (m.kind === 'band') {
      if (layer !== 'under' || !x) return null;
      const a = x.clamp(m.x0);
      const b = x.clamp(m.x1);
      if (a === null || b === null || a === b) return null;
      const x0 = Math.min(a, b);
      const w = Math.abs(b - a);
      return (
        <g key={key} className="chart-marker chart-marker-band-group" data-marker="band">
          <rect className="chart-marker-band" x={x0} y={0} width={w} height={innerHeight} />
          {m.label ? (
            <Label x={r2(x0 + w / 2)} y={innerHeight - 6} text={m.label} color={color} anchor="middle" />
          ) : null}
        </g>
      );
    }
    if (layer !== 'over') return null;
    if (m.kind === 'x') {
      const px = x?.at(m.x) ?? null;
      if (px === null) return null;
      const at = m.labelAt ?? 'top';
      const row = rows[at]++ % 3;
      const labelY = at === 'top' ? 12 + row * 14 : innerHeight - 6 - row * 14;
      const place = m.label ? xRuleLabelPlace(px, textWidth(m.label, FONT), innerWidth) : null;
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
          {m.label && place ? (
            <Label x={place.x} y={labelY} text={m.label} color={color} anchor={place.anchor} />
          ) : null}
        </g>
      );
    }
    if (m.kind === 'y') {
      const py = y?.at(m.y) ?? null;
      if (py === null) return null;
      const below = py < 16;
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
          {m.label ? (
            <Label
              x={innerWidth - 4}
              y={below ? py + 14 : py - 5}
              text={m.label}
              color={color}
              anchor="end"
            />
          ) : null}
        </g>
      );
    }
    const px = x?.at(m.x) ?? null;
    const py = y?.at(m.y) ?? null;
    if (px === null || py === null) return null;
    const right = m.label ? px + 8 + textWidth(m.label, FONT) > innerWidth : false;
    const below = m.labelBelow === true || py < 18;
    return (
      <g key={key} className="chart-marker" data-marker="point" data-x={px} data-y={py}>
        <circle cx={px} cy={py} r={5} style={{ fill: 'var(--chart-bg)', stroke: color, strokeWidth: 2.5 }} />
        {m.label ? (
          <Label
            x={right ? px - 8 : px + 8}
            y={below ? py + 16 : py - 8}
            text={m.label}
            color={color}
            anchor={right ? 'end' : 'start'}
          />
        ) : null}
      </g>
    );
  });
  return <g className={`chart-markers chart-markers-${layer}`}>{out}</g>;
}
