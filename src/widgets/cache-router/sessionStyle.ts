/**
 * How a session looks in lesson 07.03's pictures: a colour, a shape AND a label ("S7"), so colour never carries
 * the session alone. Sessions 1–8 are circles in the eight series colours, 9–16 squares, 17–24 triangles, …
 */
import { symbol, symbolCircle, symbolDiamond, symbolSquare, symbolTriangle, type SymbolType } from 'd3';
import { SERIES_COUNT, seriesColor } from '../kit/charts/theme';

const SHAPES: readonly SymbolType[] = [symbolCircle, symbolSquare, symbolTriangle, symbolDiamond];
export const SHAPE_NAMES = ['circle', 'square', 'triangle', 'diamond'] as const;

/** Session index (from 0) → its label, counted from 1. */
export function sessionLabel(s: number): string {
  return s < 0 ? 'shared' : `S${s + 1}`;
}

export function sessionColor(s: number): string {
  return s < 0 ? 'var(--chart-muted)' : seriesColor(s % SERIES_COUNT);
}

export function sessionShapeName(s: number): (typeof SHAPE_NAMES)[number] {
  return SHAPE_NAMES[Math.floor(Math.max(0, s) / SERIES_COUNT) % SHAPES.length];
}

/** An SVG path centred on (0, 0) for the session's mark; `size` is its area in px². */
export function sessionPath(s: number, size: number): string {
  return symbol(SHAPES[Math.floor(Math.max(0, s) / SERIES_COUNT) % SHAPES.length], size)() ?? '';
}
