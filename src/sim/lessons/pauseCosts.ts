/**
 * Lesson 07.06: what one paused session costs on the lab's replica (Qwen3-32B on 2 × H100, the arena's
 * replica), in closed form from a tool-latency distribution.
 *
 *   bytes b       = context tokens × KV bytes per token                 (catalog: the model's architecture)
 *   held per pause = b · E[min(T, τ)]          byte-seconds under a TTL of τ;  b · E[T] when holding to resume
 *   resumed in HBM = F(τ)
 *   holding cost  c_h = b / B_KV               the share of the replica's KV budget held, per second
 *   miss cost     c_m = recompute(ctx)         prefill of the whole context (evict), or
 *                     = λ + b / (n · B_link)   its reload over n PCIe links (offload)
 *   C(τ) = c_h · E[min(T, τ)] + c_m · (1 − F(τ))      replica-seconds per pause; τ* = argmin C
 */
import { resolveAccelerator, resolveLink, resolveModel } from '../engine/catalog';
import { kvBytesPerToken } from '../engine/catalog/models';
import { reloadTime } from '../engine/breakeven';
import { defaultHardware, prefillTime, type HardwareConfig } from '../engine/cost';
import { computeFootprint } from '../engine/footprint';
import type { Dist } from '../engine/fleet/dist';
import { cdf, expectedMin, mean } from './toolLatency';
import { optimalTtl, type OptimalTtl } from './ttlPolicy';
import { PAUSE_ACCELERATOR, PAUSE_MODEL, PAUSE_TP } from './pauseLabSetup';

export type MissKind = 'evict' | 'offload';

export interface LabReplica {
  modelName: string;
  acceleratorName: string;
  tp: number;
  kvBytesPerToken: number;
  kvBudgetBytes: number;
  /** The host link the arena's DRAM tier uses: aggregate bytes/s over the tp PCIe links, and its latency. */
  linkBandwidth: number;
  linkLatency: number;
  linkName: string;
}

function lab(): { model: ReturnType<typeof resolveModel>; hw: HardwareConfig; replica: LabReplica } {
  const model = resolveModel(PAUSE_MODEL);
  const accelerator = resolveAccelerator(PAUSE_ACCELERATOR);
  const hw = defaultHardware(accelerator, PAUSE_TP);
  const fp = computeFootprint({
    model,
    accelerator,
    kvDtype: hw.kvDtype,
    weightDtype: hw.weightDtype,
    contextTokens: 1,
    gpus: PAUSE_TP,
    memoryUtilization: 0.9,
  });
  // As the fleet simulator's DRAM tier: the accelerator's host link, one per GPU, used in parallel.
  const link = resolveLink(accelerator.hostLink);
  const path = {
    bandwidth: link.effectiveBandwidth * PAUSE_TP,
    latency: link.latency,
    name: `${PAUSE_TP} × ${link.name}`,
  };
  return {
    model,
    hw,
    replica: {
      modelName: model.name,
      acceleratorName: accelerator.name,
      tp: PAUSE_TP,
      kvBytesPerToken: kvBytesPerToken(model, hw.kvDtype),
      kvBudgetBytes: fp.kvBudgetBytes,
      linkBandwidth: path.bandwidth,
      linkLatency: path.latency,
      linkName: path.name,
    },
  };
}

export function labReplica(): LabReplica {
  return lab().replica;
}

export interface PauseCosts {
  replica: LabReplica;
  contextTokens: number;
  contextBytes: number;
  ttlS: number;
  /** F(τ): pauses over within the TTL, so resumed with their KV in HBM. */
  resumedInHbm: number;
  /** E[min(T, τ)] and E[T], s. */
  heldS: number;
  meanS: number;
  /** b · E[min(T, τ)] and b · E[T], byte-seconds per pause. */
  heldByteSeconds: number;
  holdByteSeconds: number;
  /** Seconds to recompute the context, and to reload it over the host link. */
  recomputeS: number;
  reloadS: number;
  miss: MissKind;
  /** c_h (per s) and c_m (s) of the cost model. */
  holdPerS: number;
  missS: number;
  /** (1 − F(τ)) · c_m: the resume delay a pause costs on average, s. */
  expectedMissS: number;
  /** C(τ) at the chosen TTL, and the optimum. */
  costAtTtl: number;
  optimal: OptimalTtl;
}

export function pauseCosts(d: Dist, ttlS: number, contextTokens: number, miss: MissKind): PauseCosts {
  if (!(ttlS > 0)) throw new RangeError(`ttlS must be > 0, got ${ttlS}`);
  if (!(contextTokens >= 1)) throw new RangeError(`contextTokens must be ≥ 1, got ${contextTokens}`);
  const { model, hw, replica } = lab();
  const contextBytes = contextTokens * replica.kvBytesPerToken;
  const heldS = expectedMin(d, ttlS);
  const meanS = mean(d);
  const recomputeS = prefillTime(model, hw, contextTokens, 0);
  const reloadS = reloadTime(
    model,
    hw,
    { bandwidth: replica.linkBandwidth, latency: replica.linkLatency },
    contextTokens,
  );
  const holdPerS = contextBytes / replica.kvBudgetBytes;
  const missS = miss === 'evict' ? recomputeS : reloadS;
  const resumedInHbm = cdf(d, ttlS);
  return {
    replica,
    contextTokens,
    contextBytes,
    ttlS,
    resumedInHbm,
    heldS,
    meanS,
    heldByteSeconds: contextBytes * heldS,
    holdByteSeconds: contextBytes * meanS,
    recomputeS,
    reloadS,
    miss,
    holdPerS,
    missS,
    expectedMissS: (1 - resumedInHbm) * missS,
    costAtTtl: holdPerS * heldS + missS * (1 - resumedInHbm),
    optimal: optimalTtl(d, holdPerS, missS),
  };
}
