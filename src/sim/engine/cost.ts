/**
 * Cost model of one forward pass: prefill, decode and mixed continuous-batching iterations.
 *
 * Units: seconds, FLOP, bytes, FLOP/s, bytes/s; token counts are plain numbers (real-valued inputs are accepted,
 * so the break-even solver can treat token counts as continuous).
 *
 * Every time here is
 *   max( GEMM FLOPs / (tp · peak · gemmEfficiency) + attention FLOPs / (tp · peakBF16 · attentionEfficiency) ,
 *        bytes / (tp · HBM bandwidth · mbu) )
 *   + tensor-parallel all-reduce time (src/sim/engine/tensorParallel.ts; not overlapped, as in vLLM)
 *   + iterationOverheadS (scheduling, sampling, kernel launches: what a step costs beyond the roofline)
 * over one tensor-parallel replica of `tp` GPUs whose work splits evenly across them.
 *
 * The replica's achieved rates and their fitted defaults live in src/sim/engine/hardware.ts (re-exported here).
 * The FLOPs and bytes these times are made of, and what those counts leave out, are in flopsAndBytes.ts; this
 * module adds the 2 all-reduces per layer at tp > 1 (tensorParallel.ts) and the iteration overhead, and leaves out
 * pipeline bubbles and the LM head's logits gather under TP (outside a single-replica model).
 */
import type { ModelSpec } from './catalog/models';
import { tensorParallelComm, tensorParallelCommTime, type CommCost } from './tensorParallel';
import {
  effectiveAttentionFlops,
  effectiveFlops,
  effectiveMemBandwidth,
  type HardwareConfig,
} from './hardware';
import {
  attentionFlopsPerPair,
  bodyParams,
  checkTokens,
  embeddingParams,
  prefillAttentionFlops,
  prefillBytes,
  prefillGemmFlops,
  replicaKvBytesPerToken,
  weightBytesTouched,
} from './flopsAndBytes';

export * from './hardware';

/** All-reduce cost of a pass over `tokens` tokens on this replica (zero at tp = 1). */
export function passComm(model: ModelSpec, hw: HardwareConfig, tokens: number): CommCost {
  return tensorParallelComm(model, hw.accelerator, hw.tp, tokens, hw.gpusPerNode);
}

export interface PassCost {
  /** gemmFlops + attentionFlops */
  flops: number;
  /** Matmul FLOPs (body and LM head). */
  gemmFlops: number;
  /** Attention score and value FLOPs. */
  attentionFlops: number;
  bytes: number;
  /** gemmFlops / (tp · peak · gemmEfficiency), s */
  gemmTime: number;
  /** attentionFlops / (tp · peakBF16 · attentionEfficiency), s */
  attentionTime: number;
  /** gemmTime + attentionTime, s */
  computeTime: number;
  /** bytes / (tp · bw · mbu), s */
  memoryTime: number;
  /** Tensor-parallel all-reduce: bytes summed over calls, and seconds (not overlapped). */
  allReduceBytes: number;
  allReduceTime: number;
  /** Fixed per-iteration overhead, s (0 for an empty pass). */
  overheadTime: number;
  /** max(computeTime, memoryTime) + allReduceTime + overheadTime, s */
  time: number;
  bound: 'compute' | 'memory';
}

/** A pass's terms handed to passCost (the breakdown) or passTime (the time alone). */
type PassOf<T> = (
  model: ModelSpec,
  hw: HardwareConfig,
  tokens: number,
  gemmFlops: number,
  attentionFlops: number,
  bytes: number,
) => T;

/** The cost of a pass of `tokens` tokens (new tokens of every sequence) from its FLOPs and bytes. */
const passCost: PassOf<PassCost> = (model, hw, tokens, gemmFlops, attentionFlops, bytes) => {
  const gemmTime = gemmFlops / effectiveFlops(hw);
  const attentionTime = attentionFlops / effectiveAttentionFlops(hw);
  const computeTime = gemmTime + attentionTime;
  const memoryTime = bytes / effectiveMemBandwidth(hw);
  const comm = passComm(model, hw, tokens);
  const overheadTime = tokens > 0 ? hw.iterationOverheadS : 0;
  return {
    flops: gemmFlops + attentionFlops,
    gemmFlops,
    attentionFlops,
    bytes,
    gemmTime,
    attentionTime,
    computeTime,
    memoryTime,
    allReduceBytes: comm.bytes,
    allReduceTime: comm.time,
    overheadTime,
    time: passTime(model, hw, tokens, gemmFlops, attentionFlops, bytes),
    bound: computeTime >= memoryTime ? 'compute' : 'memory',
  };
};

/**
 * passCost's `time` alone, with the same operations in the same order (so the same float), and nothing allocated:
 * the fleet simulator prices every iteration and reads only the time.
 */
const passTime: PassOf<number> = (model, hw, tokens, gemmFlops, attentionFlops, bytes) => {
  const computeTime = gemmFlops / effectiveFlops(hw) + attentionFlops / effectiveAttentionFlops(hw);
  const memoryTime = bytes / effectiveMemBandwidth(hw);
  const commTime = tensorParallelCommTime(model, hw.accelerator, hw.tp, tokens, hw.gpusPerNode);
  const overheadTime = tokens > 0 ? hw.iterationOverheadS : 0;
  return Math.max(computeTime, memoryTime) + commTime + overheadTime;
};

export function prefillCost(
  model: ModelSpec,
  hw: HardwareConfig,
  newTokens: number,
  cachedTokens: number,
): PassCost {
  return passCost(
    model,
    hw,
    newTokens,
    prefillGemmFlops(model, newTokens),
    newTokens === 0 ? 0 : prefillAttentionFlops(model, newTokens, cachedTokens),
    prefillBytes(model, hw, newTokens, cachedTokens),
  );
}

/**
 * Seconds to prefill n new tokens on top of c cached ones, alone on the replica (one iteration):
 *   max( GEMM / (tp · peak · e_gemm) + attention / (tp · peakBF16 · e_attn) , (weights + KV) / (tp · bw · mbu) )
 *   + all-reduce(n tokens) + iteration overhead.
 * Short prefills are memory-bound (the weights must be streamed once whatever n is); long ones compute-bound.
 * Returns 0 for n = 0.
 */
export function prefillTime(
  model: ModelSpec,
  hw: HardwareConfig,
  newTokens: number,
  cachedTokens: number,
): number {
  return prefillCost(model, hw, newTokens, cachedTokens).time;
}

/**
 * One decode iteration for `batchSize` sequences whose contexts add up to `totalContextTokens` (tokens attended,
 * the new one included):
 *   FLOPs = 2 · (activeParams − vocab·hidden) · batch        body and LM head, every token
 *         + attentionFlopsPerPair(decode) · totalContextTokens
 *   bytes = weightBytesTouched(batch) + kvBytesPerToken · kvReplication · totalContextTokens
 * time = max(GEMM / G + attention / G_attn, bytes / M) + all-reduce(batch tokens) + iteration overhead.
 * At batch 1 the roofline is weights / (tp · bw · mbu): 70B BF16 on 8 × H100 ≈ 139 GB / 21.4 TB/s ≈ 6.5 ms, to
 * which 160 latency-bound all-reduces (~38 µs each at TP8) and the 2.5 ms overhead add.
 */
export function decodeCost(
  model: ModelSpec,
  hw: HardwareConfig,
  batchSize: number,
  totalContextTokens: number,
): PassCost {
  return decodePass(model, hw, batchSize, totalContextTokens, passCost);
}

export function decodeStepTime(
  model: ModelSpec,
  hw: HardwareConfig,
  batchSize: number,
  totalContextTokens: number,
): number {
  return decodePass(model, hw, batchSize, totalContextTokens, passTime);
}

function decodePass<T>(
  model: ModelSpec,
  hw: HardwareConfig,
  batchSize: number,
  totalContextTokens: number,
  pass: PassOf<T>,
): T {
  checkTokens('batchSize', batchSize);
  checkTokens('totalContextTokens', totalContextTokens);
  if (batchSize === 0) return pass(model, hw, 0, 0, 0, 0);
  const kv = replicaKvBytesPerToken(model, hw.kvDtype, hw.tp);
  const bytes = weightBytesTouched(model, hw.weightDtype, batchSize) + kv * totalContextTokens;
  return pass(
    model,
    hw,
    batchSize,
    2 * (model.activeParams - embeddingParams(model)) * batchSize,
    attentionFlopsPerPair(model, 'decode') * totalContextTokens,
    bytes,
  );
}

export interface IterationBatch {
  /** Prefill chunks: `newTokens` computed this iteration on top of `cachedTokens` already in KV. */
  prefill: { newTokens: number; cachedTokens: number }[];
  /** One entry per decoding sequence: tokens it attends to (its context, the new token included). */
  decodeContextTokens: number[];
}

/**
 * One continuous-batching iteration mixing prefill chunks and decodes (chunked prefill, Sarathi-Serve style):
 * FLOPs and bytes are summed over the batch and the weights are streamed once for all its tokens:
 *   FLOPs = Σ prefillFlops(chunk) + decode FLOPs
 *   bytes = weightBytesTouched(Σ new tokens + decodes) + KV bytes of every chunk (c + n) and every decode context
 *   time  = max(GEMM / G + attention / G_attn, bytes / M) + all-reduce(all tokens) + one iteration overhead
 * A batch with one chunk equals prefillTime; a decode-only batch equals decodeStepTime. Empty batch: 0.
 */
export function iterationCost(model: ModelSpec, hw: HardwareConfig, batch: IterationBatch): PassCost {
  return iterationPass(model, hw, batch, passCost);
}

export function iterationTime(model: ModelSpec, hw: HardwareConfig, batch: IterationBatch): number {
  return iterationPass(model, hw, batch, passTime);
}

function iterationPass<T>(model: ModelSpec, hw: HardwareConfig, batch: IterationBatch, pass: PassOf<T>): T {
  let gemm = 0;
  let attn = 0;
  let kvTokens = 0;
  let tokens = 0;
  for (const ch of batch.prefill) {
    gemm += prefillGemmFlops(model, ch.newTokens);
    if (ch.newTokens > 0) attn += prefillAttentionFlops(model, ch.newTokens, ch.cachedTokens);
    if (ch.newTokens > 0) kvTokens += ch.cachedTokens + ch.newTokens;
    tokens += ch.newTokens;
  }
  const decodes = batch.decodeContextTokens.length;
  if (decodes > 0) {
    let ctx = 0;
    for (const c of batch.decodeContextTokens) {
      checkTokens('decodeContextTokens', c);
      ctx += c;
    }
    gemm += 2 * (model.activeParams - embeddingParams(model)) * decodes;
    attn += attentionFlopsPerPair(model, 'decode') * ctx;
    kvTokens += ctx;
    tokens += decodes;
  }
  if (tokens === 0) return pass(model, hw, 0, 0, 0, 0);
  const kv = replicaKvBytesPerToken(model, hw.kvDtype, hw.tp);
  return pass(
    model,
    hw,
    tokens,
    gemm,
    attn,
    weightBytesTouched(model, hw.weightDtype, tokens) + kv * kvTokens,
  );
}

/**
 * Marginal seconds to prefill one more token at position `contextTokens` (c tokens before it), i.e. what a
 * cold turn adds to TTFT per token of prefix it must recompute:
 *   max( 2 · body / G + attentionFlopsPerPair · (c + 1) / G_attn , kvBytesPerToken · kvReplication / M )
 *   + 2 · layers · 2(tp−1)/tp · hidden · 2 B / busBandwidth                    (all-reduce bytes of one token)
 * The first term is the slope of prefillTime wherever prefill is compute-bound (any chunk above a few hundred
 * tokens), and Σ_{c=0}^{n-1} of it equals the compute time of an n-token prefill less the one-off LM head. The
 * weight stream, the all-reduce latency and the iteration overhead are shared by all tokens of a pass, so they
 * have no marginal cost.
 */
export function perTokenPrefillTime(model: ModelSpec, hw: HardwareConfig, contextTokens: number): number {
  checkTokens('contextTokens', contextTokens);
  const compute =
    (2 * bodyParams(model)) / effectiveFlops(hw) +
    (attentionFlopsPerPair(model, 'prefill') * (contextTokens + 1)) / effectiveAttentionFlops(hw);
  const memory = replicaKvBytesPerToken(model, hw.kvDtype, hw.tp) / effectiveMemBandwidth(hw);
  return Math.max(compute, memory) + allReducePerTokenTime(model, hw);
}

/** What every pass pays whatever its size: the all-reduce latencies (2 · layers calls) and the overhead, s. */
export function iterationFixedTime(model: ModelSpec, hw: HardwareConfig): number {
  const one = passComm(model, hw, 1);
  return one.calls * one.path.latency + hw.iterationOverheadS;
}

/** Bandwidth part of the all-reduce time per token of a pass, s/token (0 at tp = 1). */
export function allReducePerTokenTime(model: ModelSpec, hw: HardwareConfig): number {
  const one = passComm(model, hw, 1);
  if (one.calls === 0) return 0;
  return one.time - one.calls * one.path.latency;
}
