/**
 * Cost model of one forward pass: prefill, decode and mixed continuous-batching iterations, as rooflines.
 *
 * Units: seconds, FLOP, bytes, FLOP/s, bytes/s; token counts are plain numbers (real-valued inputs are accepted,
 * so the break-even solver can treat token counts as continuous).
 *
 * Every time here is   max( FLOPs / (tp · peak · mfu) , bytes / (tp · HBM bandwidth · mbu) )
 * i.e. a roofline over one tensor-parallel replica of `tp` GPUs whose work splits evenly across them. The caller
 * sets the utilisation factors: `mfu` (achieved share of peak dense FLOP/s, default 0.5) and `mbu` (achieved share
 * of HBM bandwidth, default 0.8).
 *
 * What is counted
 *  - Matmul FLOPs of the transformer body: 2 FLOP per active parameter per token (one multiply-add).
 *  - The LM head (vocab × hidden): once per sequence in prefill (only the last position's logits are sampled, as
 *    vLLM and SGLang do), once per token in decode.
 *  - Attention scores and values: 2 · layers · heads · (d_qk + d_v) FLOP per (query, key) pair; a prefill of n new
 *    tokens after c cached ones has n·c + n(n+1)/2 causal pairs.
 *  - Bytes: the weights streamed from HBM once per pass (all experts a batch touches, for a MoE), the KV cache
 *    read (cached context) and written (new tokens).
 *
 * What is excluded (each small next to what is counted, or outside a single-replica roofline)
 *  - The input embedding lookup: a gather of one row per token, no FLOPs, and its table is not streamed.
 *    Embeddings are assumed untied (true of every catalog model): activeParams holds vocab × hidden twice.
 *  - Norms, rotary embeddings, softmax, activations, residual adds (elementwise, O(hidden) per token).
 *  - Activation traffic to HBM, FlashAttention re-reads of K/V across query tiles, kernel-launch overheads.
 *  - Tensor-parallel all-reduces over NVLink, pipeline bubbles, scheduling and sampling on the CPU.
 *  - MLA: in prefill the cached latents are up-projected to per-head K/V (a per-cached-token cost of
 *    2 · heads · kvLoraRank · (qkNope + v) FLOP per layer) — not counted; the absorbed decode form is used for
 *    decode attention (see attentionFlopsPerPair).
 */
import type { AcceleratorSpec } from './catalog/accelerators';
import { DTYPE_BYTES, kvBytesPerToken, type Dtype, type ModelSpec } from './catalog/models';

export interface HardwareConfig {
  accelerator: AcceleratorSpec;
  /** Tensor-parallel degree = GPUs per replica. */
  tp: number;
  /** Prefill (and compute-bound) utilisation of peak dense FLOP/s, 0..1. Default 0.5. */
  mfu: number;
  /** Decode (and memory-bound) utilisation of HBM bandwidth, 0..1. Default 0.8. */
  mbu: number;
  weightDtype: Dtype;
  kvDtype: Dtype;
  /** Tensor-core dtype of the matmuls; selects the accelerator's bf16Flops or fp8Flops. Default 'bf16'. */
  computeDtype?: 'bf16' | 'fp8';
}

export const DEFAULT_MFU = 0.5;
export const DEFAULT_MBU = 0.8;

export function defaultHardware(accelerator: AcceleratorSpec, tp = 1): HardwareConfig {
  return {
    accelerator,
    tp,
    mfu: DEFAULT_MFU,
    mbu: DEFAULT_MBU,
    weightDtype: 'bf16',
    kvDtype: 'bf16',
    computeDtype: 'bf16',
  };
}

function checkHardware(hw: HardwareConfig): void {
  if (!Number.isInteger(hw.tp) || hw.tp < 1)
    throw new RangeError(`tp must be a whole number ≥ 1, got ${hw.tp}`);
  if (!(hw.mfu > 0 && hw.mfu <= 1)) throw new RangeError(`mfu must be in (0, 1], got ${hw.mfu}`);
  if (!(hw.mbu > 0 && hw.mbu <= 1)) throw new RangeError(`mbu must be in (0, 1], got ${hw.mbu}`);
  if (!(hw.weightDtype in DTYPE_BYTES)) throw new RangeError(`unknown weightDtype ${String(hw.weightDtype)}`);
  if (!(hw.kvDtype in DTYPE_BYTES)) throw new RangeError(`unknown kvDtype ${String(hw.kvDtype)}`);
}

function checkTokens(name: string, v: number): void {
  if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`${name} must be a finite number ≥ 0, got ${v}`);
}

/** Peak dense FLOP/s of one GPU in the configured compute dtype. */
export function peakFlops(hw: HardwareConfig): number {
  const dt = hw.computeDtype ?? 'bf16';
  if (dt === 'fp8') {
    if (!(hw.accelerator.fp8Flops > 0))
      throw new RangeError(
        `${hw.accelerator.id} has no FP8 tensor path (fp8Flops = 0); use computeDtype 'bf16'`,
      );
    return hw.accelerator.fp8Flops;
  }
  return hw.accelerator.bf16Flops;
}

/** Achieved FLOP/s of the whole replica: tp · peak · mfu. */
export function effectiveFlops(hw: HardwareConfig): number {
  checkHardware(hw);
  return hw.tp * peakFlops(hw) * hw.mfu;
}

/** Achieved HBM bytes/s of the whole replica: tp · bandwidth · mbu. */
export function effectiveMemBandwidth(hw: HardwareConfig): number {
  checkHardware(hw);
  return hw.tp * hw.accelerator.memBandwidth * hw.mbu;
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
  const { always, routed, touchProbability } = weightSplit(model);
  const frac = routed > 0 ? -Math.expm1(tokens * Math.log1p(-touchProbability)) : 0;
  return (always + routed * frac) * DTYPE_BYTES[dtype];
}

export interface PassCost {
  flops: number;
  bytes: number;
  /** flops / (tp · peak · mfu), s */
  computeTime: number;
  /** bytes / (tp · bw · mbu), s */
  memoryTime: number;
  /** max of the two, s */
  time: number;
  bound: 'compute' | 'memory';
}

function roofline(hw: HardwareConfig, flops: number, bytes: number): PassCost {
  const computeTime = flops / effectiveFlops(hw);
  const memoryTime = bytes / effectiveMemBandwidth(hw);
  return {
    flops,
    bytes,
    computeTime,
    memoryTime,
    time: Math.max(computeTime, memoryTime),
    bound: computeTime >= memoryTime ? 'compute' : 'memory',
  };
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
  const n = newTokens;
  const c = cachedTokens;
  return (
    2 * bodyParams(model) * n +
    2 * embeddingParams(model) +
    attentionFlopsPerPair(model, 'prefill') * (n * c + (n * (n + 1)) / 2)
  );
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
  const kv = kvBytesPerToken(model, hw.kvDtype) * kvReplication(model, hw.tp);
  return weightBytesTouched(model, hw.weightDtype, newTokens) + kv * (cachedTokens + newTokens);
}

export function prefillCost(
  model: ModelSpec,
  hw: HardwareConfig,
  newTokens: number,
  cachedTokens: number,
): PassCost {
  return roofline(
    hw,
    prefillFlops(model, newTokens, cachedTokens),
    prefillBytes(model, hw, newTokens, cachedTokens),
  );
}

/**
 * Seconds to prefill n new tokens on top of c cached ones, alone on the replica:
 *   max( prefillFlops / (tp · peak · mfu) , (weights + KV bytes) / (tp · bw · mbu) ).
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
 * At batch 1 this is weights / (tp · bw · mbu): 70B BF16 on 8 × H100 ≈ 139 GB / 21.4 TB/s ≈ 6.5 ms.
 */
export function decodeCost(
  model: ModelSpec,
  hw: HardwareConfig,
  batchSize: number,
  totalContextTokens: number,
): PassCost {
  checkTokens('batchSize', batchSize);
  checkTokens('totalContextTokens', totalContextTokens);
  if (batchSize === 0) return roofline(hw, 0, 0);
  const flops =
    2 * (model.activeParams - embeddingParams(model)) * batchSize +
    attentionFlopsPerPair(model, 'decode') * totalContextTokens;
  const kv = kvBytesPerToken(model, hw.kvDtype) * kvReplication(model, hw.tp);
  const bytes = weightBytesTouched(model, hw.weightDtype, batchSize) + kv * totalContextTokens;
  return roofline(hw, flops, bytes);
}

export function decodeStepTime(
  model: ModelSpec,
  hw: HardwareConfig,
  batchSize: number,
  totalContextTokens: number,
): number {
  return decodeCost(model, hw, batchSize, totalContextTokens).time;
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
 *   time  = max(FLOPs / (tp·peak·mfu), bytes / (tp·bw·mbu))
 * A batch with one chunk equals prefillTime; a decode-only batch equals decodeStepTime. Empty batch: 0.
 */
export function iterationCost(model: ModelSpec, hw: HardwareConfig, batch: IterationBatch): PassCost {
  let flops = 0;
  let kvTokens = 0;
  let tokens = 0;
  for (const ch of batch.prefill) {
    flops += prefillFlops(model, ch.newTokens, ch.cachedTokens);
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
    flops +=
      2 * (model.activeParams - embeddingParams(model)) * decodes +
      attentionFlopsPerPair(model, 'decode') * ctx;
    kvTokens += ctx;
    tokens += decodes;
  }
  if (tokens === 0) return roofline(hw, 0, 0);
  const kv = kvBytesPerToken(model, hw.kvDtype) * kvReplication(model, hw.tp);
  return roofline(hw, flops, weightBytesTouched(model, hw.weightDtype, tokens) + kv * kvTokens);
}

export function iterationTime(model: ModelSpec, hw: HardwareConfig, batch: IterationBatch): number {
  return iterationCost(model, hw, batch).time;
}

/**
 * Marginal seconds to prefill one more token at position `contextTokens` (c tokens before it), i.e. what a
 * cold turn adds to TTFT per token of prefix it must recompute:
 *   max( (2 · body + attentionFlopsPerPair · (c + 1)) / (tp · peak · mfu) ,
 *        kvBytesPerToken · kvReplication / (tp · bw · mbu) )
 * The first term is the slope of prefillTime wherever prefill is compute-bound (any chunk above a few hundred
 * tokens), and Σ_{c=0}^{n-1} of it equals the compute time of an n-token prefill less the one-off LM head. The
 * weight stream is shared by all tokens of a pass, so it has no marginal cost.
 */
export function perTokenPrefillTime(model: ModelSpec, hw: HardwareConfig, contextTokens: number): number {
  checkTokens('contextTokens', contextTokens);
  const compute =
    (2 * bodyParams(model) + attentionFlopsPerPair(model, 'prefill') * (contextTokens + 1)) /
    effectiveFlops(hw);
  const memory =
    (kvBytesPerToken(model, hw.kvDtype) * kvReplication(model, hw.tp)) / effectiveMemBandwidth(hw);
  return Math.max(compute, memory);
}
