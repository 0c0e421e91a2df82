/** Legend inside the SVG (so it exports): each series by colour AND dash pattern, symbol or fill pattern. */
import type { CSSProperties } from 'react';
import { LEGEND_LINE, type LegendItemLayout } from './layout';
import { seriesColor, seriesDash, seriesSymbolPath } from './theme';
import { seriesFill } from './patterns';
import { TextLines } from './TextLines';

export type SwatchKind = 'line' | 'bar' | 'symbol';

export interface SwatchProps {
  index: number;
  kind: SwatchKind;
  /** Pattern id prefix (bars). */
  prefix?: string;
  /** Draw the point symbol on line swatches. */
  symbol?: boolean;
  /** Explicit colour (otherwise the series slot colour). */
  color?: string;
  dash?: string;
}

/** A bar's 22×12 swatch with its top-left at (0, -6). */
function BarSwatch({ fill, stroke, strokeWidth }: { fill: string; stroke: string; strokeWidth?: number }) {
  return <rect x={0} y={-6} width={22} height={12} rx={2} style={{ fill, stroke, strokeWidth }} />;
}

/** A 22×12 swatch with its top-left at (0, -6). */
export function Swatch({ index, kind, prefix = '', symbol = true, color, dash }: SwatchProps) {
  const c = color ?? seriesColor(index);
  if (kind === 'bar') {
    return <BarSwatch fill={color ?? seriesFill(prefix, index)} stroke={c} strokeWidth={1} />;
  }
  if (kind === 'symbol') {
    return (
      <path
        className="chart-symbol"
        transform="translate(11,0)"
        d={seriesSymbolPath(index, 56)}
        style={{ fill: c }}
      />
    );
  }
  return (
    <g>
      <line
        className="chart-line"
        x1={0}
        x2={22}
        y1={0}
        y2={0}
        style={{ stroke: c }}
        strokeDasharray={dash ?? seriesDash(index)}
      />
      {symbol ? (
        <path
          className="chart-symbol"
          transform="translate(11,0)"
          d={seriesSymbolPath(index, 36)}
          style={{ fill: c }}
        />
      ) : null}
    </g>
  );
}

/** An item's label beside its swatch, in one line or two (every legend, the kit's and a widget's own). */
export function LegendLabel({ item }: { item: LegendItemLayout }) {
  return (
    <TextLines className="chart-legend-text" lines={item.lines} x={28} dy="0.35em" lineHeight={LEGEND_LINE} />
  );
}

export function Legend({
  items,
  x,
  y,
  kind,
  prefix,
  symbol,
  colors,
  dashes,
}: {
  items: readonly LegendItemLayout[];
  x: number;
  y: number;
  kind: SwatchKind;
  prefix?: string;
  symbol?: boolean;
  colors?: readonly (string | undefined)[];
  dashes?: readonly (string | undefined)[];
}) {
  if (!items.length) return null;
  return (
    <g className="chart-legend" transform={`translate(${x},${y})`}>
      {items.map((it) => (
        <g key={it.index} className="chart-legend-item" transform={`translate(${it.x},${it.y + 9})`}>
          <Swatch
            index={it.index}
            kind={kind}
            prefix={prefix}
            symbol={symbol}
            color={colors?.[it.index]}
            dash={dashes?.[it.index]}
          />
          <LegendLabel item={it} />
        </g>
      ))}
    </g>
  );
}

/**
 * One entry of a legend whose items differ in kind (a chart's own layers and marks, not the kit's series slots):
 * a bar swatch (its fill may be a pattern's url, its edge the colour), a line (dash, an optional symbol's path), or
 * a symbol alone (its path and style, e.g. hollow or stroked).
 */
export type LegendEntry =
  | { kind: 'bar'; color: string; fill?: string }
  | { kind: 'line'; color: string; dash?: string; symbolPath?: string; width?: number }
  | { kind: 'symbol'; path: string; style: CSSProperties };

function EntrySwatch({ entry }: { entry: LegendEntry }) {
  switch (entry.kind) {
    case 'bar':
      return <BarSwatch fill={entry.fill ?? entry.color} stroke={entry.color} />;
    case 'line':
      return (
        <g>
          <line
            x1={0}
            x2={22}
            y1={0}
            y2={0}
            style={{ stroke: entry.color, strokeWidth: entry.width ?? 2 }}
            strokeDasharray={entry.dash}
          />
          {entry.symbolPath ? (
            <path transform="translate(11,0)" d={entry.symbolPath} style={{ fill: entry.color }} />
          ) : null}
        </g>
      );
    case 'symbol':
      return <path transform="translate(11,0)" d={entry.path} style={entry.style} />;
  }
}

/** A legend of `entries`, laid out as `items` (legendLayout over their labels, in the same order). */
export function EntryLegend({
  items,
  entries,
  x = 4,
  y = 4,
}: {
  items: readonly LegendItemLayout[];
  entries: readonly LegendEntry[];
  x?: number;
  y?: number;
}) {
  if (!items.length) return null;
  return (
    <g className="chart-legend" transform={`translate(${x},${y})`}>
      {items.map((it) => (
        <g key={it.index} className="chart-legend-item" transform={`translate(${it.x},${it.y + 9})`}>
          <EntrySwatch entry={entries[it.index]} />
          <LegendLabel item={it} />
        </g>
      ))}
    </g>
  );
}
