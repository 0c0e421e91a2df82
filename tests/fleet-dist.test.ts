/** Workload distributions (src/sim/engine/fleet/dist.ts): the one-shape copy samples exactly as the original. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sample, TOOL_LATENCY_PRESETS, uniformShape, type Dist } from '../src/sim/engine/fleet/dist';
import { createRng } from '../src/sim/engine/rng';

const pos = fc.double({ min: 0.01, max: 1000, noNaN: true });
const bound = fc.option(fc.double({ min: 0, max: 2000, noNaN: true }), { nil: undefined });

/** Distributions of every kind, each optional field given or left out. */
const leaf: fc.Arbitrary<Dist> = fc.oneof(
  pos.map((value): Dist => ({ kind: 'constant', value })),
  fc.tuple(pos, pos).map(([a, b]): Dist => ({ kind: 'uniform', min: Math.min(a, b), max: Math.max(a, b) })),
  fc
    .record({ mean: pos, min: bound, max: bound }, { requiredKeys: ['mean'] })
    .map((r): Dist => ({ kind: 'exponential', ...r })),
  fc
    .record(
      { median: pos, sigma: fc.double({ min: 0, max: 2, noNaN: true }), min: bound, max: bound },
      { requiredKeys: ['median', 'sigma'] },
    )
    .map((r): Dist => ({ kind: 'lognormal', ...r })),
  fc
    .record({ mean: pos, sd: pos, min: bound, max: bound }, { requiredKeys: ['mean', 'sd'] })
    .map((r): Dist => ({ kind: 'normal', ...r })),
  fc
    .array(pos, { minLength: 1, maxLength: 5 })
    .chain((values) =>
      fc
        .option(fc.array(pos, { minLength: values.length, maxLength: values.length }), { nil: undefined })
        .map((weights): Dist => (weights ? { kind: 'choice', values, weights } : { kind: 'choice', values })),
    ),
);
const dist: fc.Arbitrary<Dist> = fc.oneof(
  leaf,
  fc
    .array(fc.record({ weight: pos, dist: leaf }), { minLength: 1, maxLength: 4 })
    .map((components): Dist => ({ kind: 'mixture', components })),
  fc
    .tuple(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 }), leaf)
    .map(([values, each]): Dist => ({ kind: 'parallel', calls: { kind: 'choice', values }, each })),
);

describe('uniformShape', () => {
  it('draws the same samples as the distribution it copies, from the same stream', () => {
    fc.assert(
      fc.property(dist, fc.integer(), (d, seed) => {
        const a = createRng(seed);
        const b = createRng(seed);
        const shaped = uniformShape(d);
        for (let i = 0; i < 20; i++) expect(sample(shaped, b)).toBe(sample(d, a));
      }),
    );
  });

  it('gives every distribution, nested ones too, the same fields in the same order', () => {
    const keysOf = (d: Dist): string => Object.keys(d).join(',');
    const shapes = new Set<string>();
    const visit = (d: Dist): void => {
      shapes.add(keysOf(d));
      if (d.kind === 'mixture') for (const c of d.components) visit(c.dist);
      if (d.kind === 'parallel') {
        visit(d.calls);
        visit(d.each);
      }
    };
    for (const preset of Object.values(TOOL_LATENCY_PRESETS)) visit(uniformShape(preset));
    visit(uniformShape({ kind: 'constant', value: 1 }));
    visit(uniformShape({ kind: 'uniform', min: 1, max: 2 }));
    expect(shapes.size).toBe(1);
  });
});
