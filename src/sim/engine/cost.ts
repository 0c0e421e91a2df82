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
 *
 * What is counted
 *  - GEMM FLOPs of the transformer body: 2 FLOP per active parameter per token (one multiply-add).
 *  - The LM head (vocab × hidden): once per sequence in prefill (only the last position's logits are sampled, as
 *    vLLM and SGLang do), once per token in decode. Counted with the GEMMs.
 *  - Attention scores and values: 2 · layers · heads · (d_qk + d_v) FLOP per (query, key) pair; a prefill of n new
 *    tokens after c cached ones has n·c + n(n+1)/2 causal pairs. Attention runs on the BF16 tensor path whatever
 *    computeDtype says (FP8 attention is not vLLM's default).
 *  - Bytes: the weights streamed from HBM once per pass (all experts a batch touches, for a MoE), the KV cache
 *    read (cached context) and written (new tokens).
 *  - 2 all-reduces per layer at tp > 1 (tensorParallel.ts).
 *
 * What is excluded (each small next to what is counted, or outside a single-replica model)
 *  - The input embedding lookup: a gather of one row per token, no FLOPs, and its table is not streamed.
 *    Embeddings are assumed untied (true of every catalog model): activeParams holds vocab × hidden twice.
 *  - Norms, rotary embeddings, softmax, activations, residual adds as separate terms (the fitted efficiencies
 *    absorb them), activation traffic to HBM, FlashAttention re-reads of K/V across query tiles.
 *  - Pipeline bubbles; the LM head's logits gather under TP.
 *  - MLA: in prefill the cached latents are up-projected to per-head K/V (a per-cached-token cost of
 *    2 · heads · kvLoraRank · (qkNope + v) FLOP per layer) — not counted; the absorbed decode form is used for
 *    decode attention (see attentionFlopsPerPair).
 */
import { DTYPE_BYTES, kvBytesPerToken, type Dtype, type ModelSpec } from './catalog/models';
import { tensorParallelComm, tensorParallelCommTime, type CommCost } from './tensorParallel';
import {
  effectiveAttentionFlops,
  effectiveFlops,
  effectiveMemBandwidth,
  type HardwareConfig,
} from './hardware';

export * from './hardware';

function checkTokens(name: string, v: number): void {
  if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`${name} must be a finite number ≥ 0, got ${v}`);
}

/** All-reduce cost of a pass over `tokens` tokens on this replica (zero at tp = 1). */
export function passComm(model: ModelSpec, hw: HardwareConfig, tokens: number): CommCost {
  return tensorParallelComm(model, hw.accelerator, hw.tp, tokens, hw.gpusPerNode);
}

/** Parameters of one vocab × hidden matrix (the input embedding; the LM head has the same shape). */
export function embeddingParams(model: ModelSpec): number {
  return model.vocabSize * model.hiddenSize;
}

/** Active parameters of the transformer body: activeParams minus input embedding and LM head. */
export function bodyParams(model: ModelSpec): number {
  return model.activeParams - 2 * embeddingParams(model);
}

/**
 * Attention FLOPs per (query, key) pair summed over layers and heads: 2 · layers · heads · (d_qk + d_v)
 * (2·d_qk for the score q·k, 2·d_v for the weighted sum of values).
 *  - GQA: d_qk = d_v = headDim (KV heads are shared, query heads all compute).
 *  - MLA prefill: d_qk = qkHeadDim (nope + rope), d_v = vHeadDim, on decompressed per-head K/V.
 *  - MLA decode (weight-absorbed form used by FlashMLA/vLLM/SGLang): scores against the latent plus the RoPE key,
 *    d_qk = kvLoraRank + ropeHeadDim, values are the latent, d_v = kvLoraRank.
 */
export function attentionFlopsPerPair(model: ModelSpec, phase: 'prefill' | 'decode' = 'prefill'): number {
  const a = model.attention;
  let dqk: number;
  let dv: number;
  if (a.kind === 'mla') {
    if (phase === 'decode') {
      dqk = a.kvLoraRank + a.ropeHeadDim;
      dv = a.kvLoraRank;
    } else {
      dqk = a.qkHeadDim;
      dv = a.vHeadDim;
    }
  } else {
    dqk = model.headDim;
    dv = model.headDim;
  }
  return 2 * model.layers * model.attentionHeads * (dqk + dv);
}

/**
 * How many copies of the KV cache the `tp` GPUs of a replica hold in total, as a multiple of one copy.
 *  - GQA: KV heads are split across GPUs; with fewer KV heads than GPUs each GPU still needs a whole head, so
 *    each GPU holds ceil(kvHeads/tp) heads: total = tp · ceil(kvHeads / tp) / kvHeads (1 when tp divides kvHeads).
 *  - MLA: the latent is shared by all heads and every GPU holds all of it: total = tp.
 * Memory time divides total bytes by tp GPUs, so this also gives the busiest GPU's share.
 */
export function kvReplication(model: ModelSpec, tp: number): number {
  if (model.attention.kind === 'mla') return tp;
  return (tp * Math.ceil(model.kvHeads / tp)) / model.kvHeads;
}

/**
 * KV bytes per token a replica of `gpus` tensor-parallel GPUs holds: one copy times kvReplication. It is also what
 * the replica writes in prefill, stores to a lower tier and reloads: each GPU moves its own copy (vLLM's offload
 * connector runs one transfer worker per GPU), so a latent every GPU holds whole crosses the links once per GPU.
 */
export function replicaKvBytesPerToken(model: ModelSpec, kvDtype: Dtype, gpus: number): number {
  return kvBytesPerToken(model, kvDtype) * kvReplication(model, gpus);
}

/**
 * Split of a model's weights into always-read parameters and routed-expert parameters, for the MoE estimate.
 *  - With `moe`: expert size e = (total − active) / (E − k); always-active S = active − k·e (attention, dense
 *    layers, shared experts, embeddings); routed = E·e.
 *  - MoE without `moe` (e.g. a user override of activeParams): fine-grained limit, every parameter outside the
 *    embeddings is "routed" and a token touches the fraction r = (active − 2VD)/(total − 2VD) of it.
 * Returned figures exclude the input embedding table (never streamed); the LM head is in `always`.
 */
export function weightSplit(model: ModelSpec): { always: number; routed: number; touchProbability: number } {
  const embed = embeddingParams(model);
  if (model.activeParams >= model.totalParams)
    return { always: model.totalParams - embed, routed: 0, touchProbability: 1 };
  if (model.moe && model.moe.activeExperts < model.moe.experts) {
    const { experts: E, activeExperts: k } = model.moe;
    const e = (model.totalParams - model.activeParams) / (E - k);
    return { always: model.activeParams - k * e - embed, routed: E * e, touchProbability: k / E };
  }
  // Fallback keeps the LM head in `routed`, so touched(1 token) = active − embed exactly.
  const routed = model.totalParams - embed;
  return { always: 0, routed, touchProbability: (model.activeParams - embed) / routed };
}

/**
 * Weight bytes a pass over `tokens` tokens streams from HBM (all GPUs together).
 * Dense: every matrix except the input embedding table. MoE: always-active weights plus the expected share of
 * routed experts touched, assuming each token picks its k of E experts uniformly and independently:
 *   touched fraction = 1 − (1 − k/E)^tokens
 * (exact for one token, → 1 for large batches; real routers are skewed, so this errs high for mid-size batches).
 */
export function weightBytesTouched(model: ModelSpec, dtype: Dtype, tokens: number): number {
  checkTokens('tokens', tokens);
  if (tokens === 0) return 0;
  // Dense: weightSplit's first case, without its object (every iteration the fleet prices comes here).
  if (model.activeParams >= model.totalParams)
    return (model.totalParams - embeddingParams(model)) * DTYPE_BYTES[dtype];
  const { always, routed, touchProbability } = weightSplit(model);
  const frac = routed > 0 ? -Math.expm1(tokens * Math.log1p(-touchProbability)) : 0;
  return (always + routed * frac) * DTYPE_BYTES[dtype];
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

/** Matmul FLOPs of a prefill of n tokens: 2 · body · n + 2 · vocab · hidden (LM head, last position only). */
export function prefillGemmFlops(model: ModelSpec, newTokens: number): number {
  checkTokens('newTokens', newTokens);
  if (newTokens === 0) return 0;
  return 2 * bodyParams(model) * newTokens + 2 * embeddingParams(model);
}

/** Attention FLOPs of a prefill of n new tokens after c cached: attentionFlopsPerPair · (n·c + n(n+1)/2). */
export function prefillAttentionFlops(model: ModelSpec, newTokens: number, cachedTokens: number): number {
  checkTokens('newTokens', newTokens);
  checkTokens('cachedTokens', cachedTokens);
  const n = newTokens;
  return attentionFlopsPerPair(model, 'prefill') * (n * cachedTokens + (n * (n + 1)) / 2);
}

/**
 * Prefill FLOPs for `newTokens` (n) after `cachedTokens` (c) already in the KV cache:
 *   2 · body · n                                  body = activeParams − 2 · vocab · hidden
 * + 2 · vocab · hidden                            LM head, last position only (n > 0)
 * + 2 · layers · heads · (d_qk + d_v) · (n·c + n(n+1)/2)   causal attention pairs
 * The input embedding (a lookup) and elementwise ops are excluded; see the module comment.
 */
export function prefillFlops(model: ModelSpec, newTokens: number, cachedTokens: number): number {
  checkTokens('newTokens', newTokens);
  checkTokens('cachedTokens', cachedTokens);
  if (newTokens === 0) return 0;
  return prefillGemmFlops(model, newTokens) + prefillAttentionFlops(model, newTokens, cachedTokens);
}

/**
 * Prefill bytes: weights touched by n tokens + KV read for the c cached tokens + KV written for the n new ones,
 * the KV term multiplied by kvReplication (copies held across the tp GPUs).
 */
export function prefillBytes(
  model: ModelSpec,
  hw: HardwareConfig,
  newTokens: number,
  cachedTokens: number,
): number {
  checkTokens('newTokens', newTokens);
  checkTokens('cachedTokens', cachedTokens);
  if (newTokens === 0) return 0;
  const kv = replicaKvBytesPerToken(model, hw.kvDtype, hw.tp);
  return weightBytesTouched(model, hw.weightDtype, newTokens) + kv * (cachedTokens + newTokens);
}

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
