/**
 * How the trajectory chart (TrajectoryChart.tsx) marks a turn and a prompt, in the plot and its legend alike: what
 * a turn found, said in words, drawn as a symbol (warm ●, an older prefix ◆, cold ✕, the first turn ○) in its
 * colour; and the three parts of a prompt, each a colour and a texture (colour never alone).
 */
import type { CSSProperties } from 'react';
import { symbol as d3symbol, symbolCircle, symbolDiamond, symbolX } from 'd3';
import type { TurnKind } from '../../sim/lessons/affinity';

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

export function symbolPath(kind: TurnKind, size: number): string {
  return d3symbol(KIND_SYMBOL[kind], size)() ?? '';
}

/**
 * A turn kind's symbol: the first turn hollow, a cold one a stroked cross, the others filled. In the plot the
 * current turn's is outlined (the cross drawn heavier); the legend's carries no outline.
 */
export function turnSymbolStyle(kind: TurnKind, at: 'legend' | 'turn' | 'current'): CSSProperties {
  if (kind === 'first') return { fill: 'var(--chart-bg)', stroke: KIND_COLOR.first, strokeWidth: 1.5 };
  if (kind === 'cold')
    return {
      fill: 'none',
      stroke: KIND_COLOR.cold,
      strokeWidth: at === 'legend' ? 2.5 : at === 'current' ? 3 : 2.2,
    };
  if (at === 'legend') return { fill: KIND_COLOR[kind] };
  return { fill: KIND_COLOR[kind], stroke: at === 'current' ? 'var(--chart-fg)' : 'none', strokeWidth: 1.5 };
}

/** The route legend's entries, in the order it lists them. */
export const ROUTE_LEGEND: { kind: TurnKind; label: string }[] = [
  { kind: 'warm', label: 'warm' },
  { kind: 'partial', label: 'older prefix' },
  { kind: 'cold', label: 'cold' },
  { kind: 'first', label: 'first turn' },
];

/** Fills of the three parts of a prompt: colour and a texture. */
export const PARTS = [
  { key: 'reused', label: 'reused from cache', color: 'var(--series-3)', pattern: null },
  {
    key: 're',
    label: 're-prefilled (computed before)',
    color: 'var(--chart-danger)',
    pattern: 'M-1,1 l2,-2 M0,8 l8,-8 M7,9 l2,-2',
  },
  { key: 'new', label: 'prefilled: new tokens', color: 'var(--series-1)', pattern: 'M0,2 h8 M0,6 h8' },
] as const;
