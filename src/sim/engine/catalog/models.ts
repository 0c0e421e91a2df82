/**
 * Model catalog. Architecture figures come from each model's published configuration; KV bytes per token are
 * derived from the architecture (never typed in), so a user-defined model gets the same treatment.
 */

export type Dtype = 'bf16' | 'fp16' | 'fp8' | 'fp32';

/** Bytes per element of each KV-cache dtype. */
export const DTYPE_BYTES: Readonly<Record<Dtype, number>> = { fp32: 4, bf16: 2, fp16: 2, fp8: 1 };

export const DTYPES: readonly Dtype[] = ['bf16', 'fp16', 'fp8', 'fp32'];

/** Grouped-query (or multi-head) attention: every layer caches K and V for each KV head. */
export interface GqaAttention {
  kind: 'gqa';
}

/**
 * Multi-head latent attention (DeepSeek-V2/V3): every layer caches one compressed latent of `kvLoraRank`
 * plus a shared RoPE key of `ropeHeadDim`, instead of per-head K and V.
 */
export interface MlaAttention {
  kind: 'mla';
  kvLoraRank: number;
  ropeHeadDim: number;
  /** Per-head query/key width used in attention scores (nope + rope). */
  qkHeadDim: number;
  /** Per-head value width. */
  vHeadDim: number;
  /** Rank of the queries' low-rank projection (q_lora_rank); absent: queries are projected from the hidden state directly. */
  qLoraRank?: number;
}

export interface MoeSpec {
  /** Routed experts per MoE layer. */
  experts: number;
  /** Routed experts each token is sent to (top-k). */
  activeExperts: number;
}

export interface ModelSpec {
  id: string;
  name: string;
  layers: number;
  hiddenSize: number;
  attentionHeads: number;
  kvHeads: number;
  headDim: number;
  /** Total parameters (all experts for a MoE). */
  totalParams: number;
  /** Parameters touched per token (equal to totalParams for a dense model). */
  activeParams: number;
  vocabSize: number;
  maxContext: number;
  attention: GqaAttention | MlaAttention;
  /**
   * Mixture of experts: routed experts per MoE layer and how many each token uses. Absent for a dense model.
   * The cost model uses it to estimate how many experts' weights a batch touches (src/sim/engine/cost.ts).
   */
  moe?: MoeSpec;
  /** Where the figures come from. */
  source: string;
}

const LLAMA31_SOURCE =
  'meta-llama/llama-models, models/llama3_1 (sku_list.py and MODEL_CARD.md): dim, n_layers, n_heads, n_kv_heads, vocab 128,256, context 128k';

export const MODELS: readonly ModelSpec[] = [
  {
    id: 'llama-3.1-8b',
    name: 'Llama 3.1 8B',
    layers: 32,
    hiddenSize: 4096,
    attentionHeads: 32,
    kvHeads: 8,
    headDim: 128, // 4096 / 32
    totalParams: 8.03e9,
    activeParams: 8.03e9,
    vocabSize: 128_256,
    maxContext: 131_072,
    attention: { kind: 'gqa' },
    source: LLAMA31_SOURCE,
  },
  {
    id: 'llama-3.1-70b',
    name: 'Llama 3.1 70B',
    layers: 80,
    hiddenSize: 8192,
    attentionHeads: 64,
    kvHeads: 8,
    headDim: 128, // 8192 / 64
    totalParams: 70.6e9,
    activeParams: 70.6e9,
    vocabSize: 128_256,
    maxContext: 131_072,
    attention: { kind: 'gqa' },
    source: LLAMA31_SOURCE,
  },
  {
    id: 'llama-3.1-405b',
    name: 'Llama 3.1 405B',
    layers: 126,
    hiddenSize: 16384,
    attentionHeads: 128,
    kvHeads: 8,
    headDim: 128, // 16384 / 128
    totalParams: 405.9e9,
    activeParams: 405.9e9,
    vocabSize: 128_256,
    maxContext: 131_072,
    attention: { kind: 'gqa' },
    source: LLAMA31_SOURCE,
  },
  {
    id: 'qwen3-32b',
    name: 'Qwen3 32B',
    layers: 64,
    hiddenSize: 5120,
    attentionHeads: 64,
    kvHeads: 8,
    headDim: 128,
    totalParams: 32.8e9,
    activeParams: 32.8e9,
    vocabSize: 151_936,
    maxContext: 131_072, // 32,768 native, 131,072 with YaRN (model card)
    attention: { kind: 'gqa' },
    source: 'Qwen/Qwen3-32B config.json and model card (Qwen3 Technical Report, arXiv 2505.09388)',
  },
  {
    id: 'qwen3-235b-a22b',
    name: 'Qwen3 235B-A22B (MoE)',
    layers: 94,
    hiddenSize: 4096,
    attentionHeads: 64,
    kvHeads: 4,
    headDim: 128,
    totalParams: 235e9,
    activeParams: 22e9, // 8 of 128 experts per token
    vocabSize: 151_936,
    maxContext: 131_072,
    attention: { kind: 'gqa' },
    moe: { experts: 128, activeExperts: 8 }, // config.json num_experts 128, num_experts_per_tok 8
    source: 'Qwen/Qwen3-235B-A22B config.json and model card (Qwen3 Technical Report, arXiv 2505.09388)',
  },
  {
    id: 'deepseek-v3',
    name: 'DeepSeek-V3 (MLA, MoE)',
    layers: 61,
    hiddenSize: 7168,
    attentionHeads: 128,
    kvHeads: 1, // one shared latent per layer
    headDim: 192, // qk_nope_head_dim 128 + qk_rope_head_dim 64
    totalParams: 671e9,
    activeParams: 37e9, // README_WEIGHTS.md: 36.7B activated
    vocabSize: 129_280,
    maxContext: 131_072,
    attention: {
      kind: 'mla',
      kvLoraRank: 512,
      ropeHeadDim: 64,
      qkHeadDim: 192,
      vHeadDim: 128,
      qLoraRank: 1536,
    },
    moe: { experts: 256, activeExperts: 8 }, // inference/model.py ModelArgs n_routed_experts 256, n_activated_experts 8 (plus 1 shared expert, counted as always-active)
    source:
      'deepseek-ai/DeepSeek-V3 README_WEIGHTS.md (61 layers, 671B total, 36.7B activated) and inference/model.py ModelArgs (kv_lora_rank 512, q_lora_rank 1536, qk_rope_head_dim 64, qk_nope_head_dim 128, v_head_dim 128)',
  },
];

export function findModel(id: string): ModelSpec | undefined {
  return MODELS.find((m) => m.id === id);
}

/** Elements cached per token per layer: K and V for each KV head (GQA), or latent + RoPE key (MLA). */
export function kvElementsPerTokenPerLayer(model: ModelSpec): number {
  if (model.attention.kind === 'mla') return model.attention.kvLoraRank + model.attention.ropeHeadDim;
  return 2 * model.kvHeads * model.headDim;
}

/**
 * KV-cache bytes one token occupies across all layers.
 *   GQA: 2 (K and V) × layers × kv_heads × head_dim × bytes/element
 *   MLA: layers × (kv_lora_rank + rope_head_dim) × bytes/element
 */
export function kvBytesPerToken(model: ModelSpec, dtype: Dtype): number {
  return model.layers * kvElementsPerTokenPerLayer(model) * DTYPE_BYTES[dtype];
}

/**
 * Parameters of an MLA model's attention, all layers (0 for GQA): the queries' projections (through the low rank
 * when there is one), the latent's down-projection with the RoPE key, its up-projection to every head's key (the
 * part without RoPE) and value, and the output projection (DeepSeek-V3 inference/model.py, class MLA: wq_a, wq_b,
 * wkv_a, wkv_b, wo; norms left out). DeepSeek-V3: 187 M a layer, 11.4 B in all.
 */
export function mlaAttentionParams(model: ModelSpec): number {
  const a = model.attention;
  if (a.kind !== 'mla') return 0;
  const h = model.hiddenSize;
  const heads = model.attentionHeads;
  const queries = a.qLoraRank ? h * a.qLoraRank + a.qLoraRank * heads * a.qkHeadDim : h * heads * a.qkHeadDim;
  const latentDown = h * (a.kvLoraRank + a.ropeHeadDim);
  const latentUp = a.kvLoraRank * heads * (a.qkHeadDim - a.ropeHeadDim + a.vHeadDim);
  const output = heads * a.vHeadDim * h;
  return model.layers * (queries + latentDown + latentUp + output);
}

/** Bytes of weights at a given dtype (all experts of a MoE are resident). */
export function weightBytes(model: ModelSpec, dtype: Dtype): number {
  return model.totalParams * DTYPE_BYTES[dtype];
}
