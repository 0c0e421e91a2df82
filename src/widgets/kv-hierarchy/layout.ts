/**
 * From the fleet simulator's frames (src/sim/engine/fleet/frames.ts) to where each page's mark sits: pure, no DOM,
 * so the picture is a function of (run, t) and unit-testable.
 *
 *  - tierGeometry: the four tiers as bands of cells, each band's cell count its capacity in pages, so the bands'
 *    areas are to scale of the tiers' capacities.
 *  - assignSlots: every copy of every page gets a cell in its tier's band, kept from frame to frame while the copy
 *    stays (a page does not jump about), new copies taking the lowest free cell. Sequential over the frames, done
 *    once per run, so scrubbing to any frame reads the same slots.
 *  - transition: the marks of one frame step, each with where it starts (frame k) and ends (frame k + 1): a copy
 *    that stays moves nowhere; a new copy of a page that had a copy elsewhere (written through, offloaded,
 *    promoted, fetched) flies from that copy; a page that was not anywhere grows in (computed); a copy that goes
 *    shrinks out (evicted, or freed above a copy that stays).
 */
import type { FleetFrame } from '../../sim/engine/fleet/frames';
import { DISTINCT_SLOTS } from '../kit/charts/theme';

export const TIER_COUNT = 4;
export const TIER_LABELS = ['HBM', 'host DRAM', 'local NVMe', 'remote pool'] as const;
/** Colour index of the shared head's pages (every session's prefix). */
export const SHARED_COLOUR = 0xffff;
/** Session colours: kit DISTINCT_SLOTS (every series hue but sky blue, which beside blue reads as one session). */
export const SESSION_COLOURS = DISTINCT_SLOTS.length;

/** Mark states. */
export const STATE_CACHED = 0;
export const STATE_PINNED = 1;
export const STATE_PENDING = 2;

export interface TierBox {
  tier: number;
  /** Top-left of the band's cells (below its label), px. */
  x: number;
  y: number;
  cols: number;
  rows: number;
  capacity: number;
  /** Top of the band's label, px. */
  labelY: number;
}

export interface Geometry {
  width: number;
  height: number;
  cell: number;
  boxes: TierBox[];
}

export const LABEL_H = 18;
export const BAND_GAP = 6;

/**
 * Bands stacked top to bottom, full width, each ⌈capacity / cols⌉ rows of square cells; the largest cell (at most
 * maxCell px) for which every band fits in maxHeight. Tiers with no capacity get no band.
 */
export function tierGeometry(
  capacities: readonly number[],
  width: number,
  maxHeight: number,
  maxCell = 12,
): Geometry {
  const w = Math.max(40, Math.floor(width));
  const present = capacities.map((c, i) => ({ c: Math.max(0, Math.floor(c)), i })).filter((x) => x.c > 0);
  let cell = maxCell;
  const heightAt = (s: number) => {
    const cols = Math.max(1, Math.floor(w / s));
    let h = 0;
    for (const p of present) h += LABEL_H + Math.ceil(p.c / cols) * s + BAND_GAP;
    return h;
  };
  while (cell > 1 && heightAt(cell) > maxHeight) cell -= 0.25;
  const cols = Math.max(1, Math.floor(w / cell));
  const boxes: TierBox[] = [];
  let y = 0;
  for (const p of present) {
    const rows = Math.ceil(p.c / cols);
    boxes.push({ tier: p.i, x: 0, y: y + LABEL_H, cols, rows, capacity: p.c, labelY: y });
    y += LABEL_H + rows * cell + BAND_GAP;
  }
  return { width: w, height: Math.ceil(y), cell, boxes };
}

/** Top-left corner of cell `slot` of a tier, px (NaN if the tier has no band). */
export function cellXY(g: Geometry, tier: number, slot: number): [number, number] {
  const b = g.boxes.find((x) => x.tier === tier);
  if (!b) return [NaN, NaN];
  return [b.x + (slot % b.cols) * g.cell, b.y + Math.floor(slot / b.cols) * g.cell];
}

/** One frame's marks: one per copy of a page in a tier. */
export interface FrameMarks {
  count: number;
  hash: Float64Array;
  tier: Uint8Array;
  slot: Uint32Array;
  /** Session colour (0 … SESSION_COLOURS − 1) or SHARED_COLOUR. */
  colour: Uint16Array;
  state: Uint8Array;
  /** Copies per tier. */
  perTier: number[];
}

/** Capacity of each tier in pages, from a frame (replica 0's; the pool's is the whole pool's). */
export function capacitiesOf(f: FleetFrame): number[] {
  const out: number[] = [];
  for (let t = 0; t < TIER_COUNT; t++) out.push(f.replicas.kvCapacity[t] ?? 0);
  return out;
}

function colourOf(session: number, hash: number, shared: ReadonlySet<number>): number {
  if (shared.has(hash)) return SHARED_COLOUR;
  return session < 0 ? 0 : session % SESSION_COLOURS;
}

/**
 * Stable cells for every copy in every frame (replica 0 and the pool: the animation shows one node). Copies that
 * persist keep their cell; new ones take the lowest free cell of their tier, in the frame's block order (the
 * cache's insertion order, so a session's new pages land together).
 */
export function assignSlots(frames: readonly FleetFrame[], shared: ReadonlySet<number>): FrameMarks[] {
  const slots = lazySlots(frames, shared);
  return frames.map((_, k) => slots.at(k));
}

/** assignSlots computed frame by frame as they are asked for (each frame's cells follow from the previous). */
export interface LazySlots {
  at(k: number): FrameMarks;
}

/**
 * assignSlots on demand: frame k's cells are computed when first asked for (and every frame before it, once).
 * A player showing frame k needs only k and k + 1, so a finished run's picture costs two frames' work instead
 * of the whole run's on the main thread (that whole-run pass was a 200 ms task at 4× CPU throttling).
 */
export function lazySlots(frames: readonly FleetFrame[], shared: ReadonlySet<number>): LazySlots {
  const done: FrameMarks[] = [];
  let prev: Map<number, number>[] = Array.from({ length: TIER_COUNT }, () => new Map());
  return {
    at(k) {
      if (k < 0 || k >= frames.length) throw new RangeError(`no frame ${k} of ${frames.length}`);
      while (done.length <= k) {
        const { marks, next } = slotsOf(frames[done.length], prev, shared);
        done.push(marks);
        prev = next;
      }
      return done[k];
    },
  };
}

function slotsOf(
  f: FleetFrame,
  prev: Map<number, number>[],
  shared: ReadonlySet<number>,
): { marks: FrameMarks; next: Map<number, number>[] } {
  const caps = capacitiesOf(f);
  const b = f.blocks;
  let n = 0;
  for (let i = 0; i < b.count; i++) {
    if (b.replica[i] !== 0 && b.replica[i] !== 0xffff) continue;
    let r = b.resident[i];
    while (r) {
      n += r & 1;
      r >>= 1;
    }
  }
  const m: FrameMarks = {
    count: n,
    hash: new Float64Array(n),
    tier: new Uint8Array(n),
    slot: new Uint32Array(n),
    colour: new Uint16Array(n),
    state: new Uint8Array(n),
    perTier: [0, 0, 0, 0],
  };
  const next: Map<number, number>[] = Array.from({ length: TIER_COUNT }, () => new Map());
  const taken = caps.map((c) => new Uint8Array(Math.max(1, c)));
  const fresh: number[] = [];
  let k = 0;
  for (let i = 0; i < b.count; i++) {
    if (b.replica[i] !== 0 && b.replica[i] !== 0xffff) continue;
    const fl = b.flags[i];
    const state = fl & 2 ? STATE_PENDING : fl & 1 ? STATE_PINNED : STATE_CACHED;
    for (let t = 0; t < TIER_COUNT; t++) {
      if (!(b.resident[i] & (1 << t))) continue;
      const h = b.hash[i];
      m.hash[k] = h;
      m.tier[k] = t;
      m.colour[k] = colourOf(b.session[i], h, shared);
      m.state[k] = t === 0 ? state : STATE_CACHED;
      m.perTier[t]++;
      const s = prev[t].get(h);
      if (s !== undefined && s < taken[t].length && !taken[t][s]) {
        taken[t][s] = 1;
        m.slot[k] = s;
        next[t].set(h, s);
      } else fresh.push(k);
      k++;
    }
  }
  const cursor = [0, 0, 0, 0];
  for (const j of fresh) {
    const t = m.tier[j];
    const occ = taken[t];
    let s = cursor[t];
    while (s < occ.length && occ[s]) s++;
    if (s < occ.length) occ[s] = 1;
    cursor[t] = s + 1;
    m.slot[j] = s;
    next[t].set(m.hash[j], s);
  }
  return { marks: m, next };
}

/** Kinds of motion in a frame step. */
export const MOVE_STAY = 0;
export const MOVE_FLY = 1;
export const MOVE_GROW = 2;
export const MOVE_SHRINK = 3;

/** The marks of one step k → k + 1, in tier/slot terms (positions need a geometry). */
export interface Transition {
  count: number;
  kind: Uint8Array;
  fromTier: Uint8Array;
  fromSlot: Uint32Array;
  toTier: Uint8Array;
  toSlot: Uint32Array;
  colour: Uint16Array;
  state: Uint8Array;
}

function firstCopies(m: FrameMarks): Map<number, number> {
  // For each page, the index of its mark in the fastest tier holding it.
  const out = new Map<number, number>();
  for (let i = 0; i < m.count; i++) {
    const j = out.get(m.hash[i]);
    if (j === undefined || m.tier[i] < m.tier[j]) out.set(m.hash[i], i);
  }
  return out;
}

/** Per tier, the index of each page's mark in that tier. */
function byTier(m: FrameMarks): Map<number, number>[] {
  const out = Array.from({ length: TIER_COUNT }, () => new Map<number, number>());
  for (let i = 0; i < m.count; i++) out[m.tier[i]].set(m.hash[i], i);
  return out;
}

/** The step from `a` to `b` (b alone, all staying, when a is null: the first frame). */
export function transition(a: FrameMarks | null, b: FrameMarks): Transition {
  const inA = a ? byTier(a) : null;
  const inB = byTier(b);
  const anyA = a ? firstCopies(a) : new Map<number, number>();
  let gone = 0;
  if (a) for (let i = 0; i < a.count; i++) if (!inB[a.tier[i]].has(a.hash[i])) gone++;
  const n = b.count + gone;
  const tr: Transition = {
    count: n,
    kind: new Uint8Array(n),
    fromTier: new Uint8Array(n),
    fromSlot: new Uint32Array(n),
    toTier: new Uint8Array(n),
    toSlot: new Uint32Array(n),
    colour: new Uint16Array(n),
    state: new Uint8Array(n),
  };
  let k = 0;
  for (let i = 0; i < b.count; i++, k++) {
    tr.toTier[k] = b.tier[i];
    tr.toSlot[k] = b.slot[i];
    tr.colour[k] = b.colour[i];
    tr.state[k] = b.state[i];
    const same = inA ? inA[b.tier[i]].get(b.hash[i]) : undefined;
    const src = same ?? anyA.get(b.hash[i]);
    if (!a) {
      tr.kind[k] = MOVE_STAY;
      tr.fromTier[k] = b.tier[i];
      tr.fromSlot[k] = b.slot[i];
    } else if (src !== undefined) {
      tr.kind[k] = same !== undefined ? MOVE_STAY : MOVE_FLY;
      tr.fromTier[k] = a.tier[src];
      tr.fromSlot[k] = a.slot[src];
    } else {
      tr.kind[k] = MOVE_GROW;
      tr.fromTier[k] = b.tier[i];
      tr.fromSlot[k] = b.slot[i];
    }
  }
  if (a)
    for (let i = 0; i < a.count; i++) {
      if (inB[a.tier[i]].has(a.hash[i])) continue;
      tr.kind[k] = MOVE_SHRINK;
      tr.fromTier[k] = tr.toTier[k] = a.tier[i];
      tr.fromSlot[k] = tr.toSlot[k] = a.slot[i];
      tr.colour[k] = a.colour[i];
      tr.state[k] = STATE_CACHED;
      k++;
    }
  return tr;
}

/** Tallies of a step's motion: what the step did, for the read-out and tests. */
export function motionCounts(tr: Transition): Record<'stay' | 'fly' | 'grow' | 'shrink', number> {
  const c = { stay: 0, fly: 0, grow: 0, shrink: 0 };
  for (let i = 0; i < tr.count; i++) {
    const k = tr.kind[i];
    if (k === MOVE_STAY) c.stay++;
    else if (k === MOVE_FLY) c.fly++;
    else if (k === MOVE_GROW) c.grow++;
    else c.shrink++;
  }
  return c;
}

/** Eased progress through a step: marks travel in the first 70 % of it and rest for the remainder. */
export function ease(frac: number): number {
  const x = Math.min(1, Math.max(0, frac / 0.7));
  return x * x * (3 - 2 * x);
}

/** The frame step of time t: frame index k and the fraction of the way to k + 1. */
export function stepAt(times: ArrayLike<number>, t: number): { k: number; frac: number } {
  const n = times.length;
  if (n === 0) return { k: -1, frac: 0 };
  if (t <= times[0]) return { k: 0, frac: 0 };
  if (t >= times[n - 1]) return { k: n - 1, frac: 0 };
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid;
  }
  return { k: lo, frac: (t - times[lo]) / (times[hi] - times[lo]) };
}
