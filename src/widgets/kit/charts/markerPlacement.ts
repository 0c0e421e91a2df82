/**
 * Where each marker's label goes: at its usual spot (a vertical rule's label beside the rule in the top rows, a
 * point's above and right of it, a horizontal rule's at the plot's right end) unless a data line, another
 * marker's rule or point, or a label placed before it runs through that spot; then at the nearest spot beside
 * the same mark that nothing crosses (another row along the rule, the rule's other side, another corner of the
 * point). A label that cannot get clear anywhere takes the spot with the least line through it, and the halo
 * every marker label has (charts.css: a stroke in the chart's background under the text) keeps it readable. A
 * label with a short form (Marker.shortLabel) that cannot get clear tries that form too, and keeps the one that
 * crosses less: a narrow chart's close rules keep their labels off each other's rules. A vertical rule's label that
 * still crosses something, whole or short, may run up along its rule instead (turned a quarter turn, the way a
 * chart labels rules closer together than a word is wide): it needs a strip one line of text wide beside the rule,
 * where across it needed the word's width. It is the last resort: text across the rule reads more easily.
 *
 * Pure and in plot pixels, so it is tested without a DOM (tests/charts/marker-placement.test.ts).
 */
import { SEMIBOLD_WIDTH, textWidth } from './layout';

export const MARKER_FONT = 11;

/** A label's width: `textWidth` is for regular type, and marker labels are semibold (charts.css), a little wider. */
export function markerLabelWidth(label: string): number {
  return textWidth(label, MARKER_FONT) * SEMIBOLD_WIDTH;
}
/**
 * A point marker's radius: a hollow dot over a line, or a ring round a series' own symbol (ringsSymbol), clear of
 * the largest symbol LineChart draws (36 px² in area: a star's tips reach 5.7 px out).
 */
export const POINT_DOT_RADIUS = 5;
export const SYMBOL_RING_RADIUS = 7.5;

export function pointRadius(ringsSymbol: boolean | undefined): number {
  return ringsSymbol ? SYMBOL_RING_RADIUS : POINT_DOT_RADIUS;
}

/** Rows of vertical rules' labels, one text line apart. */
export const ROW = 14;
/** Baseline of the first row from the plot's top, and from its bottom for labels at the bottom. */
export const TOP_ROW = 12;
export const BOTTOM_ROW = 6;

/** A label's text extends this far above its baseline and below it (11 px bold, with descenders). */
const ASCENT = 9;
const DESCENT = 3;
/** Room kept clear around a label's text: a line's stroke and the halo. */
export const LABEL_PAD = 2;
const PAD = LABEL_PAD;

/** What a label must not sit on, in plot pixels. */
export interface Obstacles {
  /** The chart's data lines, each a polyline of points. */
  lines?: readonly (readonly { x: number; y: number }[])[];
}

export interface LabelSpot {
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
  /** Set where the label's short form was placed: the whole label could not get as clear. */
  short?: true;
  /**
   * Set where the label runs up along its vertical rule, turned a quarter turn anticlockwise about (x, y): its
   * baseline is vertical at x, and `anchor` is taken along it ('start': the text begins at y and runs up; 'end':
   * it ends at y, running up to it).
   */
  alongRule?: true;
}

/** A resolved marker in plot pixels (Markers resolves data values through the axes' positioners). */
export type PlacedMark = (
  | { kind: 'x'; px: number; labelAt?: 'top' | 'bottom' }
  | { kind: 'y'; py: number }
  | { kind: 'point'; px: number; py: number; labelBelow?: boolean; ringsSymbol?: boolean }
  | { kind: 'band'; x0: number; x1: number }
) & { label?: string; shortLabel?: string };

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A polyline as flat coordinates with its bounding box, for quick rejection. */
interface Path {
  xy: Float64Array;
  box: Box;
  /** Cost per pixel of this path inside a label. */
  weight: number;
}

/** A data line through a label costs most; a marker's dashed rule less; another label or a point is a clash. */
const LINE_WEIGHT = 10;
const RULE_WEIGHT = 6;
const CLASH = 400;
/** What running a label up along its rule costs over a spot across it that is as clear: it reads less easily. */
const ALONG_RULE = 12;
const OUTSIDE = 10_000;
/** Between the spots a horizontal rule's label may slide to along its rule, px. */
const Y_LABEL_STEP = 8;

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

/** The box a label's text takes at a spot, padded. */
export function labelBox(spot: LabelSpot, width: number): Box {
  if (spot.alongRule) {
    // Turned anticlockwise, the glyphs' ascent lies left of the baseline and their descent right of it.
    const bottom =
      spot.anchor === 'start' ? spot.y : spot.anchor === 'end' ? spot.y + width : spot.y + width / 2;
    return {
      x0: spot.x - ASCENT - PAD,
      y0: bottom - width - PAD,
      x1: spot.x + DESCENT + PAD,
      y1: bottom + PAD,
    };
  }
  const left = spot.anchor === 'start' ? spot.x : spot.anchor === 'end' ? spot.x - width : spot.x - width / 2;
  return { x0: left - PAD, y0: spot.y - ASCENT - PAD, x1: left + width + PAD, y1: spot.y + DESCENT + PAD };
}

/** Length of the segment (ax, ay)–(bx, by) inside the box (Liang–Barsky clipping). */
export function clippedLength(ax: number, ay: number, bx: number, by: number, b: Box): number {
  const dx = bx - ax;
  const dy = by - ay;
  let t0 = 0;
  let t1 = 1;
  const p = [-dx, dx, -dy, dy];
  const q = [ax - b.x0, b.x1 - ax, ay - b.y0, b.y1 - ay];
  for (let i = 0; i < 4; i++) {
    if (p[i] === 0) {
      if (q[i] < 0) return 0;
    } else {
      const r = q[i] / p[i];
      if (p[i] < 0) {
        if (r > t1) return 0;
        if (r > t0) t0 = r;
      } else {
        if (r < t0) return 0;
        if (r < t1) t1 = r;
      }
    }
  }
  return (t1 - t0) * Math.hypot(dx, dy);
}

function overlaps(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** Two labels' texts overlap (their padding may: labels in neighbouring rows are one line apart). */
function clashes(placed: Box, box: Box): boolean {
  return (
    placed.x0 + PAD < box.x1 - PAD &&
    box.x0 + PAD < placed.x1 - PAD &&
    placed.y0 + PAD < box.y1 - PAD &&
    box.y0 + PAD < placed.y1 - PAD
  );
}

/** Pixels of path inside the box. */
function pathInside(path: Path, b: Box): number {
  if (!overlaps(path.box, b)) return 0;
  const xy = path.xy;
  let len = 0;
  for (let i = 2; i < xy.length; i += 2) {
    const ax = xy[i - 2];
    const ay = xy[i - 1];
    const bx = xy[i];
    const by = xy[i + 1];
    // Quick rejection of segments wholly beside the box.
    if (
      (ax < b.x0 && bx < b.x0) ||
      (ax > b.x1 && bx > b.x1) ||
      (ay < b.y0 && by < b.y0) ||
      (ay > b.y1 && by > b.y1)
    )
      continue;
    len += clippedLength(ax, ay, bx, by, b);
  }
  return len;
}

/**
 * A polyline in flat coordinates, leaving out points closer than `tolerance` px to the last one kept (a CDF of a
 * thousand steps across 300 px needs a few hundred), and non-finite points.
 */
function toPath(points: readonly { x: number; y: number }[], weight: number, tolerance = 1.5): Path | null {
  const out: number[] = [];
  let lx = NaN;
  let ly = NaN;
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  points.forEach((p, i) => {
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) return;
    const last = i === points.length - 1;
    if (out.length && !last && Math.abs(p.x - lx) + Math.abs(p.y - ly) < tolerance) return;
    out.push(p.x, p.y);
    lx = p.x;
    ly = p.y;
    box.x0 = Math.min(box.x0, p.x);
    box.x1 = Math.max(box.x1, p.x);
    box.y0 = Math.min(box.y0, p.y);
    box.y1 = Math.max(box.y1, p.y);
  });
  return out.length >= 4 ? { xy: Float64Array.from(out), box, weight } : null;
}

interface Candidate extends LabelSpot {
  /** How far from the usual spot: breaks ties between clear spots toward the usual one. */
  pref: number;
}

interface Choice {
  spot: LabelSpot;
  box: Box;
  cost: number;
  /** What of the cost is not the spot's distance from the usual one: lines through it, clashes, the plot's edge. */
  crossing: number;
}

/** Pick the cheapest candidate: least line inside it, no clash with a placed label or a point, inside the plot. */
function choose(
  cands: readonly Candidate[],
  width: number,
  paths: readonly Path[],
  taken: readonly Box[],
  bounds: Box,
  own: Path | null,
): Choice {
  let best: Choice | null = null;
  let bestCost = Infinity;
  for (const c of cands) {
    const box = labelBox(c, width);
    let cost = c.pref;
    if (
      box.x0 < bounds.x0 - PAD ||
      box.x1 > bounds.x1 + PAD ||
      box.y0 < bounds.y0 - PAD ||
      box.y1 > bounds.y1 + PAD
    )
      cost += OUTSIDE;
    for (const t of taken) if (clashes(t, box)) cost += CLASH;
    if (cost >= bestCost) continue;
    for (const p of paths) {
      if (p === own) continue;
      cost += p.weight * pathInside(p, box);
      if (cost >= bestCost) break;
    }
    if (cost < bestCost) {
      bestCost = cost;
      best = {
        spot: { x: c.x, y: c.y, anchor: c.anchor, ...(c.alongRule ? { alongRule: true } : {}) },
        box,
        cost,
        crossing: cost - c.pref,
      };
    }
  }
  return best!;
}

/** Rows along a vertical rule, nearest the usual one first. */
function ruleRows(defaultY: number, innerHeight: number): number[] {
  const ys = new Set<number>();
  for (let y = TOP_ROW; y <= innerHeight - BOTTOM_ROW; y += ROW) ys.add(y);
  for (let y = innerHeight - BOTTOM_ROW; y >= TOP_ROW; y -= ROW) ys.add(y);
  ys.add(defaultY);
  return [...ys].sort((a, b) => Math.abs(a - defaultY) - Math.abs(b - defaultY));
}

/**
 * Label spots for the markers (null where a marker has no label), in the markers' order. Points' labels are
 * placed first (they have fewest spots), then horizontal rules', vertical rules' and bands'; each avoids the data
 * lines, every marker's rule and point, and the labels placed before it.
 */
export function placeMarkerLabels(
  marks: readonly (PlacedMark | null)[],
  innerWidth: number,
  innerHeight: number,
  obstacles: Obstacles = {},
): (LabelSpot | null)[] {
  const bounds: Box = { x0: 0, y0: 0, x1: innerWidth, y1: innerHeight };
  const paths: Path[] = [];
  for (const line of obstacles.lines ?? []) {
    const p = toPath(line, LINE_WEIGHT);
    if (p) paths.push(p);
  }
  // Every marker's own rule is an obstacle to the other labels.
  const rules = marks.map((m) =>
    m?.kind === 'x'
      ? toPath(
          [
            { x: m.px, y: 0 },
            { x: m.px, y: innerHeight },
          ],
          RULE_WEIGHT,
        )
      : m?.kind === 'y'
        ? toPath(
            [
              { x: 0, y: m.py },
              { x: innerWidth, y: m.py },
            ],
            RULE_WEIGHT,
          )
        : null,
  );
  for (const r of rules) if (r) paths.push(r);
  const taken: Box[] = [];
  // A point's dot or ring and its stroke, padded as a label's box is.
  for (const m of marks)
    if (m?.kind === 'point') {
      const reach = pointRadius(m.ringsSymbol) + 1 + PAD;
      taken.push({ x0: m.px - reach, y0: m.py - reach, x1: m.px + reach, y1: m.py + reach });
    }

  const out: (LabelSpot | null)[] = marks.map(() => null);
  const order = marks
    .map((m, i) => ({ m, i }))
    .filter((e): e is { m: PlacedMark; i: number } => !!e.m?.label)
    .sort((a, b) => rank(a.m) - rank(b.m) || a.i - b.i);
  // The usual rows of vertical rules' labels: the n-th label at an end in row n (of three), as before placement.
  const rows = { top: 0, bottom: 0 };
  const usualRow = new Map<number, number>();
  marks.forEach((m, i) => {
    if (m?.kind === 'x' && m.label) usualRow.set(i, rows[m.labelAt ?? 'top']++ % 3);
  });

  for (const { m, i } of order) {
    // A horizontal rule's label sits on its rule's line of text; a vertical rule's label beside its rule, so one that
    // is wider than either side and kept inside the plot across its own rule crosses it like any other.
    const own = m.kind === 'y' ? rules[i] : null;
    const place = (text: string, along: boolean) => {
      const width = markerLabelWidth(text);
      const cands =
        along && m.kind === 'x'
          ? alongRuleCandidates(m, width, innerWidth, innerHeight)
          : candidates(m, usualRow.get(i) ?? 0, width, innerWidth, innerHeight);
      return choose(cands, width, paths, taken, bounds, own);
    };
    // Across the mark, whole, then short; then (a vertical rule's) along the rule, whole, then short: each tried
    // only while the best so far crosses something, and kept only if it costs less.
    const tries: { text: string; short: boolean; along: boolean }[] = [
      { text: m.label!, short: false, along: false },
    ];
    if (m.shortLabel) tries.push({ text: m.shortLabel, short: true, along: false });
    if (m.kind === 'x') {
      tries.push({ text: m.label!, short: false, along: true });
      if (m.shortLabel) tries.push({ text: m.shortLabel, short: true, along: true });
    }
    let best: Choice | null = null;
    for (const t of tries) {
      if (best && best.crossing <= 0) break;
      const next = place(t.text, t.along);
      if (!best || next.cost < best.cost)
        best = t.short ? { ...next, spot: { ...next.spot, short: true } } : next;
    }
    out[i] = best!.spot;
    taken.push(best!.box);
  }
  return out;
}

/** Where a mark's label of this width may go, each with its distance from the usual spot. */
function candidates(
  m: PlacedMark,
  row: number,
  width: number,
  innerWidth: number,
  innerHeight: number,
): Candidate[] {
  const cands: Candidate[] = [];
  if (m.kind === 'x') {
    const at = m.labelAt ?? 'top';
    const usualY = at === 'top' ? TOP_ROW + row * ROW : innerHeight - BOTTOM_ROW - row * ROW;
    const usual = xRuleLabelPlace(m.px, width, innerWidth);
    const sides: { x: number; anchor: 'start' | 'end'; pref: number }[] = [{ ...usual, pref: 0 }];
    const other =
      usual.anchor === 'start' && usual.x === m.px + 4
        ? { x: m.px - 4, anchor: 'end' as const }
        : usual.anchor === 'end'
          ? { x: m.px + 4, anchor: 'start' as const }
          : null;
    if (other) sides.push({ ...other, pref: 3 });
    for (const y of ruleRows(usualY, innerHeight))
      for (const s of sides)
        cands.push({ x: s.x, y, anchor: s.anchor, pref: s.pref + (Math.abs(y - usualY) / ROW) * 1.5 });
  } else if (m.kind === 'point') {
    // Beside the dot or ring, 3 px clear of it: a baseline 3 px above it, or a line of text (11 + 3) below it;
    // then one line further out.
    const gap = pointRadius(m.ringsSymbol) + 3;
    const right = m.px + gap + width > innerWidth;
    const below = m.labelBelow === true || m.py < gap + 10;
    const xs = [
      { x: right ? m.px - gap : m.px + gap, anchor: right ? ('end' as const) : ('start' as const) },
      { x: right ? m.px + gap : m.px - gap, anchor: right ? ('start' as const) : ('end' as const) },
    ];
    const ys = below ? [m.py + gap + 8, m.py - gap] : [m.py - gap, m.py + gap + 8];
    const far = below ? [m.py + gap + 22, m.py - gap - 14] : [m.py - gap - 14, m.py + gap + 22];
    ys.forEach((y, yi) => xs.forEach((s, si) => cands.push({ ...s, y, pref: yi * 2 + si * 2 })));
    far.forEach((y, yi) => xs.forEach((s, si) => cands.push({ ...s, y, pref: 5 + yi * 2 + si * 2 })));
  } else if (m.kind === 'y') {
    const below = m.py < 16;
    const ys = below ? [m.py + 14, m.py - 5] : [m.py - 5, m.py + 14];
    const xs = [
      { x: innerWidth - 4, anchor: 'end' as const, pref: 0 },
      { x: 4, anchor: 'start' as const, pref: 2 },
      { x: innerWidth / 2, anchor: 'middle' as const, pref: 4 },
    ];
    // Then anywhere along the rule, a step at a time from its right end: between a vertical rule and a line that
    // cross the rule near its ends, where neither end nor the middle is clear.
    for (let end = innerWidth - 4 - Y_LABEL_STEP; end - width >= 4; end -= Y_LABEL_STEP)
      xs.push({ x: end, anchor: 'end' as const, pref: 5 + (innerWidth - 4 - end) / innerWidth });
    ys.forEach((y, yi) => xs.forEach((s) => cands.push({ ...s, y, pref: yi * 2 + s.pref })));
  } else {
    const mid = (m.x0 + m.x1) / 2;
    for (const y of ruleRows(innerHeight - BOTTOM_ROW, innerHeight))
      cands.push({
        x: mid,
        y,
        anchor: 'middle',
        pref: (Math.abs(y - (innerHeight - BOTTOM_ROW)) / ROW) * 1.5,
      });
  }
  return cands;
}

/**
 * Where a vertical rule's label may run up along the rule: a line's width beside it (right of it where its label
 * goes right across it, else left), from the top of the plot down in steps of a row (from the bottom for a label
 * kept at the bottom). Tried only where no spot across the rule is clear, and each costs ALONG_RULE more than the
 * same clearance across would.
 */
function alongRuleCandidates(
  m: Extract<PlacedMark, { kind: 'x' }>,
  width: number,
  innerWidth: number,
  innerHeight: number,
): Candidate[] {
  const usual = xRuleLabelPlace(m.px, markerLabelWidth(m.label ?? ''), innerWidth);
  const right = { x: m.px + 4 + ASCENT, pref: 0 };
  const left = { x: m.px - 4 - DESCENT, pref: 0 };
  const sides = usual.anchor === 'start' ? [right, { ...left, pref: 3 }] : [left, { ...right, pref: 3 }];
  // The text's top end, from the plot's top (3 px in, as a top row's text) to its lowest that keeps it inside.
  const top = TOP_ROW - ASCENT;
  const lowest = innerHeight - (BOTTOM_ROW - DESCENT) - width;
  const tops: number[] = [];
  for (let y = top; y < lowest; y += ROW) tops.push(y);
  tops.push(Math.max(top, lowest));
  const fromBottom = m.labelAt === 'bottom';
  const cands: Candidate[] = [];
  tops.forEach((y, k) => {
    const steps = fromBottom ? tops.length - 1 - k : k;
    for (const s of sides)
      cands.push({ x: s.x, y, anchor: 'end', alongRule: true, pref: ALONG_RULE + s.pref + steps * 1.5 });
  });
  return cands;
}

function rank(m: PlacedMark): number {
  return m.kind === 'point' ? 0 : m.kind === 'y' ? 1 : m.kind === 'x' ? 2 : 3;
}
