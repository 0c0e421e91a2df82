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

describe("the prose's claims about the default get_weather trace", () => {
  const V = 200_019;
  const isPrefixOf = (t: string, ...words: string[]) => words.some((w) => w.startsWith(t));
  it('step 0 allows `{` and `{"` only; the city opens the mask; the enum narrows it; the last step is <|endoftext|> alone', async () => {
    const { findPreset } = await import('../src/sim/lessons/grammar/presets');
    const p = findPreset('get-weather')!;
    const r = await traceDocument(JSON.stringify(p.schema, null, 2), JSON.stringify(p.document, null, 2));
    expect(r.complete).toBe(true);
    expect([...r.steps[0].sample].sort()).toEqual(['{', '{"']);
    // "the next steps allow only a handful of tokens each": the key is fixed
    const city = r.document.indexOf('Lisbon');
    let pos = 0;
    const at = r.steps.map((s) => {
      const start = pos;
      pos += s.token.length;
      return start;
    });
    r.steps.forEach((s, i) => {
      if (at[i] > 0 && at[i] < city - 1) expect(s.allowed).toBeLessThanOrEqual(10);
    });
    // "inside the free string city the mask opens up to <maxAllowed>": the widest step is in the city's value
    const widest = r.steps.reduce((a, b) => (b.allowed > a.allowed ? b : a));
    expect(r.steps.indexOf(widest)).toBe(r.steps.findIndex((s) => s.token === 'Lis'));
    expect(widest.allowed / V).toBeGreaterThan(0.95);
    // "when the enum value starts, the choice narrows to the few tokens that begin celsius or fahrenheit"
    const enumStart = r.steps.findIndex((_, i) => at[i] === r.document.indexOf('celsius'));
    expect(enumStart).toBeGreaterThan(0);
    expect(r.steps[enumStart].allowed).toBeLessThanOrEqual(10);
    for (const t of r.steps[enumStart].sample) expect(isPrefixOf(t, 'celsius"', 'fahrenheit"')).toBe(true);
    // "at the last step the mask allows <minAllowed> token, the end-of-sequence token"
    const last = r.steps[r.steps.length - 1];
    expect(Math.min(...r.steps.map((s) => s.allowed))).toBe(1);
    expect(last.allowed).toBe(1);
    expect(last.tokenId).toBe(199_999);
    // the jump-forward string at step 0 is the fixed frame up to the city's value
    expect(r.steps[0].jumpForward).toBe('{"city":"');
  }, 60_000);

  it('most steps of the default call allow ten tokens or fewer; compiling the schema costs more than many mask steps', async () => {
    const { findPreset } = await import('../src/sim/lessons/grammar/presets');
    const { NARROW_ALLOWED } = await import('../src/widgets/structured-output/figures');
    const p = findPreset('get-weather')!;
    const r = await traceDocument(JSON.stringify(p.schema, null, 2), JSON.stringify(p.document, null, 2));
    // Remember: "most steps of the lesson's tool call allow a handful of tokens, its free string nearly all"
    const narrow = r.steps.filter((s) => s.allowed <= NARROW_ALLOWED).length;
    expect(narrow).toBeGreaterThan(r.steps.length / 2);
    // "compiling the schema is the expensive part": one compile against the median mask step, by a wide margin.
    const masks = r.steps.map((s) => s.maskUs).sort((a, b) => a - b);
    expect(r.compileMs * 1000).toBeGreaterThan(100 * masks[Math.floor(masks.length / 2)]);
  }, 60_000);

  it('"the mask cannot close what max_tokens cuts off": every cut before the end is unparseable, and the mask never offers to stop there', async () => {
    const { findPreset } = await import('../src/sim/lessons/grammar/presets');
    const p = findPreset('get-weather')!;
    const r = await traceDocument(JSON.stringify(p.schema, null, 2), JSON.stringify(p.document, null, 2));
    expect(r.complete).toBe(true);
    expect(() => JSON.parse(r.document)).not.toThrow();
    const eos = r.probes.indexOf('<|endoftext|>');
    expect(eos).toBeGreaterThanOrEqual(0);
    // A generation stopped by a token limit after k tokens: the text is a valid prefix (every token allowed),
    // yet not JSON, and the end-of-sequence token was not allowed there (the mask would have kept going).
    let text = '';
    const last = r.steps.length - 1; // the <|endoftext|> step
    for (let k = 0; k < last; k++) {
      expect(r.steps[k].probes[eos]).toBe(false);
      expect(r.steps[k].accepted).toBe(true);
      text += r.steps[k].token;
      if (k < last - 1) expect(() => JSON.parse(text)).toThrow();
    }
    expect(text).toBe(r.document);
    expect(r.steps[last].probes[eos]).toBe(true);
    // The prose's example of a cut: a prefix of the default call, inside the city's value.
    expect(r.document.startsWith('{"city":"Lis')).toBe(true);
    expect(r.steps.some((s) => s.token === 'Lis')).toBe(true);
  }, 60_000);

  it('"compiled for compact JSON": a valid spaced document is sent compact; one sent as typed is refused at its first space', async () => {
    const ok = await traceDocument(SMALL, '{"a": 12, "ok": true}');
    expect(ok.document).toBe('{"a":12,"ok":true}');
    expect(ok.complete).toBe(true);
    const typed = await traceDocument(SMALL, '{"a": 12'); // not JSON yet: generated as typed
    expect(typed.complete).toBe(false);
    const k = typed.rejectedAt!;
    expect(typed.steps.slice(0, k).every((s) => s.accepted && !s.token.includes(' '))).toBe(true);
    expect(typed.steps[k].token.startsWith(' ')).toBe(true);
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
    // "without a decode step per token": the forced string spans several of the document's tokens, each of which
    // a plain decode loop would spend a forward pass on.
    let covered = '';
    let tokens = 0;
    while (covered.length < r.steps[k].jumpForward.length) covered += r.steps[k + tokens++].token;
    expect(covered.startsWith(r.steps[k].jumpForward)).toBe(true);
    expect(tokens).toBeGreaterThan(1);
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
