/** Lesson 07.08: the slip arithmetic, the toy distribution, the sampler, schema checks and the bitmask helpers. */
import { describe, expect, it } from 'vitest';
import type { ReactElement } from 'react';
import { renderedText } from './lessonText';
import { formatNumber, formatPercent } from '../src/lib/format';
import {
  askNicely,
  expectedFailures,
  halfLifeTokens,
  pCleanSession,
  pValid,
  toyDistribution,
} from '../src/sim/lessons/grammar/slip';
import { prepareSchema, SchemaError } from '../src/sim/lessons/grammar/schema';
import {
  buildByteLevelVocab,
  bytesToUnicodeTable,
  countAllowed,
  isAllowed,
  sampleAllowed,
} from '../src/sim/lessons/grammar/vocab';
import { engineReason } from '../src/worker/grammarConsole';

describe('p_valid = (1 − ε)^N', () => {
  it('matches hand-computed values', () => {
    // 0.999^120 = exp(120 ln 0.999) = 0.886867...
    expect(pValid(0.001, 120)).toBeCloseTo(0.8868672, 6);
    expect(pValid(0.001, 1000)).toBeCloseTo(0.3676954, 6);
    expect(pValid(0.01, 1)).toBeCloseTo(0.99, 12);
    expect(pValid(0, 1e6)).toBe(1);
    expect(pValid(1, 3)).toBe(0);
  });
  it('a better-trained model (smaller ε) raises p_valid but never to 1; only the mask does (07.08, OpenAI prose)', () => {
    for (const n of [120, 1000]) {
      expect(pValid(0.0001, n)).toBeGreaterThan(pValid(0.001, n));
      expect(pValid(0.0001, n)).toBeLessThan(1);
    }
    const r = askNicely({ eps: 0.01, tokens: 120, calls: 200, seed: 3 });
    expect(r.sessionFailures).toBeGreaterThan(0);
    expect(r.maskedFailures).toBe(0);
  });
  it('expected failures, clean sessions and the half-life', () => {
    expect(expectedFailures(0.001, 120, 200)).toBeCloseTo(22.62656, 4); // 200 × (1 − 0.8868672)
    expect(pCleanSession(0.001, 120, 200)).toBeCloseTo(Math.pow(0.999, 24000), 12);
    expect(halfLifeTokens(0.001)).toBeCloseTo(692.8, 1); // ln 2 / −ln 0.999
  });
});

describe('the exercise', () => {
  it('asks for a setting the prose does not quote, and rejects the 1 − Nε shortcut but not e^(−Nε)', async () => {
    const { QUESTION_ARGS } = await import('../src/widgets/structured-output/SlipExercise');
    const { checkAnswer } = await import('../src/lessons-kit/Exercise');
    const { readFileSync } = await import('node:fs');
    const mdx = readFileSync(new URL('../lessons/07-08-structured-output.mdx', import.meta.url), 'utf8');
    const quoted = [...mdx.matchAll(/<SlipFig[^>]*eps=\{([\d.e-]+)\}[^>]*n=\{(\d+)\}/g)].map(([, e, n]) => [
      Number(e),
      Number(n),
    ]);
    expect(quoted.length).toBeGreaterThan(3);
    for (const [e, n] of quoted) expect(e === QUESTION_ARGS.eps && n === QUESTION_ARGS.tokens).toBe(false);
    const { eps, tokens } = QUESTION_ARGS;
    const answer = pValid(eps, tokens) * 100; // 0.9995^400 = 81.869%
    expect(answer).toBeCloseTo(81.869, 3);
    expect(askNicely(QUESTION_ARGS).pValid * 100).toBeCloseTo(answer, 12);
    expect(checkAnswer((1 - tokens * eps) * 100, answer, 0.005)).toBe(false); // 80%
    expect(checkAnswer(Math.exp(-tokens * eps) * 100, answer, 0.005)).toBe(true);
  });
});

describe('toy logit vector', () => {
  it('gives the slips total probability ε and the mask removes them', () => {
    for (const eps of [1e-5, 1e-3, 0.05]) {
      const toy = toyDistribution(eps);
      const slip = toy.filter((t) => t.slip).reduce((s, t) => s + t.p, 0);
      expect(slip).toBeCloseTo(eps, 12);
      expect(toy.reduce((s, t) => s + t.p, 0)).toBeCloseTo(1, 12);
      expect(toy.reduce((s, t) => s + t.pMasked, 0)).toBeCloseTo(1, 12);
      expect(toy.filter((t) => t.slip).every((t) => t.pMasked === 0)).toBe(true);
      // The legal tokens keep their relative odds.
      const [a, b] = toy;
      expect(a.pMasked / b.pMasked).toBeCloseTo(a.p / b.p, 10);
      // The widget's chart and caption: six candidate tokens, four the format allows and two slips.
      expect(toy.length).toBe(6);
      expect(toy.filter((t) => t.slip).length).toBe(2);
    }
  });
});

describe('the seeded sampler', () => {
  it('is deterministic, never fails with the mask, and tracks the formula', () => {
    const req = { eps: 0.002, tokens: 300, calls: 400, seed: 7 };
    const a = askNicely(req);
    expect(askNicely(req)).toEqual(a);
    expect(a.maskedFailures).toBe(0);
    // 400 calls with p_fail = 1 − 0.998^300 ≈ 0.4516: sampled failures within ±5σ.
    const pf = 1 - pValid(0.002, 300);
    expect(Math.abs(a.sessionFailures - 400 * pf)).toBeLessThan(5 * Math.sqrt(400 * pf * (1 - pf)));
    for (const s of a.simulated) {
      const p = pValid(0.002, s.n);
      expect(Math.abs(s.p - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / s.trials) + 1e-9);
    }
  });
});

describe('schema checks before the engine', () => {
  it('reports invalid JSON and non-object schemas as a SchemaError', () => {
    expect(() => prepareSchema('{"type": "object"')).toThrow(SchemaError);
    expect(() => prepareSchema('{"type": "object"')).toThrow(/not valid JSON/);
    expect(() => prepareSchema('[1, 2]')).toThrow(/must be an object/);
    expect(() => prepareSchema('  ')).toThrow(/empty/);
  });
  it('removes string-length bounds and says where', () => {
    const p = prepareSchema(
      JSON.stringify({ type: 'object', properties: { q: { type: 'string', maxLength: 200, minLength: 1 } } }),
    );
    expect(JSON.parse(p.compiled)).toEqual({ type: 'object', properties: { q: { type: 'string' } } });
    expect(p.removedBounds).toEqual(['/properties/q/maxLength', '/properties/q/minLength']);
  });
  it("turns the engine's fatal line into a sentence", () => {
    expect(
      engineReason(['[FATAL] /x/cpp/json_schema_converter.cc:902: Unsupported type "strin"', 'Aborted()']),
    ).toBe('Unsupported type "strin"');
    expect(
      engineReason([
        '[FATAL] /x/a.cc:1900: Check failed: (!(start && end) || *start <= *end) is false: Invalid range: minimum greater than maximum',
      ]),
    ).toBe('Invalid range: minimum greater than maximum');
    expect(engineReason([])).toMatch(/without giving a reason/);
  });
});

describe('byte-level vocabulary and bitmask helpers', () => {
  it('maps bytes like GPT-2 and escapes non-UTF-8 tokens for display', () => {
    const t = bytesToUnicodeTable();
    expect(t[0x41]).toBe('A');
    expect(t[0x20]).toBe('Ġ');
    expect(t[0x0a]).toBe('Ċ');
    const v = buildByteLevelVocab([' a', [0xe6, 0x97]], 5, [[4, '<|endoftext|>']]);
    expect(v.encoded).toEqual(['Ġa', 'æĹ', '', '', '<|endoftext|>']);
    expect(v.display[1]).toBe('\\xe6\\x97');
  });
  it('counts, tests and samples bits', () => {
    const mask = new Int32Array(2);
    for (const id of [0, 5, 31, 33, 40]) mask[id >> 5] |= 1 << (id & 31);
    mask[1] |= 1 << 20; // id 52: beyond a vocabulary of 41, not counted
    expect(countAllowed(mask, 41)).toBe(5);
    expect(isAllowed(mask, 31)).toBe(true);
    expect(isAllowed(mask, 32)).toBe(false);
    expect(sampleAllowed(mask, 41, 3)).toEqual([0, 31, 40]);
  });
});

describe("the asking-nicely widget's Try this items, at the state each one sets", async () => {
  const { TRY_THIS } = await import('../src/widgets/structured-output/AskingNicely');
  const { askNicelySchema } = await import('../src/widgets/structured-output/schema');
  const { defaultValues } = await import('../src/state/paramSchema');
  const at = (i: number) => ({ ...defaultValues(askNicelySchema), ...TRY_THIS[i].set });

  it('ε = 0.1% and N = 1,000: a long call is more likely broken than not', () => {
    const v = at(0);
    expect(v.eps).toBe(0.001);
    // The item restates the defaults it starts from ("Keep ε at 0.1% and drag N from 120").
    const d = defaultValues(askNicelySchema);
    expect(renderedText(TRY_THIS[0].text as ReactElement)).toContain(
      `Keep ε at ${formatPercent(d.eps)} and drag N from ${formatNumber(d.tokens)} to 1,000 tokens`,
    );
    expect(formatPercent(d.eps)).toBe('0.1%');
    expect(pValid(v.eps, v.tokens)).toBeLessThan(0.5);
  });
  it('ε = 0.01% over 2,000 calls: the expected failures are still in the tens', () => {
    const v = at(1);
    const f = expectedFailures(v.eps, v.tokens, v.calls);
    expect(f).toBeGreaterThanOrEqual(10);
    expect(f).toBeLessThan(100);
  });
  it('another seed: sampled failures scatter around the expected count, the masked column stays at zero', () => {
    const d = defaultValues(askNicelySchema);
    const v = at(2);
    expect(v.seed).not.toBe(d.seed);
    const a = askNicely(d);
    const b = askNicely(v);
    expect(b.sessionFailures).not.toBe(a.sessionFailures);
    const pf = 1 - pValid(v.eps, v.tokens);
    for (const r of [a, b]) {
      expect(r.maskedFailures).toBe(0);
      expect(Math.abs(r.sessionFailures - v.calls * pf)).toBeLessThan(5 * Math.sqrt(v.calls * pf * (1 - pf)));
    }
  });
});

describe('the engine the page runs', () => {
  it('the prose names the XGrammar version the widget loads, whose parser is an Earley parser (0.1.21 on)', async () => {
    const { readFileSync } = await import('node:fs');
    const mdx = readFileSync(new URL('../lessons/07-08-structured-output.mdx', import.meta.url), 'utf8');
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const version: string = pkg.dependencies['@mlc-ai/web-xgrammar'];
    expect(mdx).toMatch(
      new RegExp(`an\\s+Earley parser in the XGrammar ${version.replace(/\./g, '\\.')} this page runs`),
    );
    const [, minor, patch] = version.split('.').map(Number);
    expect(minor > 1 || (minor === 1 && patch >= 21)).toBe(true);
  });
});
