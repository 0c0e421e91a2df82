/** The fleet report's summaries (src/sim/engine/fleet/metrics.ts summarize) against the definition they implement. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentileSorted, summarize } from '../src/sim/engine/fleet/metrics';

/** The definition: drop NaN, sort ascending, sum in sorted order, interpolate the percentiles. */
function reference(values: readonly number[]) {
  const s = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (!s.length) return { count: 0, mean: 0, p50: 0, p90: 0, p99: 0, max: 0 };
  let sum = 0;
  for (const x of s) sum += x;
  const at = (q: number) => percentileSorted(s, q);
  return {
    count: s.length,
    mean: sum / s.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: s[s.length - 1],
  };
}

// −0 is mapped to 0: a typed array sorts −0 before 0, the reference's comparator keeps them in input order.
const value = fc.oneof(
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((x) => (x === 0 ? 0 : x)),
  fc.constant(NaN),
  fc.constant(0),
);

describe('summarize', () => {
  it('skips NaN wherever it lies and sums in sorted order, from a typed array, a plain one, or through a scratch array', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 200 }), fc.nat({ max: 50 }), (values, extra) => {
        const want = reference(values);
        expect(summarize(values)).toEqual(want);
        expect(summarize(Float64Array.from(values))).toEqual(want);
        const scratch = new Float64Array(values.length + extra).fill(-7);
        expect(summarize(Float64Array.from(values), scratch)).toEqual(want);
        expect(summarize(values, scratch)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves its input alone, and a scratch array too short is not used', () => {
    const input = Float64Array.from([3, NaN, 1, 2]);
    const short = new Float64Array(2).fill(9);
    expect(summarize(input, short)).toMatchObject({ count: 3, p50: 2, max: 3 });
    expect(Array.from(input)).toEqual([3, NaN, 1, 2]);
    expect(Array.from(short)).toEqual([9, 9]);
    expect(summarize([NaN, NaN])).toEqual({ count: 0, mean: 0, p50: 0, p90: 0, p99: 0, max: 0 });
  });
});
