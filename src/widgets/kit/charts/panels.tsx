/**
 * Charts that stack panels over one shared x axis in one SVG, so it exports whole (07.02's trajectory, 07.06's
 * KV occupancy, 07.10's iteration timeline): under the kit's legend, each panel has a title line above it and a
 * gap before the next; the last panel carries the x axis, and the read-out overlay spans them all.
 */
import type { ReactNode } from 'react';
import { LABEL_FONT } from './layout';

/** A panel's title line: the label's height and the gap down to the panel. */
export const PANEL_TITLE_BAND = LABEL_FONT + 6;
/** The title's baseline, above the panel's top. */
const TITLE_RAISE = 7;

export interface PanelSpec {
  /** A fixed height (a lane, one row per replica); otherwise the panel takes `share` of the height left. */
  height?: number;
  share?: number;
  /** Room between the panel above (its x-axis line) and this panel's title line. */
  gapAbove?: number;
}

export interface PanelStack {
  /** Each panel's top (its plot area, below its title line). */
  tops: number[];
  heights: number[];
  /** The last panel's bottom. */
  bottom: number;
  /** From the first panel's top to the last one's bottom: what rules and the read-out overlay span. */
  span: number;
}

/**
 * Panels from `top` (where the first title line starts) down: fixed panels take their heights, and what is left of
 * `room` (the height from `top` to the last panel's bottom) after titles, gaps and fixed panels goes to the others
 * by share, in whole units (the last takes the rounding), never below `minHeight`.
 */
export function stackPanels(top: number, panels: readonly PanelSpec[], room = 0, minHeight = 40): PanelStack {
  const fixed = panels.reduce((sum, p) => sum + (p.height ?? 0) + (p.gapAbove ?? 0) + PANEL_TITLE_BAND, 0);
  const shared = panels.filter((p) => p.height === undefined);
  const shares = shared.reduce((sum, p) => sum + (p.share ?? 1), 0);
  const free = Math.max(0, room - fixed);
  let given = 0;
  let seen = 0;
  const heights = panels.map((p) => {
    if (p.height !== undefined) return p.height;
    seen++;
    const h = seen === shared.length ? free - given : Math.round((free * (p.share ?? 1)) / shares);
    given += h;
    return Math.max(minHeight, h);
  });
  const tops: number[] = [];
  let cursor = top;
  panels.forEach((p, i) => {
    cursor += (p.gapAbove ?? 0) + PANEL_TITLE_BAND;
    tops.push(cursor);
    cursor += heights[i];
  });
  return { tops, heights, bottom: cursor, span: cursor - (tops[0] ?? top) };
}

/** A panel's title, above its top; `anchor="end"` at `x` for a second title at the right (what a side column shows). */
export function PanelTitle({
  top,
  x = 0,
  anchor = 'start',
  children,
}: {
  top: number;
  x?: number;
  anchor?: 'start' | 'end';
  children: ReactNode;
}) {
  return (
    <text
      className="chart-axis-label"
      x={x}
      y={top - TITLE_RAISE}
      textAnchor={anchor === 'end' ? 'end' : undefined}
    >
      {children}
    </text>
  );
}
