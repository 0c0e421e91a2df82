/** Fill patterns for bars and areas: a second carrier next to colour. Series 0 is solid. */
import { seriesColor } from './theme';

const PATHS: readonly (string | null)[] = [
  null,
  'M-1,1 l2,-2 M0,8 l8,-8 M7,9 l2,-2', // diagonal
  'M0,4 h8', // horizontal
  'M-1,1 l2,-2 M0,8 l8,-8 M7,9 l2,-2 M-1,7 l2,2 M0,0 l8,8 M7,-1 l2,2', // cross-hatch
  'M4,0 v8', // vertical
  'M-1,7 l2,2 M0,0 l8,8 M7,-1 l2,2', // anti-diagonal
  'M0,4 h8 M4,0 v8', // grid
  'DOTS',
];

export function patternId(prefix: string, i: number): string {
  return `${prefix}-p${i}`;
}

/** The fill for series i: its colour when solid, else url(#pattern). */
export function seriesFill(prefix: string, i: number): string {
  return PATHS[i % PATHS.length] === null ? seriesColor(i) : `url(#${patternId(prefix, i)})`;
}

/**
 * One 8 × 8 fill pattern: the colour, with the pattern's strokes (a path, or 'DOTS') in the chart's background
 * over it. Every patterned fill is drawn by this, the kit's series and a widget's own parts alike.
 */
export function FillPattern({ id, color, pattern }: { id: string; color: string; pattern: string }) {
  return (
    <pattern id={id} patternUnits="userSpaceOnUse" width={8} height={8}>
      <rect width={8} height={8} style={{ fill: color }} />
      {pattern === 'DOTS' ? (
        <circle cx={4} cy={4} r={1.6} style={{ fill: 'var(--chart-bg)' }} />
      ) : (
        <path d={pattern} style={{ stroke: 'var(--chart-bg)', strokeWidth: 1.6, strokeOpacity: 0.85 }} />
      )}
    </pattern>
  );
}

export function SeriesPatterns({ prefix, count }: { prefix: string; count: number }) {
  const items = [];
  for (let i = 0; i < count; i++) {
    const d = PATHS[i % PATHS.length];
    if (d === null) continue;
    items.push(<FillPattern key={i} id={patternId(prefix, i)} color={seriesColor(i)} pattern={d} />);
  }
  return items.length ? <defs>{items}</defs> : null;
}

/** A widget's own parts of a stack or a bar: each drawn in its colour, hatched with its pattern when it has one. */
export interface PatternedPart {
  key: string;
  color: string;
  pattern: string | null;
}

/** The fill of part i of `parts`: its colour when solid, else url(#pattern) (drawn by PartPatterns). */
export function partFill(prefix: string, parts: readonly PatternedPart[], i: number): string {
  const p = parts[i];
  return p.pattern ? `url(#${patternId(prefix, i)})` : p.color;
}

/** The patterns of a widget's own parts, for partFill. */
export function PartPatterns({ prefix, parts }: { prefix: string; parts: readonly PatternedPart[] }) {
  return (
    <defs>
      {parts.map((p, i) =>
        p.pattern ? (
          <FillPattern key={p.key} id={patternId(prefix, i)} color={p.color} pattern={p.pattern} />
        ) : null,
      )}
    </defs>
  );
}
