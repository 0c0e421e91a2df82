/**
 * The hierarchy animation's pure layout (src/widgets/kv-hierarchy/layout.ts, phases.ts) and the frames it reads
 * (src/sim/engine/fleet/frames.ts): bands to scale, stable cells, the motion of a step, exact scrubbing.
 */
import { describe, expect, it } from 'vitest';
import type { FleetFrame } from '../src/sim/engine/fleet/frames';
import { runScenario } from '../src/sim/engine/fleet/run';
import { HIERARCHY_DEFAULTS, hierarchyScenario, sharedHeadHashes } from '../src/sim/lessons/hierarchyLab';
import {
  assignSlots,
  cellXY,
  motionCounts,
  MOVE_FLY,
  MOVE_GROW,
  MOVE_SHRINK,
  MOVE_STAY,
  SHARED_COLOUR,
  stepAt,
  tierGeometry,
  transition,
} from '../src/widgets/kv-hierarchy/layout';
import { PHASE_DECODE, PHASE_PREFILL, PHASE_TOOL, sessionPhases } from '../src/widgets/kv-hierarchy/phases';
import { drawBackdrop, type Palette } from '../src/widgets/kv-hierarchy/draw';

/** A frame with replica 0's pages given as [hash, resident bits, session, flags]. */
function frame(index: number, pages: [number, number, number, number][], caps = [4, 8, 0, 0]): FleetFrame {
  const n = pages.length;
  const top = (r: number) => (r & 1 ? 0 : r & 2 ? 1 : r & 4 ? 2 : 3);
  return {
    index,
    t: index,
    blocks: {
      count: n,
      replica: new Uint16Array(n),
      hash: Float64Array.from(pages.map((p) => p[0])),
      tier: Uint8Array.from(pages.map((p) => top(p[1]))),
      resident: Uint8Array.from(pages.map((p) => p[1])),
      session: Int32Array.from(pages.map((p) => p[2])),
      flags: Uint8Array.from(pages.map((p) => p[3])),
    },
    replicas: {
      count: 1,
      waiting: new Uint16Array(1),
      loading: new Uint16Array(1),
      prefilling: new Uint16Array(1),
      decoding: new Uint16Array(1),
      held: new Uint16Array(1),
      busy: new Uint8Array(1),
      kvUsed: new Uint32Array(4),
      kvCapacity: Uint32Array.from(caps),
      kvTokens: new Float64Array(4),
      hitTokens: new Float64Array(4),
      bytesUp: new Float64Array(4),
      bytesDown: new Float64Array(4),
    },
    members: {
      offsets: new Uint32Array([0, 0]),
      session: new Int32Array(0),
      request: new Int32Array(0),
      phase: new Uint8Array(0),
    },
    routes: {
      count: 0,
      t: new Float64Array(0),
      session: new Int32Array(0),
      request: new Int32Array(0),
      replica: new Uint16Array(0),
      reason: new Uint8Array(0),
      matched: new Int32Array(0),
    },
  };
}

describe('tierGeometry', () => {
  it('gives each tier one cell per page, so band areas are in the ratio of capacities', () => {
    const g = tierGeometry([100, 400, 0, 1600], 200, 1000, 10);
    expect(g.boxes.map((b) => b.tier)).toEqual([0, 1, 3]);
    for (const b of g.boxes) expect(b.cols * b.rows).toBeGreaterThanOrEqual(b.capacity);
    for (const b of g.boxes) expect(b.cols * (b.rows - 1)).toBeLessThan(b.capacity);
    expect(g.height).toBeLessThanOrEqual(1000);
  });
  it('shrinks the cell until the bands fit the height', () => {
    const big = tierGeometry([1000, 4000], 400, 2000, 12);
    const small = tierGeometry([1000, 4000], 400, 300, 12);
    expect(small.cell).toBeLessThan(big.cell);
    expect(small.height).toBeLessThanOrEqual(300);
  });
  it('places cells left to right, then down', () => {
    const g = tierGeometry([10], 40, 100, 10);
    expect(cellXY(g, 0, 0)).toEqual([0, g.boxes[0].y]);
    expect(cellXY(g, 0, 1)).toEqual([10, g.boxes[0].y]);
    expect(cellXY(g, 0, 4)).toEqual([0, g.boxes[0].y + 10]);
  });
});

describe('drawBackdrop', () => {
  it('draws one free cell per page of each tier, at the cells the pages take, so a band ends at its capacity', () => {
    const g = tierGeometry([10, 25], 40, 400, 10);
    const freeCells: [number, number][] = [];
    const ctx = {
      fillStyle: '',
      strokeStyle: '',
      lineWidth: 1,
      fillRect(x: number, y: number) {
        if (this.fillStyle === 'free') freeCells.push([x, y]);
      },
      strokeRect() {},
    };
    const pal = { page: 'page', band: 'band', bandEdge: 'edge', freeCell: 'free' } as unknown as Palette;
    drawBackdrop(ctx as unknown as CanvasRenderingContext2D, g, pal);
    expect(freeCells).toHaveLength(35);
    expect(freeCells[0]).toEqual(cellXY(g, 0, 0));
    expect(freeCells[9]).toEqual(cellXY(g, 0, 9));
    expect(freeCells[34]).toEqual(cellXY(g, 1, 24));
  });
});

describe('assignSlots and transition', () => {
  // Page 1 computed (HBM), page 2 pending; then page 1 written through (HBM + DRAM), page 3 new; then page 1's
  // HBM copy evicted (DRAM stays), page 2 evicted entirely.
  const frames = [
    frame(0, [
      [1, 1, 0, 1],
      [2, 1, 0, 2],
    ]),
    frame(1, [
      [1, 3, 0, 0],
      [2, 1, 0, 1],
      [3, 1, 1, 2],
    ]),
    frame(2, [
      [3, 1, 1, 0],
      [1, 2, 0, 0],
    ]),
  ];
  const marks = assignSlots(frames, new Set([3]));

  it('keeps a copy in its cell while it stays, and gives one mark per copy', () => {
    expect(marks[1].count).toBe(4); // page 1 twice
    const slotOf = (k: number, h: number, t: number) => {
      for (let i = 0; i < marks[k].count; i++)
        if (marks[k].hash[i] === h && marks[k].tier[i] === t) return marks[k].slot[i];
      return -1;
    };
    expect(slotOf(1, 1, 0)).toBe(slotOf(0, 1, 0));
    expect(slotOf(1, 2, 0)).toBe(slotOf(0, 2, 0));
    expect(slotOf(2, 3, 0)).toBe(slotOf(1, 3, 0));
    expect(slotOf(2, 1, 1)).toBe(slotOf(1, 1, 1));
    expect(marks[1].colour[[...marks[1].hash].indexOf(3)]).toBe(SHARED_COLOUR);
  });

  it('flies a written-through copy down from its HBM copy, grows a computed page, shrinks evicted copies', () => {
    const a = transition(marks[0], marks[1]);
    expect(motionCounts(a)).toEqual({ stay: 2, fly: 1, grow: 1, shrink: 0 });
    const fly = [...a.kind].indexOf(MOVE_FLY);
    expect([a.fromTier[fly], a.toTier[fly]]).toEqual([0, 1]);
    expect(a.kind[[...a.kind].indexOf(MOVE_GROW)]).toBe(MOVE_GROW);
    const b = transition(marks[1], marks[2]);
    expect(motionCounts(b)).toEqual({ stay: 2, fly: 0, grow: 0, shrink: 2 });
    const shrinkTiers = [...b.kind].flatMap((k, i) => (k === MOVE_SHRINK ? [b.fromTier[i]] : [])).sort();
    expect(shrinkTiers).toEqual([0, 0]);
    expect(transition(null, marks[0]).kind.every((k) => k === MOVE_STAY)).toBe(true);
  });
});

describe('stepAt', () => {
  it('finds the step and the fraction, and clamps at the ends', () => {
    const times = [0, 1, 2, 3];
    expect(stepAt(times, 1.25)).toEqual({ k: 1, frac: 0.25 });
    expect(stepAt(times, -1)).toEqual({ k: 0, frac: 0 });
    expect(stepAt(times, 9)).toEqual({ k: 3, frac: 0 });
  });
});

describe('on a real run', async () => {
  const frames: FleetFrame[] = [];
  await runScenario(hierarchyScenario(HIERARCHY_DEFAULTS), { onFrame: (f) => void frames.push(f) });
  const shared = new Set(sharedHeadHashes());

  it('frames carry both copies of a written-through page', () => {
    const last = frames[frames.length - 1];
    let both = 0;
    for (let i = 0; i < last.blocks.count; i++) if ((last.blocks.resident[i] & 3) === 3) both++;
    expect(both).toBeGreaterThan(0);
  });

  it('every shared-head page is in the run, drawn as shared', () => {
    const m = assignSlots(frames, shared);
    const k = Math.floor(frames.length / 2);
    const hashes = new Set(m[k].hash);
    for (const h of shared) expect(hashes.has(h)).toBe(true);
    for (let i = 0; i < m[k].count; i++)
      if (shared.has(m[k].hash[i])) expect(m[k].colour[i]).toBe(SHARED_COLOUR);
  });

  it('no two copies share a cell, and cells stay inside their band', () => {
    const m = assignSlots(frames, shared);
    let clashes = 0;
    let outside = 0;
    for (const f of m) {
      const seen = new Set<number>();
      for (let i = 0; i < f.count; i++) {
        const key = f.tier[i] * 1e7 + f.slot[i];
        if (seen.has(key)) clashes++;
        seen.add(key);
        if (f.slot[i] >= frames[0].replicas.kvCapacity[f.tier[i]]) outside++;
      }
    }
    expect(clashes).toBe(0);
    expect(outside).toBe(0);
  });

  it('is a function of the frames: a second pass gives the same cells (scrubbing is exact)', () => {
    const a = assignSlots(frames, shared);
    const b = assignSlots(frames, shared);
    const k = frames.length - 3;
    expect(Array.from(b[k].slot)).toEqual(Array.from(a[k].slot));
    expect(Array.from(transition(b[k], b[k + 1]).toSlot)).toEqual(
      Array.from(transition(a[k], a[k + 1]).toSlot),
    );
  });

  it('sessions prefill, decode and wait for tools', () => {
    const g = sessionPhases(frames);
    expect(g.lanes).toBeGreaterThanOrEqual(HIERARCHY_DEFAULTS.sessions);
    const seen = new Set(g.phase);
    for (const p of [PHASE_PREFILL, PHASE_DECODE, PHASE_TOOL]) expect(seen.has(p)).toBe(true);
  });
});
