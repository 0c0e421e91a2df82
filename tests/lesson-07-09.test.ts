/** Lesson 07.09: tail masks per second, the compile-time quantiles of the MaskBench presets, the added-TTFT quantile, the schema families. */
import { describe, expect, it } from 'vitest';
import { addedTtftQuantileS, compileQuantileS, tailMasksPerSecond } from '../src/sim/lessons/grammar/cost';
import {
  boundedDocument,
  boundedSchema,
  percentile,
  toolName,
  toolsDocument,
  toolsSchema,
} from '../src/sim/lessons/grammar/costSchemas';

describe('lesson 07.09 arithmetic', () => {
  it('p99 masks per second: batch 100, 20 ms step → 50 per second (MaskBench README)', () => {
    expect(tailMasksPerSecond(100, 0.02, 0.99)).toBeCloseTo(50, 9);
  });
  it('the XGrammar preset goes through MaskBench p50 0.919 s and p90 11.6 s', () => {
    expect(compileQuantileS('xgrammar', 0.5)).toBeCloseTo(0.919, 6);
    expect(compileQuantileS('xgrammar', 0.9)).toBeCloseTo(11.6, 3);
    expect(compileQuantileS('llguidance', 0.9)).toBeCloseTo(0.00303, 6);
    // p99: 0.919 · exp(σ · 2.3263), σ = ln(11.6/0.919)/1.2816 = 1.9790 → 91.6 s
    expect(compileQuantileS('xgrammar', 0.99)).toBeCloseTo(
      0.919 * Math.exp((Math.log(11.6 / 0.919) / 1.2815516) * 2.3263479),
      3,
    );
  });
  it('added p99 TTFT: every request compiles → compile p99; 10% compile → compile p90; ≤ 1% → 0', () => {
    expect(addedTtftQuantileS('xgrammar', 1, 0.99)).toBeCloseTo(compileQuantileS('xgrammar', 0.99), 9);
    expect(addedTtftQuantileS('xgrammar', 0.1, 0.99)).toBeCloseTo(11.6, 3);
    expect(addedTtftQuantileS('xgrammar', 0.01, 0.99)).toBe(0);
    expect(addedTtftQuantileS('xgrammar', 0.005, 0.99)).toBe(0);
  });
  it('schema families: distinct tool names, documents that name a tool of the schema, percentiles', () => {
    const names = new Set(Array.from({ length: 32 }, (_, i) => toolName(i)));
    expect(names.size).toBe(32);
    const s = toolsSchema(4) as { anyOf: { properties: { name: { const: string } } }[] };
    expect(s.anyOf).toHaveLength(4);
    expect((toolsDocument(4) as { name: string }).name).toBe(s.anyOf[3].properties.name.const);
    expect(boundedSchema(null)).toEqual({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    });
    expect((boundedDocument() as { query: string }).query.length).toBeLessThanOrEqual(4);
    expect(percentile([4, 1, 3, 2], 0.5)).toBeCloseTo(2.5, 12);
    expect(percentile([1, 2, 3, 4, 5], 0.99)).toBeCloseTo(4.96, 12);
  });
});

describe('the grammar-cache scenario on the fleet simulator', () => {
  it('with 4 schemas and a cache, p99 TTFT is far below the no-cache run; one-shot schemas compile almost every turn', async () => {
    const { runScenarioSync } = await import('../src/sim/engine/fleet/run');
    const { grammarCacheScenario } = await import('../src/sim/lessons/grammar/cacheScenario');
    const run = (schemas: number, cacheCapacity: number) =>
      runScenarioSync(grammarCacheScenario({ preset: 'xgrammar', schemas, cacheCapacity, seed: 1 }), {
        includeSeries: false,
      }).metrics;
    const cached = run(4, 64);
    const none = run(4, 0);
    const oneShot = run(100_000, 64);
    expect(cached.replicas[0].grammar.compiles).toBe(4);
    expect(cached.requests.ttft.p99).toBeLessThan(none.requests.ttft.p99 / 10);
    const g = oneShot.replicas[0].grammar;
    expect(g.compiles / (g.compiles + g.hits + g.joined)).toBeGreaterThan(0.95);
    expect(oneShot.requests.ttft.p99).toBeGreaterThan(10 * cached.requests.ttft.p99);
  });
});

describe('the mask against the decode step (07.09 prose and the MaskOverlap widget)', async () => {
  const { maskStep, threadsToHide, FILL_RULES, STEP_CONTEXT_TOKENS } =
    await import('../src/sim/lessons/grammar/overlap');
  const { MASKBENCH_MASK_US } = await import('../src/sim/engine/fleet/dist');
  const step = (batch: number, us: number, threads = 8, fill: keyof typeof FILL_RULES = 'vllm') =>
    maskStep({ batch, contextTokens: STEP_CONTEXT_TOKENS, maskS: us * 1e-6, threads, ...FILL_RULES[fill] });

  it('at batch 16 the XGrammar-median and LLGuidance-mean masks vanish behind the step', () => {
    for (const us of [MASKBENCH_MASK_US.xgrammar.p50, MASKBENCH_MASK_US.llguidance.mean]) {
      const s = step(16, us);
      expect(s.maskWallS).toBeLessThan(s.gpuS);
      expect(s.overlappedS).toBe(s.gpuS);
      expect(s.overhead).toBe(0);
    }
  });
  it('at the XGrammar mean the serial masks outlast the step, which becomes theirs; after the step would be worse', () => {
    const s = step(16, MASKBENCH_MASK_US.xgrammar.mean);
    expect(s.maskWallS).toBeCloseTo(16 * 728e-6, 12);
    expect(s.maskWallS).toBeGreaterThan(s.gpuS);
    expect(s.overlappedS).toBe(s.maskWallS);
    expect(s.overhead).toBeGreaterThan(0);
    expect(s.serialS).toBeCloseTo(s.gpuS + 16 * 728e-6, 12);
    expect(s.serialS).toBeGreaterThan(s.overlappedS);
  });
  it('more threads do not help while vLLM fills serially; spreading single sequences hides them with a few', () => {
    expect(step(16, 728, 64).overlappedS).toBe(step(16, 728, 8).overlappedS);
    const base = { batch: 16, contextTokens: STEP_CONTEXT_TOKENS, maskS: 728e-6 };
    expect(threadsToHide({ ...base, ...FILL_RULES.vllm })).toBe(Infinity);
    const t = threadsToHide({ ...base, ...FILL_RULES.perSequence });
    expect(t).toBeGreaterThan(1);
    expect(t).toBeLessThanOrEqual(8);
    expect(step(16, 728, t, 'perSequence').overhead).toBe(0);
  });
  it('past 128 sequences vLLM hands the masks to its pool and the thread count decides what shows', () => {
    expect(step(100, 728, 1).overlappedS).toBe(step(100, 728, 8).overlappedS);
    expect(step(200, 728, 1).overlappedS).toBeGreaterThan(step(200, 728, 8).overlappedS);
  });
  it('filled serially, one p99 mask takes more than a quarter of a 20 ms step', () => {
    expect(MASKBENCH_MASK_US.xgrammar.p99 * 1e-6).toBeGreaterThan(0.25 * 0.02);
  });
});

describe('the grammar-cache widget: compiles hold CPU threads', () => {
  it('with one-shot schemas, one compile thread makes compiles queue and raises even the median TTFT', async () => {
    const { runScenarioSync } = await import('../src/sim/engine/fleet/run');
    const { grammarCacheScenario } = await import('../src/sim/lessons/grammar/cacheScenario');
    const p50 = (cpuThreads: number) =>
      runScenarioSync(
        grammarCacheScenario({
          preset: 'xgrammar',
          schemas: 100_000,
          cacheCapacity: 64,
          cpuThreads,
          seed: 1,
        }),
        { includeSeries: false },
      ).metrics.requests.ttft.p50;
    expect(p50(1)).toBeGreaterThan(10 * p50(8));
  });
});
