/**
 * Lesson 07.08: the real grammar engine (XGrammar WASM) over the real o200k vocabulary, in Node. The library's
 * UMD file needs `require` and `__filename` as globals before it is imported (toolchain notes §4).
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import type { traceDocument as TraceFn } from '../src/worker/grammarEngine';

let traceDocument: typeof TraceFn;

beforeAll(async () => {
  const require = createRequire(import.meta.url);
  const g = globalThis as Record<string, unknown>;
  g.require ??= require;
  g.__filename ??= require.resolve('@mlc-ai/web-xgrammar');
  ({ traceDocument } = await import('../src/worker/grammarEngine'));
}, 60_000);

const SMALL = JSON.stringify({
  type: 'object',
  properties: { a: { type: 'integer' }, ok: { type: 'boolean' } },
  required: ['a', 'ok'],
  additionalProperties: false,
});

describe('XGrammar over o200k, in Node', () => {
  it('allows only the opening tokens at step 0, follows the document, and ends with <|endoftext|> only', async () => {
    const r = await traceDocument(SMALL, '{"a": 12, "ok": true}');
    expect(r.vocabSize).toBe(200_019);
    expect(r.document).toBe('{"a":12,"ok":true}');
    expect(r.complete).toBe(true);
    expect(r.rejectedAt).toBeNull();
    const first = r.steps[0];
    expect(first.allowed).toBe(2);
    expect([...first.sample].sort()).toEqual(['{', '{"']);
    // Probes: '{' and '{"' allowed, 'Sure' and '<|endoftext|>' masked.
    const probe = (name: string) => first.probes[r.probes.indexOf(name)];
    expect(probe('{')).toBe(true);
    expect(probe('{"')).toBe(true);
    expect(probe('Sure')).toBe(false);
    expect(probe('<|endoftext|>')).toBe(false);
    expect(first.jumpForward).toBe('{"a":');
    const last = r.steps[r.steps.length - 1];
    expect(last.allowed).toBe(1);
    expect(last.tokenId).toBe(199_999);
    expect(r.steps.every((s) => s.accepted)).toBe(true);
  }, 60_000);

  it('refuses a document the schema forbids, at the first token that leaves it', async () => {
    const r = await traceDocument(SMALL, '{"a": 12, "ok": "yes"}');
    expect(r.complete).toBe(false);
    expect(r.rejectedAt).not.toBeNull();
    expect(r.steps[r.rejectedAt!].accepted).toBe(false);
  }, 60_000);

  it("reports a schema the engine cannot compile with the engine's reason, and keeps working", async () => {
    await expect(traceDocument('{"type": "strin"}', '{}')).rejects.toThrow(/Unsupported type "strin"/);
    const again = await traceDocument(SMALL, '{"a":1,"ok":false}');
    expect(again.complete).toBe(true);
  }, 60_000);
});

describe("the mask stepper's Try this items, at the step each one shows", async () => {
  const { TRY_THIS } = await import('../src/widgets/structured-output/MaskStepper');
  const { findPreset } = await import('../src/sim/lessons/grammar/presets');
  // The widget compiles the preset's texts as its editor shows them (pretty-printed JSON).
  const presetTrace = (id: string, edit: (doc: string) => string = (d) => d) => {
    const p = findPreset(id)!;
    return traceDocument(JSON.stringify(p.schema, null, 2), edit(JSON.stringify(p.document, null, 2)));
  };
  const stepOf = (i: number) => Math.floor(TRY_THIS[i].time ?? 0);

  it('step 0 of get_weather: two tokens allowed, neither is "Sure"', async () => {
    const r = await presetTrace('get-weather');
    const s = r.steps[stepOf(0)];
    expect(s.allowed).toBe(2);
    expect(s.probes[r.probes.indexOf('Sure')]).toBe(false);
  }, 60_000);
  it("inside the city's value nearly the whole vocabulary is allowed, but not all of it", async () => {
    const r = await presetTrace('get-weather');
    const s = r.steps[stepOf(1)];
    expect(s.token).toBe('Lis');
    expect(s.allowed / r.vocabSize).toBeGreaterThan(0.95);
    expect(s.allowed).toBeLessThan(r.vocabSize);
  }, 60_000);
  it('one of three tools, after "read": the jump-forward string writes the rest of the frame', async () => {
    expect(TRY_THIS[2].set?.preset).toBe('tool-choice');
    const r = await presetTrace('tool-choice');
    const k = stepOf(2);
    expect(r.steps[k - 1].token).toBe('read');
    expect(r.steps[k].jumpForward).toContain('"arguments":{"path":"');
  }, 60_000);
  it('"kelvin" for "celsius": refused at the first token that leaves the enum', async () => {
    const r = await presetTrace('get-weather', (d) => d.replace('"celsius"', '"kelvin"'));
    expect(r.complete).toBe(false);
    const at = r.rejectedAt!;
    expect(r.steps.slice(0, at).every((s) => s.accepted)).toBe(true);
    expect(r.steps[at].accepted).toBe(false);
    expect(r.steps[at].token.replace(/^"/, '')).toMatch(/^k/); // the token that starts "kelvin"
  }, 60_000);
});
