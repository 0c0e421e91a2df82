import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { formatPercent, formatTokens } from '../../lib/format';
import { acceleratorParam, dtypeParam, modelParam, tpParam } from '../kit/commonParams';
import type { Dtype } from '../../sim/engine/catalog/models';
import type { FootprintRequest } from '../../worker/methods';
import { FOOTPRINT_LIMITS } from '../../worker/limits/hierarchy';
import { controlRange } from '../kit/controlRange';

export const KV_FOOTPRINT_ID = 'kv-footprint';

export const kvFootprintSchema = {
  model: modelParam('llama-3.1-70b'),
  accelerator: acceleratorParam('h100-sxm'),
  gpus: tpParam(8),
  contextTokens: {
    kind: 'number',
    label: 'Agent context',
    default: 100_000,
    // From a short chat to a million tokens, 8× the catalog's longest window.
    ...controlRange(FOOTPRINT_LIMITS.contextTokens, { min: 1_000, max: 1_000_000 }),
    integer: true,
    scale: 'log',
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  kvDtype: dtypeParam('KV-cache dtype', ['bf16', 'fp8', 'fp32']),
  weightDtype: dtypeParam('Weight dtype', ['bf16', 'fp8']),
  memoryUtilization: {
    kind: 'number',
    label: 'Usable share of HBM',
    default: 0.9,
    // The values vLLM deployments use around its 0.9 default.
    ...controlRange(FOOTPRINT_LIMITS.memoryUtilization, { min: 0.5, max: 0.98 }),
    step: 0.01,
    format: (v) => formatPercent(v),
    help: "vLLM's gpu_memory_utilization: the rest is left for activations and the CUDA context",
  },
} satisfies ParamSchema;

/** What the widget asks the worker (kvFootprint; contextsPerModel takes the same without the model). */
export function footprintArgs(v: ParamValues<typeof kvFootprintSchema>): FootprintRequest {
  return {
    modelId: v.model,
    acceleratorId: v.accelerator,
    kvDtype: v.kvDtype as Dtype,
    weightDtype: v.weightDtype as Dtype,
    contextTokens: v.contextTokens,
    gpus: v.gpus,
    memoryUtilization: v.memoryUtilization,
  };
}
