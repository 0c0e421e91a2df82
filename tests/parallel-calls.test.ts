/**
 * A step that waits for parallel calls (fleet/dist.ts `parallel`, lessons' toolLatency.ts): its closed-form F, its
 * numerically integrated partial mean, its sampler, TraceLab's count of calls a round, and a scenario's check.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { CALLS_PER_TOOL_ROUND, sample, TOOL_LATENCY_PRESETS, type Dist } from '../src/sim/engine/fleet/dist';
import { TRACELAB_STEP_MIX } from '../src/sim/engine/catalog/pauses';
import { createRng } from '../src/sim/engine/rng';
import { validateScenario } from '../src/sim/engine/fleet/scenario';
import { runScenarioSync } from '../src/sim/engine/fleet/run';
import { cdf, expectedMin, mean, partialMean, quantile } from '../src/sim/lessons/toolLatency';

const parallel = (calls: Dist, each: Dist): Dist => ({ kind: 'parallel', calls, each });
const one = (each: Dist) => parallel({ kind: 'constant', value: 1 }, each);

describe('a step of parallel calls', () => {
  it('with one call is the call: mean, partial means and E[min(T, τ)] match the closed forms', () => {
    for (const [name, d] of Object.entries(TOOL_LATENCY_PRESETS)) {
      if (d.kind === 'parallel') continue;
      const p = one(d);
      expect(mean(p) / mean(d), name).toBeCloseTo(1, 4);
      for (const t of [0.5, 2, 60, 600, 3600]) {
        expect(cdf(p, t), `${name} F(${t})`).toBeCloseTo(cdf(d, t), 12);
        // Absolute: where M(t) is near 0, a relative comparison would weigh nothing.
        expect(Math.abs(partialMean(p, t) - partialMean(d, t)), `${name} M(${t})`).toBeLessThan(
          1e-4 * mean(d),
        );
        expect(expectedMin(p, t) / expectedMin(d, t), `${name} E[min(T, ${t})]`).toBeCloseTo(1, 4);
      }
    }
  });

  it('waits for the longest: F is Σ P(n) Fⁿ, and the longest of n exponentials has mean m · (1 + ½ + … + 1/n)', () => {
    const each: Dist = { kind: 'exponential', mean: 4 };
    for (const n of [2, 3, 5]) {
      const p = parallel({ kind: 'constant', value: n }, each);
      let harmonic = 0;
      for (let k = 1; k <= n; k++) harmonic += 1 / k;
      expect(mean(p)).toBeCloseTo(4 * harmonic, 3);
      expect(cdf(p, 3)).toBeCloseTo(Math.pow(1 - Math.exp(-3 / 4), n), 12);
    }
    const mixed = parallel({ kind: 'choice', values: [1, 3], weights: [3, 1] }, each);
    const F = 1 - Math.exp(-5 / 4);
    expect(cdf(mixed, 5)).toBeCloseTo(0.75 * F + 0.25 * F ** 3, 12);
    expect(mean(mixed)).toBeCloseTo(0.75 * 4 + 0.25 * 4 * (1 + 1 / 2 + 1 / 3), 3);
  });

  it('samples as its closed form says (seeded draws of the coding-agent step)', () => {
    const d = TOOL_LATENCY_PRESETS['coding-step'];
    const rng = createRng(11);
    const n = 100_000;
    const xs = Float64Array.from({ length: n }, () => sample(d, rng)).sort();
    for (const p of [0.25, 0.5, 0.9]) {
      const drawn = xs[Math.floor(p * n)];
      // The draws' empirical F at the closed form's quantile is p, within sampling error (σ ≈ 0.0015).
      expect(cdf(d, drawn)).toBeCloseTo(p, 2);
    }
  });

  it('is never shorter than one of its calls: the step preset lies right of the call preset', () => {
    const call = TOOL_LATENCY_PRESETS['coding-mix'];
    const step = TOOL_LATENCY_PRESETS['coding-step'];
    for (const t of [0.05, 0.3, 2, 60, 3600]) expect(cdf(step, t)).toBeLessThan(cdf(call, t));
    expect(quantile(step, 0.5)).toBeGreaterThan(quantile(call, 0.5));
    expect(mean(step)).toBeGreaterThan(mean(call));
  });
});

describe('TraceLab’s calls a round (CALLS_PER_TOOL_ROUND)', () => {
  const S = TRACELAB_STEP_MIX;
  it('has the mean of 101.4 calls over 73.6 tool-initiated steps', () => {
    expect(mean(CALLS_PER_TOOL_ROUND)).toBeCloseTo(S.toolCallsPerSession / S.toolStepsPerSession, 5);
  });
  it('with the rounds that call none, has the published percentiles over every round', () => {
    const everyRound: Dist = {
      kind: 'mixture',
      components: [
        { weight: S.userStepsPerSession, dist: { kind: 'constant', value: 0 } },
        { weight: S.toolStepsPerSession, dist: CALLS_PER_TOOL_ROUND },
      ],
    };
    const q = (p: number) => Math.ceil(quantile(everyRound, p) - 1e-9);
    expect([q(0.25), q(0.5), q(0.9), q(0.99)]).toEqual([1, S.toolCallsPerRound.p50, 2, 4]);
    expect(mean(everyRound)).toBeCloseTo(S.toolCallsPerRound.mean, 1);
  });
});

describe('a scenario’s parallel tool latency', () => {
  const bench = JSON.parse(readFileSync('scenarios/bench-16x1000-agents.json', 'utf8'));
  const small = (toolLatency: unknown) => ({
    ...bench,
    replicas: 2,
    durationS: 120,
    workload: {
      ...bench.workload,
      sessions: 20,
      classes: [{ ...bench.workload.classes[0], turns: { kind: 'constant', value: 3 }, toolLatency }],
    },
  });

  it('is refused, with its path, when the count is not a list of whole numbers', () => {
    const errs = validateScenario(
      small({ kind: 'parallel', calls: { kind: 'lognormal', median: 1, sigma: 1 }, each: 'shell' }),
    );
    const paths = errs.map((e) => e.path);
    expect(paths).toContain('workload.classes[0].toolLatency.calls');
    expect(errs.find((e) => e.path.endsWith('.calls'))!.message).toMatch(/whole numbers from 1/);
  });

  it('runs: a step of three parallel shell calls pauses longer than one call', () => {
    const shell = TOOL_LATENCY_PRESETS.shell;
    const pauseOf = (toolLatency: Dist) => {
      const s = small(toolLatency);
      expect(validateScenario(s)).toEqual([]);
      return runScenarioSync(s, { includeRequests: false, includeSeries: false });
    };
    const a = pauseOf(shell);
    const b = pauseOf(parallel({ kind: 'constant', value: 3 }, shell));
    expect(b.metrics.requests.finished).toBe(a.metrics.requests.finished);
    expect(b.metrics.requests.failed).toBe(0);
    // Same sessions and turns, longer pauses between them: the last turn ends later.
    expect(b.metrics.simulatedS).toBeGreaterThan(a.metrics.simulatedS);
  });
});

describe('docs/scenarios.md', () => {
  it('quotes the coding presets’ medians and means as computed', () => {
    const doc = readFileSync('docs/scenarios.md', 'utf8');
    for (const id of ['coding-mix', 'coding-step'] as const) {
      const line = doc.split('\n').find((l) => l.startsWith(`| \`${id}\``))!;
      const [, , , median, meanText] = line.split('|').map((c) => c.trim());
      const d = TOOL_LATENCY_PRESETS[id];
      expect(median, id).toBe(`${quantile(d, 0.5).toFixed(2)} s`);
      expect(meanText, id).toBe(`${mean(d).toFixed(1)} s`);
    }
  });
});
