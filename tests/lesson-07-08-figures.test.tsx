/**
 * 07.08's hand-typed numbers, against what the lab computes or uses: the slip figures as the prose prints them,
 * the inputs typed beside them (the widget's defaults), the toy vector's two slips, the mask's size, and the
 * arithmetic on the published figures the prose quotes.
 */
import { lessonSource, renderedText } from './lessonText';
import { formatPercent } from '../src/lib/format';
import { describe, expect, it } from 'vitest';
import {
  MaskGrowthFig,
  maskGrowthText,
  NARROW_ALLOWED,
  SlipFig,
} from '../src/widgets/structured-output/figures';
import { askNicelySchema } from '../src/widgets/structured-output/schema';
import { defaultValues } from '../src/state/paramSchema';
import { expectedFailures, pCleanSession, pValid, toyDistribution } from '../src/sim/lessons/grammar/slip';
import { GRAMMAR_CPU_DEFAULTS } from '../src/sim/engine/fleet/dist';

const text = renderedText;
const { prose, flat } = lessonSource('07-08-structured-output');

describe('07.08: the slip figures and the inputs typed beside them', () => {
  it('print the core’s values', () => {
    expect(text(<SlipFig m="pValid" eps={0.001} n={120} />)).toBe('88.7%');
    expect(text(<SlipFig m="pValid" eps={0.001} n={1000} />)).toBe('36.8%');
    expect(text(<SlipFig m="halfLife" eps={0.001} n={1} />)).toBe('693 tokens');
    expect(text(<SlipFig m="failures" eps={0.001} n={120} calls={200} />)).toBe('22.6');
    expect(Number(text(<SlipFig m="failures" eps={0.001} n={120} calls={200} />))).toBeCloseTo(
      expectedFailures(0.001, 120, 200),
      1,
    );
    expect(pValid(0.001, 120)).toBeCloseTo(0.887, 3);
    expect(pCleanSession(0.001, 120, 200)).toBeLessThan(1e-9);
  });

  it('the typed ε, N and M are the props of the figure they introduce', () => {
    expect(flat).toContain(
      'With $\\varepsilon$ = 0.1% a 120-token tool call is valid with probability <SlipFig m="pValid" eps={0.001} n={120} />',
    );
    expect(flat).toContain(
      'a 1,000-token call (a file edit, a plan) with only <SlipFig m="pValid" eps={0.001} n={1000} />',
    );
    expect(flat).toContain(
      'For 200 calls of 120 tokens at $\\varepsilon$ = 0.1% that is <SlipFig m="failures" eps={0.001} n={120} calls={200} />',
    );
    expect(flat).toContain(
      'ten times better behaved ($\\varepsilon$ = 0.01%) expects <SlipFig m="failures" eps={0.0001} n={120} calls={200} />',
    );
    expect(0.001 / 0.0001).toBeCloseTo(10, 12);
    expect(Math.LN2.toFixed(2)).toBe('0.69');
    expect(flat).toContain('\\ln 2 / \\varepsilon \\approx 0.69/\\varepsilon');
  });

  it('"the default slip rate" and "the default length" (the tour) are the widget’s defaults', () => {
    const d = defaultValues(askNicelySchema);
    expect([d.eps, d.tokens, d.calls]).toEqual([0.001, 120, 200]);
    expect(flat).toContain(
      'at the default slip rate a call of the default length is valid with probability <SlipFig m="pValid" eps={0.001} n={120} />',
    );
  });

  it('the toy logit vector has two slip tokens, holding ε together', () => {
    const toy = toyDistribution(0.001);
    expect(toy.filter((t) => t.slip)).toHaveLength(2);
    expect(flat).toContain('the two slip tokens together hold probability $\\varepsilon$');
  });
});

describe('07.08: the mask’s size and the narrow-step threshold', () => {
  it('the vocabulary is a figure wherever the prose counts it; the bitmask arithmetic holds', () => {
    expect(flat).toContain('Checking all <MaskFig m="vocab" /> tokens');
    expect(prose).not.toMatch(/Checking 200,019/);
    const V = 200_019; // the engine's vocabulary, asserted in tests/lesson-07-08-engine.test.ts
    expect(Math.ceil(V / 32)).toBe(6251);
    expect(Math.round((6251 * 4) / 1000)).toBe(25);
    expect(flat).toContain('\\lceil 200{,}019 / 32 \\rceil = 6{,}251$ 32-bit words, about 25 KB');
  });
  it('"ten tokens or fewer" is the threshold the narrowSteps figure counts with', () => {
    expect(NARROW_ALLOWED).toBe(10);
    expect(flat).toContain(
      '<MaskFig m="narrowSteps" /> of the <MaskFig m="steps" /> steps allow ten tokens or fewer',
    );
  });
});

describe('07.08: arithmetic on the published figures', () => {
  it('1,134 context-dependent tokens are under 1% of Llama 3.1’s 128,256', () => {
    expect(1134 / 128_256).toBeLessThan(0.01);
    expect(flat).toContain("Llama 3.1's 128k vocabulary fewer than 1% of tokens (1,134)");
  });
  it('llgtrt: 16 cores at a 10 ms step, 100 µs a mask, keep up with a batch of 1,600', () => {
    expect(Math.round((16 * 10e-3) / 100e-6)).toBe(1600);
    expect(flat).toContain('so 16 cores at a 10 ms step keep up with a batch of up to 1,600');
  });
  it('vLLM’s serial fill up to 128 sequences is the setting the lab’s CPU model uses (lesson 07.09)', () => {
    expect(GRAMMAR_CPU_DEFAULTS.serialUpTo).toBe(128);
    expect(flat).toContain('vLLM fills them on one thread up to 128 constrained sequences, lesson 07.09');
  });
});

describe('07.08: what the mask does not do, in the prose', () => {
  it('valid "by construction" only when the output may finish: the Remember and the list both say so, with the source', () => {
    const remember = flat.match(/<Remember>(.*?)<\/Remember>/)?.[1] ?? '';
    expect(remember).toContain('valid by construction, at any temperature, provided it is allowed to finish');
    expect(remember).toContain('the mask cannot close what `max_tokens` cuts off');
    expect(remember).toContain('`finish_reason`');
    expect(flat).toContain('**It cannot finish what a token limit cuts off.**');
    expect(flat).toContain('vLLM issue #8350');
    expect(flat).toContain('`vllm-project/vllm` issue #8350');
  });

  it('jump-forward saves the decode steps, not the pass that reads the forced text in (prose and Try this agree)', async () => {
    expect(flat).toContain('jump-forward saves the decode steps, one per forced token');
    const { TRY_THIS } = await import('../src/widgets/structured-output/MaskStepper');
    const item = text(<>{TRY_THIS[2].text}</>);
    expect(item).toContain('without a decode step per token');
    expect(item).not.toContain('for free');
  });

  it('the compile time each widget shows is its own run’s, and the prose says the two differ', () => {
    expect(flat).toContain('Each widget times its own compile of the schema');
  });
});

describe('07.08: the mask renormalises the legal tokens by 1/(1 − ε), visible only at a large ε', () => {
  const legal = (eps: number) => toyDistribution(eps).filter((t) => !t.slip);
  /** The bar chart's read-out precision (AskingNicely: formatPercent(p, 2)). */
  const bar = (p: number) => formatPercent(p, 2);

  it('every legal token grows by exactly 1/(1 − ε), and the slips vanish', () => {
    for (const eps of [askNicelySchema.eps.default, askNicelySchema.eps.max])
      for (const t of legal(eps)) expect(t.pMasked / t.p).toBeCloseTo(1 / (1 - eps), 12);
    for (const t of toyDistribution(askNicelySchema.eps.max).filter((x) => x.slip)) expect(t.pMasked).toBe(0);
  });

  it('“too small to see” at the default: no legal bar’s read-out changes; at the slider’s top the likeliest one does', () => {
    for (const t of legal(askNicelySchema.eps.default)) expect(bar(t.pMasked)).toBe(bar(t.p));
    const top = legal(askNicelySchema.eps.max).sort((a, b) => b.p - a.p)[0];
    expect(bar(top.pMasked)).not.toBe(bar(top.p));
    expect(text(<MaskGrowthFig at="max" m="topPrompt" />)).toBe(bar(top.p));
    expect(text(<MaskGrowthFig at="max" m="topMasked" />)).toBe(bar(top.pMasked));
  });

  it('the prose names ε as the slider shows it, and the gain 1/(1 − ε) − 1', () => {
    expect(maskGrowthText('default', 'eps')).toBe(askNicelySchema.eps.format(askNicelySchema.eps.default));
    expect(maskGrowthText('max', 'eps')).toBe('5%');
    expect(maskGrowthText('default', 'growth')).toBe(
      formatPercent(1 / (1 - askNicelySchema.eps.default) - 1, 2),
    );
    expect(flat).toContain('set $\\varepsilon$ to <MaskGrowthFig at="max" m="eps" />, the slider\'s top');
  });
});
