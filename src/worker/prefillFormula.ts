/**
 * The constants of a replica's prefill, for the formulas widgets print beside their figures:
 * t_tok(c) = 2 · body / (G · F · e_GEMM) + a · (c + 1) / (G · F · e_attn) + β, plus what every prefill iteration
 * pays whatever its length. One object for 07.02's cold turn, 07.10's timeline and 07.11's re-prefill, so the
 * three lessons print the same constants under the same names.
 */
import {
  allReducePerTokenTime,
  effectiveAttentionFlops,
  effectiveFlops,
  iterationFixedTime,
  type HardwareConfig,
} from '../sim/engine/cost';
import { attentionFlopsPerPair, bodyParams } from '../sim/engine/flopsAndBytes';
import type { ModelSpec } from '../sim/engine/catalog/models';

export interface PrefillFormula {
  /** 2 · P_body: FLOPs per prefilled token outside attention. */
  bodyFlopsPerToken: number;
  /** a = 2 · L · H · (d_qk + d_v): attention FLOPs per (query, key) pair. */
  attentionFlopsPerPair: number;
  /** G · F · e_GEMM, FLOP/s (the matmuls). */
  effectiveFlops: number;
  /** G · F · e_attn, FLOP/s (attention). */
  attentionFlops: number;
  gemmEfficiency: number;
  attentionEfficiency: number;
  /** β: the tensor-parallel all-reduce bytes of one token over the link, s per token (0 on one GPU). */
  allReducePerTokenS: number;
  /** All-reduce latencies and the engine's overhead, paid by every prefill iteration, s. */
  iterationFixedS: number;
  peakFlopsPerGpu: number;
  /** G: GPUs per replica. */
  gpus: number;
}

export function prefillFormula(model: ModelSpec, hw: HardwareConfig): PrefillFormula {
  return {
    bodyFlopsPerToken: 2 * bodyParams(model),
    attentionFlopsPerPair: attentionFlopsPerPair(model, 'prefill'),
    effectiveFlops: effectiveFlops(hw),
    attentionFlops: effectiveAttentionFlops(hw),
    gemmEfficiency: hw.gemmEfficiency,
    attentionEfficiency: hw.attentionEfficiency,
    allReducePerTokenS: allReducePerTokenTime(model, hw),
    iterationFixedS: iterationFixedTime(model, hw),
    peakFlopsPerGpu: hw.accelerator.bf16Flops,
    gpus: hw.tp,
  };
}
