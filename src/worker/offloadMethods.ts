/**
 * Worker methods of lesson 07.05 (KV offload and reload): reload time against recompute time over the prefix
 * lengths of one model, replica and link, with the break-even lengths; and the lesson's inline figures. The
 * replica and link the widgets share are in offloadPath.ts, the minimum link bandwidth per model in
 * minBandwidthMethods.ts. Plain structured-cloneable arguments (catalog ids); every figure comes from
 * src/sim/engine/breakeven.ts and src/sim/engine/cost.ts.
 */
import { asRefusal, BadRequest, within } from './badRequest';
import {
  alwaysWinsBandwidth,
  logGrid,
  offloadReplica,
  resolvePath,
  type LinkChoice,
  type ResolvedPath,
} from './offloadPath';
import { minBandwidthByModel } from './minBandwidthMethods';
import { ringBusBandwidth, type AllReduceScope } from '../sim/engine/tensorParallel';
import { fitted } from './fitted';
import { OFFLOAD_LIMITS as L } from './limits/offload';
import {
  breakEven,
  minLinkBandwidth,
  mooncakeMinBandwidth,
  recomputeTime,
  reloadTime,
  type BreakEvenResult,
  type ReloadPath,
} from '../sim/engine/breakeven';
import { resolveAccelerator, resolveModel } from '../sim/engine/catalog/index';
import { kvBytesPerToken, weightBytes, type ModelSpec } from '../sim/engine/catalog/models';
import {
  defaultHardware,
  allReducePerTokenTime,
  effectiveAttentionFlops,
  effectiveFlops,
  passComm,
  effectiveMemBandwidth,
  prefillCost,
  type HardwareConfig,
} from '../sim/engine/cost';
import {
  attentionFlopsPerPair,
  bodyParams,
  embeddingParams,
  kvReplication,
  replicaKvBytesPerToken,
  weightBytesTouched,
} from '../sim/engine/flopsAndBytes';

// ---------------------------------------------------------------------------------------------------------
// Widget 1: reload or recompute.

export interface ReloadRecomputeRequest extends LinkChoice {
  modelId: string;
  acceleratorId: string;
  tp: number;
  gemmEfficiency: number;
  /** The prefix the read-outs describe, tokens. */
  prefixTokens: number;
  /** Points of the curves (log grid); default 240. */
  points?: number;
}

export interface PrefixFigures {
  tokens: number;
  kvBytes: number;
  reload: number;
  recompute: number;
  computeTime: number;
  memoryTime: number;
  allReduceTime: number;
  overheadTime: number;
  flops: number;
  bytes: number;
  bound: 'compute' | 'memory';
  faster: 'reload' | 'recompute';
  /** slower / faster. */
  speedup: number;
  /** B*(p): aggregate bandwidth at which the two take equally long; null when the latency alone loses. */
  minBandwidth: number | null;
}

export interface ReloadRecomputeResult {
  model: {
    id: string;
    name: string;
    attention: 'gqa' | 'mla';
    moe: boolean;
    /** One copy of a token's KV. */
    kvBytesPerToken: number;
    /** Copies the replica's GPUs hold (kvReplication), each reloaded over the links: reload moves k × kvCopies. */
    kvCopies: number;
    maxContext: number;
    bodyParams: number;
    attentionFlopsPerPair: number;
  };
  hardware: {
    acceleratorName: string;
    tp: number;
    gemmEfficiency: number;
    attentionEfficiency: number;
    mbu: number;
    iterationOverheadS: number;
    /** tp · peak · gemmEfficiency, FLOP/s. */
    flops: number;
    /** tp · peak BF16 · attentionEfficiency, FLOP/s. */
    attentionFlops: number;
    /** The all-reduce ring recompute pays: link, its bus bandwidth and per-call latency, calls per pass. */
    allReduce: {
      scope: AllReduceScope;
      linkId: string;
      busBandwidth: number;
      latency: number;
      calls: number;
      /** Seconds per token of a pass (the bandwidth part), and the fixed part (calls × latency). */
      perToken: number;
      fixed: number;
    };
    /** tp · HBM · mbu, bytes/s. */
    memBandwidth: number;
    weightBytes: number;
    hbmBytes: number;
    weightsFit: boolean;
  };
  link: ResolvedPath;
  curve: {
    tokens: number[];
    reload: number[];
    recompute: number[];
    computeSide: number[];
    memorySide: number[];
  };
  breakEven: BreakEvenResult;
  /** [1, maxContext] cut at the crossings, with the faster option on each piece. */
  segments: { from: number; to: number; faster: 'reload' | 'recompute' }[];
  prefix: PrefixFigures;
  alwaysWins: ReturnType<typeof alwaysWinsBandwidth>;
}

export function prefixFigures(
  model: ModelSpec,
  hw: HardwareConfig,
  path: ReloadPath,
  p: number,
): PrefixFigures {
  const reload = reloadTime(model, hw, path, p);
  const cost = prefillCost(model, hw, p, 0);
  const minBw = minLinkBandwidth(model, hw, p, path.latency);
  return {
    tokens: p,
    kvBytes: p * replicaKvBytesPerToken(model, hw.kvDtype, hw.tp),
    reload,
    recompute: cost.time,
    computeTime: cost.computeTime,
    memoryTime: cost.memoryTime,
    allReduceTime: cost.allReduceTime,
    overheadTime: cost.overheadTime,
    flops: cost.flops,
    bytes: cost.bytes,
    bound: cost.bound,
    faster: reload < cost.time ? 'reload' : 'recompute',
    speedup: Math.max(reload, cost.time) / Math.min(reload, cost.time),
    minBandwidth: Number.isFinite(minBw) ? minBw : null,
  };
}

export function reloadVsRecompute(req: ReloadRecomputeRequest): ReloadRecomputeResult {
  const model = asRefusal(() => resolveModel(req.modelId));
  const hw = offloadReplica(req.acceleratorId, req.tp, req.gemmEfficiency);
  const path = resolvePath(req, hw.tp);
  const maxTokens = model.maxContext;
  const p = Math.round(within(L.prefixTokens, req.prefixTokens));
  if (p > maxTokens)
    throw new BadRequest(
      `${model.name} holds up to ${maxTokens.toLocaleString('en-US')} tokens of context; the prefix is longer (${p.toLocaleString('en-US')}).`,
    );
  const be = asRefusal(() => breakEven(model, hw, path, { maxTokens }));
  const tokens = logGrid(maxTokens, within(L.points, req.points ?? 240), [...be.crossings, p]);
  const curve = {
    tokens,
    reload: [] as number[],
    recompute: [] as number[],
    computeSide: [] as number[],
    memorySide: [] as number[],
  };
  for (const t of tokens) {
    const c = prefillCost(model, hw, t, 0);
    curve.reload.push(reloadTime(model, hw, path, t));
    curve.recompute.push(c.time);
    curve.computeSide.push(c.computeTime);
    curve.memorySide.push(c.memoryTime);
  }
  const w = weightBytes(model, hw.weightDtype);
  const cuts = [1, ...be.crossings, maxTokens];
  const segments: ReloadRecomputeResult['segments'] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const mid = Math.sqrt(cuts[i] * cuts[i + 1]);
    segments.push({
      from: cuts[i],
      to: cuts[i + 1],
      faster: reloadTime(model, hw, path, mid) < recomputeTime(model, hw, mid) ? 'reload' : 'recompute',
    });
  }
  return {
    model: {
      id: model.id,
      name: model.name,
      attention: model.attention.kind,
      moe: model.activeParams < model.totalParams,
      kvBytesPerToken: kvBytesPerToken(model, hw.kvDtype),
      kvCopies: kvReplication(model, hw.tp),
      maxContext: model.maxContext,
      bodyParams: bodyParams(model),
      attentionFlopsPerPair: attentionFlopsPerPair(model, 'prefill'),
    },
    hardware: {
      acceleratorName: hw.accelerator.name,
      tp: hw.tp,
      gemmEfficiency: hw.gemmEfficiency,
      attentionEfficiency: hw.attentionEfficiency,
      mbu: hw.mbu,
      iterationOverheadS: hw.iterationOverheadS,
      flops: effectiveFlops(hw),
      attentionFlops: effectiveAttentionFlops(hw),
      allReduce: allReduceSummary(model, hw),
      memBandwidth: effectiveMemBandwidth(hw),
      weightBytes: w,
      hbmBytes: hw.tp * hw.accelerator.memoryBytes,
      weightsFit: w <= hw.tp * hw.accelerator.memoryBytes,
    },
    link: path,
    curve,
    breakEven: be,
    segments,
    prefix: prefixFigures(model, hw, path, p),
    alwaysWins: alwaysWinsBandwidth(model, hw, path.latency, maxTokens),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Inline figures of the lesson's prose.

/**
 * Mooncake FAST'25 Eq. 2 with the paper's Table 1 setting (LLaMA3-70B: l = 80, d = 8192, gqa = 8, s = 2 bytes;
 * G = 8 × 312 TFLOPS for 8 × A800), beside this course's model of the same replica at 100% efficiency with unlimited
 * HBM bandwidth, no all-reduce and no overhead (the paper's condition has none of these).
 */
export function mooncakeComparison(prefixTokens: number): {
  theirs: number;
  ours: number;
  h2d: number;
  nic: number;
} {
  const model = asRefusal(() => resolveModel('llama-3.1-70b'));
  const a = asRefusal(() => resolveAccelerator('a100-80gb'));
  // The paper's condition has one G and no all-reduce, overhead or memory floor: model the 8 GPUs as one device
  // with their summed FLOP/s, both efficiencies 1, no iteration overhead, unlimited HBM bandwidth.
  const hw: HardwareConfig = {
    ...defaultHardware({ ...a, bf16Flops: 8 * a.bf16Flops, memBandwidth: 1e18 }, 1),
    gemmEfficiency: 1,
    attentionEfficiency: 1,
    iterationOverheadS: 0,
  };
  return {
    theirs: mooncakeMinBandwidth({ hidden: 8192, gqa: 8, bytesPerElem: 2, flops: 8 * 312e12, prefixTokens }),
    ours: minLinkBandwidth(model, hw, prefixTokens, 0),
    h2d: 128e9,
    nic: 100e9,
  };
}

export interface LessonSetup {
  modelId: string;
  acceleratorId: string;
  tp: number;
  gemmEfficiency: number;
  linkId: string;
  linkCount: 'auto' | number;
}

export interface OffloadFiguresRequest {
  setups: Record<string, LessonSetup & { prefixTokens: number }>;
  mooncakePrefix: number;
}

export interface SetupFigures {
  kvBytesPerToken: number;
  kvCopies: number;
  bandwidth: number;
  latency: number;
  linkName: string;
  linkCount: number;
  flops: number;
  memBandwidth: number;
  bodyParams: number;
  attentionFlopsPerPair: number;
  headFlops: number;
  weightBytes: number;
  /** Weight bytes a one-token pass streams (all but the input embedding; a MoE's touched experts). */
  streamedWeightBytes: number;
  crossings: number[];
  /** Crossings past the model's context. */
  crossingsBeyond: number[];
  regime: BreakEvenResult['regime'];
  floor: number;
  reloadPerToken: number;
  recomputePerTokenStart: number;
  recomputePerTokenEnd: number;
  /** k·ρ / (2·body / G + all-reduce s/token): the bandwidth at which the link's per-token cost equals prefill's at the start. */
  criticalBandwidth: number;
  attentionFlops: number;
  allReduce: ReloadRecomputeResult['hardware']['allReduce'];
  iterationOverheadS: number;
  gemmEfficiency: number;
  attentionEfficiency: number;
  alwaysWins: number | null;
  prefix: PrefixFigures;
}

/** Every number of the lesson's prose, for the named setups (the widgets' defaults and the exercises'). */
export function offloadFigures(req: OffloadFiguresRequest): {
  setups: Record<string, SetupFigures>;
  mooncake: ReturnType<typeof mooncakeComparison>;
} {
  const setups: Record<string, SetupFigures> = {};
  for (const [name, s] of Object.entries(req.setups)) {
    const r = reloadVsRecompute({ ...s, customGBps: 1, customLatencyUs: 0, points: 10 });
    const model = asRefusal(() => resolveModel(s.modelId));
    setups[name] = {
      kvBytesPerToken: r.model.kvBytesPerToken,
      kvCopies: r.model.kvCopies,
      bandwidth: r.link.bandwidth,
      latency: r.link.latency,
      linkName: r.link.name,
      linkCount: r.link.count,
      flops: r.hardware.flops,
      memBandwidth: r.hardware.memBandwidth,
      bodyParams: r.model.bodyParams,
      attentionFlopsPerPair: r.model.attentionFlopsPerPair,
      headFlops: 2 * embeddingParams(model),
      weightBytes: r.hardware.weightBytes,
      streamedWeightBytes: weightBytesTouched(model, 'bf16', 1),
      crossings: r.breakEven.crossings,
      crossingsBeyond: r.breakEven.crossingsBeyondDomain,
      regime: r.breakEven.regime,
      floor: r.breakEven.recomputeFloorSeconds,
      reloadPerToken: r.breakEven.reloadSecondsPerToken,
      recomputePerTokenStart: r.breakEven.recomputeSecondsPerTokenAtStart,
      recomputePerTokenEnd: r.breakEven.recomputeSecondsPerTokenAtEnd,
      criticalBandwidth:
        (r.model.kvBytesPerToken * r.model.kvCopies) /
        ((2 * r.model.bodyParams) / r.hardware.flops + r.hardware.allReduce.perToken),
      attentionFlops: r.hardware.attentionFlops,
      allReduce: r.hardware.allReduce,
      iterationOverheadS: r.hardware.iterationOverheadS,
      gemmEfficiency: r.hardware.gemmEfficiency,
      attentionEfficiency: r.hardware.attentionEfficiency,
      alwaysWins: r.alwaysWins.bandwidth,
      prefix: r.prefix,
    };
  }
  return { setups, mooncake: mooncakeComparison(req.mooncakePrefix) };
}

/** What the widgets print beside the all-reduce term: ring, bandwidth, latency, and its per-token and fixed parts. */
function allReduceSummary(
  model: ModelSpec,
  hw: HardwareConfig,
): ReloadRecomputeResult['hardware']['allReduce'] {
  const one = passComm(model, hw, 1);
  return {
    scope: one.path.scope,
    linkId: one.path.linkId,
    busBandwidth: hw.tp > 1 ? ringBusBandwidth(one.path, hw.tp) : 0,
    latency: one.path.latency,
    calls: one.calls,
    perToken: allReducePerTokenTime(model, hw),
    fixed: one.calls * one.path.latency,
  };
}

export const offloadMethods = {
  // As the widget calls it: a replica with no room for KV (the engine's budget rather than weights ≤ raw HBM) is a
  // "cannot run" outcome (fitted.ts), not curves for a replica that could not start.
  reloadVsRecompute: fitted('tp', reloadVsRecompute),
  minBandwidthByModel,
  offloadFigures,
};
