/**
 * Lesson 07.09's fleet scenario: one H100 replica of Llama 3.1 8B serving coding agents whose every turn asks
 * for structured output. An agent with fixed tools reuses a few schemas; a "one-shot" agent sends a new schema
 * almost every turn. The fleet simulator (src/sim/engine/fleet, docs/scenarios.md) charges a compile from the
 * MaskBench-fitted preset (one draw per schema) on every grammar-cache miss, before the request is admitted, so it
 * lands in TTFT; a compile waits for one of the replica's `cpuThreads` compile threads.
 */
import type { Scenario } from '../../engine/fleet/scenario';
import { limit, refuseOutside, refuseOutsideEach } from '../../engine/limits';

/**
 * What the scenario builder accepts for the settings the grammar-cache widget's controls set, declared once: it
 * refuses anything outside these in words, the widget's schema (src/widgets/grammar-cost/schema.ts) offers ranges
 * inside them, and each lies inside what the fleet's scenario validator accepts. Schemas: the 40 sessions of 10–30
 * turns draw from them, so past the run's 1,200 turns at most every turn's schema is new already; a cache of more
 * grammars than that never evicts; threads: the validator's own cap on cpuThreads.
 */
export const GRAMMAR_CACHE_LIMITS = {
  schemas: limit('the distinct schemas the turns use', 1, 1_000_000, { integer: true, unit: 'schemas' }),
  cacheCapacity: limit('the grammar cache capacity', 0, 100_000, { integer: true, unit: 'grammars' }),
  cpuThreads: limit('the CPU threads for compiles', 1, 1024, { integer: true, unit: 'threads' }),
} as const;

export interface CacheScenarioParams {
  preset: 'xgrammar' | 'llguidance';
  /** Distinct schemas the agents' turns draw from. */
  schemas: number;
  /** Compiled grammars the replica keeps (LRU); 0 = no cache. */
  cacheCapacity: number;
  /**
   * CPU threads for compiles and masks (the fleet's default, 8, when absent: vLLM fills masks on at most 8 threads;
   * its compile pool has half the host's CPUs).
   */
  cpuThreads?: number;
  seed: number;
}

export function grammarCacheScenario(p: CacheScenarioParams): Scenario {
  refuseOutsideEach(GRAMMAR_CACHE_LIMITS, p, ['schemas', 'cacheCapacity']);
  if (p.cpuThreads !== undefined) refuseOutside(GRAMMAR_CACHE_LIMITS.cpuThreads, p.cpuThreads);
  return {
    name: `grammar-cache-${p.preset}-${p.schemas}-${p.cacheCapacity}`,
    description: 'Coding agents on one replica; every turn is constrained by one of the app\u2019s schemas.',
    seed: p.seed,
    model: 'llama-3.1-8b',
    hardware: { accelerator: 'h100-sxm', tp: 1 },
    durationS: 600,
    replicas: 1,
    router: { kind: 'round-robin' },
    kv: { blockSize: 256 },
    policies: {
      structuredOutput: {
        compileTime: p.preset,
        cacheCapacity: p.cacheCapacity,
        ...(p.cpuThreads !== undefined ? { cpuThreads: p.cpuThreads } : {}),
      },
    },
    workload: {
      arrival: { kind: 'poisson', sessionsPerS: 0.1 },
      sessions: 40,
      classes: [
        {
          kind: 'agent',
          name: 'coding-agent',
          apps: 1,
          systemTokens: { kind: 'constant', value: 3000 },
          toolSchemaTokens: { kind: 'constant', value: 6000 },
          taskTokens: { kind: 'lognormal', median: 400, sigma: 0.5 },
          turns: { kind: 'uniform', min: 10, max: 30 },
          outputTokens: { kind: 'lognormal', median: 150, sigma: 0.6, max: 2000 },
          toolResultTokens: { kind: 'lognormal', median: 800, sigma: 0.8, max: 8000 },
          toolLatency: {
            mix: [
              { weight: 5, tool: 'local' },
              { weight: 3, tool: 'shell' },
              { weight: 1, tool: 'web' },
            ],
          },
          structuredOutput: { prob: 1, schemas: p.schemas },
          weight: 1,
        },
      ],
    },
  } as Scenario;
}
