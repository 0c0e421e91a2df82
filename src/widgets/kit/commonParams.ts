/**
 * Parameters that many widgets share (model, accelerator, tensor parallelism, GEMM efficiency), declared once so that
 * their labels, ranges and help read the same in every lesson.
 */
import { ACCELERATORS } from '../../sim/engine/catalog/accelerators';
import { DTYPE_BYTES, MODELS, type Dtype } from '../../sim/engine/catalog/models';
import { formatPercent } from '../../lib/format';
import { DEFAULT_GEMM_EFFICIENCY, GEMM_EFFICIENCY } from '../../sim/engine/cost';
import { controlRange } from './controlRange';
import type { NumberParam, SelectParam } from '../../state/paramSchema';
import { GPUS_PER_REPLICA } from '../../sim/engine/hardware';

export const MODEL_OPTIONS = MODELS.map((m) => ({ value: m.id, label: m.name }));
export const ACCELERATOR_OPTIONS = ACCELERATORS.map((a) => ({ value: a.id, label: a.name }));

/** Any catalog model. */
export function modelParam(defaultId = 'llama-3.1-70b'): SelectParam {
  return { kind: 'select', label: 'Model', default: defaultId, options: MODEL_OPTIONS };
}

/** Any catalog accelerator. */
export function acceleratorParam(defaultId = 'h100-sxm'): SelectParam {
  return { kind: 'select', label: 'Accelerator', default: defaultId, options: ACCELERATOR_OPTIONS };
}

/** A choice of number format, each labelled with its bytes per element from the catalog ("FP8 (1 byte)"). */
export function dtypeParam(label: string, dtypes: readonly Dtype[]): SelectParam {
  const option = (d: Dtype) => {
    const bytes = DTYPE_BYTES[d];
    return { value: d, label: `${d.toUpperCase()} (${bytes} byte${bytes === 1 ? '' : 's'})` };
  };
  return { kind: 'select', label, default: dtypes[0], options: dtypes.map(option) };
}

/**
 * What every widget's "GPUs per replica" control offers of the core's GPUS_PER_REPLICA (1–64): up to two 8-GPU
 * nodes, since a linear slider to 64 would be too coarse to read.
 */
export const GPUS_PER_REPLICA_OFFERED = { min: GPUS_PER_REPLICA.min, max: 16 } as const;

/** GPUs one replica is sharded over (tensor parallel). */
export function tpParam(defaultGpus = 8): NumberParam {
  return {
    kind: 'number',
    label: 'GPUs per replica (TP)',
    default: defaultGpus,
    ...controlRange(GPUS_PER_REPLICA, GPUS_PER_REPLICA_OFFERED),
    integer: true,
    unit: 'GPUs',
  };
}

/**
 * Achieved share of peak FLOP/s for the matmuls (attention has its own, fixed at the fitted default and shown
 * beside each figure). Default: the fit to vLLM's Llama-3.1-8B H100 TTFT curve (src/sim/engine/cost.ts).
 */
export function gemmEfficiencyParam(defaultEfficiency = DEFAULT_GEMM_EFFICIENCY): NumberParam {
  return {
    kind: 'number',
    label: 'GEMM efficiency',
    default: defaultEfficiency,
    // Under 10% no engine's matmuls run; the core accepts down to 1%.
    ...controlRange(GEMM_EFFICIENCY, { min: 0.1, max: 1 }),
    step: 0.01,
    format: (v) => formatPercent(v),
    help: 'Share of peak BF16 FLOP/s the matmuls achieve (fitted to vLLM on H100: 64%)',
  };
}

/** How a control that picks a turn (a position, not an amount) shows its value: "turn 10", never "10 turn". */
export const formatTurnNumber = (turn: number): string => `turn ${turn}`;
