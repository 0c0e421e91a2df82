/**
 * The replica a pass runs on and the rates it achieves: tp GPUs of one accelerator, the share of peak FLOP/s its
 * matmuls and its attention reach, the share of HBM bandwidth a memory-bound pass reaches, and the fixed cost of
 * an iteration. src/sim/engine/cost.ts prices passes with them (and re-exports this module).
 *
 * Defaults, each fitted to one published measurement (validation/rows/cost.ts checks them, docs/validation.md):
 *  - gemmEfficiency 0.64 (BF16) and attentionEfficiency 0.56: least-squares fit of relative error to vLLM's
 *    single-request TTFT of Llama-3.1-8B-Instruct on one H100, 10k–100k-token prompts (vLLM blog "Inside vLLM's
 *    New KV Offloading Connector", vllm-project.github.io _posts/2026-01-08-kv-offloading-connector.md, Fig. 1
 *    "GPU Compute" curve, read off the figure). Attention runs below the GEMMs' efficiency (FlashAttention's
 *    softmax and causal tiles), so the long-context end needs the lower figure.
 *  - gemmEfficiency 0.53 under FP8 compute: NVIDIA NIM Llama-3.3-70B-Instruct fp8 TP2 on 2 × H100, TTFT at
 *    concurrency 1 with 5,000 input tokens, 406.77 ms (docs.nvidia.com/nim/benchmarking/llm performance,
 *    NIM 1.8.0), after attention, all-reduce and overhead are taken out.
 *  - mbu 0.8: unchanged (share of HBM bandwidth a decode step streams at).
 *  - iterationOverheadS 2.5 ms: the same NIM table's ITL at concurrency 1 (18.58 ms at 5,000 input tokens,
 *    18.91 ms at 500) less weight/KV streaming and the 160 all-reduces of TP2.
 */
import type { AcceleratorSpec } from './catalog/accelerators';
import { DTYPE_BYTES, type Dtype } from './catalog/models';
import { limit, limitRefusal } from './limits';

export interface HardwareConfig {
  accelerator: AcceleratorSpec;
  /** Tensor-parallel degree = GPUs per replica. */
  tp: number;
  /** Achieved share of peak dense FLOP/s (computeDtype) for the matmuls, 0..1. Default 0.64 (BF16), 0.53 (FP8). */
  gemmEfficiency: number;
  /** Achieved share of peak dense BF16 FLOP/s for attention (scores and values), 0..1. Default 0.56. */
  attentionEfficiency: number;
  /** Decode (and memory-bound) utilisation of HBM bandwidth, 0..1. Default 0.8. */
  mbu: number;
  /** Fixed seconds every iteration costs beyond its roofline and comm (scheduling, sampling, launches). */
  iterationOverheadS: number;
  weightDtype: Dtype;
  kvDtype: Dtype;
  /** Tensor-core dtype of the matmuls; selects the accelerator's bf16Flops or fp8Flops. Default 'bf16'. */
  computeDtype?: 'bf16' | 'fp8';
  /** GPUs per node, which decides when tp spills onto the NIC; default from the node catalog (8). */
  gpusPerNode?: number;
}

/**
 * GPUs one replica may span (tensor parallel), up to eight 8-GPU nodes: what the scenario validator, every worker
 * method and every core function that takes a GPU count accept. The widgets' "GPUs per replica" controls offer a
 * range inside it (tpParam, src/widgets/kit/commonParams.ts).
 */
export const GPUS_PER_REPLICA = limit('GPUs per replica', 1, 64, { integer: true });

/** vLLM, Llama-3.1-8B, 1 × H100, single-request TTFT 10k–100k tokens (see the module comment). */
export const DEFAULT_GEMM_EFFICIENCY = 0.64;
/**
 * The GEMM efficiencies a method that lets the reader set one accepts (07.05's and 07.11's replicas; the shared
 * control, src/widgets/kit/commonParams.ts, offers a range inside it): a share of peak, so at most 1; below 1% a
 * prefill takes hours and no engine runs that slowly.
 */
export const GEMM_EFFICIENCY = limit('the GEMM efficiency', 0.01, 1);
/** NIM Llama-3.3-70B fp8 TP2 TTFT at 5,000 tokens (see the module comment). */
export const DEFAULT_FP8_GEMM_EFFICIENCY = 0.53;
/** vLLM, Llama-3.1-8B, 1 × H100: the quadratic (attention) part of the same TTFT fit. */
export const DEFAULT_ATTENTION_EFFICIENCY = 0.56;
export const DEFAULT_MBU = 0.8;
/** NIM Llama-3.3-70B fp8 TP2 ITL at concurrency 1, less streaming and all-reduce (see the module comment). */
export const DEFAULT_ITERATION_OVERHEAD_S = 2.5e-3;

/** The fitted GEMM efficiency for a compute dtype. */
export function defaultGemmEfficiency(computeDtype: 'bf16' | 'fp8' = 'bf16'): number {
  return computeDtype === 'fp8' ? DEFAULT_FP8_GEMM_EFFICIENCY : DEFAULT_GEMM_EFFICIENCY;
}

export function defaultHardware(accelerator: AcceleratorSpec, tp = 1): HardwareConfig {
  return {
    accelerator,
    tp,
    gemmEfficiency: DEFAULT_GEMM_EFFICIENCY,
    attentionEfficiency: DEFAULT_ATTENTION_EFFICIENCY,
    mbu: DEFAULT_MBU,
    iterationOverheadS: DEFAULT_ITERATION_OVERHEAD_S,
    weightDtype: 'bf16',
    kvDtype: 'bf16',
    computeDtype: 'bf16',
  };
}

function checkShare(name: string, v: number): void {
  if (!(v > 0 && v <= 1)) throw new RangeError(`${name} must be in (0, 1], got ${v}`);
}

function checkHardware(hw: HardwareConfig): void {
  const gpus = limitRefusal(GPUS_PER_REPLICA, hw.tp);
  if (gpus) throw new RangeError(gpus);
  checkShare('gemmEfficiency', hw.gemmEfficiency);
  checkShare('attentionEfficiency', hw.attentionEfficiency);
  checkShare('mbu', hw.mbu);
  if (!(Number.isFinite(hw.iterationOverheadS) && hw.iterationOverheadS >= 0))
    throw new RangeError(`iterationOverheadS must be a finite number ≥ 0, got ${hw.iterationOverheadS}`);
  if (!(hw.weightDtype in DTYPE_BYTES)) throw new RangeError(`unknown weightDtype ${String(hw.weightDtype)}`);
  if (!(hw.kvDtype in DTYPE_BYTES)) throw new RangeError(`unknown kvDtype ${String(hw.kvDtype)}`);
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

/** Achieved GEMM FLOP/s of the whole replica: tp · peak · gemmEfficiency. */
export function effectiveFlops(hw: HardwareConfig): number {
  checkHardware(hw);
  return hw.tp * peakFlops(hw) * hw.gemmEfficiency;
}

/** Achieved attention FLOP/s of the whole replica: tp · peak BF16 · attentionEfficiency. */
export function effectiveAttentionFlops(hw: HardwareConfig): number {
  checkHardware(hw);
  return hw.tp * hw.accelerator.bf16Flops * hw.attentionEfficiency;
}

/** Achieved HBM bytes/s of the whole replica: tp · bandwidth · mbu. */
export function effectiveMemBandwidth(hw: HardwareConfig): number {
  checkHardware(hw);
  return hw.tp * hw.accelerator.memBandwidth * hw.mbu;
}
