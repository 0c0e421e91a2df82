/**
 * Every row of `npm run validate` passes within its stated tolerance (rows needing absent data are skipped), and
 * every known gap is still outside it (a gap that closes must become a row).
 */
import { describe, expect, it } from 'vitest';
import { ALL_ROWS } from '../validation/rows/index';
import { evaluate, missingData, withinTolerance } from '../validation/row';

describe('npm run validate', () => {
  it('has unique row ids', () => {
    const ids = ALL_ROWS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
  it('tolerance arithmetic', () => {
    expect(withinTolerance(1.14, 1, { kind: 'relative', value: 0.15 })).toBe(true);
    expect(withinTolerance(1.16, 1, { kind: 'relative', value: 0.15 })).toBe(false);
    expect(withinTolerance(0.5, 1, { kind: 'factor', value: 2 })).toBe(true);
    expect(withinTolerance(0.49, 1, { kind: 'factor', value: 2 })).toBe(false);
    expect(withinTolerance(NaN, 1, { kind: 'factor', value: 2 })).toBe(false);
  });
  it('a known gap is shown with its reason while outside its tolerance, and fails once it closes', async () => {
    const gap = {
      id: 'gap',
      group: 'g',
      what: 'w',
      source: 's',
      published: 10,
      unit: 'ms',
      tolerance: { kind: 'relative' as const, value: 0.15 },
      knownGap: 'not modelled',
    };
    const open = await evaluate({ ...gap, ours: () => 7 });
    expect(open.status).toBe('gap');
    expect(open.note).toBe('not modelled');
    const closed = await evaluate({ ...gap, ours: () => 9.5 });
    expect(closed.status).toBe('fail');
    expect(closed.note).toMatch(/has closed .*make it a row/);
    expect(ALL_ROWS.filter((r) => r.knownGap !== undefined).length).toBeGreaterThan(0);
  });
  for (const row of ALL_ROWS) {
    const missing = missingData(row);
    it.skipIf(missing.length > 0)(
      `${row.id}: ${row.what}`,
      async () => {
        const r = await evaluate(row);
        expect(r.status, `ours ${r.ours} vs published ${r.published} ${r.unit} (${r.tolerance})`).toBe(
          row.knownGap === undefined ? 'pass' : 'gap',
        );
      },
      120_000,
    );
  }
});
