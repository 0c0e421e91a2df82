/**
 * What a forward pass computes and moves, before any time is put on it: its FLOPs and the bytes it streams through
 * HBM, counted from the model's architecture. Kept apart from the timing (cost.ts turns these counts into seconds
 * on a replica) because the KV footprint, the fleet's KV sizing and the break-even solver need the counts alone.
 *
 * Units: FLOP, bytes; token counts are plain numbers (real-valued inputs are accepted, so the break-even solver
 * can treat token counts as continuous).
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
 *
 * What is excluded (each small next to what is counted)
 *  - The input embedding lookup: a gather of one row per token, no FLOPs, and its table is not streamed.
 *    Embeddings are assumed untied (true of every catalog model): activeParams holds vocab × hidden twice.
 *  - Norms, rotary embeddings, softmax, activations, residual adds as separate terms (the fitted efficiencies
 *    absorb them), activation traffic to HBM, FlashAttention re-reads of K/V across query tiles.
 *  - MLA: in prefill the cached latents are up-projected to per-head K/V (a per-cached-token cost of
 *    2 · heads · kvLoraRank · (qkNope + v) FLOP per layer) — not counted; the absorbed decode form is used for
 *    decode attention (see attentionFlopsPerPair).
 */
import { DTYPE_BYTES, kvBytesPerToken, type Dtype, type ModelSpec } from './catalog/models';
import type { HardwareConfig } from './hardware';

/** Throws unless a token count is finite and ≥ 0 (the timings in cost.ts check theirs with it too). */
export function checkTokens(name: string, v: number): void {
  if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`${name} must be a finite number ≥ 0, got ${v}`);
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
