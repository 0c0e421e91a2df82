/**
 * 07.08's size and depth limits (src/sim/lessons/grammar/limits.ts): measured thresholds, checked before any
 * work, each refused text answered in the learner's words; a schema too deep for the walk that prepares it gives
 * the same message instead of "Maximum call stack size exceeded".
 */
import { describe, expect, it } from 'vitest';
import {
  documentLimitMessage,
  documentTokensMessage,
  jsonDepth,
  MAX_DOCUMENT_CHARS,
  MAX_JSON_DEPTH,
  MAX_SCHEMA_CHARS,
  MAX_SCHEMA_DEPTH,
  schemaDepth,
  schemaLimitMessage,
} from '../src/sim/lessons/grammar/limits';
import { prepareSchema, SchemaError } from '../src/sim/lessons/grammar/schema';
import { SCHEMA_PRESETS } from '../src/sim/lessons/grammar/presets';
import { grammarMethods } from '../src/worker/grammarMethods';
import { directContext } from '../src/worker/job';

/** `levels` objects nested through properties, as text built without recursion (JSON.stringify recurses). */
function nestedObjects(levels: number): string {
  return (
    '{"type":"object","properties":{"a":'.repeat(levels - 1) + '{"type":"integer"}' + '}}'.repeat(levels - 1)
  );
}
function nestedArrays(levels: number): string {
  return '{"type":"array","items":'.repeat(levels - 1) + '{"type":"integer"}' + '}'.repeat(levels - 1);
}

describe('depth measures', () => {
  it('jsonDepth counts brackets outside strings, escapes included', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":[]}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[["}')).toBe(1);
    expect(jsonDepth('['.repeat(100_000) + ']'.repeat(100_000))).toBe(100_000);
  });

  it('schemaDepth counts subschemas (properties, items, anyOf, $defs, …), not plain JSON nesting', () => {
    expect(schemaDepth({ type: 'integer' })).toBe(1);
    expect(schemaDepth(JSON.parse(nestedObjects(7)))).toBe(7);
    expect(schemaDepth(JSON.parse(nestedArrays(9)))).toBe(9);
    expect(schemaDepth({ anyOf: [{ type: 'null' }, { items: [{ not: { type: 'string' } }] }] })).toBe(4);
    expect(schemaDepth({ $defs: { x: { properties: { y: {} } } } })).toBe(3);
    expect(schemaDepth({ type: 'integer', examples: [[[[[1]]]]] })).toBe(1);
    expect(schemaDepth(JSON.parse(nestedObjects(50_000)))).toBe(50_000);
  });
});

describe('schema limits', () => {
  it("admits the lesson's presets and anything up to the limits", () => {
    for (const p of SCHEMA_PRESETS) expect(schemaLimitMessage(JSON.stringify(p.schema, null, 2))).toBeNull();
    expect(schemaLimitMessage(nestedObjects(MAX_SCHEMA_DEPTH))).toBeNull();
    expect(schemaLimitMessage('{"type": "object"')).toBeNull(); // not JSON: prepareSchema says where
  });

  it('refuses an over-deep schema with its depth and the limit', () => {
    const m = schemaLimitMessage(nestedObjects(400));
    expect(m).toMatch(/^This schema nests 400 levels deep; the grammar engine handles up to 32 levels/);
    expect(m).toMatch(/\$defs/);
    expect(schemaLimitMessage(nestedArrays(MAX_SCHEMA_DEPTH + 1))).toMatch(/nests 33 levels deep/);
  });

  it('refuses deep plain JSON inside a schema by its bracket depth', () => {
    const deep = `{"type":"integer","examples":${'['.repeat(300)}1${']'.repeat(300)}}`;
    expect(schemaLimitMessage(deep)).toMatch(
      new RegExp(
        `^This schema's JSON nests 301 levels deep; the grammar engine reads up to ${MAX_JSON_DEPTH}`,
      ),
    );
  });

  it('refuses an oversize schema by its characters, before parsing it', () => {
    const big = JSON.stringify({ type: 'object', description: 'x'.repeat(5_000_000) });
    expect(schemaLimitMessage(big)).toBe(
      `This schema is ${big.length.toLocaleString('en-US')} characters; the mask stepper compiles schemas of up to ` +
        `${MAX_SCHEMA_CHARS.toLocaleString('en-US')} (compile time grows faster than the schema, and one compile ` +
        'cannot be stopped). Trim it to the tool you want to trace.',
    );
  });

  it('a schema too deep for the walk that prepares it gets the depth message, not a stack overflow', () => {
    const text = nestedObjects(60_000);
    let error: unknown;
    try {
      prepareSchema(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as Error).message).toMatch(/^This schema nests 60,000 levels deep/);
    expect((error as Error).message).not.toMatch(/call stack/);
  });
});

describe('document limits', () => {
  it("admits the presets' documents and refuses a pasted megabyte by its characters", () => {
    for (const p of SCHEMA_PRESETS)
      expect(documentLimitMessage(JSON.stringify(p.document, null, 2))).toBeNull();
    const doc = JSON.stringify({ text: 'y'.repeat(2_000_000) });
    expect(documentLimitMessage(doc)).toMatch(
      new RegExp(
        `^This document is ${doc.length.toLocaleString('en-US')} characters; the mask stepper traces documents of up to ${MAX_DOCUMENT_CHARS.toLocaleString('en-US')} characters`,
      ),
    );
    expect(documentTokensMessage(1_500)).toMatch(
      /^This document is 1,500 tokens; the mask stepper traces up to 1,000/,
    );
    expect(documentTokensMessage(1_000)).toBeNull();
  });
});

describe('the worker method checks before any work', () => {
  it('answers an oversize schema, an over-deep one and an oversize document under the right editor', async () => {
    const doc = '{"city": "Lisbon"}';
    const big = await grammarMethods.grammarMaskTrace(
      { schema: JSON.stringify({ description: 'x'.repeat(5_000_000) }), document: doc },
      directContext(),
    );
    expect(big).toMatchObject({ ok: false, field: 'schema' });
    const deep = await grammarMethods.grammarMaskTrace(
      { schema: nestedArrays(80), document: doc },
      directContext(),
    );
    expect(deep).toMatchObject({ ok: false, field: 'schema' });
    expect(deep.ok ? '' : deep.message).toMatch(/nests 80 levels deep/);
    const long = await grammarMethods.grammarMaskTrace(
      { schema: '{"type":"string"}', document: JSON.stringify('z'.repeat(2_000_000)) },
      directContext(),
    );
    expect(long).toMatchObject({ ok: false, field: 'document' });
  });
});
