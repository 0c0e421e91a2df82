import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { median } from '../src/lib/stats';

describe('median', () => {
  it('takes the middle value, or the mean of the two middle ones, whatever the order; NaN for none', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1 }), (xs) => {
        const m = median(xs);
        // As many values at or below it as at or above it, and the input left as it was.
        const copy = [...xs];
        median(xs);
        expect(xs).toEqual(copy);
        expect(xs.filter((x) => x <= m).length * 2).toBeGreaterThanOrEqual(xs.length);
        expect(xs.filter((x) => x >= m).length * 2).toBeGreaterThanOrEqual(xs.length);
      }),
    );
  });
});
