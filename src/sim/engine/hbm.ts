/**
 * How much HBM a replica gives its KV cache, the way vLLM's worker works it out at start-up
 * (vllm-project/vllm vllm/v1/worker/gpu_worker.py, `determine_available_memory`):
 *
 *   KV budget = G × (M × u − R) − W
 *
 *   M  the memory the driver reports per GPU (`torch.cuda.mem_get_info()` total; the catalog's memoryBytes)
 *   u  gpu_memory_utilization, the share of M this instance may use (vllm/config/cache.py CacheConfig)
 *   R  the reserve per GPU: what vLLM's profiling run measures besides the weights, i.e. the PyTorch
 *      activation peak of a forward pass at max_num_batched_tokens plus the memory allocated outside PyTorch
 *      (NCCL buffers, cuBLAS workspaces)
 *   W  the weights (split over the G GPUs)
 *
 * Simplified, and what it costs: R is one measured profile (Llama-3-8B on an H100, vLLM PR #10511) applied to
 * every model, not a profile of each model at its own token budget; a wider model or a larger
 * max_num_batched_tokens has a larger activation peak, so the budget here is a little high for those. CUDA
 * graphs are captured after the KV cache is allocated and are not part of the profile (gpu_worker.py
 * `compile_or_warm_up_model`: "memory_profiling does not consider CUDAGraph memory size"); they come out of the
 * (1 − u) headroom, as in vLLM, so they are not subtracted here either.
 */
import type { AcceleratorSpec } from './catalog/accelerators';
import { GPUS_PER_REPLICA } from './hardware';
import { limitRefusal } from './limits';

const GiB = 2 ** 30;

/**
 * vLLM's default gpu_memory_utilization: 0.9 (vllm/engine/arg_utils.py EngineArgs and vllm/config/cache.py
 * CacheConfig through the v0.1x releases). The newest main sets 0.92 (vllm/config/cache.py at 002f10e0); the lab
 * keeps 0.9, the default most published vLLM measurements ran with.
 */
export const VLLM_GPU_MEMORY_UTILIZATION = 0.9;

/**
 * PyTorch activation peak of vLLM's profiling run, per GPU: 1.26 GiB for Meta-Llama-3-8B on an H100, at TP 1 and
 * TP 2 alike (vllm-project/vllm PR #10511, the "Memory profiling results" log in its sanity checks).
 */
export const VLLM_ACTIVATION_PEAK_BYTES = 1.26 * GiB;

/**
 * Memory allocated outside PyTorch per GPU (vllm-project/vllm PR #10511, same log): 1.79 GiB at TP 1, 3.58 GiB at
 * TP 2, where NCCL's buffers join the CUDA context and cuBLAS workspaces.
 */
export const VLLM_NON_TORCH_BYTES = { single: 1.79 * GiB, tensorParallel: 3.58 * GiB } as const;

/** The reserve per GPU vLLM's profiling accounts besides the weights, for `tp` GPUs per replica. */
export function profiledReserveBytesPerGpu(tp: number): number {
  return (
    VLLM_ACTIVATION_PEAK_BYTES + (tp > 1 ? VLLM_NON_TORCH_BYTES.tensorParallel : VLLM_NON_TORCH_BYTES.single)
  );
}

export interface KvBudgetInput {
  accelerator: Pick<AcceleratorSpec, 'memoryBytes'>;
  /** GPUs the replica spans (tensor parallel). */
  gpus: number;
  /** gpu_memory_utilization. */
  memoryUtilization: number;
  /** Bytes of weights over all the GPUs. */
  weightBytes: number;
  /** Reserve per GPU, bytes (default: profiledReserveBytesPerGpu(gpus)). */
  reserveBytesPerGpu?: number;
}

export interface KvBudget {
  /** G × M: what the driver reports over the replica's GPUs. */
  totalBytes: number;
  /** G × M × u: what this instance may use. */
  usableBytes: number;
  /** G × R. */
  reserveBytes: number;
  weightBytes: number;
  /** usable − reserve − weights, at least 0. */
  kvBytes: number;
  /** Whether the weights and the reserve fit in the usable memory. */
  fits: boolean;
}

/** Refuses a GPU count outside GPUS_PER_REPLICA (a RangeError in its words) rather than rounding it into range. */
export function kvBudget(i: KvBudgetInput): KvBudget {
  const why = limitRefusal(GPUS_PER_REPLICA, i.gpus);
  if (why) throw new RangeError(why);
  const gpus = i.gpus;
  const reservePerGpu = i.reserveBytesPerGpu ?? profiledReserveBytesPerGpu(gpus);
  const totalBytes = gpus * i.accelerator.memoryBytes;
  const usableBytes = totalBytes * i.memoryUtilization;
  const reserveBytes = gpus * reservePerGpu;
  const left = usableBytes - reserveBytes - i.weightBytes;
  return {
    totalBytes,
    usableBytes,
    reserveBytes,
    weightBytes: i.weightBytes,
    kvBytes: Math.max(0, left),
    fits: left >= 0,
  };
}
