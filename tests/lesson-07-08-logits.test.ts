/**
 * Lesson 07.08, "the mask falls on the logits": the pure parts (illustrative logits, the mask applied to them,
 * step contexts, playback) and the prose's claims against the real engine's masks (XGrammar WASM over o200k in
 * Node, set up as in tests/lesson-07-08-engine.test.ts).
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyMask, illustrativeCandidates, TAIL_SHARE } from '../src/sim/lessons/grammar/logits';
import { summariseMaskSteps } from '../src/sim/lessons/grammar/maskSummary';
import { jsonContext, stepContexts } from '../src/sim/lessons/grammar/stepContext';
import { countAllowed } from '../src/sim/lessons/grammar/vocab';
import { findPreset, SCHEMA_PRESETS } from '../src/sim/lessons/grammar/presets';
import { playbackFrame } from '../src/widgets/structured-output/maskPlayback';
import { directContext } from '../src/worker/job';
import type { LogitTrace, LogitTraceRequest } from '../src/worker/grammarLogitsEngine';

type Method = (req: LogitTraceRequest, ctx: ReturnType<typeof directContext>) => Promise<LogitTrace>;
let maskLogits: Method;

beforeAll(async () => {
  const require = createRequire(import.meta.url);
  const g = globalThis as Record<string, unknown>;
  g.require ??= require;
  g.__filename ??= require.resolve('@mlc-ai/web-xgrammar');
  const { grammarMethods } = await import('../src/worker/grammarMethods');
  maskLogits = grammarMethods.grammarMaskLogits as unknown as Method;
}, 60_000);

const V = 200_019;
const trace = (preset: string, mode: LogitTraceRequest['mode'], seed = 1) =>
  maskLogits({ preset, mode, seed }, directContext());

describe('the mask applied to logits (pure)', () => {
  const raw = [
    { id: 1, kind: 'next' as const, logit: 6 },
    { id: 2, kind: 'prose' as const, logit: 5.5 },
    { id: 3, kind: 'alternative' as const, logit: 3 },
  ];
  it('blocked candidates get probability 0, the rest keep their odds and sum to 1 with the tail', () => {
    const r = applyMask(raw, (id) => id !== 2, 10, 1000);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(r.before)).toBeCloseTo(1, 12);
    expect(sum(r.after)).toBeCloseTo(1, 12);
    const i2 = r.candidates.findIndex((c) => c.id === 2);
    const i1 = r.candidates.findIndex((c) => c.id === 1);
    const i3 = r.candidates.findIndex((c) => c.id === 3);
    expect(r.after[i2]).toBe(0);
    expect(r.after[i1] / r.after[i3]).toBeCloseTo(r.before[i1] / r.before[i3], 10);
    expect(r.after[i1]).toBeGreaterThan(r.before[i1]);
    expect(r.before[r.before.length - 1]).toBeCloseTo(TAIL_SHARE, 12);
    // Tail: 8 of its 997 ids allowed.
    expect(r.tail).toMatchObject({ count: 997, allowed: 8 });
    expect(r.masked).toBeCloseTo(r.before[i2] + TAIL_SHARE * (1 - 8 / 997), 12);
  });
  it('a fully lit mask changes nothing', () => {
    const r = applyMask(raw, () => true, 1000, 1000);
    r.after.forEach((p, i) => expect(p).toBeCloseTo(r.before[i], 12));
    expect(r.masked).toBeCloseTo(0, 12);
  });
  it('the illustrative logits are seeded: same seed same logits, another seed others; the next token leads on average', () => {
    const base = {
      step: 4,
      nextId: 10,
      prosePool: [20, 21, 22, 23, 24],
      alternativePool: [30, 31, 32, 33],
      isAllowed: () => true,
      allowedCount: 100,
      vocabSize: 1000,
    };
    const a = illustrativeCandidates({ ...base, seed: 1 });
    expect(illustrativeCandidates({ ...base, seed: 1 })).toEqual(a);
    expect(illustrativeCandidates({ ...base, seed: 2 })).not.toEqual(a);
    expect(a.filter((c) => c.kind === 'next').map((c) => c.id)).toEqual([10]);
    expect(new Set(a.map((c) => c.id)).size).toBe(a.length);
    let wins = 0;
    for (let seed = 0; seed < 200; seed++) {
      const c = illustrativeCandidates({ ...base, seed });
      if (c[0].logit === Math.max(...c.map((x) => x.logit))) wins++;
    }
    expect(wins).toBeGreaterThan(150);
  });
});

describe('step contexts, read from the text', () => {
  const schema = findPreset('get-weather')!.schema as Record<string, unknown>;
  const doc = '{"city":"Lisbon","unit":"celsius"}';
  it('keys and enum values are fixed, the city is a free string, the step that closes it is still inside it', () => {
    expect(jsonContext(doc, 0, schema)).toBe('fixed');
    expect(jsonContext(doc, 2, schema)).toBe('fixed'); // inside the key "city"
    expect(jsonContext(doc, doc.indexOf('Lisbon'), schema)).toBe('free-string');
    expect(jsonContext(doc, doc.indexOf('","'), schema)).toBe('free-string');
    expect(jsonContext(doc, doc.indexOf('celsius') + 1, schema)).toBe('fixed'); // enum
    expect(jsonContext(doc, doc.length, schema)).toBe('fixed');
  });
  it('in a structural tag the preamble is free text until the trigger is complete, then the tag is forced', () => {
    const pre = 'Hi.\n';
    const text = `${pre}<function=f>${doc}</function>`;
    const jsonStart = pre.length + '<function=f>'.length;
    const layout = {
      jsonStart,
      jsonEnd: jsonStart + doc.length,
      tagged: {
        preambleEnd: pre.length,
        triggerLength: '<function='.length,
        endLength: '</function>'.length,
      },
    };
    const at = (pos: number) => stepContexts(text, [pos], layout, schema)[0];
    expect(at(0)).toBe('free-text');
    expect(at(pre.length)).toBe('free-text');
    expect(at(pre.length + 3)).toBe('trigger');
    expect(at(pre.length + '<function='.length)).toBe('tag');
    expect(at(jsonStart + doc.indexOf('Lisbon'))).toBe('free-string');
    expect(at(jsonStart + doc.length + 2)).toBe('tag');
    expect(at(text.length)).toBe('free-text');
  });
  it('anyOf branches: the const tool name is fixed, the path argument is free', () => {
    const s = findPreset('tool-choice')!.schema as Record<string, unknown>;
    const d = JSON.stringify(findPreset('tool-choice')!.document);
    expect(jsonContext(d, d.indexOf('read_file') + 2, s)).toBe('fixed');
    expect(jsonContext(d, d.indexOf('src/app') + 2, s)).toBe('free-string');
    expect(jsonContext(d, d.indexOf('200') + 1, s)).toBe('number');
  });
});

describe('playback: the picture is a function of t', () => {
  it('t = 0 is before any mask; t = k + 1 is step k settled; halfway the mask is falling', () => {
    expect(playbackFrame(0, 5)).toEqual({ step: 0, wipe: 0, drop: 0, renorm: 0 });
    expect(playbackFrame(1, 5)).toEqual({ step: 0, wipe: 1, drop: 1, renorm: 1 });
    expect(playbackFrame(3, 5)).toEqual({ step: 2, wipe: 1, drop: 1, renorm: 1 });
    const mid = playbackFrame(2.45, 5);
    expect(mid.step).toBe(2);
    expect(mid.wipe).toBe(1);
    expect(mid.drop).toBeGreaterThan(0);
    expect(mid.drop).toBeLessThan(1);
    expect(mid.renorm).toBe(0);
    expect(playbackFrame(99, 5).step).toBe(4);
    expect(playbackFrame(2.45, 5)).toEqual(mid);
  });
});

describe("the prose's claims, against the real masks", () => {
  it('whole reply: every fixed step is nearly all dark (< 1% lit), every free-string step nearly all lit (> 95%)', async () => {
    for (const p of SCHEMA_PRESETS) {
      const t = await trace(p.id, 'whole-reply');
      const s = summariseMaskSteps(t.steps);
      expect(t.complete).toBe(true);
      expect(s.fixedSteps).toBeGreaterThan(3);
      expect(s.freeStringSteps).toBeGreaterThan(0);
      expect(s.maxAllowedFixed / V).toBeLessThan(0.01);
      expect(s.minAllowedFreeString / V).toBeGreaterThan(0.95);
      // "nearly silent where the content is": the mask removes little probability inside a free string.
      expect(s.maxMaskedFreeString).toBeLessThan(0.1);
    }
  }, 60_000);

  it('at step 0 the mask removes most of the illustrative probability and the valid opening gains', async () => {
    const t = await trace('get-weather', 'whole-reply');
    const s0 = t.steps[0];
    expect(s0.allowedCount).toBe(2);
    expect(s0.masked).toBeGreaterThan(0.5);
    const next = s0.candidates.findIndex((c) => c.kind === 'next');
    expect(s0.after[next]).toBeGreaterThan(s0.before[next]);
    expect(s0.candidates.filter((c) => c.kind === 'prose').every((c) => !c.allowed)).toBe(true);
  }, 60_000);

  it('tool-call span only: prose fully lit and untouched, dark from the trigger on, lit again after the end tag', async () => {
    for (const p of SCHEMA_PRESETS) {
      const t = await trace(p.id, 'tool-span');
      const s = summariseMaskSteps(t.steps);
      expect(t.complete).toBe(true);
      expect(s.takeover).toBe(t.takeover);
      expect(
        t.steps.slice(0, s.takeover).every((x) => x.context === 'free-text' || x.context === 'trigger'),
      ).toBe(true);
      expect(s.freeTextSteps).toBeGreaterThan(4); // the preamble, and the end of the turn
      expect(s.minAllowedFreeText / V).toBeGreaterThan(0.9999);
      // While the trigger is being written only the few tokens that would complete it wrongly are masked.
      if (t.steps.some((x) => x.context === 'trigger')) expect(s.minAllowedTrigger / V).toBeGreaterThan(0.99);
      t.steps.filter((x) => x.context === 'free-text').forEach((x) => expect(x.masked).toBeLessThan(1e-4)); // only the 19 ids that are no token
      expect(['tag', 'fixed']).toContain(t.steps[s.takeover].context);
      expect(s.allowedAtTakeover).toBeLessThan(10);
      expect(s.maxAllowedFixed / V).toBeLessThan(0.01);
      expect(t.steps[t.steps.length - 1].context).toBe('free-text');
    }
  }, 60_000);

  it('inside the tag the JSON grammar admits whitespace, so a few more tokens are lit than in JSON mode', async () => {
    const whole = await trace('get-weather', 'whole-reply');
    const tagged = await trace('get-weather', 'tool-span');
    const colonStep = (t: LogitTrace) => t.steps.find((s) => s.token === '":"')!;
    expect(colonStep(tagged).allowedCount).toBeGreaterThan(colonStep(whole).allowedCount);
    expect(colonStep(tagged).allowedCount / V).toBeLessThan(0.01);
  }, 60_000);

  it('the packed masks are the real ones step by step, and the seed moves the logits, not the mask', async () => {
    const a = await trace('run-shell', 'whole-reply', 1);
    const b = await trace('run-shell', 'whole-reply', 2);
    expect(a.masks.length).toBe(a.steps.length * a.wordsPerMask);
    // "⌈200,019 / 32⌉ = 6,251 32-bit words, about 25 KB per sequence per step"
    expect(a.wordsPerMask).toBe(Math.ceil(V / 32));
    expect(a.wordsPerMask).toBe(6251);
    expect((a.wordsPerMask * 4) / 1000).toBeCloseTo(25, 0);
    a.steps.forEach((s, i) => {
      const m = new Int32Array(a.masks.buffer, i * a.wordsPerMask * 4, a.wordsPerMask);
      expect(countAllowed(m, V)).toBe(s.allowedCount);
    });
    expect(b.masks).toEqual(a.masks);
    expect(b.steps.map((s) => s.allowedCount)).toEqual(a.steps.map((s) => s.allowedCount));
    expect(b.steps.map((s) => s.candidates[0].logit)).not.toEqual(a.steps.map((s) => s.candidates[0].logit));
  }, 60_000);

  it("a transferred result leaves the worker's copy intact; bad requests get a clear message", async () => {
    const first = await trace('get-weather', 'tool-span');
    const words = first.masks.length;
    structuredClone(first.masks, { transfer: [first.masks.buffer] }); // what postMessage's transfer does
    expect(first.masks.length).toBe(0);
    const again = await trace('get-weather', 'tool-span');
    expect(again.masks.length).toBe(words);
    await expect(trace('nope', 'whole-reply')).rejects.toThrow(/no preset "nope"/);
    await expect(
      maskLogits({ preset: 'get-weather', mode: 'all' as never, seed: 1 }, directContext()),
    ).rejects.toThrow(/whole reply or only the tool-call span/);
  }, 60_000);
});

describe("the logit-mask widget's Try this items, at the frame each one shows", async () => {
  const { TRY_THIS } = await import('../src/widgets/structured-output/MaskOverLogits');
  const { maskLogitsSchema } = await import('../src/widgets/structured-output/schema');
  const { defaultValues } = await import('../src/state/paramSchema');
  const shown = async (i: number) => {
    const v = { ...defaultValues(maskLogitsSchema), ...TRY_THIS[i].set };
    const t = await trace(String(v.preset), v.mode as LogitTraceRequest['mode'], Number(v.seed));
    return { t, step: t.steps[playbackFrame(TRY_THIS[i].time ?? 0, t.steps.length).step] };
  };
  it('the first second: step 0, only the two openings survive', async () => {
    const { step } = await shown(0);
    expect(step.allowedCount).toBe(2);
  }, 60_000);
  it('step 3 is "Lis": the grid lights up and the mask removes almost no probability', async () => {
    const { step } = await shown(1);
    expect(step.token).toBe('Lis');
    expect(step.allowedCount / V).toBeGreaterThan(0.95);
    expect(step.masked).toBeLessThan(0.1);
  }, 60_000);
  it('only the tool call: the prose is unconstrained until the trigger, then the grid goes dark', async () => {
    expect(TRY_THIS[2].set?.mode).toBe('tool-span');
    const { t, step } = await shown(2);
    expect(step.context).toBe('free-text');
    expect(step.allowedCount / V).toBeGreaterThan(0.9999);
    expect(t.steps[t.takeover].allowedCount / V).toBeLessThan(0.01);
  }, 60_000);
  it('another seed: the mask and its allowed counts stay, the logits move', async () => {
    const a = await shown(0);
    const b = await shown(3);
    expect(b.t.steps.map((s) => s.allowedCount)).toEqual(a.t.steps.map((s) => s.allowedCount));
    expect(b.t.steps[0].before).not.toEqual(a.t.steps[0].before);
  }, 60_000);
  it('run_shell, inside the timeout: only digits and the number’s ends are lit', async () => {
    const { step } = await shown(4);
    expect(step.context).toBe('number');
    expect(step.allowedCount).toBeGreaterThan(10); // the ten digits and what may end the number
    expect(step.allowedCount).toBeLessThan(20);
  }, 60_000);
});
