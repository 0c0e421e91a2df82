/**
 * Lesson 07.06 (tool calls in the loop): the closed forms behind its prose, widgets and exercises, pinned to
 * hand-computed values and checked against the simulator's own sampler.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../src/sim/engine/rng';
import { TRACELAB_STEP_MIX } from '../src/sim/engine/catalog/pauses';
import {
  AGENT_TOOL_LATENCY,
  CALLS_PER_TOOL_ROUND,
  CODING_MIX_CLAUDE_SHARE,
  sample,
  TOOL_LATENCY_PRESETS,
  type Dist,
} from '../src/sim/engine/fleet/dist';
import {
  cdf,
  endsWithin,
  expectedMin,
  hazard,
  mean,
  partialMean,
  quantile,
  resolveToolLatency,
  timeShare,
} from '../src/sim/lessons/toolLatency';
import { normCdf, normQuantile } from '../src/sim/lessons/standardNormal';
import { optimalTtl, ttlCost } from '../src/sim/lessons/ttlPolicy';
import { labReplica, pauseCosts } from '../src/sim/lessons/pauseCosts';
import { resolveModel, resolveAccelerator } from '../src/sim/engine/catalog/index';
import { defaultHardware, prefillTime } from '../src/sim/engine/cost';

const Z90 = 1.2815515655446004;

describe('the standard normal', () => {
  it('Φ at hand-known points, to 1e-12', () => {
    expect(normCdf(0)).toBe(0.5);
    expect(normCdf(Z90)).toBeCloseTo(0.9, 12);
    expect(normCdf(-1.959963984540054)).toBeCloseTo(0.025, 12);
    expect(normCdf(-1)).toBeCloseTo(0.15865525393145707, 12);
    expect(normCdf(8)).toBeCloseTo(1, 14);
    expect(normCdf(-40)).toBe(0);
  });

  it('Φ⁻¹ inverts Φ', () => {
    expect(normQuantile(0.9)).toBeCloseTo(Z90, 12);
    expect(normQuantile(0.975)).toBeCloseTo(1.959963984540054, 12);
    expect(normQuantile(0.5)).toBeCloseTo(0, 14);
    for (const p of [1e-6, 0.01, 0.3, 0.77, 0.999]) expect(normCdf(normQuantile(p))).toBeCloseTo(p, 12);
  });
});

describe('E[min(T, τ)] and the share of pauses over by τ', () => {
  // Log-normal with median 1 s and σ = 1 (no clipping), by hand:
  //   F(1) = Φ(0) = 0.5;  E[min(X, 1)] = e^{σ²/2} Φ((ln 1 − 0 − 1)/1) + 1 · (1 − Φ(0)) = 1.6487 · 0.158655 + 0.5
  const ln: Dist = { kind: 'lognormal', median: 1, sigma: 1 };

  it('log-normal: F, the partial mean, E[T] and E[min(T, τ)]', () => {
    expect(cdf(ln, 1)).toBe(0.5);
    expect(mean(ln)).toBeCloseTo(Math.exp(0.5), 12);
    expect(partialMean(ln, 1)).toBeCloseTo(Math.exp(0.5) * 0.15865525393145707, 12);
    expect(expectedMin(ln, 1)).toBeCloseTo(1.6487212707001282 * 0.15865525393145707 + 0.5, 12); // 0.761578
    expect(expectedMin(ln, 1)).toBeCloseTo(0.7615782, 6);
    // the share of time in calls over by t: Φ((ln t − μ − σ²)/σ), ½ at t = e
    expect(timeShare(ln, Math.E)).toBeCloseTo(0.5, 12);
  });

  it('exponential: E[min(X, τ)] = m (1 − e^{−τ/m})', () => {
    const ex: Dist = { kind: 'exponential', mean: 2 };
    expect(expectedMin(ex, 2)).toBeCloseTo(2 * (1 - Math.exp(-1)), 12); // 1.264241
    expect(cdf(ex, 2)).toBeCloseTo(1 - Math.exp(-1), 12);
    expect(mean(ex)).toBeCloseTo(2, 12);
  });

  it('constants, uniforms and mixtures', () => {
    const c: Dist = { kind: 'constant', value: 5 };
    expect(cdf(c, 4.9)).toBe(0);
    expect(cdf(c, 5)).toBe(1);
    expect(expectedMin(c, 3)).toBe(3);
    expect(expectedMin(c, 10)).toBe(5);
    const u: Dist = { kind: 'uniform', min: 0, max: 4 };
    // E[min(U, 2)] = ∫₀² (1 − t/4) dt = 2 − 0.5 = 1.5
    expect(expectedMin(u, 2)).toBeCloseTo(1.5, 12);
    const mix: Dist = {
      kind: 'mixture',
      components: [
        { weight: 1, dist: { kind: 'constant', value: 1 } },
        { weight: 3, dist: { kind: 'constant', value: 3 } },
      ],
    };
    expect(cdf(mix, 2)).toBe(0.25);
    expect(mean(mix)).toBe(2.5);
    expect(expectedMin(mix, 2)).toBe(0.25 * 1 + 0.75 * 2);
    // a workload's tool mix resolves to the same mixture the sampler draws from
    const m = resolveToolLatency({
      mix: [
        { weight: 1, tool: 'shell' },
        { weight: 1, tool: 'web' },
      ],
    });
    expect(cdf(m, 1)).toBeCloseTo(
      (cdf(TOOL_LATENCY_PRESETS.shell, 1) + cdf(TOOL_LATENCY_PRESETS.web, 1)) / 2,
      14,
    );
  });

  it('clipping puts an atom at the clip: T = min(X, max)', () => {
    const d: Dist = { kind: 'lognormal', median: 1, sigma: 1, max: 1 };
    // T = min(X, 1): E[T] = E[min(X, 1)], and every pause is over by 1 s
    expect(mean(d)).toBeCloseTo(0.7615782, 6);
    expect(cdf(d, 1)).toBe(1);
    expect(cdf(d, 0.999)).toBeCloseTo(normCdf(Math.log(0.999)), 12);
  });

  it('the closed forms agree with the simulator’s sampler (10⁶ draws of each preset)', () => {
    for (const [name, d] of Object.entries(TOOL_LATENCY_PRESETS)) {
      const rng = createRng(7);
      const n = 1_000_000;
      let under2 = 0;
      let min2 = 0;
      let minMedian = 0;
      const med = quantile(d, 0.5);
      for (let i = 0; i < n; i++) {
        const x = sample(d, rng);
        if (x <= 2) under2++;
        min2 += Math.min(x, 2);
        minMedian += Math.min(x, med);
      }
      expect(under2 / n, name).toBeCloseTo(cdf(d, 2), 2);
      expect(min2 / n / expectedMin(d, 2), name).toBeCloseTo(1, 2);
      expect(minMedian / n / expectedMin(d, med), name).toBeCloseTo(1, 2);
    }
  });
});

describe('the presets, as the lesson quotes them', () => {
  it('a step is the longest of its round’s parallel calls: 1.38 calls, a longer median and tail than a call; independent Codex calls overstate its median step', () => {
    const S = TRACELAB_STEP_MIX;
    expect((S.toolCallsPerSession / S.toolStepsPerSession).toFixed(2)).toBe('1.38');
    expect(mean(CALLS_PER_TOOL_ROUND).toFixed(2)).toBe('1.38');
    const call = TOOL_LATENCY_PRESETS['coding-mix'];
    const step = TOOL_LATENCY_PRESETS['coding-step'];
    expect(quantile(step, 0.5)).toBeGreaterThan(2 * quantile(call, 0.5));
    expect(1 - cdf(step, 60)).toBeGreaterThan(1 - cdf(call, 60));
    // "its median of about 0.25 s is shorter than the median call's 0.63 s": independent draws say longer.
    const codexStep: Dist = { kind: 'parallel', calls: CALLS_PER_TOOL_ROUND, each: AGENT_TOOL_LATENCY.codex };
    expect(quantile(codexStep, 0.5)).toBeGreaterThan(quantile(AGENT_TOOL_LATENCY.codex, 0.5));
    expect(quantile(AGENT_TOOL_LATENCY.codex, 0.5)).toBeGreaterThan(0.25);
  });

  it('web: Dynamo’s 2–30 s are the 1st and 99th percentiles; the TTL that covers 90% of calls is 7.75 s · e^{σ z₉₀}', () => {
    const d = TOOL_LATENCY_PRESETS.web;
    expect(quantile(d, 0.01)).toBeCloseTo(2, 10);
    expect(quantile(d, 0.99)).toBeCloseTo(30, 10);
    // a third of the calls under the source's 2 s floor was the old fit's flaw: now 1%
    expect(cdf(d, 2)).toBeCloseTo(0.01, 10);
    expect(cdf(d, 30) - cdf(d, 2)).toBeCloseTo(0.98, 10);
    const q = quantile(d, 0.9);
    expect(q).toBeCloseTo(Math.sqrt(60) * Math.exp((Math.log(15) / (2 * 2.3263478740408408)) * Z90), 8);
    expect(q).toBeCloseTo(16.33, 2);
  });

  it('coding mix: the per-agent fits mixed 48.3% / 51.7%, unclipped, with TraceLab’s heavy tail', () => {
    const d = TOOL_LATENCY_PRESETS['coding-mix'];
    const w = CODING_MIX_CLAUDE_SHARE;
    const claude = AGENT_TOOL_LATENCY['claude-code'];
    const codex = AGENT_TOOL_LATENCY.codex;
    // the mixture's mean is the weighted mean of the agents' (no clip: the closed form is the sampled mean)
    expect(mean(d)).toBeCloseTo(w * mean(claude) + (1 - w) * mean(codex), 10);
    // Claude Code's tool calls carry more of the tail than Codex's
    expect(mean(claude)).toBeGreaterThan(4 * mean(codex));
    expect(quantile(claude, 0.5)).toBeLessThan(quantile(codex, 0.5));
    // most calls are short, the few over a minute carry most of the time (the lesson's "most")
    expect(cdf(d, 1)).toBeGreaterThan(0.5);
    expect(1 - cdf(d, 60)).toBeLessThan(0.05);
    expect(1 - timeShare(d, 60)).toBeGreaterThan(0.8);
    expect(mean(d)).toBeGreaterThan(50 * quantile(d, 0.5));
    // a 2 s TTL: 82% of pauses over, and 0.807 s held per pause instead of 17.1 s
    expect(cdf(d, 2)).toBeCloseTo(0.8172, 3);
    expect(expectedMin(d, 2)).toBeCloseTo(0.8067, 3);
    expect(mean(d)).toBeCloseTo(17.1, 1);
    // The prose sets the fitted mix's mean beside the traces' measured 18.4 s per call (TraceLab, both agents
    // merged; docs/validation.md): the fit falls a little short of it, within 10%.
    expect(mean(d)).toBeLessThan(18.4);
    expect(mean(d)).toBeGreaterThan(0.9 * 18.4);
  });

  it('human waits: TraceLab’s median 86 s, p90 21 min and p99 14 h, heavier than any tool', () => {
    const h = TOOL_LATENCY_PRESETS.human;
    expect(quantile(h, 0.5) / 86).toBeCloseTo(1, 1);
    expect(quantile(h, 0.9) / 1260).toBeCloseTo(1, 1);
    expect(quantile(h, 0.99) / (14 * 3600)).toBeCloseTo(1, 1);
    for (const id of ['local', 'shell', 'web', 'coding-mix'] as const)
      expect(quantile(h, 0.99)).toBeGreaterThan(quantile(TOOL_LATENCY_PRESETS[id], 0.99));
  });

  it('heavy tails: the longer a call has run, the less likely it is to end in the next second', () => {
    const d = TOOL_LATENCY_PRESETS['coding-mix'];
    const p = [1, 10, 60, 600].map((t) => endsWithin(d, t, 1));
    for (let i = 1; i < p.length; i++) expect(p[i]).toBeLessThan(p[i - 1]);
    // by hand at t = 10 s: (F(11) − F(10)) / (1 − F(10))
    expect(endsWithin(d, 10, 1)).toBeCloseTo((cdf(d, 11) - cdf(d, 10)) / (1 - cdf(d, 10)), 14);
    // the hazard f/(1 − F) of a log-normal mixture at t: Σ wᵢ φ(zᵢ)/(σᵢ t) over 1 − F(t), zᵢ = (ln t − μᵢ)/σᵢ
    const comps = [
      ...AGENT_TOOL_LATENCY['claude-code'].components.map((c) => ({
        ...c,
        weight: c.weight * CODING_MIX_CLAUDE_SHARE,
      })),
      ...AGENT_TOOL_LATENCY.codex.components.map((c) => ({
        ...c,
        weight: c.weight * (1 - CODING_MIX_CLAUDE_SHARE),
      })),
    ];
    let f = 0;
    let F = 0;
    for (const c of comps) {
      const { median, sigma } = c.dist as { median: number; sigma: number };
      const z = (Math.log(10) - Math.log(median)) / sigma;
      f += (c.weight * Math.exp((-z * z) / 2)) / Math.sqrt(2 * Math.PI) / (sigma * 10);
      F += c.weight * normCdf(z);
    }
    expect(hazard(d, 10)).toBeCloseTo(f / (1 - F), 6);
  });
});

describe('the cost of a TTL', () => {
  it('C(0) is the miss cost, C(∞) is holding to the end', () => {
    const d = TOOL_LATENCY_PRESETS.web;
    expect(ttlCost(d, 0, 0.1, 2)).toBe(2);
    expect(ttlCost(d, Infinity, 0.1, 2)).toBeCloseTo(0.1 * mean(d), 12);
  });

  it('the prose: for the coding mix the chance of ending within the next second rises to t = 1 s, then falls', () => {
    const d = TOOL_LATENCY_PRESETS['coding-mix'];
    expect(endsWithin(d, 1, 1)).toBeGreaterThan(endsWithin(d, 0.1, 1));
    const later = [1.5, 2, 3, 5, 10, 20, 60, 120, 600].map((t) => endsWithin(d, t, 1));
    for (let i = 1; i < later.length; i++) expect(later[i]).toBeLessThan(later[i - 1]);
    expect(endsWithin(d, 1, 1)).toBeGreaterThan(endsWithin(d, 10, 1));
    expect(cdf(d, 1)).toBeGreaterThan(0.5); // "most calls end in a fraction of a second"
  });

  it('exponential pauses (constant hazard 1/m): hold to the end if c_m > c_h · m, else let go at once', () => {
    const ex: Dist = { kind: 'exponential', mean: 10 };
    // C(τ) = c_h m + (c_m − c_h m) e^{−τ/m}
    const hold = optimalTtl(ex, 0.1, 3); // c_h m = 1 < 3
    expect(hold.ttlS).toBe(Infinity);
    expect(hold.cost).toBeCloseTo(1, 12);
    const go = optimalTtl(ex, 0.1, 0.5); // c_h m = 1 > 0.5
    expect(go.ttlS).toBe(0);
    expect(go.cost).toBe(0.5);
  });

  it('a heavy tail has an interior optimum where the hazard falls to c_h / c_m', () => {
    const d = TOOL_LATENCY_PRESETS['coding-mix'];
    const o = optimalTtl(d, 0.1, 2.2);
    expect(o.ttlS).toBeGreaterThan(2);
    expect(o.ttlS).toBeLessThan(30);
    expect(hazard(d, o.ttlS)).toBeCloseTo(0.1 / 2.2, 4);
    expect(o.cost).toBeLessThan(o.costHold);
    expect(o.cost).toBeLessThan(o.costLetGo);
    for (const t of [0.5, 2, 8, 40, 300])
      expect(ttlCost(d, t, 0.1, 2.2)).toBeGreaterThanOrEqual(o.cost - 1e-12);
  });
});

describe('one paused session on the lab replica (Qwen3-32B on 2 × H100)', () => {
  it('bytes, budget, recompute and reload from the catalogs', () => {
    const r = labReplica();
    // 2 (K and V) × 64 layers × 8 KV heads × 128 × 2 bytes
    expect(r.kvBytesPerToken).toBe(2 * 64 * 8 * 128 * 2); // 262,144
    // 2 × (81,559 MiB × 0.9 − 4.84 GiB vLLM reserve) − 32.8 B params × 2 bytes
    expect(r.kvBudgetBytes).toBeCloseTo(2 * (81_559 * 2 ** 20 * 0.9 - 4.84 * 2 ** 30) - 32.8e9 * 2, 0); // 78.0 GB
    // two PCIe Gen5 x16 links at the measured 50 GB/s each
    expect(r.linkBandwidth).toBeCloseTo(100e9, 0);
    const d = TOOL_LATENCY_PRESETS['coding-mix'];
    const c = pauseCosts(d, 2, 30_000, 'evict');
    expect(c.contextBytes).toBe(30_000 * 262_144); // 7.86 GB
    expect(c.heldByteSeconds).toBeCloseTo(30_000 * 262_144 * expectedMin(d, 2), 0);
    expect(c.holdByteSeconds).toBeCloseTo(30_000 * 262_144 * mean(d), 0);
    expect(c.resumedInHbm).toBeCloseTo(cdf(d, 2), 14);
    const m = resolveModel('qwen3-32b');
    const hw = defaultHardware(resolveAccelerator('h100-sxm'), 2);
    expect(c.recomputeS).toBeCloseTo(prefillTime(m, hw, 30_000, 0), 12);
    expect(c.reloadS).toBeCloseTo(10e-6 + (30_000 * 262_144) / 100e9, 9); // 78.6 ms
    expect(c.holdPerS).toBeCloseTo((30_000 * 262_144) / r.kvBudgetBytes, 12); // ≈ 0.1 per s
    expect(c.missS).toBe(c.recomputeS);
    expect(c.costAtTtl).toBeCloseTo(c.holdPerS * c.heldS + c.missS * (1 - c.resumedInHbm), 12);
    const off = pauseCosts(d, 2, 30_000, 'offload');
    expect(off.missS).toBe(off.reloadS);
    // a cheap miss argues for a short TTL
    expect(off.optimal.ttlS).toBeLessThan(c.optimal.ttlS);
  });
  it('the Continuum aside: a miss that also pays a queueing delay argues for a longer TTL (c_m alone lets go early)', () => {
    const d = TOOL_LATENCY_PRESETS['coding-mix'];
    const c = pauseCosts(d, 2, 30_000, 'evict');
    const withQueue = optimalTtl(d, c.holdPerS, c.missS + 1);
    expect(withQueue.ttlS).toBeGreaterThan(c.optimal.ttlS);
  });
});
