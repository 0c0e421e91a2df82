import { describe, expect, it } from 'vitest';
import { shapeCandidates } from '../src/lessons-kit/ShapeExercise';
import { methods } from '../src/worker/methods';

const ARGS = {
  modelId: 'llama-3.1-70b',
  acceleratorId: 'h100-sxm',
  kvDtype: 'bf16',
  weightDtype: 'bf16',
  gpus: 8,
  memoryUtilization: 0.9,
} as const;

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
