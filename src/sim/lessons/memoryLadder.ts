/**
 * The KV memory ladder of one node (lesson 07.04): HBM, host DRAM, local NVMe and a remote pooled store, each
 * with the KV capacity it offers, the bandwidth and latency of its path back into HBM, how many agent contexts of
 * one size it holds, and how long one context takes to come back; beside it, the time to recompute that context.
 *
 *   contexts(tier) = ⌊ capacity / (C · k) ⌋                         C tokens per context, k KV bytes per token
 *   reload(tier)   = Σ latency(hop) + C · k / min bandwidth(hop)    the path's hops, pipelined (transferTimeS)
 *   recompute      = prefillTime(model, replica, C, 0)               src/sim/engine/cost.ts
 *
 * The paths into HBM (every figure from the link and node catalogs, with their sources):
 *   HBM          the KV budget after the weights and vLLM's profiled reserve (src/sim/engine/hbm.ts); already in
 *                place, reload 0.
 *   host DRAM    each GPU's own PCIe host link, all in parallel: gpus × effective bandwidth.
 *   local NVMe   the node's data drives read in parallel (drives × drive bandwidth), then the PCIe host links.
 *   remote pool  the scale-out NICs (or a measured transfer engine over them), then the PCIe host links.
 * A hop that is not the slowest adds only its latency (blocks stream through the chain), so a path's bandwidth is
 * its slowest hop's.
 *
 * MLA under tensor parallelism: every GPU would hold the whole latent. The footprint here counts one copy per
 * context, as engines serve MLA models with data-parallel attention (SGLang, vLLM), and as the calculator does.
 *
 * Where N agents wait: each tier, fastest reload first, takes as many whole contexts as it holds; those left over
 * are held nowhere and must be recomputed.
 */
import type { AcceleratorSpec } from '../engine/catalog/accelerators';
import type { LinkSpec } from '../engine/catalog/links';
import type { Dtype, ModelSpec } from '../engine/catalog/models';
import type { NodeSpec } from '../engine/catalog/nodes';
import { defaultHardware, prefillCost, type HardwareConfig } from '../engine/cost';
import { computeFootprint } from '../engine/footprint';
import { transferTimeS, type TierName } from '../engine/kvcache/types';

/** One link on the way back to HBM, `count` of them in parallel. */
export interface LadderHop {
  name: string;
  /** Catalog id of one link, or 'custom'. */
  linkId: string;
  count: number;
  /** Effective bandwidth of one link, bytes/s. */
  perLinkBandwidth: number;
  /** count × perLinkBandwidth, bytes/s. */
  bandwidth: number;
  /** Fixed cost per transfer, s. */
  latency: number;
  basis: LinkSpec['effectiveBasis'];
  source: string;
}

export interface LadderTier {
  id: TierName;
  name: string;
  /** Bytes of KV the tier offers to this node's agents. */
  capacityBytes: number;
  /** Bandwidth into HBM, bytes/s: the slowest hop (HBM: its own bandwidth, which decode reads at). */
  bandwidth: number;
  /** Σ hop latencies, s. */
  latency: number;
  hops: LadderHop[];
  /** Whole contexts of the chosen length the tier holds. */
  contexts: number;
  /** Seconds to bring one context into HBM (0 for HBM). */
  reloadS: number;
  /** recompute / reload (Infinity for HBM). */
  speedupOverRecompute: number;
}

export interface LadderPlacement {
  tier: TierName;
  agents: number;
}

export interface LadderInput {
  node: NodeSpec;
  accelerator: AcceleratorSpec;
  model: ModelSpec;
  kvDtype: Dtype;
  weightDtype: Dtype;
  /** Share of HBM the engine may use (vLLM's gpu_memory_utilization). */
  memoryUtilization: number;
  /** GEMM efficiency of the recompute (attention, all-reduce and overhead at the cost model's defaults). */
  gemmEfficiency: number;
  contextTokens: number;
  /** Concurrent agent sessions on this node, each with one context of `contextTokens`. */
  agents: number;
  /** Host DRAM given to the KV cache, bytes. */
  dramForKvBytes: number;
  /** Each GPU's host link (from the accelerator catalog). */
  hostLink: LinkSpec;
  /** The kind of the node's data drives. */
  nvmeLink: LinkSpec;
  nvmeDrives: number;
  nvmeCapacityBytes: number;
  /** The path to the remote pool, `remoteCount` of them in parallel. */
  remoteLink: LinkSpec;
  remoteCount: number;
  /** Capacity of the remote pool available to this node's agents, bytes. */
  poolBytes: number;
}

export interface LadderResult {
  kvBytesPerToken: number;
  /** Copies of each token's KV the node's GPUs hold (footprint.ts footprintKvCopies). */
  kvCopies: number;
  contextBytes: number;
  weightBytes: number;
  usableHbmBytes: number;
  /** Activation and non-PyTorch reserve over the node's GPUs (src/sim/engine/hbm.ts). */
  reserveBytes: number;
  weightsFit: boolean;
  /** Tiers in ladder order: hbm, dram, nvme, remote. */
  tiers: LadderTier[];
  /** Seconds to prefill one context from scratch on the node's GPUs. */
  recomputeS: number;
  recomputeBound: 'compute' | 'memory';
  /** contextBytes / recomputeS: a path at least this fast reloads sooner than recompute (latency aside). */
  breakEvenBandwidth: number;
  /** agents × contextBytes. */
  demandBytes: number;
  /** Where the agents' contexts wait, fastest reload first; tiers that take none are included with 0. */
  placement: LadderPlacement[];
  /** Agents whose context no tier holds. */
  unplaced: number;
}

function hop(link: LinkSpec, count: number): LadderHop {
  return {
    name: link.name,
    linkId: link.id,
    count,
    perLinkBandwidth: link.effectiveBandwidth,
    bandwidth: link.effectiveBandwidth * count,
    latency: link.latency,
    basis: link.effectiveBasis,
    source: link.source,
  };
}

/** The replica recompute runs on: all of the node's GPUs as one tensor-parallel replica. */
export function ladderHardware(
  input: Pick<LadderInput, 'accelerator' | 'node' | 'gemmEfficiency' | 'kvDtype' | 'weightDtype'>,
): HardwareConfig {
  return {
    ...defaultHardware(input.accelerator, input.node.gpuCount),
    gemmEfficiency: input.gemmEfficiency,
    kvDtype: input.kvDtype,
    weightDtype: input.weightDtype,
  };
}

function checkInput(i: LadderInput): void {
  const pos = (name: string, v: number) => {
    if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`${name} must be a positive number, got ${v}`);
  };
  const nonNeg = (name: string, v: number) => {
    if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`${name} must be a number ≥ 0, got ${v}`);
  };
  pos('contextTokens', i.contextTokens);
  nonNeg('agents', i.agents);
  nonNeg('dramForKvBytes', i.dramForKvBytes);
  nonNeg('nvmeCapacityBytes', i.nvmeCapacityBytes);
  nonNeg('poolBytes', i.poolBytes);
  if (!(Number.isInteger(i.nvmeDrives) && i.nvmeDrives >= 1))
    throw new RangeError(`nvmeDrives must be a whole number ≥ 1, got ${i.nvmeDrives}`);
  if (!(Number.isInteger(i.remoteCount) && i.remoteCount >= 1))
    throw new RangeError(`remoteCount must be a whole number ≥ 1, got ${i.remoteCount}`);
  if (!(i.memoryUtilization > 0 && i.memoryUtilization <= 1))
    throw new RangeError(`memoryUtilization must be in (0, 1], got ${i.memoryUtilization}`);
}

/** Time for `bytes` to come over a chain of hops (pipelined: Σ latency + bytes / slowest bandwidth). */
export function pathTime(bytes: number, hops: readonly LadderHop[]): number {
  return transferTimeS(
    bytes,
    hops.map((h) => ({ bandwidthGBps: h.bandwidth / 1e9, latencyS: h.latency })),
    'pipelined',
  );
}

/** Where `agents` contexts wait: tiers in order of `order`, each taking ⌊capacity / context⌋ at most. */
export function placeAgents(
  agents: number,
  tiers: readonly Pick<LadderTier, 'id' | 'contexts'>[],
): { placement: LadderPlacement[]; unplaced: number } {
  let left = Math.max(0, Math.floor(agents));
  const placement: LadderPlacement[] = [];
  for (const t of tiers) {
    const n = Math.min(left, Math.max(0, t.contexts));
    placement.push({ tier: t.id, agents: n });
    left -= n;
  }
  return { placement, unplaced: left };
}

export function memoryLadder(input: LadderInput): LadderResult {
  checkInput(input);
  const { node, accelerator, model, kvDtype, weightDtype } = input;
  const gpus = node.gpuCount;
  const tokens = Math.floor(input.contextTokens);
  const foot = computeFootprint({
    model,
    accelerator,
    kvDtype,
    weightDtype,
    contextTokens: tokens,
    gpus,
    memoryUtilization: input.memoryUtilization,
  });
  const k = foot.kvBytesPerToken;
  // Every copy the GPUs hold (footprintKvCopies): each GPU offloads and reloads its own over its own link.
  const contextBytes = foot.contextBytes;
  const hw = ladderHardware(input);
  const recompute = prefillCost(model, hw, tokens, 0); // prefillTime(model, hw, tokens, 0) is recompute.time
  const recomputeS = recompute.time;
  const host = hop(input.hostLink, gpus);
  const drives = hop(input.nvmeLink, input.nvmeDrives);
  const remote = hop(input.remoteLink, input.remoteCount);

  const tier = (
    id: TierName,
    name: string,
    capacityBytes: number,
    hops: LadderHop[],
    ownBandwidth?: number,
  ): LadderTier => {
    const reloadS = hops.length ? pathTime(contextBytes, hops) : 0;
    return {
      id,
      name,
      capacityBytes,
      bandwidth: ownBandwidth ?? Math.min(...hops.map((h) => h.bandwidth)),
      latency: hops.reduce((s, h) => s + h.latency, 0),
      hops,
      contexts: contextBytes > 0 ? Math.floor(capacityBytes / contextBytes) : 0,
      reloadS,
      speedupOverRecompute: reloadS > 0 ? recomputeS / reloadS : Infinity,
    };
  };
  const tiers: LadderTier[] = [
    tier('hbm', 'HBM', foot.kvBudgetBytes, [], gpus * accelerator.memBandwidth),
    tier('dram', 'Host DRAM', input.dramForKvBytes, [host]),
    tier('nvme', 'Local NVMe', input.nvmeCapacityBytes, [drives, host]),
    tier('remote', 'Remote pool', input.poolBytes, [remote, host]),
  ];
  // Fastest reload first; ties keep the ladder order (sort is stable).
  const order = [...tiers].sort((a, b) => a.reloadS - b.reloadS);
  const { placement, unplaced } = placeAgents(input.agents, order);
  return {
    kvBytesPerToken: k,
    kvCopies: foot.kvCopies,
    contextBytes,
    weightBytes: foot.weightBytesTotal,
    usableHbmBytes: foot.usableHbmBytes,
    reserveBytes: foot.reserveBytes,
    weightsFit: foot.weightsFit,
    tiers,
    recomputeS,
    recomputeBound: recompute.bound,
    breakEvenBandwidth: recomputeS > 0 ? contextBytes / recomputeS : Infinity,
    demandBytes: Math.floor(input.agents) * contextBytes,
    placement,
    unplaced,
  };
}
