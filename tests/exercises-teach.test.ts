import { describe, expect, it } from 'vitest';
import { shapeCandidates } from '../src/lessons-kit/ShapeExercise';
import { methods } from '../src/worker/methods';
import { FOOTPRINT_REPLICA } from '../src/widgets/kv-footprint/KvFootprintExercise';

/** The replica the exercise runs (its context lengths are the test's). */
const ARGS = FOOTPRINT_REPLICA;

describe('predict-the-shape candidates', () => {
  const curve = Array.from({ length: 20 }, (_, i) => ({ x: i + 1, y: 100 / (i + 1) }));
  it('hold the computed curve and distinct mistakes, in an order fixed by the exercise id', () => {
    const c = shapeCandidates('ex-1', curve);
    expect(c.map((k) => k.kind).sort()).toEqual(['computed', 'flat', 'opposite', 'straight']);
    expect(c.find((k) => k.kind === 'computed')!.points).toEqual(curve);
    expect(shapeCandidates('ex-1', curve).map((k) => k.kind)).toEqual(c.map((k) => k.kind));
    // The mistakes share the end points (straight, opposite) so the shape, not the range, decides.
    for (const k of c.filter((x) => x.kind === 'straight' || x.kind === 'opposite')) {
      expect(k.points[0].y).toBeCloseTo(curve[0].y);
      expect(k.points[19].y).toBeCloseTo(curve[19].y);
    }
  });
  it('drop a mistake that would look like the truth (a straight line has no opposite curvature)', () => {
    const line = Array.from({ length: 10 }, (_, i) => ({ x: i, y: 2 * i }));
    const kinds = shapeCandidates('ex-2', line).map((k) => k.kind);
    expect(kinds).toContain('computed');
    expect(kinds).not.toContain('straight');
    expect(kinds).not.toContain('opposite');
  });
});

describe('07.04 predict-the-shape: contexts against context length', () => {
  it('is a hyperbola in whole steps: doubling the context halves the contexts that fit (within rounding)', () => {
    const contextTokens = [20_000, 40_000, 80_000, 160_000];
    const r = methods.kvFootprintSweep({ ...ARGS, contextTokens });
    const n = r.concurrentContexts;
    for (let i = 1; i < n.length; i++) {
      expect(n[i]).toBeLessThan(n[i - 1]);
      expect(Math.abs(n[i] - n[i - 1] / 2)).toBeLessThanOrEqual(1);
    }
    // The convex shape the exercise's explanation describes: the first drop is larger than the last.
    expect(n[0] - n[1]).toBeGreaterThan(n[2] - n[3]);
    expect(() => methods.kvFootprintSweep({ ...ARGS, contextTokens: [1] })).toThrow(/between 2 and 200/);
  });
});

describe('07.09 predict-the-shape: TPOT against the batch with slow masks', () => {
  it('climbs in a line to 128 (serial fill), drops past it (the pool), then climbs more slowly', async () => {
    const { maskShapeCurve } = await import('../src/widgets/grammar-cost/MaskShapeExercise');
    const c = maskShapeCurve();
    const at = (b: number) => c.find((p) => p.x === b)!.y;
    for (let b = 16; b <= 128; b += 8) expect(at(b)).toBeGreaterThan(at(b - 8));
    // Linear up to 128: equal steps (within 5%).
    const s1 = at(64) - at(56);
    const s2 = at(128) - at(120);
    expect(Math.abs(s2 - s1) / s1).toBeLessThan(0.05);
    expect(at(136)).toBeLessThan(at(128));
    expect(at(256) - at(136)).toBeLessThan(at(128) - at(8));
    expect(at(256)).toBeLessThan(at(128));
  });
});

describe('07.11 predict-the-shape: the prompt under summarising', () => {
  it('is a saw tooth: it grows every turn and falls back at the compaction', async () => {
    const { compactionPayback } = await import('../src/worker/compactionMethods');
    const { PAYBACK_DEFAULT_ARGS } = await import('../src/widgets/context-compaction/schema');
    const r = compactionPayback(PAYBACK_DEFAULT_ARGS);
    const turns = r.runs.summarise.turns;
    let falls = 0;
    for (let i = 1; i < turns.length; i++) {
      const d = turns[i].promptTokens - turns[i - 1].promptTokens;
      if (turns[i].compacted) {
        expect(d).toBeLessThan(0);
        falls++;
      } else expect(d).toBeGreaterThan(0);
    }
    expect(falls).toBeGreaterThanOrEqual(1);
  });
});
