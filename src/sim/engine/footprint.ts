/**
 * KV footprint of one agent context against an accelerator's memory: the first question of lesson 07.04
 * ("how many agents' caches fit on this machine?").
 */
import { type AcceleratorSpec } from './catalog/accelerators';
import {
  DTYPE_BYTES,
  kvBytesPerToken,
  mlaAttentionParams,
  weightBytes,
  type Dtype,
  type ModelSpec,
} from './catalog/models';
import { kvReplication } from './flopsAndBytes';
import { kvBudget } from './hbm';
import { GPUS_PER_REPLICA } from './hardware';
import { limitRefusal } from './limits';

export interface FootprintInput {
  model: ModelSpec;
  accelerator: AcceleratorSpec;
  kvDtype: Dtype;
  weightDtype: Dtype;
  /** Tokens in one agent context. */
  contextTokens: number;
  /** Accelerators the model is sharded over (tensor parallel); KV and weights split evenly. GPUS_PER_REPLICA. */
  gpus: number;
  /** Share of HBM the engine may use (vLLM's gpu_memory_utilization, default 0.9). */
  memoryUtilization: number;
  /** Activation and non-PyTorch reserve per GPU, bytes (default: vLLM's profiled reserve, see hbm.ts). */
  reserveBytesPerGpu?: number;
}

export interface FootprintPoint {
  tokens: number;
  bytes: number;
}

export interface FootprintResult {
  /** One copy of a token's KV (the model's figure, lesson 07.04's table). */
  kvBytesPerToken: number;
  /** Copies of it the replica's GPUs hold together (footprintKvCopies): 1 unless the GPUs outnumber the KV heads. */
  kvCopies: number;
  /** Bytes of KV one context occupies across all GPUs (every copy). */
  contextBytes: number;
  /** The weights the replica's GPUs hold together (footprintWeightBytes): every copy of a replicated part counted. */
  weightBytesTotal: number;
  /** Of which: the copies of an MLA model's attention weights beyond the first (data-parallel attention), bytes. */
  replicatedAttentionBytes: number;
  /** usable HBM = gpus × memory (as the driver reports it) × utilisation */
  usableHbmBytes: number;
  /** gpus × the activation and non-PyTorch reserve vLLM's profiling accounts (hbm.ts) */
  reserveBytes: number;
  /** KV budget = usable HBM − reserve − weights (≥ 0) */
  kvBudgetBytes: number;
  /** Whether the weights and the reserve fit in the usable memory. */
  weightsFit: boolean;
  /** Tokens of KV that fit in the budget (every copy counted). */
  maxCachedTokens: number;
  /** Whole agent contexts of this size that fit at once. */
  concurrentContexts: number;
  /** Share of the KV budget one context uses. */
  contextShareOfBudget: number;
  /** Bytes against context length, for the chart. */
  curve: FootprintPoint[];
  /** The same context's bytes for every KV dtype, for the comparison bars. */
  perDtype: { dtype: Dtype; contextBytes: number }[];
}

/**
 * Copies of each token's KV a replica of `gpus` GPUs holds. vLLM gives every GPU whole KV heads: with more GPUs than
 * KV heads each head is stored on gpus / kvHeads of them (kvReplication; Qwen3-235B-A22B's 4 heads over 8 GPUs: 2
 * copies). An MLA latent is counted once: the footprint assumes data-parallel attention, the setting large MLA
 * deployments turn on (SGLang `--enable-dp-attention`; vLLM data parallelism with expert parallelism), each GPU
 * holding its own sequences' latents, as lesson 07.04 says; its price is footprintWeightBytes's. Plain tensor
 * parallelism, the engines' default, copies the latent to every GPU (the fleet simulator prices that: one latent a
 * GPU).
 */
export function footprintKvCopies(model: ModelSpec, gpus: number): number {
  return model.attention.kind === 'mla' ? 1 : kvReplication(model, gpus);
}

/**
 * Weights a replica of `gpus` GPUs holds together. Under data-parallel attention (an MLA model, footprintKvCopies)
 * every GPU runs attention for its own sequences and so holds the whole attention weights; the rest (the MoE
 * experts, the embeddings) stays sharded. DeepSeek-V3 in FP8 on 8 GPUs: 7 more copies of 11.4 GB, 80 GB.
 */
export function footprintWeightBytes(model: ModelSpec, dtype: Dtype, gpus: number): number {
  return weightBytes(model, dtype) + replicatedAttentionBytes(model, dtype, gpus);
}

function replicatedAttentionBytes(model: ModelSpec, dtype: Dtype, gpus: number): number {
  return Math.max(0, gpus - 1) * mlaAttentionParams(model) * DTYPE_BYTES[dtype];
}

/** A GPU count outside GPUS_PER_REPLICA is refused in its words (a RangeError), not rounded into range. */
export function computeFootprint(input: FootprintInput): FootprintResult {
  const { model, accelerator, kvDtype, weightDtype } = input;
  const why = limitRefusal(GPUS_PER_REPLICA, input.gpus);
  if (why) throw new RangeError(why);
  const gpus = input.gpus;
  const tokens = Math.max(0, Math.floor(input.contextTokens));
  const util = Math.min(1, Math.max(0, input.memoryUtilization));
  const perToken = kvBytesPerToken(model, kvDtype);
  const copies = footprintKvCopies(model, gpus);
  const replicaPerToken = perToken * copies;
  const contextBytes = replicaPerToken * tokens;
  const weightsTotal = footprintWeightBytes(model, weightDtype, gpus);
  const hbm = kvBudget({
    accelerator,
    gpus,
    memoryUtilization: util,
    weightBytes: weightsTotal,
    reserveBytesPerGpu: input.reserveBytesPerGpu,
  });
  const budget = hbm.kvBytes;
  const maxCachedTokens = Math.floor(budget / replicaPerToken);
  const curve: FootprintPoint[] = [];
  const top = Math.max(tokens, model.maxContext);
  const steps = 64;
  for (let i = 0; i <= steps; i++) {
    const t = Math.round((top * i) / steps);
    curve.push({ tokens: t, bytes: t * replicaPerToken });
  }
  const perDtype = (['fp32', 'bf16', 'fp8'] as Dtype[]).map((d) => ({
    dtype: d,
    contextBytes: (replicaPerToken / DTYPE_BYTES[kvDtype]) * DTYPE_BYTES[d] * tokens,
  }));
  return {
    kvBytesPerToken: perToken,
    kvCopies: copies,
    contextBytes,
    weightBytesTotal: weightsTotal,
    replicatedAttentionBytes: replicatedAttentionBytes(model, weightDtype, gpus),
    usableHbmBytes: hbm.usableBytes,
    reserveBytes: hbm.reserveBytes,
    kvBudgetBytes: budget,
    weightsFit: hbm.fits,
    maxCachedTokens,
    concurrentContexts: tokens > 0 ? Math.floor(budget / contextBytes) : 0,
    contextShareOfBudget: budget > 0 ? contextBytes / budget : Infinity,
    curve,
    perDtype,
  };
}
