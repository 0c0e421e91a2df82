/**
 * One replica as a request names it (catalog model and accelerator ids, GPUs per replica), resolved against the
 * catalog or refused in the reader's words. Every worker method that prices a replica starts here.
 */
import { asRefusal, within } from './badRequest';
import { resolveAccelerator, resolveModel } from '../sim/engine/catalog/index';
import { defaultHardware, type HardwareConfig } from '../sim/engine/cost';
import { GPUS_PER_REPLICA } from '../sim/engine/hardware';
import type { AcceleratorSpec } from '../sim/engine/catalog/accelerators';
import type { ModelSpec } from '../sim/engine/catalog/models';

export interface AcceleratorHardware {
  accelerator: AcceleratorSpec;
  /** The catalog's defaults on `gpus` of the accelerator (hw.tp is the GPU count, checked). */
  hw: HardwareConfig;
}

export interface ReplicaHardware extends AcceleratorHardware {
  model: ModelSpec;
}

/** The hardware alone, for methods that price every model (07.04's contexts per model) or no model (07.05's links). */
export function acceleratorHardware(acceleratorId: string, gpus: number): AcceleratorHardware {
  const checkedGpus = within(GPUS_PER_REPLICA, gpus);
  return asRefusal(() => {
    const accelerator = resolveAccelerator(acceleratorId);
    return { accelerator, hw: defaultHardware(accelerator, checkedGpus) };
  });
}

export function replicaHardware(modelId: string, acceleratorId: string, gpus: number): ReplicaHardware {
  const model = asRefusal(() => resolveModel(modelId));
  return { model, ...acceleratorHardware(acceleratorId, gpus) };
}
