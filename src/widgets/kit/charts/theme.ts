/** Series styling: colour AND a second carrier (dash pattern, symbol, fill pattern), so colour never carries meaning alone. */
import {
  symbol,
  symbolCircle,
  symbolCross,
  symbolDiamond,
  symbolSquare,
  symbolStar,
  symbolTriangle,
  symbolWye,
  type SymbolType,
} from 'd3';
import type { Tone } from './types';

export const SERIES_COUNT = 8;

export function seriesColor(i: number): string {
  return `var(--series-${(((i % SERIES_COUNT) + SERIES_COUNT) % SERIES_COUNT) + 1})`;
}

/**
 * The palette's slots for marks of one kind many of which are drawn together (sessions, each its own colour): every
 * hue but sky blue (slot 5), which beside blue (slot 0) reads as the same mark on a washed-out projector. A chart of
 * named series picks its hues from what its lesson compares instead (e.g. RouterSweep's POLICY_COLORS).
 */
export const DISTINCT_SLOTS: readonly number[] = [0, 1, 2, 3, 4, 6, 7];

/** The colour of mark i of a kind drawn many at a time: DISTINCT_SLOTS in turn. */
export function distinctColor(i: number): string {
  const n = DISTINCT_SLOTS.length;
  return seriesColor(DISTINCT_SLOTS[((i % n) + n) % n]);
}

/** Stroke dash patterns, one per series slot; the first is solid. */
export const DASHES = ['', '7 4', '2 3', '10 3 2 3', '4 2', '12 4', '2 2 6 2', '1 4'] as const;

export function seriesDash(i: number): string | undefined {
  const d = DASHES[i % DASHES.length];
  return d === '' ? undefined : d;
}

const SYMBOLS: readonly SymbolType[] = [
  symbolCircle,
  symbolSquare,
  symbolTriangle,
  symbolDiamond,
  symbolCross,
  symbolStar,
  symbolWye,
  symbolCircle,
];

/** An SVG path (centred on 0,0) for the series' point symbol; `size` is the area in px². */
export function seriesSymbolPath(i: number, size = 42): string {
  return symbol(SYMBOLS[i % SYMBOLS.length], size)() ?? '';
}

/**
 * A marker's colour. Rules and points are drawn in the text's ink (the default) or in grey, red and green for the
 * semantic tones, never in the accent blue: beside the first series, blue too, a student could not tell the rule
 * from the data. The rules' dash (charts.css .chart-marker-rule) is the second carrier.
 */
export function toneColor(tone: Tone | undefined): string {
  switch (tone) {
    case 'danger':
      return 'var(--chart-danger)';
    case 'ok':
      return 'var(--chart-ok)';
    case 'muted':
      return 'var(--chart-muted)';
    default:
      return 'var(--chart-fg)';
  }
}

/** Resolve `var(--name)` (or a bare `--name`) to a concrete colour, for canvas drawing. */
export function resolveCssColor(el: Element | null, value: string, fallback = '#888'): string {
  const m = /^var\((--[\w-]+)\)$/.exec(value.trim());
  const name = m ? m[1] : value.startsWith('--') ? value : null;
  if (!name) return value;
  if (!el || typeof getComputedStyle !== 'function') return fallback;
  const v = getComputedStyle(el).getPropertyValue(name).trim();
  return v || fallback;
}
