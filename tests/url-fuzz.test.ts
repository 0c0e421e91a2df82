/**
 * URL fuzzing (#12): every widget schema read from random query strings (numbers out of range, e-notation, NaN,
 * huge and negative values, unknown options, junk, injection attempts) gives values its controls offer, never NaN
 * or a value out of range; and what the store writes back reads back unchanged and uncorrected.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseLinkFlags,
  parseParamsFromQuery,
  SEED_MAX,
  writeParamsToQuery,
  type ParamSchema,
  type ParamSpec,
} from '../src/state/paramSchema';

const modules = import.meta.glob<Record<string, unknown>>('../src/widgets/*/schema.ts', { eager: true });

function isSpec(v: unknown): v is ParamSpec {
  return !!v && typeof v === 'object' && 'kind' in v && 'label' in v && 'default' in v;
}
function isSchema(v: unknown): v is ParamSchema {
  return !!v && typeof v === 'object' && Object.keys(v).length > 0 && Object.values(v).every(isSpec);
}

const schemas: [string, ParamSchema][] = Object.entries(modules).flatMap(([path, m]) =>
  Object.entries(m)
    .filter(([, v]) => isSchema(v))
    .map(
      ([name, v]) =>
        [`${path.replace(/^.*widgets\//, '')}:${name}`, v as ParamSchema] as [string, ParamSchema],
    ),
);

const hostile = fc.oneof(
  fc.string(),
  fc.double().map(String),
  fc.integer().map(String),
  fc.constantFrom(
    'NaN',
    'Infinity',
    '-Infinity',
    '1e308',
    '-1e308',
    '1e-320',
    '-0',
    '0x10',
    ' 5 ',
    '',
    '<script>',
  ),
  fc.constantFrom('true', 'false', '1', '0', 'yes'),
);

function expectAdmitted(spec: ParamSpec, v: unknown) {
  switch (spec.kind) {
    case 'number':
      expect(typeof v).toBe('number');
      expect(Number.isFinite(v)).toBe(true);
      expect(v as number).toBeGreaterThanOrEqual(spec.min);
      expect(v as number).toBeLessThanOrEqual(spec.max);
      if (spec.integer) expect(Number.isInteger(v)).toBe(true);
      break;
    case 'select':
      expect(spec.options.map((o) => o.value)).toContain(v);
      break;
    case 'boolean':
      expect(typeof v).toBe('boolean');
      break;
    case 'seed':
      expect(Number.isInteger(v)).toBe(true);
      expect(v as number).toBeGreaterThanOrEqual(0);
      expect(v as number).toBeLessThanOrEqual(SEED_MAX);
      break;
  }
}

describe('URL fuzzing of every widget schema', () => {
  it('finds the schemas', () => {
    expect(schemas.length).toBeGreaterThanOrEqual(14);
  });

  it("covers 07.09's three widgets (their schemas live in grammar-cost/schema.ts, not in the components)", () => {
    const names = schemas.map(([n]) => n);
    for (const n of ['grammarCostSchema', 'grammarCacheSchema', 'maskOverlapSchema'])
      expect(names).toContain(`grammar-cost/schema.ts:${n}`);
  });

  for (const [name, schema] of schemas) {
    it(`${name}: random values read as admitted values, and written values read back unchanged`, () => {
      const keys = Object.keys(schema);
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom(...keys), hostile), fc.string(), (raw, junkFlag) => {
          const q = new URLSearchParams();
          for (const [k, v] of Object.entries(raw)) q.set(`w.${k}`, v);
          q.set('w.hide', junkFlag);
          q.set('other.key', 'x');
          const parsed = parseParamsFromQuery(schema, 'w', `?${q}`);
          for (const k of keys) expectAdmitted(schema[k], (parsed.values as Record<string, unknown>)[k]);
          for (const c of parsed.corrected) expect(keys).toContain(c);
          const flags = parseLinkFlags(schema, 'w', `?${q}`);
          for (const h of flags.hidden) expect(keys).toContain(h);
          const written = writeParamsToQuery(schema, 'w', parsed.values, `?${q}`);
          const again = parseParamsFromQuery(schema, 'w', written);
          expect(again.values).toEqual(parsed.values);
          expect(again.corrected).toEqual([]);
          expect(new URLSearchParams(written).get('other.key')).toBe('x');
        }),
        { numRuns: 60, seed: 20261201 },
      );
    });
  }
});
