/**
 * Lesson 07.10, part 2: an agent turn's prefill split into its matmul and attention parts, against its prefix hit
 * rate and the attention kernel's speed-up. `prefillSplit` prices n new tokens after c cached ones with the
 * attention time divided by a kernel speed-up s:
 *   t = max( (2·P_body·n + 2·V·D) / G_GEMM + a·(n·c + n(n+1)/2) / (s · G_attn) , bytes / M ) + t_AR + t_o,
 * a = 2·L·H·(d_qk + d_v), the same bytes, all-reduce and overhead as cost.ts's prefillCost, so s = 1 is exactly
 * prefillCost. An agent turn of P tokens with prefix hit rate h prefills n = (1 − h)·P after c = h·P.
 *
 * Pure: no DOM, no randomness. Units: seconds, FLOP, bytes, tokens.
 */
import type { ModelSpec } from '../engine/catalog/models';
import { effectiveAttentionFlops, prefillCost, type HardwareConfig } from '../engine/cost';

export interface PrefillSplit {
  newTokens: number;
  cachedTokens: number;
  /** 2·P_body·n + the LM head (2·V·D) once. */
  linearFlops: number;
  /** a·(n·c + n(n+1)/2), before the kernel speed-up. */
  attentionFlops: number;
  attentionSpeedup: number;
  /** The attention FLOPs' compute time after the speed-up, s. */
  attentionS: number;
  linearS: number;
  computeS: number;
  bytes: number;
  memoryS: number;
  /** Tensor-parallel all-reduce and per-iteration overhead, s (no kernel changes them). */
  allReduceS: number;
  overheadS: number;
  /** max(computeS, memoryS) + allReduceS + overheadS. */
  timeS: number;
  bound: 'compute' | 'memory';
  /** attentionFlops / (linearFlops + attentionFlops): the share of the work a kernel can speed up. */
  attentionShare: number;
}

/**
 * Prefill of n new tokens after c cached with attention `attentionSpeedup` times faster (Infinity: free). The
 * speed-up divides the attention FLOPs' time only; the bytes (weights and KV) are cost.ts's prefillBytes.
 */
export function prefillSplit(
  model: ModelSpec,
  hw: HardwareConfig,
  newTokens: number,
  cachedTokens: number,
  attentionSpeedup = 1,
): PrefillSplit {
  if (!(Number.isFinite(newTokens) && newTokens >= 0))
    throw new RangeError(`newTokens must be ≥ 0, got ${newTokens}`);
  if (!(Number.isFinite(cachedTokens) && cachedTokens >= 0))
    throw new RangeError(`cachedTokens must be ≥ 0, got ${cachedTokens}`);
  if (!(attentionSpeedup >= 1)) throw new RangeError(`attentionSpeedup must be ≥ 1, got ${attentionSpeedup}`);
  const n = newTokens;
  const c = cachedTokens;
  const cost = prefillCost(model, hw, n, c);
  const linearFlops = cost.gemmFlops;
  const attentionFlops = cost.attentionFlops;
  const linearS = cost.gemmTime;
  const attentionS = cost.attentionTime / attentionSpeedup;
  const computeS = linearS + attentionS;
  const bytes = cost.bytes;
  const memoryS = cost.memoryTime;
  const total = linearFlops + attentionFlops;
  return {
    newTokens: n,
    cachedTokens: c,
    linearFlops,
    attentionFlops,
    attentionSpeedup,
    attentionS,
    linearS,
    computeS,
    bytes,
    memoryS,
    allReduceS: cost.allReduceTime,
    overheadS: cost.overheadTime,
    timeS: Math.max(computeS, memoryS) + cost.allReduceTime + cost.overheadTime,
    bound: computeS >= memoryS ? 'compute' : 'memory',
    attentionShare: total > 0 ? attentionFlops / total : 0,
  };
}

/** An agent turn of `contextTokens` tokens with prefix hit rate h: n = (1 − h)·P new after c = h·P cached. */
export function turnPrefill(
  model: ModelSpec,
  hw: HardwareConfig,
  contextTokens: number,
  hitRate: number,
  attentionSpeedup = 1,
): PrefillSplit {
  if (!(hitRate >= 0 && hitRate < 1)) throw new RangeError(`hitRate must be in [0, 1), got ${hitRate}`);
  const c = hitRate * contextTokens;
  return prefillSplit(model, hw, contextTokens - c, c, attentionSpeedup);
}

/**
 * The attention speed-up s that brings a turn at hit rate h0 down to the time of the standard kernel at h1:
 * time(h0, s) = time(h1, 1). 1 when h0 is already as fast; Infinity when even free attention is not enough
 * (the matmuls, or the memory side, of h0 alone take longer).
 */
export function speedupToMatch(
  model: ModelSpec,
  hw: HardwareConfig,
  contextTokens: number,
  h0: number,
  h1: number,
): number {
  const target = turnPrefill(model, hw, contextTokens, h1).timeS;
  const at = turnPrefill(model, hw, contextTokens, h0);
  if (at.timeS <= target) return 1;
  const fixed = at.allReduceS + at.overheadS;
  if (at.memoryS + fixed >= target || at.linearS + fixed >= target) return Infinity;
  // compute-bound at the target: linearS + attentionFlops / (s · G_attn) + all-reduce + overhead = target
  return at.attentionFlops / effectiveAttentionFlops(hw) / (target - at.linearS - fixed);
}

/**
 * The hit rate at which the standard kernel matches the turn at h0 with attention s times faster: the h ≥ h0
 * with time(h, 1) = time(h0, s), by bisection (time falls as h rises). Returns h0 when s = 1.
 */
export function hitRateEquivalent(
  model: ModelSpec,
  hw: HardwareConfig,
  contextTokens: number,
  h0: number,
  speedup: number,
): number {
  const target = turnPrefill(model, hw, contextTokens, h0, speedup).timeS;
  let a = h0;
  let b = 1 - 1e-9;
  if (turnPrefill(model, hw, contextTokens, a).timeS <= target) return h0;
  for (let i = 0; i < 60; i++) {
    const m = (a + b) / 2;
    if (turnPrefill(model, hw, contextTokens, m).timeS > target) a = m;
    else b = m;
  }
  return (a + b) / 2;
}

/** The three cases the lesson compares for an agent turn, and what would make them meet. */
export interface TurnCases {
  /** The turn at hit rate h0 with the standard kernel, with attention `speedup`× faster, and at h1 standard. */
  fromStandard: PrefillSplit;
  fromFaster: PrefillSplit;
  toStandard: PrefillSplit;
  /** Attention speed-up that would bring h0 down to h1's time; Infinity if none can. */
  speedupToMatch: number;
  /** Hit rate at which the standard kernel matches h0 with the faster kernel. */
  hitEquivalent: number;
  /** Prefill time at h0 with attention free. */
  fromFreeS: number;
}

export function turnCases(
  model: ModelSpec,
  hw: HardwareConfig,
  contextTokens: number,
  h0: number,
  h1: number,
  speedup: number,
): TurnCases {
  return {
    fromStandard: turnPrefill(model, hw, contextTokens, h0),
    fromFaster: turnPrefill(model, hw, contextTokens, h0, speedup),
    toStandard: turnPrefill(model, hw, contextTokens, h1),
    speedupToMatch: speedupToMatch(model, hw, contextTokens, h0, h1),
    hitEquivalent: hitRateEquivalent(model, hw, contextTokens, h0, speedup),
    fromFreeS: turnPrefill(model, hw, contextTokens, h0, Infinity).timeS,
  };
}
