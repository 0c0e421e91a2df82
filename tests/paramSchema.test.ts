import { describe, expect, it } from 'vitest';
import {
  coerceValue,
  defaultValues,
  parseParamsFromQuery,
  writeParamsToQuery,
  type ParamSchema,
} from '../src/state/paramSchema';
import { createWidgetParamsStore, type UrlAccess } from '../src/state/widgetParams';

const schema = {
  tokens: {
    kind: 'number',
    label: 'Context',
    default: 100000,
    min: 1000,
    max: 1000000,
    integer: true,
    scale: 'log',
  },
  util: { kind: 'number', label: 'Utilisation', default: 0.9, min: 0.5, max: 1, step: 0.05 },
  model: {
    kind: 'select',
    label: 'Model',
    default: 'a',
    options: [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
    ],
  },
  fp8: { kind: 'boolean', label: 'FP8', default: false },
  seed: { kind: 'seed', label: 'Seed', default: 1 },
} satisfies ParamSchema;

describe('parameter schema', () => {
  it('reads valid values from the query', () => {
    const { values, corrected } = parseParamsFromQuery(
      schema,
      'kv',
      '?kv.tokens=5000&kv.model=b&kv.fp8=true&kv.seed=77&other.x=1',
    );
    expect(values).toEqual({ tokens: 5000, util: 0.9, model: 'b', fp8: true, seed: 77 });
    expect(corrected).toEqual([]);
  });

  it('clamps and corrects hand-edited values and reports them', () => {
    const { values, corrected } = parseParamsFromQuery(
      schema,
      'kv',
      '?kv.tokens=1e12&kv.util=abc&kv.model=zzz&kv.fp8=maybe&kv.seed=-4',
    );
    expect(values.tokens).toBe(1000000);
    expect(values.util).toBe(0.9);
    expect(values.model).toBe('a');
    expect(values.fp8).toBe(false);
    expect(values.seed).toBe(1);
    expect(corrected.sort()).toEqual(['fp8', 'model', 'seed', 'tokens', 'util']);
  });

  it('snaps log-scale stepped numbers to the step too (what the computation accepts)', () => {
    const spec = {
      kind: 'number',
      label: 'New tokens',
      default: 1500,
      min: 10,
      max: 20000,
      step: 10,
      scale: 'log',
    } as const;
    expect(coerceValue(spec, 66.9).value).toBe(70);
    expect(coerceValue(spec, 19999).value).toBe(20000);
  });

  it('snaps stepped numbers to the step', () => {
    expect(coerceValue(schema.util, 0.93).value).toBe(0.95);
    expect(coerceValue(schema.tokens, 1234.6).value).toBe(1235);
  });

  it('round-trips through the URL, omitting defaults and keeping other keys', () => {
    const values = { ...defaultValues(schema), tokens: 20000, model: 'b' };
    const q = writeParamsToQuery(schema, 'kv', values, '?other.x=1&kv.fp8=true');
    expect(q).toBe('?other.x=1&kv.tokens=20000&kv.model=b');
    expect(parseParamsFromQuery(schema, 'kv', q).values).toEqual(values);
  });

  it('a store mirrors changes into the URL and resets', () => {
    let search = '?kv.tokens=2000';
    const url: UrlAccess = { read: () => search, write: (s) => (search = s) };
    const store = createWidgetParamsStore('kv', schema, url);
    expect(store.getState().values.tokens).toBe(2000);
    store.getState().set('model', 'b');
    expect(search).toBe('?kv.tokens=2000&kv.model=b');
    store.getState().set('tokens', -5);
    expect(store.getState().values.tokens).toBe(1000);
    store.getState().reset();
    expect(search).toBe('');
  });
});
