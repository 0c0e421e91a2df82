/**
 * Worker methods of lesson 07.05 (KV offload and reload): reload time against recompute time over the prefix
 * lengths of one model, replica and link, with the break-even lengths; the minimum link bandwidth per model for
 * one prefix length; and the lesson's inline figures. Plain structured-cloneable arguments (catalog ids); every
 * figure comes from src/sim/engine/breakeven.ts and src/sim/engine/cost.ts.
 */
import { asRefusal, BadRequest, within } from './badRequest';
import { acceleratorHardware } from './replicaHardware';
import { ringBusBandwidth, type AllReduceScope } from '../sim/engine/tensorParallel';
import { fitted } from './fitted';
import { OFFLOAD_LIMITS as L } from './limits/offload';
import { GEMM_EFFICIENCY } from '../sim/engine/cost';
import {
  breakEven,
  minLinkBandwidth,
  mooncakeMinBandwidth,
  recomputeTime,
  reloadTime,
  type BreakEvenResult,
  type ReloadPath,
} from '../sim/engine/breakeven';
import { customLink, resolveAccelerator, resolveLink, resolveModel } from '../sim/engine/catalog/index';
import { LINKS, type LinkKind, type LinkSpec } from '../sim/engine/catalog/links';
import { MODELS, kvBytesPerToken, weightBytes, type ModelSpec } from '../sim/engine/catalog/models';
import {
  attentionFlopsPerPair,
  bodyParams,
  defaultHardware,
  allReducePerTokenTime,
  effectiveAttentionFlops,
  effectiveFlops,
  passComm,
  effectiveMemBandwidth,
  embeddingParams,
  prefillCost,
  weightBytesTouched,
  type HardwareConfig,
} from '../sim/engine/cost';

export type KvDtypeChoice = 'bf16' | 'fp8';

function replica(
  acceleratorId: string,
  tp: number,
  gemmEfficiency: number,
  kvDtype: KvDtypeChoice = 'bf16',
): HardwareConfig {
  const { hw } = acceleratorHardware(acceleratorId, tp);
  if (kvDtype !== 'bf16' && kvDtype !== 'fp8')
    throw new BadRequest(`kvDtype must be bf16 or fp8, got ${String(kvDtype)}`);
  return {
    ...hw,
    gemmEfficiency: within(GEMM_EFFICIENCY, gemmEfficiency),
    kvDtype,
  };
}

/**
 * How many links the KV is striped over when the learner leaves it on "auto": one per GPU for a PCIe host link
 * (each GPU loads its shard over its own x16), one otherwise. The same rule as `npm run sim -- breakeven`
 * (cli/commands/breakeven.ts), so the widget and the CLI agree.
 */
export function autoLinkCount(kind: LinkKind, tp: number): number {
  return kind === 'pcie' ? tp : 1;
}

export interface LinkChoice {
  /** A catalog link id, or 'custom' (then customGBps and customLatencyUs apply). */
  linkId: string;
  /** 'auto' (see autoLinkCount) or a whole number of links in parallel. */
  linkCount: 'auto' | number;
  /** Custom link: effective bandwidth, GB/s (10⁹ bytes/s). */
  customGBps: number;
  /** Custom link: per-transfer latency, µs. */
  customLatencyUs: number;
}

export interface ResolvedPath extends ReloadPath {
  id: string;
  name: string;
  kind: LinkKind;
  /** Effective bandwidth of one link, bytes/s. */
  perLinkBandwidth: number;
  lineRate: number;
  count: number;
  countIsAuto: boolean;
  basis: LinkSpec['effectiveBasis'];
  source: string;
}

export function resolvePath(choice: LinkChoice, tp: number): ResolvedPath {
  let link: LinkSpec;
  // The custom link's settings are checked whenever they are sent (the widget always sends them), not only when
  // the custom link is picked: a control never holds a value the core would refuse once the link changes.
  const gbps = within(L.customGBps, choice.customGBps);
  const us = within(L.customLatencyUs, choice.customLatencyUs);
  if (choice.linkId === 'custom')
    link = asRefusal(() => customLink(gbps * 1e9, us / 1e6, `custom ${gbps} GB/s, ${us} µs`));
  else link = asRefusal(() => resolveLink(choice.linkId));
  const auto = choice.linkCount === 'auto';
  const count = auto ? autoLinkCount(link.kind, tp) : within(L.linkCount, choice.linkCount as number);
  return {
    id: link.id,
    name: link.name,
    kind: link.kind,
    perLinkBandwidth: link.effectiveBandwidth,
    lineRate: link.lineRate,
    count,
    countIsAuto: auto,
    basis: link.effectiveBasis,
    source: link.source,
    bandwidth: link.effectiveBandwidth * count,
    latency: link.latency,
  };
}

/** Log-spaced prefix lengths from 1 to max (inclusive), plus any extra points, sorted and unique. */
export function logGrid(max: number, n: number, extra: readonly number[] = []): number[] {
  const pts: number[] = [1, max];
  for (let i = 1; i < n; i++) pts.push(Math.exp((Math.log(max) * i) / n));
  for (const e of extra) if (e >= 1 && e <= max) pts.push(e);
  pts.sort((a, b) => a - b);
  const out: number[] = [];
  for (const p of pts) if (!out.length || p - out[out.length - 1] > 1e-9 * p) out.push(p);
  return out;
}

/**
 * The smallest aggregate bandwidth at which reload is at least as fast as recompute for EVERY prefix length in
 * [1, maxTokens]: sup_p B*(p), B*(p) = p·k / (recompute(p) − λ). B* rises while recompute sits on its
 * memory-bound floor and falls once compute dominates, so the sup sits near the roofline knee; it is found on a
 * log grid and refined by golden-section search. Null (with `latencyBoundBelow`) when the latency alone loses
 * for the shortest prefixes: recompute(p) ≤ λ there, and no bandwidth helps.
 */
export function alwaysWinsBandwidth(
  model: ModelSpec,
  hw: HardwareConfig,
  latency: number,
  maxTokens: number,
): { bandwidth: number | null; atTokens: number | null; latencyBoundBelow: number | null } {
  if (recomputeTime(model, hw, 1) <= latency) {
    // recompute is increasing in p: bisect for the last p whose recompute does not exceed λ.
    let lo = 1;
    let hi = maxTokens;
    if (recomputeTime(model, hw, hi) <= latency)
      return { bandwidth: null, atTokens: null, latencyBoundBelow: maxTokens };
    for (let i = 0; i < 100; i++) {
      const mid = Math.sqrt(lo * hi);
      if (recomputeTime(model, hw, mid) <= latency) lo = mid;
      else hi = mid;
    }
    return { bandwidth: null, atTokens: null, latencyBoundBelow: hi };
  }
  const B = (p: number) => minLinkBandwidth(model, hw, p, latency);
  const grid = logGrid(maxTokens, 600);
  let best = 0;
  for (let i = 1; i < grid.length; i++) if (B(grid[i]) > B(grid[best])) best = i;
  // Golden-section on ln p between the neighbours of the best grid point.
  let a = Math.log(grid[Math.max(0, best - 1)]);
  let b = Math.log(grid[Math.min(grid.length - 1, best + 1)]);
  const g = (Math.sqrt(5) - 1) / 2;
  let c = b - g * (b - a);
  let d = a + g * (b - a);
  for (let i = 0; i < 80; i++) {
    if (B(Math.exp(c)) > B(Math.exp(d))) b = d;
    else a = c;
    c = b - g * (b - a);
    d = a + g * (b - a);
  }
  const candidates = [grid[best], Math.exp((a + b) / 2)];
  const at = B(candidates[1]) >= B(candidates[0]) ? candidates[1] : candidates[0];
  return { bandwidth: B(at), atTokens: at, latencyBoundBelow: null };
}

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
    kvBytesPerToken: number;
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
    kvBytes: p * kvBytesPerToken(model, hw.kvDtype),
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
  const hw = replica(req.acceleratorId, req.tp, req.gemmEfficiency);
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
// Widget 2: minimum link bandwidth, per model.

export interface MinBandwidthRequest {
  acceleratorId: string;
  tp: number;
  gemmEfficiency: number;
  kvDtype: KvDtypeChoice;
  prefixTokens: number;
  /** Per-transfer latency, µs. */
  latencyUs: number;
}

export interface ModelBandwidthRow {
  id: string;
  name: string;
  attention: 'gqa' | 'mla';
  moe: boolean;
  kvBytesPerToken: number;
  /** Prefill FLOPs of the prefix / p: the average FLOPs recompute spends per token of this prefix. */
  flopsPerToken: number;
  /** kvBytesPerToken / flopsPerToken. */
  kvBytesPerFlop: number;
  recompute: number;
  bound: 'compute' | 'memory';
  /** B*(p), bytes/s; null when the latency alone loses. */
  minBandwidth: number | null;
  /** sup over 1 … context of B*(p), bytes/s: above it reload wins at every prefix length. */
  alwaysWinsBandwidth: number | null;
  weightsFit: boolean;
  /** The prefix was capped at the model's context. */
  prefixTokens: number;
}

export interface ReferenceLink {
  id: string;
  name: string;
  short: string;
  bandwidth: number;
  basis: LinkSpec['effectiveBasis'];
}

/**
 * The catalog links drawn as reference rules, with short labels that fit beside a rule. Four, spaced so that their
 * labels (three rows, cycled in this order) do not collide even on a phone.
 */
export const REFERENCE_LINKS: readonly { id: string; short: string }[] = [
  { id: 'nvme-gen4', short: 'NVMe4' },
  { id: 'rdma-100g', short: '100G' },
  { id: 'pcie-gen5-x16', short: 'PCIe5' },
  { id: 'rdma-800g-cx8', short: '800G' },
];

export interface MinBandwidthResult {
  acceleratorName: string;
  tp: number;
  gemmEfficiency: number;
  kvDtype: KvDtypeChoice;
  flops: number;
  latency: number;
  prefixTokens: number;
  rows: ModelBandwidthRow[];
  references: ReferenceLink[];
}

export function minBandwidthByModel(req: MinBandwidthRequest): MinBandwidthResult {
  const hw = replica(req.acceleratorId, req.tp, req.gemmEfficiency, req.kvDtype);
  const latency = within(L.latencyUs, req.latencyUs) / 1e6;
  const pReq = within(L.prefixTokens, req.prefixTokens);
  const rows = MODELS.map((model): ModelBandwidthRow => {
    const p = Math.min(pReq, model.maxContext);
    const cost = prefillCost(model, hw, p, 0);
    const k = kvBytesPerToken(model, hw.kvDtype);
    const b = minLinkBandwidth(model, hw, p, latency);
    const w = weightBytes(model, hw.weightDtype);
    const all = alwaysWinsBandwidth(model, hw, latency, model.maxContext);
    return {
      id: model.id,
      name: model.name,
      attention: model.attention.kind,
      moe: model.activeParams < model.totalParams,
      kvBytesPerToken: k,
      flopsPerToken: cost.flops / p,
      kvBytesPerFlop: k / (cost.flops / p),
      recompute: cost.time,
      bound: cost.bound,
      minBandwidth: Number.isFinite(b) ? b : null,
      alwaysWinsBandwidth: all.bandwidth,
      weightsFit: w <= hw.tp * hw.accelerator.memoryBytes,
      prefixTokens: p,
    };
  });
  const references = REFERENCE_LINKS.map(({ id, short }) => {
    const l = LINKS.find((x) => x.id === id);
    if (!l) throw new Error(`reference link ${id} is not in the catalog`);
    return { id, name: l.name, short, bandwidth: l.effectiveBandwidth, basis: l.effectiveBasis };
  });
  return {
    acceleratorName: hw.accelerator.name,
    tp: hw.tp,
    gemmEfficiency: hw.gemmEfficiency,
    kvDtype: req.kvDtype,
    flops: effectiveFlops(hw),
    latency,
    prefixTokens: pReq,
    rows,
    references,
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
  /** k / (2·body / G + all-reduce s/token): the bandwidth at which the link's per-token cost equals prefill's at the start. */
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
        r.model.kvBytesPerToken /
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
