/** Grammar costs in the fleet: per-schema draws, the mask wall time over CPU threads, the overlap, the compile pool. */
import { describe, expect, it } from 'vitest';
import {
  GRAMMAR_COMPILE_PRESETS,
  GRAMMAR_MASK_COST_PRESETS,
  MASKBENCH_MASK_US,
  type Dist,
} from '../src/sim/engine/fleet/dist';
import { CompilePool, maskWallS, overlappedStepS, SchemaCosts } from '../src/sim/engine/fleet/grammar';
import { validateScenario } from '../src/sim/engine/fleet/scenario';
import { scenario } from './fleet-helpers';

describe('the presets come from one MaskBench table', () => {
  /** The presets are log-normals; how many σ above its median a distribution's clip lies. */
  const clip = (d: Dist) => {
    if (d.kind !== 'lognormal' || d.max === undefined) throw new Error('a clipped log-normal expected');
    return { max: d.max, sigmas: Math.log(d.max / d.median) / d.sigma };
  };
  it('each distribution is clipped at its engine’s p100 in that table; the masks’ and LLGuidance’s compile clip lies past 4.75 σ (under one draw in a million)', () => {
    expect(clip(GRAMMAR_MASK_COST_PRESETS.xgrammar).max).toBeCloseTo(6.283834, 9);
    expect(clip(GRAMMAR_MASK_COST_PRESETS.llguidance).max).toBeCloseTo(0.033055, 9);
    expect(clip(GRAMMAR_COMPILE_PRESETS.xgrammar).max).toBe(900); // the table's timeout, which its p99 already reaches
    expect(clip(GRAMMAR_COMPILE_PRESETS.llguidance).max).toBe(0.229367);
    const rare = [...Object.values(GRAMMAR_MASK_COST_PRESETS), GRAMMAR_COMPILE_PRESETS.llguidance];
    for (const d of rare) expect(clip(d).sigmas).toBeGreaterThan(4.75);
    // XGrammar's compile clip is the timeout, 3.5 σ out: about 2.5 schemas in 10,000 hit it, where MaskBench timed
    // out 241 of 11,306 (the log-normal through p50 and p90 understates the tail, as 07.09 says).
    expect(clip(GRAMMAR_COMPILE_PRESETS.xgrammar).sigmas).toBeCloseTo(3.48, 2);
  });
});

describe('per-schema costs', () => {
  const costs = () =>
    new SchemaCosts(7, GRAMMAR_COMPILE_PRESETS.xgrammar, GRAMMAR_MASK_COST_PRESETS.xgrammar);
  it('a schema costs the same whatever order it is asked in; different schemas differ', () => {
    const a = costs();
    const b = costs();
    const ids = [3, 99, 12345, 2 ** 40 + 5];
    const fwd = ids.map((i) => [a.compileS(i), a.maskS(i)]);
    const rev = [...ids].reverse().map((i) => [b.maskS(i), b.compileS(i)]);
    expect(fwd).toEqual(rev.reverse().map(([m, c]) => [c, m]));
    expect(new Set(fwd.map(([c]) => c)).size).toBe(ids.length);
    expect(new Set(fwd.map(([, m]) => m)).size).toBe(ids.length);
  });
  it('over many schemas the mask costs have MaskBench XGrammar mean and p99; compiles its p50 and p90', () => {
    const a = costs();
    const n = 40_000;
    const masks: number[] = [];
    const compiles: number[] = [];
    for (let i = 0; i < n; i++) {
      masks.push(a.maskS(i));
      compiles.push(a.compileS(i));
    }
    masks.sort((x, y) => x - y);
    compiles.sort((x, y) => x - y);
    const mean = masks.reduce((s, x) => s + x, 0) / n;
    expect((mean * 1e6) / MASKBENCH_MASK_US.xgrammar.mean).toBeGreaterThan(0.95);
    expect((mean * 1e6) / MASKBENCH_MASK_US.xgrammar.mean).toBeLessThan(1.05);
    expect((masks[Math.floor(n * 0.99)] * 1e6) / MASKBENCH_MASK_US.xgrammar.p99).toBeGreaterThan(0.9);
    expect((masks[Math.floor(n * 0.99)] * 1e6) / MASKBENCH_MASK_US.xgrammar.p99).toBeLessThan(1.1);
    // A schema's mean over its tokens sits above the per-token median.
    expect(masks[n / 2] * 1e6).toBeGreaterThan(10 * MASKBENCH_MASK_US.xgrammar.p50);
    expect(compiles[n / 2]).toBeCloseTo(0.919, 1);
    expect(compiles[Math.floor(n * 0.9)] / 11.6).toBeGreaterThan(0.9);
    expect(compiles[Math.floor(n * 0.9)] / 11.6).toBeLessThan(1.1);
  });
});

describe('mask wall time and the overlap', () => {
  const vllm = { threads: 8, serialUpTo: 128, chunk: 16 };
  it('up to 128 sequences vLLM fills serially: the wall time is the sum whatever the threads', () => {
    const costs = new Array(128).fill(1e-4);
    expect(maskWallS(costs, vllm)).toBeCloseTo(0.0128, 12);
    expect(maskWallS(costs, { ...vllm, threads: 64 })).toBeCloseTo(0.0128, 12);
  });
  it('above it, tasks of 16 go to the first free of 8 threads, and the step waits for the last', () => {
    // 256 equal masks: 16 tasks of 16, two per thread.
    expect(maskWallS(new Array(256).fill(1e-4), vllm)).toBeCloseTo(2 * 16 * 1e-4, 12);
    // one slow schema holds its task's thread: the wall time is at least that task.
    const skewed = new Array(129).fill(1e-5);
    skewed[0] = 0.05;
    expect(maskWallS(skewed, vllm)).toBeCloseTo(0.05 + 15 * 1e-5, 12);
    expect(maskWallS(skewed, { ...vllm, threads: 1 })).toBeCloseTo(0.05 + 128 * 1e-5, 12);
  });
  it('an iteration takes the longer of the GPU step and the masks', () => {
    expect(overlappedStepS(0.006, 0.001)).toBe(0.006);
    expect(overlappedStepS(0.006, 0.0116)).toBe(0.0116);
  });
  it('the compile pool runs compiles FIFO on its threads', () => {
    const pool = new CompilePool(2);
    expect([pool.run(0, 1), pool.run(0, 1), pool.run(0, 1), pool.run(5, 1)]).toEqual([1, 1, 2, 6]);
  });
  it('the scenario refuses a thread count below 1 or fractional, in the user\u2019s words', () => {
    const bad = (cpuThreads: number) =>
      validateScenario(scenario({ policies: { structuredOutput: { cpuThreads } } })).map((e) => e.path);
    expect(bad(0)).toContain('policies.structuredOutput.cpuThreads');
    expect(bad(2.5)).toContain('policies.structuredOutput.cpuThreads');
    expect(bad(4)).not.toContain('policies.structuredOutput.cpuThreads');
  });
});
