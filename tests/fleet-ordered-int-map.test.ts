/** OrderedIntMap (fleet/orderedIntMap.ts), a replica's held sessions, against a Map (fast-check). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OrderedIntMap } from '../src/sim/engine/fleet/orderedIntMap';

type Op = { k: 'set' | 'delete'; key: number; v: number };
const opArb: fc.Arbitrary<Op> = fc.record({
  k: fc.constantFrom('set' as const, 'set' as const, 'delete' as const),
  key: fc.nat(12),
  v: fc.integer({ min: -5, max: 1000 }),
});

describe('OrderedIntMap against a Map (fast-check)', () => {
  it('get, has, size, order, oldest key and delete agree after every operation', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 150 }), (ops) => {
        const m = new OrderedIntMap();
        const ref = new Map<number, number>();
        for (const op of ops) {
          if (op.k === 'set') {
            m.set(op.key, op.v);
            ref.set(op.key, op.v);
          } else expect(m.delete(op.key)).toBe(ref.delete(op.key));
          expect(m.size).toBe(ref.size);
          expect([...m.keys()]).toEqual([...ref.keys()]);
          expect([...m.values()]).toEqual([...ref.values()]);
          expect(m.firstKey()).toBe(ref.size ? ref.keys().next().value : -1);
          for (let key = 0; key <= 13; key++) {
            expect(m.get(key)).toBe(ref.get(key));
            expect(m.has(key)).toBe(ref.has(key));
          }
        }
      }),
      { numRuns: 300, seed: 20261202 },
    );
  });

  it('refuses a key that is not a non-negative integer', () => {
    const m = new OrderedIntMap();
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => m.set(bad, 1)).toThrow(/non-negative integer/);
    expect(m.size).toBe(0);
  });
});
