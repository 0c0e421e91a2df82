/** Lesson 07.09: tail masks per second, the compile-time quantiles of the MaskBench presets, the added-TTFT quantile, the schema families. */
import { createRequire } from 'node:module';
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
  it('the prose: the log-normal understates MaskBench’s published tail (p95 35.9 s, p99 the 900 s timeout)', () => {
    expect(compileQuantileS('xgrammar', 0.95)).toBeLessThan(35.9);
    expect(compileQuantileS('xgrammar', 0.99)).toBeLessThan(900);
    expect(241 / (11_306 - 90)).toBeGreaterThan(0.01); // timeouts over the schemas that compiled or timed out: "2%"
    expect(Math.round((100 * 241) / (11_306 - 90))).toBe(2);
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
  it('What to remember: LLGuidance has a slower median mask than XGrammar but a far lighter tail (MaskBench)', () => {
    const { llguidance: llg, xgrammar: xgr } = MASKBENCH_MASK_US;
    expect(llg.p50).toBeGreaterThan(xgr.p50);
    expect(llg.mean).toBeLessThan(xgr.mean / 10);
    expect(llg.p99).toBeLessThan(xgr.p99 / 10);
  });
  it('filled serially, one p99 mask takes more than a quarter of a 20 ms step', () => {
    expect(MASKBENCH_MASK_US.xgrammar.p99 * 1e-6).toBeGreaterThan(0.25 * 0.02);
  });
});

/** The grammar-cache scenario with one-shot schemas (every request its own), run on `cpuThreads` compile threads. */
async function oneShotRun(cpuThreads: number) {
  const { runScenarioSync } = await import('../src/sim/engine/fleet/run');
  const { grammarCacheScenario } = await import('../src/sim/lessons/grammar/cacheScenario');
  return runScenarioSync(
    grammarCacheScenario({ preset: 'xgrammar', schemas: 100_000, cacheCapacity: 64, cpuThreads, seed: 1 }),
    { includeSeries: false },
  ).metrics;
}

describe('the grammar-cache widget: compiles hold CPU threads', () => {
  it('with one-shot schemas, one compile thread makes compiles queue and raises even the median TTFT', async () => {
    const p50 = async (threads: number) => (await oneShotRun(threads)).requests.ttft.p50;
    expect(await p50(1)).toBeGreaterThan(10 * (await p50(8)));
  });
});

describe('the grammar-cache caption: the default threads are vLLM’s mask pool, and one-shot schemas keep them busy', () => {
  it('at the default threads one-shot compiles keep the threads busy most of the run and queue: more threads lower the median', async () => {
    const { grammarCacheSchema, threadsBusy } = await import('../src/widgets/grammar-cost/GrammarCache');
    const { GRAMMAR_CPU_DEFAULTS } = await import('../src/sim/engine/fleet/dist');
    const threads = grammarCacheSchema.cpuThreads.default;
    // vLLM's mask pool: min(cpu_count // 2, 8) threads; its compile pool is (cpu_count + 1) // 2.
    expect(threads).toBe(GRAMMAR_CPU_DEFAULTS.threads);
    expect(threads).toBe(8);
    const at = await oneShotRun(threads);
    expect(threadsBusy(at.replicas[0].grammar.compileSeconds, threads, at.simulatedS)).toBeGreaterThan(0.5);
    const many = await oneShotRun(grammarCacheSchema.cpuThreads.max);
    expect(at.requests.ttft.p50).toBeGreaterThan(1.5 * many.requests.ttft.p50);
    // At the control's top no compile waits for a thread: doubling the threads again changes nothing.
    expect((await oneShotRun(grammarCacheSchema.cpuThreads.max / 2)).requests.ttft.p50).toBe(
      many.requests.ttft.p50,
    );
  });
});

describe('the grammar-cost widget’s maxLength sweep', () => {
  it('starts with the unbounded string, then the bounds the Try this item names', async () => {
    const { MAX_LENGTHS } = await import('../src/sim/lessons/grammar/costSchemas');
    const { COST_BOUNDS } = await import('../src/widgets/grammar-cost/schema');
    expect(MAX_LENGTHS[0]).toBeNull();
    expect(COST_BOUNDS).toEqual(MAX_LENGTHS.slice(1));
    expect([COST_BOUNDS[0], COST_BOUNDS[COST_BOUNDS.length - 1]]).toEqual([4, 16]);
  });
  // The prose: the installed @mlc-ai/web-xgrammar 0.1.27 (built from main after #467) writes out bounds up to 128,
  // so every bound of the sweep, and counts longer ones with a repetition node (core v0.1.27 stopped at 15). The
  // library's UMD file needs `require` and `__filename` as globals before it is imported (as in 07.08's tests).
  it('this page’s build writes out bounds up to 128 characters and counts longer ones with a repetition node', async () => {
    const require = createRequire(import.meta.url);
    const g = globalThis as Record<string, unknown>;
    g.require ??= require;
    g.__filename ??= require.resolve('@mlc-ai/web-xgrammar');
    // In Node the UMD file sets `globalThis.xgrammar` instead of exporting (src/worker/grammarEngine.ts `lib`).
    const mod = await import('@mlc-ai/web-xgrammar');
    const { Grammar } = (mod as Partial<typeof mod>).Grammar
      ? mod
      : (globalThis as unknown as { xgrammar: typeof mod }).xgrammar;
    const { MAX_LENGTHS } = await import('../src/sim/lessons/grammar/costSchemas');
    const repeats = async (n: number) =>
      /_repeat_/.test((await Grammar.fromJSONSchema(JSON.stringify(boundedSchema(n)))).toString());
    for (const n of MAX_LENGTHS) if (n !== null) expect(await repeats(n)).toBe(false);
    expect(await repeats(128)).toBe(false);
    expect(await repeats(129)).toBe(true);
    expect(await repeats(200)).toBe(true);
  }, 60_000);
});

describe("the grammar-cache widget's Try this items, with and without the cache at each item's state", async () => {
  const { TRY_THIS, grammarCacheSchema } = await import('../src/widgets/grammar-cost/GrammarCache');
  const { defaultValues } = await import('../src/state/paramSchema');
  const { runScenarioSync } = await import('../src/sim/engine/fleet/run');
  const { grammarCacheScenario } = await import('../src/sim/lessons/grammar/cacheScenario');
  const DEFAULTS = defaultValues(grammarCacheSchema);
  const scenarioAt = (i: number) => {
    const v = { ...DEFAULTS, ...TRY_THIS[i].set };
    return {
      preset: v.preset === 'llguidance' ? ('llguidance' as const) : ('xgrammar' as const),
      schemas: v.schemas,
      cacheCapacity: v.cacheCapacity,
      cpuThreads: v.cpuThreads,
      seed: v.seed,
    };
  };
  const p99 = (i: number, cacheCapacity?: number) => {
    const p = scenarioAt(i);
    const scenario = grammarCacheScenario({ ...p, cacheCapacity: cacheCapacity ?? p.cacheCapacity });
    return runScenarioSync(scenario, { includeSeries: false }).metrics.requests.ttft.p99;
  };
  it('a new schema every turn: the cache no longer helps, p99 carries the compile tail again', () => {
    const withCache = p99(1);
    expect(withCache).toBeGreaterThan(0.9 * p99(1, 0));
    expect(withCache).toBeGreaterThan(10 * p99(0));
  });
  it('the defaults: on most seeds the cache takes the compile tail out of p99; on some a slow first compile many turns join reaches it', () => {
    const at = (seed: number, cacheCapacity: number) =>
      runScenarioSync(grammarCacheScenario({ ...scenarioAt(0), cacheCapacity, seed }), {
        includeSeries: false,
      }).metrics;
    const seeds = Array.from({ length: 10 }, (_, i) => i + 1);
    const runs = seeds.map((seed) => ({ cached: at(seed, DEFAULTS.cacheCapacity), none: at(seed, 0) }));
    const tailGone = runs.filter((r) => r.cached.requests.ttft.p99 < r.none.requests.ttft.p99 / 10);
    expect(tailGone.length).toBeGreaterThan(seeds.length / 2);
    expect(tailGone.some((r) => r.cached === runs[DEFAULTS.seed - 1].cached)).toBe(true);
    // "a handful of compiles": one per schema.
    for (const r of runs) expect(r.cached.replicas[0].grammar.compiles).toBe(DEFAULTS.schemas);
    // The seeds where the compile still reaches p99: more than 1% of the turns joined a compile in flight, so the
    // p99 turn is one of them, and it waits seconds.
    const kept = runs.filter((r) => !tailGone.includes(r));
    expect(kept.length).toBeGreaterThan(0);
    for (const { cached } of kept) {
      expect(cached.replicas[0].grammar.joined).toBeGreaterThan(0.01 * cached.requests.ttft.count);
      expect(cached.requests.ttft.p99).toBeGreaterThan(1);
    }
  });
  it('LLGuidance: with millisecond compiles the cache hardly matters', () => {
    expect(TRY_THIS[3].set?.preset).toBe('llguidance');
    const withCache = p99(3);
    const none = p99(3, 0);
    expect(Math.abs(none - withCache) / none).toBeLessThan(0.1);
    // Against XGrammar at the same settings, where the cache cuts p99 TTFT by more than ten.
    expect(p99(0, 0)).toBeGreaterThan(10 * p99(0));
  });
});

describe("the mask-overlap widget's Try this items, at the state each one sets", async () => {
  const { TRY_THIS, maskOverlapSchema } = await import('../src/widgets/grammar-cost/MaskOverlap');
  const { defaultValues } = await import('../src/state/paramSchema');
  const { maskStep, threadsToHide, FILL_RULES, MASK_COST_CHOICES, STEP_CONTEXT_TOKENS } =
    await import('../src/sim/lessons/grammar/overlap');
  const at = (i: number, over: Record<string, unknown> = {}) => {
    const v = { ...defaultValues(maskOverlapSchema), ...TRY_THIS[i].set, ...over };
    const base = {
      batch: Number(v.batch),
      contextTokens: STEP_CONTEXT_TOKENS,
      maskS: MASK_COST_CHOICES.find((c) => c.id === v.mask)!.us * 1e-6,
      ...FILL_RULES[v.fill as keyof typeof FILL_RULES],
    };
    return { step: maskStep({ ...base, threads: Number(v.threads) }), hide: threadsToHide(base), base };
  };
  it('the XGrammar median at 16 sequences vanishes behind the step; the mean does not, whatever the threads', () => {
    expect(at(0).step.overhead).toBe(0);
    const mean = at(0, { mask: 'xgr-mean' });
    expect(mean.step.overhead).toBeGreaterThan(0);
    expect(mean.hide).toBe(Infinity);
  });
  it('past 128 sequences the thread count decides what shows', () => {
    const { base } = at(1);
    expect(base.batch).toBeGreaterThan(128);
    expect(maskStep({ ...base, threads: 1 }).overlappedS).toBeGreaterThan(
      maskStep({ ...base, threads: 8 }).overlappedS,
    );
  });
  it('one sequence per task: a few threads hide the XGrammar mean at 16 sequences', () => {
    const { hide, base } = at(2);
    expect(base.batch).toBe(16);
    expect(hide).toBeGreaterThan(1);
    expect(hide).toBeLessThanOrEqual(8);
  });
});

describe('07.09: the figures the widgets’ labels and captions restate', () => {
  it('the mask-cost choices charge the MaskBench figure each one names', async () => {
    const { MASK_COST_CHOICES } = await import('../src/sim/lessons/grammar/overlap');
    const { MASKBENCH_MASK_US } = await import('../src/sim/engine/fleet/dist');
    const want: Record<string, number> = {
      'xgr-p50': MASKBENCH_MASK_US.xgrammar.p50,
      'llg-mean': MASKBENCH_MASK_US.llguidance.mean,
      'xgr-mean': MASKBENCH_MASK_US.xgrammar.mean,
      'xgr-p99': MASKBENCH_MASK_US.xgrammar.p99,
    };
    for (const c of MASK_COST_CHOICES) {
      expect(c.us).toBe(want[c.id]);
      expect(c.name).toMatch(/mask step$/);
    }
  });
  it('the mask-cost select names MaskBench’s pooled per-step figures, not a median schema’s (the widget’s labels)', async () => {
    const { MASK_COST_CHOICES } = await import('../src/sim/lessons/grammar/overlap');
    const { maskOverlapSchema } = await import('../src/widgets/grammar-cost/schema');
    const { formatNumber } = await import('../src/lib/format');
    const labels = maskOverlapSchema.mask.options.map((o) => o.label);
    expect(labels).toEqual([
      'XGrammar median mask step (9 µs)',
      'LLGuidance mean mask step (64 µs)',
      'XGrammar mean mask step (728 µs)',
      'XGrammar p99 mask step (5,687 µs)',
    ]);
    for (const c of MASK_COST_CHOICES) {
      const o = maskOverlapSchema.mask.options.find((x) => x.value === c.id)!;
      expect(o.label).toContain(`(${formatNumber(c.us, 6)} µs)`);
      expect(o.label).not.toMatch(/schema/);
    }
  });
  it('the mask-overlap caption: the fleet draws one mask cost per schema, its median schema far above the median step', async () => {
    const { GRAMMAR_MASK_COST_PRESETS, MASKBENCH_MASK_US, median } =
      await import('../src/sim/engine/fleet/dist');
    // A log-normal through MaskBench's pooled mean (728 µs) and p99 (5,687 µs): its median is 360 µs.
    expect(median(GRAMMAR_MASK_COST_PRESETS.xgrammar) * 1e6).toBeCloseTo(360, -1);
    expect(median(GRAMMAR_MASK_COST_PRESETS.xgrammar) * 1e6).toBeGreaterThan(
      10 * MASKBENCH_MASK_US.xgrammar.p50,
    );
  });
  it('the compile presets, cost families and fill rule the selects name', async () => {
    const { grammarCacheSchema, grammarCostSchema, maskOverlapSchema } =
      await import('../src/widgets/grammar-cost/schema');
    const label = (s: { options: readonly { value: string; label: string }[] }, v: string) =>
      s.options.find((o) => o.value === v)?.label;
    expect(label(grammarCacheSchema.preset, 'xgrammar')).toBe('XGrammar (p50 0.92 s)');
    expect(label(grammarCacheSchema.preset, 'llguidance')).toBe('LLGuidance (p50 1 ms)');
    expect(label(grammarCostSchema.family, 'tools')).toBe('Tool choice, 1–128 tools');
    expect(label(grammarCostSchema.family, 'maxLength')).toBe('One string, maxLength 4–16');
    expect(label(maskOverlapSchema.fill, 'vllm')).toBe('vLLM: serially up to 128, then the pool');
  });
  it('the grammar-cache caption: 40 sessions of 10 to 30 turns on one H100 replica of Llama 3.1 8B', async () => {
    const { grammarCacheScenario } = await import('../src/sim/lessons/grammar/cacheScenario');
    const s = grammarCacheScenario({ preset: 'xgrammar', schemas: 4, cacheCapacity: 64, seed: 1 });
    expect([s.model, s.hardware.accelerator, s.hardware.tp, s.replicas]).toEqual([
      'llama-3.1-8b',
      'h100-sxm',
      1,
      1,
    ]);
    const w = s.workload as import('../src/sim/engine/fleet/scenarioFormat').SessionsWorkload;
    expect(w.sessions).toBe(40);
    expect(w.classes[0].turns).toEqual({ kind: 'uniform', min: 10, max: 30 });
  });
  it('the mask-overlap caption and exercise: one decode step of Llama 3.1 8B on one H100', async () => {
    const { maskStep, FILL_RULES, STEP_CONTEXT_TOKENS } = await import('../src/sim/lessons/grammar/overlap');
    const p = { batch: 16, contextTokens: STEP_CONTEXT_TOKENS, maskS: 1e-4, threads: 8, ...FILL_RULES.vllm };
    expect(maskStep(p)).toEqual(maskStep({ ...p, model: 'llama-3.1-8b', accelerator: 'h100-sxm' }));
  });
});
