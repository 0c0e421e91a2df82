/**
 * Every widget's parameter schema is self-consistent: each default is a value its own control offers (inside
 * [min, max], on its step, an option of its select), so a reset never lands on a value the control would move.
 */
import { describe, expect, it } from 'vitest';
import { coerceValue, type ParamSpec } from '../src/state/paramSchema';

const modules = import.meta.glob<Record<string, unknown>>('../src/widgets/*/schema.ts', { eager: true });

function isSpec(x: unknown): x is ParamSpec {
  return (
    typeof x === 'object' &&
    x !== null &&
    'kind' in x &&
    'label' in x &&
    'default' in x &&
    ['number', 'select', 'boolean', 'seed'].includes((x as { kind: string }).kind)
  );
}

const schemas: [string, Record<string, ParamSpec>][] = [];
for (const [path, mod] of Object.entries(modules))
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value !== 'object' || value === null) continue;
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length > 0 && entries.every(([, v]) => isSpec(v)))
      schemas.push([`${path.replace(/^.*widgets\//, '')}:${name}`, value as Record<string, ParamSpec>]);
  }

describe('widget parameter schemas', () => {
  it('were all found', () => {
    expect(schemas.length).toBeGreaterThanOrEqual(20);
  });
  for (const [name, schema] of schemas)
    it(`${name}: every default is a value its control offers`, () => {
      for (const [key, spec] of Object.entries(schema)) {
        if (spec.kind === 'number') expect(spec.min, `${key}`).toBeLessThanOrEqual(spec.max);
        const { value, valid } = coerceValue(spec, spec.default);
        expect(valid, `${key}`).toBe(true);
        expect(value, `${key}`).toBe(spec.default);
      }
    });

  it('shows a control that picks a turn as a position ("turn 10"), never as an amount ("10 turn")', () => {
    const picksTurn = schemas.flatMap(([name, schema]) =>
      Object.entries(schema)
        .filter(([, spec]) => spec.kind === 'number' && /^turn\b|\bat turn\b/i.test(spec.label))
        .map(([key, spec]) => [`${name}.${key}`, spec] as const),
    );
    expect(picksTurn.length).toBeGreaterThanOrEqual(2);
    for (const [key, spec] of picksTurn) {
      if (spec.kind !== 'number') continue;
      expect(spec.unit, key).toBeUndefined();
      expect(spec.format?.(10), key).toBe('turn 10');
    }
  });
});

describe('shared parameters', () => {
  it('label a dtype choice with its bytes per element from the catalog', async () => {
    const { dtypeParam } = await import('../src/widgets/kit/commonParams');
    const p = dtypeParam('KV-cache dtype', ['bf16', 'fp8', 'fp32']);
    expect(p.default).toBe('bf16');
    expect(p.options.map((o) => o.label)).toEqual(['BF16 (2 bytes)', 'FP8 (1 byte)', 'FP32 (4 bytes)']);
  });
});
