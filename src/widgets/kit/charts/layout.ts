/** Rough text metrics and layout, so margins follow label sizes without measuring the DOM. */
import type { Margins } from './types';

/** Round to 2 decimals: compact markup, stable snapshots. */
export function r2(v: number): number {
  return Math.round(v * 100) / 100;
}

/**
 * Estimated width in px of `s` at `fontSize`, erring wide: digits ≈ 0.6 em covers Helvetica/Roboto (0.56) and
 * most of DejaVu Sans (0.64), the Linux default.
 */
export function textWidth(s: string, fontSize = 11): number {
  let w = 0;
  for (const ch of s) {
    if (/[il.,:;'|!]/.test(ch)) w += 0.3;
    else if (/[mwMW%@]/.test(ch)) w += 0.85;
    else if (/[A-Z]/.test(ch)) w += 0.7;
    else if (ch === ' ') w += 0.3;
    else w += 0.6;
  }
  return w * fontSize;
}

/**
 * How much wider the charts' semibold labels (font-weight 600: end labels, marker labels, axis titles) run than
 * `textWidth`'s estimate: measured in headless Chromium on this machine's sans-serif at 11 px, 1.03–1.17× over
 * seven of the lab's labels ("τ = 2 s: 81.7%" the widest, its digits and symbols wider than the estimate's
 * average), so 1.17 covers them all.
 */
export const SEMIBOLD_WIDTH = 1.17;

/** Cut `s` to fit `maxWidth`, ending in an ellipsis. */
export function truncate(s: string, maxWidth: number, fontSize = 11): string {
  if (textWidth(s, fontSize) <= maxWidth) return s;
  let out = s;
  while (out.length > 1 && textWidth(out + '…', fontSize) > maxWidth) out = out.slice(0, -1);
  return out.length <= 1 ? s.slice(0, 1) + '…' : out + '…';
}

/**
 * A label in at most `maxLines` lines of `maxWidth`, broken between words or after an arrow, slash or hyphen
 * (which stays at the end of the first line); a line still too wide (the rest of the label on the last line, or
 * one long word) is truncated. "TPOT charged after the step" under a narrow bar reads in two lines where one
 * would end in "aft…", and "TTL→offload" as "TTL→" over "offload" where one would end in "TTL→offl…".
 */
export function wrapLabel(s: string, maxWidth: number, fontSize = 11, maxLines = 2): string[] {
  if (textWidth(s, fontSize) <= maxWidth || maxLines <= 1) return [truncate(s, maxWidth, fontSize)];
  // Each piece ends at a break opportunity: its trailing spaces, or the arrow, slash or hyphen it ends with.
  const pieces = (s.match(/[^ →/-]*(?:[→/-]+| +|$)/g) ?? [s]).filter((p) => p.length > 0);
  const lines: string[] = [];
  let line = '';
  for (const piece of pieces) {
    const next = line + piece;
    // On the last line allowed, pieces keep coming and the line is truncated below.
    if (line && textWidth(next.trimEnd(), fontSize) > maxWidth && lines.length < maxLines - 1) {
      lines.push(line.trimEnd());
      line = piece;
    } else line = next;
  }
  lines.push(line.trimEnd());
  return lines.map((l) => truncate(l, maxWidth, fontSize));
}

export const TICK_FONT = 11;
export const LABEL_FONT = 12;
/** The band an axis title takes beside its axis: the title's line and the gap to the tick labels. */
export const AXIS_TITLE_BAND = LABEL_FONT + 10;
/** From an x axis's line to its title's baseline: the tick mark and gap, the tick labels' line, a gap, the title. */
export const X_TITLE_OFFSET = TICK_FONT + 8 + 6 + LABEL_FONT + 4;
export const LEGEND_FONT = 12;

export interface LegendItemLayout {
  index: number;
  x: number;
  y: number;
  /** The label as drawn: one line, or two when it is wider than the legend. */
  lines: string[];
}

/** Height of a legend row of one-line labels, and what each further line of a label adds. */
const LEGEND_ROW = 18;
export const LEGEND_LINE = 15;

/**
 * Legend items laid out left to right, wrapping at `width`. A label wider than the legend takes a second line
 * rather than ending in "…": "all-reduce and overhead (no kernel changes these)" on a phone.
 */
export function legendLayout(
  labels: readonly string[],
  width: number,
  swatch = 26,
): { items: LegendItemLayout[]; height: number } {
  const items: LegendItemLayout[] = [];
  let x = 0;
  let y = 0;
  let rowHeight = LEGEND_ROW;
  labels.forEach((raw, index) => {
    const lines = wrapLabel(raw, Math.max(60, width - swatch - 8), LEGEND_FONT);
    const w = swatch + 6 + Math.max(...lines.map((l) => textWidth(l, LEGEND_FONT))) + 16;
    if (x > 0 && x + w > width) {
      x = 0;
      y += rowHeight;
      rowHeight = LEGEND_ROW;
    }
    items.push({ index, x, y, lines });
    rowHeight = Math.max(rowHeight, LEGEND_ROW + (lines.length - 1) * LEGEND_LINE);
    x += w;
  });
  for (const it of items) it.x = r2(it.x);
  return { items, height: labels.length ? y + rowHeight : 0 };
}

/** Margins from the y tick labels, the axis titles and the legend. */
export function computeMargins(opts: {
  yTickLabels: readonly string[];
  hasXTitle: boolean;
  hasYTitle: boolean;
  legendHeight: number;
  lastXTickLabel?: string;
  extraRight?: number;
}): Margins {
  const yw = Math.max(0, ...opts.yTickLabels.map((s) => textWidth(s, TICK_FONT)));
  return {
    top: 10 + (opts.legendHeight ? opts.legendHeight + 8 : 0),
    right: Math.max(
      14,
      (opts.lastXTickLabel ? textWidth(opts.lastXTickLabel, TICK_FONT) / 2 : 0) + 4,
      opts.extraRight ?? 0,
    ),
    bottom: 8 + TICK_FONT + 6 + (opts.hasXTitle ? AXIS_TITLE_BAND : 0),
    left: Math.ceil(yw) + 10 + (opts.hasYTitle ? AXIS_TITLE_BAND : 0),
  };
}
