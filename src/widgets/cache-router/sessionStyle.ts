/**
 * How a session looks in lesson 07.03's pictures: a colour, a shape AND a label ("S7"), so colour never carries
 * the session alone. Sessions 1–7 are circles in seven of the series colours (all but sky blue, which beside blue
 * reads as the same session: kit DISTINCT_SLOTS), 8–14 squares, 15–21 triangles, 22–28 diamonds, …
 */
import { symbol, symbolCircle, symbolDiamond, symbolSquare, symbolTriangle, type SymbolType } from 'd3';
import { DISTINCT_SLOTS, distinctColor } from '../kit/charts/theme';

/** Sessions of one shape: one of each colour. */
const PER_SHAPE = DISTINCT_SLOTS.length;

const SHAPES: readonly SymbolType[] = [symbolCircle, symbolSquare, symbolTriangle, symbolDiamond];
export const SHAPE_NAMES = ['circle', 'square', 'triangle', 'diamond'] as const;

/** Session index (from 0) → its label, counted from 1. */
export function sessionLabel(s: number): string {
  return s < 0 ? 'shared' : `S${s + 1}`;
}

export function sessionColor(s: number): string {
  return s < 0 ? 'var(--chart-muted)' : distinctColor(s);
}

export function sessionShapeName(s: number): (typeof SHAPE_NAMES)[number] {
  return SHAPE_NAMES[Math.floor(Math.max(0, s) / PER_SHAPE) % SHAPES.length];
}

/** An SVG path centred on (0, 0) for the session's mark; `size` is its area in px². */
export function sessionPath(s: number, size: number): string {
  return symbol(SHAPES[Math.floor(Math.max(0, s) / PER_SHAPE) % SHAPES.length], size)() ?? '';
}
