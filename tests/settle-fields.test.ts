/** settleFields (src/sim/engine/settleFields.ts): a record's values and fields come out as they went in. */
import { describe, expect, it } from 'vitest';
import { settleFields } from '../src/sim/engine/settleFields';

describe('settleFields', () => {
  it('leaves every value and the set of fields as they were', () => {
    const rec = { target: 7, done: false, end: -1, s: { a: 1 } as { a: number } | null, other: 'x' };
    const s = rec.s;
    settleFields(rec, { target: -1, done: true, end: 0.5, s: null });
    expect(rec).toEqual({ target: 7, done: false, end: -1, s: { a: 1 }, other: 'x' });
    expect(rec.s).toBe(s);
    expect(Object.keys(rec)).toEqual(['target', 'done', 'end', 's', 'other']);
  });

  it('refuses a field the record does not have', () => {
    const rec: { a: number; b?: number } = { a: 1 };
    expect(() => settleFields(rec, { b: 2 })).toThrow(/no field b/);
    expect(Object.keys(rec)).toEqual(['a']);
  });
});
