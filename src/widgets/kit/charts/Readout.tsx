/** Hover and keyboard read-out: a crosshair, focus dots and a tooltip listing x and every series' value with units. */
import { useCallback, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { textWidth } from './layout';
import { Swatch, type SwatchKind } from './Legend';
import { pointerInPlot } from './zoom';

export interface ReadoutRow {
  label: string;
  value: string;
  /** Series slot, for the swatch. */
  index?: number;
  color?: string;
  dash?: string;
}

export interface ReadoutDot {
  x: number;
  y: number;
  color: string;
}

export interface ReadoutState {
  index: number | null;
  setIndex: (i: number | null) => void;
  onKeyDown: (e: KeyboardEvent<SVGSVGElement>) => void;
  onBlur: () => void;
  /** Handlers for the transparent overlay over the plot area. */
  overlay: {
    onPointerMove: (e: PointerEvent<SVGRectElement>) => void;
    onPointerDown: (e: PointerEvent<SVGRectElement>) => void;
    onPointerLeave: (e: PointerEvent<SVGRectElement>) => void;
  };
}

/**
 * The read-out index after a key press, or undefined when the key is not ours. ←/→ (↑/↓ when `vertical`) step,
 * PageUp/PageDown jump a tenth, Home/End go to the ends, Escape hides (null). The first arrow press from no
 * read-out starts at the matching end.
 */
export function stepIndex(
  key: string,
  index: number | null,
  count: number,
  vertical = false,
): number | null | undefined {
  if (count <= 0) return undefined;
  const big = Math.max(1, Math.round(count / 10));
  const cur = index !== null && index >= 0 && index < count ? index : null;
  switch (key) {
    case vertical ? 'ArrowDown' : 'ArrowRight':
      return cur === null ? 0 : Math.min(count - 1, cur + 1);
    case vertical ? 'ArrowUp' : 'ArrowLeft':
      return cur === null ? count - 1 : Math.max(0, cur - 1);
    case 'PageDown':
      return Math.min(count - 1, (cur ?? -1) + big);
    case 'PageUp':
      return Math.max(0, (cur ?? count) - big);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'Escape':
      return null;
    default:
      return undefined;
  }
}

/**
 * Read-out index over `count` positions. `indexAt(px, py)` maps a pointer position inside the plot area to
 * an index (or null). ←/→ step, PageUp/PageDown jump a tenth, Home/End go to the ends, Escape hides.
 */
export function useReadout(
  count: number,
  indexAt: (px: number, py: number) => number | null,
  vertical = false,
): ReadoutState {
  const [raw, setRaw] = useState<number | null>(null);
  const index = raw !== null && raw >= 0 && raw < count ? raw : null;

  const onKeyDown = useCallback(
    (e: KeyboardEvent<SVGSVGElement>) => {
      const n = stepIndex(e.key, index, count, vertical);
      if (n === undefined) return;
      e.preventDefault();
      setRaw(n);
    },
    [count, index, vertical],
  );

  const fromPointer = useCallback(
    (e: PointerEvent<SVGRectElement>) => {
      const at = pointerInPlot(e);
      setRaw(indexAt(at.x, at.y));
    },
    [indexAt],
  );

  return {
    index,
    setIndex: setRaw,
    onKeyDown,
    onBlur: () => setRaw(null),
    overlay: {
      onPointerMove: fromPointer,
      onPointerDown: fromPointer,
      onPointerLeave: (e) => {
        if (e.pointerType === 'mouse') setRaw(null);
      },
    },
  };
}

const ROW = 17;
const FONT = 12;

export interface ReadoutProps {
  /** Crosshair position in plot coordinates: a vertical line at x, or a horizontal line at y. */
  x?: number;
  y?: number;
  innerWidth: number;
  innerHeight: number;
  title: string;
  rows: readonly ReadoutRow[];
  dots?: readonly ReadoutDot[];
  swatch?: SwatchKind;
  prefix?: string;
  /** Draw the crosshair line(s) (default true); x/y still place the tooltip. */
  crosshair?: boolean;
  /** Point symbols on line swatches (match the chart's legend). */
  symbol?: boolean;
}

export function Readout({
  x,
  y,
  innerWidth,
  innerHeight,
  title,
  rows,
  dots,
  swatch = 'line',
  prefix,
  crosshair = true,
  symbol = true,
}: ReadoutProps) {
  const textRows = rows.map((r) => `${r.label}: ${r.value}`);
  const hasSwatch = rows.some((r) => r.index !== undefined || r.color);
  const w =
    Math.ceil(
      Math.max(
        textWidth(title, FONT) * 1.1 + 8,
        ...textRows.map((t) => textWidth(t, FONT) + (hasSwatch ? 30 : 0)),
      ),
    ) + 16;
  const h = (rows.length + 1) * ROW + 10;
  const ax = x ?? innerWidth / 2;
  const ay = y ?? 0;
  let left = ax + 12;
  if (left + w > innerWidth) left = ax - 12 - w;
  if (left < 0) left = Math.max(0, Math.min(innerWidth - w, ax - w / 2));
  let top = y === undefined ? 4 : ay + 12;
  if (top + h > innerHeight && y !== undefined) top = Math.max(0, ay - 12 - h);
  return (
    <g className="chart-readout" aria-hidden="true">
      {crosshair && x !== undefined ? (
        <line className="chart-crosshair" x1={x} x2={x} y1={0} y2={innerHeight} />
      ) : null}
      {crosshair && y !== undefined ? (
        <line className="chart-crosshair" x1={0} x2={innerWidth} y1={y} y2={y} />
      ) : null}
      {dots?.map((d, i) => (
        <circle key={i} className="chart-focus-dot" cx={d.x} cy={d.y} r={4.5} style={{ fill: d.color }} />
      ))}
      <g className="chart-tooltip" transform={`translate(${Math.round(left)},${Math.round(top)})`}>
        <rect className="chart-tooltip-box" width={w} height={h} rx={4} />
        <text className="chart-tooltip-text chart-tooltip-title" x={8} y={ROW}>
          {title}
        </text>
        {rows.map((r, i) => (
          <g key={i} transform={`translate(8,${ROW * (i + 1) + ROW / 2 + 4})`}>
            {hasSwatch ? (
              <Swatch
                index={r.index ?? 0}
                kind={swatch}
                prefix={prefix}
                color={r.color}
                dash={r.dash}
                symbol={symbol}
              />
            ) : null}
            <text className="chart-tooltip-text" x={hasSwatch ? 30 : 0} dy="0.35em">
              {textRows[i]}
            </text>
          </g>
        ))}
      </g>
    </g>
  );
}

/** The same read-out as one sentence, for the live region. */
export function readoutSentence(title: string, rows: readonly ReadoutRow[]): string {
  return [title, ...rows.map((r) => `${r.label}: ${r.value}`)].join('; ');
}
