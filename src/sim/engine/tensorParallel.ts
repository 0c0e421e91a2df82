/**
 * Tensor-parallel communication: the all-reduces a Megatron-style sharded transformer runs every forward pass.
 *
 * Mechanism (as vLLM and SGLang implement TP for Llama-style models): attention's output projection and the
 * MLP's down projection are row-parallel, so each GPU holds a partial sum of the layer's output and the `tp`
 * GPUs all-reduce it before the residual add: 2 all-reduces per layer, each of tokens × hidden × activation
 * bytes (BF16 activations: 2 bytes). The LM head's logits are gathered once per pass (vocab × sequences): not
 * counted (a few MB once per pass next to 2 · layers all-reduces).
 *
 * Time of one all-reduce (ring, the NCCL algorithm for these sizes; Patarasuk & Yuan 2009):
 *   t = 2 (tp − 1) / tp · bytes / busBandwidth(tp)  +  latency(tp)
 *   busBandwidth(tp) = linkBandwidth · (1 − RING_SHORTFALL / tp²)
 *   latency(tp)      = ALL_REDUCE_BASE_LATENCY_S + 2 (tp − 1) · ALL_REDUCE_STEP_LATENCY_S
 * linkBandwidth is the scale-up link's effective per-direction bandwidth when the tp GPUs sit in one node (NVLink
 * of that accelerator's generation, from the link catalog). When tp spans nodes, NCCL splits the all-reduce over
 * as many rings (channels) as the node has NICs, each ring crossing between nodes through a different NIC (GPU i's
 * NIC on a rail-optimised node): all of a node's NICs carry the crossings at once, so the ring's bus bandwidth is
 * the node's total NIC bandwidth, capped by what the GPUs' scale-up links carry inside the node. NCCL's
 * maintainers: a DGX A100's 8 × 200 Gb/s NICs measure 192 GB/s all-reduce bus bandwidth (NVIDIA/nccl#1576,
 * quoting #812), and adding NICs raises it "up to … the NVLink intra-node bandwidth of your system" (NVIDIA/nccl#412).
 * A ring on fewer GPUs of a node than it has (tp not a multiple of the node's GPUs) uses only those GPUs' NICs.
 * Simplification: on two nodes NCCL often picks its tree algorithm, which can beat the ring's bound; the ring's
 * time is used throughout.
 *
 * Comm does not overlap compute: vLLM runs the all-reduce on the compute stream between the two GEMMs it joins
 * (no async-TP by default), so the cost model adds it to the roofline time (src/sim/engine/cost.ts).
 *
 * Fitted to Vidur's H100 DGX all-reduce profile (microsoft/vidur data/profiling/network/h100_dgx/all_reduce.csv,
 * NCCL via torch.distributed, median per size; `size` is bytes). Per ring size, t = α + 2(n−1)/n·S/B over
 * messages ≥ 4 MB gives B ≈ 293 / 343 / 374 GB/s at n = 2 / 4 / 8: NCCL reaches the link's 380 GB/s (NVLink 4,
 * measured p2p, catalog) only on long rings. A joint least-squares fit (relative error, all three ring sizes,
 * link bandwidth fixed at the catalog's; 1/n² fits better than 1/n) gives RING_SHORTFALL = 0.86,
 * α = 16.7 µs + 2(n − 1) · 1.5 µs; the worst point of that fit is 34% off at ~4 MB, the 16 and 64 MB points are
 * within 9% at every ring size (validation/rows/cost.ts). Simplification: the
 * same shortfall and latency are applied to other NVLink generations and to NIC rings (no profile of those here).
 */
import { NODES } from './catalog/nodes';
import { findLink, type LinkSpec } from './catalog/links';
import type { AcceleratorSpec } from './catalog/accelerators';
import type { ModelSpec } from './catalog/models';

/** All-reduces per transformer layer under Megatron-style TP: attention output and MLP output. */
export const ALL_REDUCES_PER_LAYER = 2;
/** Activation bytes per element on the wire (BF16 activations, also under FP8 weights). */
export const ACTIVATION_BYTES = 2;
/** Fixed cost of one all-reduce call (launch, synchronisation), s: fitted to Vidur (module comment). */
export const ALL_REDUCE_BASE_LATENCY_S = 16.7e-6;
/** Added latency per ring step (2(n − 1) steps), s: fitted to Vidur (module comment). */
export const ALL_REDUCE_STEP_LATENCY_S = 1.5e-6;
/** How far short of the link bandwidth a ring of n GPUs falls: busBandwidth = link · (1 − 0.86 / n²) (Vidur fit). */
export const RING_SHORTFALL = 0.86;
/** GPUs per node when the accelerator has no node in the catalog (every HGX/OAM board carries 8). */
export const DEFAULT_GPUS_PER_NODE = 8;
/** Scale-out NIC when the accelerator has no node in the catalog. */
export const DEFAULT_SCALE_OUT_LINK = 'rdma-400g-cx7';

export type AllReduceScope = 'none' | 'intra-node' | 'inter-node';

export interface AllReducePath {
  scope: AllReduceScope;
  /** Link catalog id the bandwidth comes from ('' when tp = 1). */
  linkId: string;
  /**
   * Effective per-direction bandwidth the ring runs at before its shortfall, bytes/s: the scale-up link's inside a
   * node; across nodes, the node's NICs together, at most the scale-up link's.
   */
  busBandwidth: number;
  /** Per-call latency, s. */
  latency: number;
  /** GPUs per node assumed. */
  gpusPerNode: number;
}

function mustLink(id: string): LinkSpec {
  const l = findLink(id);
  if (!l) throw new Error(`unknown link "${id}"`);
  return l;
}

/** The node the catalog builds around this accelerator, if any. */
function nodeFor(accelerator: AcceleratorSpec) {
  return NODES.find((n) => n.accelerator === accelerator.id);
}

/**
 * Which link an all-reduce over `tp` GPUs runs on, and its bandwidth and latency.
 *  - tp = 1: no all-reduce.
 *  - tp ≤ GPUs per node: the node's scale-up link (NVLink generation); an accelerator without NVLink
 *    (scaleUpBandwidth 0, e.g. L40S) all-reduces over its PCIe host link.
 *  - tp > GPUs per node: the node's scale-out NICs (RDMA) together, at most the scale-up link's bandwidth.
 */
export function allReducePath(accelerator: AcceleratorSpec, tp: number, gpusPerNode?: number): AllReducePath {
  const node = nodeFor(accelerator);
  const perNode = gpusPerNode ?? node?.gpuCount ?? DEFAULT_GPUS_PER_NODE;
  const latency = tp > 1 ? ALL_REDUCE_BASE_LATENCY_S + 2 * (tp - 1) * ALL_REDUCE_STEP_LATENCY_S : 0;
  if (tp <= 1) return { scope: 'none', linkId: '', busBandwidth: Infinity, latency: 0, gpusPerNode: perNode };
  if (tp <= perNode) {
    const id = node?.scaleUpLink ?? (accelerator.scaleUpBandwidth > 0 ? 'nvlink4' : accelerator.hostLink);
    if (!node && accelerator.scaleUpBandwidth > 0) {
      // No catalog node: scale the NVLink 4 achieved fraction to the accelerator's own scale-up figure
      // (datasheet bidirectional bandwidth / 2 per direction).
      const nv4 = mustLink('nvlink4');
      const bw = (accelerator.scaleUpBandwidth / 2) * (nv4.effectiveBandwidth / nv4.lineRate);
      return {
        scope: 'intra-node',
        linkId: `${accelerator.id} scale-up`,
        busBandwidth: bw,
        latency,
        gpusPerNode: perNode,
      };
    }
    return {
      scope: 'intra-node',
      linkId: id,
      busBandwidth: mustLink(id).effectiveBandwidth,
      latency,
      gpusPerNode: perNode,
    };
  }
  // One ring per NIC, each crossing through its own: the NICs of the ring's GPUs on its least-populated node.
  const gpusOnSmallestNode = tp - perNode * (Math.ceil(tp / perNode) - 1);
  let nicBandwidth: number;
  let linkId: string;
  if (node && node.nics.length > 0) {
    const total = node.nics.reduce((s, g) => s + mustLink(g.link).effectiveBandwidth * g.count, 0);
    nicBandwidth = (total * gpusOnSmallestNode) / node.gpuCount;
    linkId = node.nics[0].link;
  } else {
    linkId = DEFAULT_SCALE_OUT_LINK;
    nicBandwidth = mustLink(linkId).effectiveBandwidth * gpusOnSmallestNode; // one NIC a GPU, as HGX boards
  }
  const inside = allReducePath(accelerator, perNode, perNode).busBandwidth; // the rings' hops inside a node
  // The inter-node hop adds the NIC's own per-transfer latency to the ring's.
  return {
    scope: 'inter-node',
    linkId,
    busBandwidth: Math.min(nicBandwidth, inside),
    latency: latency + mustLink(linkId).latency,
    gpusPerNode: perNode,
  };
}

/** Bytes one all-reduce moves for `tokens` tokens: tokens × hidden × activation bytes. */
export function allReduceMessageBytes(model: ModelSpec, tokens: number): number {
  return tokens * model.hiddenSize * ACTIVATION_BYTES;
}

/** Seconds of one ring all-reduce of `bytes` over `tp` GPUs on `path`. */
export function allReduceTime(path: AllReducePath, tp: number, bytes: number): number {
  if (tp <= 1 || bytes <= 0) return 0;
  return ((2 * (tp - 1)) / tp) * (bytes / ringBusBandwidth(path, tp)) + path.latency;
}

/** Bus bandwidth a ring of tp GPUs achieves on this path: link · (1 − RING_SHORTFALL / tp²), bytes/s. */
export function ringBusBandwidth(path: AllReducePath, tp: number): number {
  return path.busBandwidth * (1 - RING_SHORTFALL / (tp * tp));
}

export interface CommCost {
  /** All-reduce calls this pass: 2 · layers (0 at tp = 1). */
  calls: number;
  /** Bytes summed over calls (message size × calls; what each GPU's buffer holds, not wire bytes). */
  bytes: number;
  /** Seconds, not overlapped with compute. */
  time: number;
  path: AllReducePath;
}

/**
 * Tensor-parallel all-reduce cost of one forward pass over `tokens` tokens (all sequences of the batch together):
 *   2 · layers · ( 2(tp−1)/tp · tokens · hidden · 2 B / busBandwidth(tp) + latency(tp) )
 */
export function tensorParallelComm(
  model: ModelSpec,
  accelerator: AcceleratorSpec,
  tp: number,
  tokens: number,
  gpusPerNode?: number,
): CommCost {
  const path = allReducePath(accelerator, tp, gpusPerNode);
  if (tp <= 1 || tokens <= 0) return { calls: 0, bytes: 0, time: 0, path };
  const calls = ALL_REDUCES_PER_LAYER * model.layers;
  const msg = allReduceMessageBytes(model, tokens);
  return { calls, bytes: calls * msg, time: calls * allReduceTime(path, tp, msg), path };
}

/** tensorParallelComm's `time` alone (the same float), without building the result, nor the path at tp = 1. */
export function tensorParallelCommTime(
  model: ModelSpec,
  accelerator: AcceleratorSpec,
  tp: number,
  tokens: number,
  gpusPerNode?: number,
): number {
  if (tp <= 1 || tokens <= 0) return 0;
  return tensorParallelComm(model, accelerator, tp, tokens, gpusPerNode).time;
}
