/**
 * Pricing a TTL on a paused session's KV (lesson 07.06), from the closed forms of toolLatency.ts. A TTL policy holds
 * the KV for τ seconds, then lets it go (evict, or offload to a lower tier). With a holding cost of c_h per second
 * (the share of the replica's KV budget the context occupies) and a miss cost c_m (the seconds a resume costs when
 * the KV is gone: a recompute, or a reload), one pause costs
 *
 *   C(τ) = c_h · E[min(T, τ)] + c_m · (1 − F(τ)),      dC/dτ = (1 − F(τ)) · (c_h − c_m · h(τ)),
 *
 * so holding on pays while the hazard exceeds c_h / c_m (Continuum's TTL idea, Li et al., arXiv 2511.02230, and
 * InferCept's "waste = memory × time" accounting, Abhyankar et al., ICML'24). The same F prices an idle-timeout
 * prefix cache's hit rate. Apart from toolLatency.ts because that file describes a distribution and this one
 * decides what to do about it: most readers of the distribution (07.01's figures, the pause widget's statistics)
 * never price a TTL.
 */
import type { Dist } from '../engine/fleet/dist';
import { cdf, expectedMin, mean } from './toolLatency';

/**
 * Expected cost of one pause under "hold for τ, then let go": c_h per second held for min(T, τ), plus c_m when
 * the pause outlasts τ. τ = 0 is "let go at once", τ = ∞ is "hold until the next turn".
 */
export function ttlCost(d: Dist, tau: number, holdPerS: number, miss: number): number {
  if (tau === Infinity) return holdPerS * mean(d);
  return holdPerS * expectedMin(d, tau) + miss * (1 - cdf(d, Math.max(0, tau)));
}

export interface OptimalTtl {
  /** The cost-minimising TTL (s): 0 = let go at once, Infinity = hold until resume. */
  ttlS: number;
  /** C(τ*). */
  cost: number;
  /** C(0) and C(∞), for comparison. */
  costLetGo: number;
  costHold: number;
}

/**
 * argmin over τ of C(τ), on a log grid from `minS` to `maxS` (64 points per decade, then golden-section
 * refinement around the best), with τ = 0 and τ = ∞ as candidates. The grid matters: a log-normal's hazard rises
 * then falls, so C can have a local minimum below the global one.
 */
export function optimalTtl(
  d: Dist,
  holdPerS: number,
  miss: number,
  { minS = 1e-3, maxS = 86_400 }: { minS?: number; maxS?: number } = {},
): OptimalTtl {
  if (!(holdPerS >= 0) || !(miss >= 0)) throw new RangeError('costs must be ≥ 0');
  const C = (t: number) => ttlCost(d, t, holdPerS, miss);
  const costLetGo = C(0);
  const costHold = C(Infinity);
  const decades = Math.log10(maxS / minS);
  const n = Math.max(2, Math.ceil(decades * 64));
  let best = 0;
  let bestCost = costLetGo;
  let bestI = -1;
  const grid: number[] = [];
  for (let i = 0; i <= n; i++) {
    const t = minS * Math.pow(10, (decades * i) / n);
    grid.push(t);
    const c = C(t);
    if (c < bestCost) {
      bestCost = c;
      best = t;
      bestI = i;
    }
  }
  if (bestI >= 0) {
    // Golden-section search in log t between the grid neighbours.
    let a = Math.log(grid[Math.max(0, bestI - 1)]);
    let b = Math.log(grid[Math.min(n, bestI + 1)]);
    const g = (Math.sqrt(5) - 1) / 2;
    let x1 = b - g * (b - a);
    let x2 = a + g * (b - a);
    let f1 = C(Math.exp(x1));
    let f2 = C(Math.exp(x2));
    for (let i = 0; i < 60; i++) {
      if (f1 < f2) {
        b = x2;
        x2 = x1;
        f2 = f1;
        x1 = b - g * (b - a);
        f1 = C(Math.exp(x1));
      } else {
        a = x1;
        x1 = x2;
        f1 = f2;
        x2 = a + g * (b - a);
        f2 = C(Math.exp(x2));
      }
    }
    const t = Math.exp((a + b) / 2);
    const c = C(t);
    if (c < bestCost) {
      best = t;
      bestCost = c;
    }
  }
  // Ties (within rounding) go to the simpler policy: holding to the end.
  if (costHold <= bestCost * (1 + 1e-9)) {
    best = Infinity;
    bestCost = costHold;
  }
  return { ttlS: best, cost: bestCost, costLetGo, costHold };
}

// ───────────────────────────── an idle-timeout prefix cache ─────────────────────────────

export interface IdleTimeoutMix {
  /** Gaps before user-initiated steps (human waits). */
  human: Dist;
  /** Gaps before tool-result steps (the tool call the step waited for). */
  tool: Dist;
  /** Share of steps that are user-initiated. */
  userStepShare: number;
  /** The hit rate of a cache that never evicts: 1 − fresh tokens / all prompt tokens. */
  ceiling: number;
}

/**
 * The achievable hit rate of TraceLab's idealised idle-timeout cache (artifacts/prefix_cache/eviction_tradeoff):
 * a step's cacheable tokens hit when the idle gap before it is ≤ τ and are prefilled again otherwise. With
 * every step weighing the same number of tokens (the trace weights by tokens; the presets carry no token
 * counts, which is this model's simplification) and a tool step's gap drawn from `tool` (the trace takes the
 * longest of a step's parallel calls: pass the `coding-step` preset for that, as validation/rows/tracelabWaits.ts
 * does),
 *
 *   hit(τ) = ceiling · (u · F_human(τ) + (1 − u) · F_tool(τ)).
 */
export function idleTimeoutHitRate(tau: number, mix: IdleTimeoutMix): number {
  const u = mix.userStepShare;
  return mix.ceiling * (u * cdf(mix.human, tau) + (1 - u) * cdf(mix.tool, tau));
}
