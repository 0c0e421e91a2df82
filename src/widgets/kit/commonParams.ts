/**
 * Parameters that many widgets share (model, accelerator, tensor parallelism, MFU), declared once so that
 * their labels, ranges and help read the same in every lesson.
 */
import { ACCELERATORS } from '../../sim/engine/catalog/accelerators';
import { MODELS } from '../../sim/engine/catalog/models';
import { formatPercent } from '../../lib/format';
import type { NumberParam, SelectParam } from '../../state/paramSchema';

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

/** GPUs one replica is sharded over (tensor parallel). */
export function tpParam(defaultGpus = 8): NumberParam {
  return {
    kind: 'number',
    label: 'GPUs per replica (TP)',
    default: defaultGpus,
    min: 1,
    max: 16,
    integer: true,
    unit: 'GPUs',
  };
}

/** Prefill model-FLOP utilisation. */
export function mfuParam(defaultMfu = 0.5): NumberParam {
  return {
    kind: 'number',
    label: 'Prefill MFU',
    default: defaultMfu,
    min: 0.1,
    max: 1,
    step: 0.05,
    format: (v) => formatPercent(v),
    help: 'Share of peak BF16 FLOP/s that prefill achieves',
  };
}
