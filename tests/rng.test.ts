import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRng } from '../src/sim/engine/rng';

describe('createRng', () => {
  it('replays the same stream for the same seed', () => {
    const a = createRng(42);
    const b = createRng(42);
    const xs = Array.from({ length: 100 }, () => a.next());
    const ys = Array.from({ length: 100 }, () => b.next());
    expect(xs).toEqual(ys);
  });

  it('gives unrelated streams for neighbouring seeds', () => {
    const a = createRng(1);
    const b = createRng(2);
    const same = Array.from({ length: 50 }, () => a.next() === b.next()).filter(Boolean).length;
    expect(same).toBe(0);
  });

  it('pins the first outputs so Node and browsers can be compared', () => {
    const r = createRng(12345);
    const first = [r.next(), r.next(), r.next()].map((x) => Math.round(x * 1e9));
    // Values recorded from this implementation; a change to the generator must be deliberate.
    expect(first).toMatchInlineSnapshot(`
      [
        546095308,
        313125821,
        692610444,
      ]
    `);
  });

  it('stays in [0, 1) and int(n) in [0, n)', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 1000 }), (seed, n) => {
        const r = createRng(seed);
        for (let i = 0; i < 50; i++) {
          const x = r.next();
          const k = r.int(n);
          if (!(x >= 0 && x < 1)) return false;
          if (!(Number.isInteger(k) && k >= 0 && k < n)) return false;
        }
        return true;
      }),
    );
  });

  it('has a mean near 1/2 and exponential samples near their mean', () => {
    const r = createRng(7);
    let s = 0;
    let e = 0;
    const n = 20000;
    for (let i = 0; i < n; i++) {
      s += r.next();
      e += r.exponential(3);
    }
    expect(s / n).toBeCloseTo(0.5, 1);
    expect(e / n).toBeGreaterThan(2.85);
    expect(e / n).toBeLessThan(3.15);
  });

  it('resumes from a saved state', () => {
    const r = createRng(99);
    r.next();
    const saved = r.state();
    const x = r.next();
    expect(createRng(0, saved).next()).toBe(x);
  });
});
