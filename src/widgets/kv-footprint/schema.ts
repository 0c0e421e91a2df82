import { ACCELERATORS } from '../../sim/catalog/accelerators';
import { MODELS } from '../../sim/catalog/models';
import type { ParamSchema } from '../../state/paramSchema';
import { formatPercent, formatTokens } from '../../lib/format';

export const KV_FOOTPRINT_ID = 'kv-footprint';

export const kvFootprintSchema = {
  model: {
    kind: 'select',
    label: 'Model',
    default: 'llama-3.1-70b',
    options: MODELS.map((m) => ({ value: m.id, label: m.name })),
  },
  accelerator: {
    kind: 'select',
    label: 'Accelerator',
    default: 'h100-sxm',
    options: ACCELERATORS.map((a) => ({ value: a.id, label: a.name })),
  },
  gpus: {
    kind: 'number',
    label: 'GPUs per replica (TP)',
    default: 8,
    min: 1,
    max: 16,
    integer: true,
    unit: 'GPUs',
  },
  contextTokens: {
    kind: 'number',
    label: 'Agent context',
    default: 100_000,
    min: 1_000,
    max: 1_000_000,
    integer: true,
    scale: 'log',
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  kvDtype: {
    kind: 'select',
    label: 'KV-cache dtype',
    default: 'bf16',
    options: [
      { value: 'bf16', label: 'BF16 (2 bytes)' },
      { value: 'fp8', label: 'FP8 (1 byte)' },
      { value: 'fp32', label: 'FP32 (4 bytes)' },
    ],
  },
  weightDtype: {
    kind: 'select',
    label: 'Weight dtype',
    default: 'bf16',
    options: [
      { value: 'bf16', label: 'BF16 (2 bytes)' },
      { value: 'fp8', label: 'FP8 (1 byte)' },
    ],
  },
  memoryUtilization: {
    kind: 'number',
    label: 'Usable share of HBM',
    default: 0.9,
    min: 0.5,
    max: 0.98,
    step: 0.01,
    format: (v) => formatPercent(v),
    help: "vLLM's gpu_memory_utilization: the rest is left for activations and the CUDA context",
  },
} satisfies ParamSchema;
