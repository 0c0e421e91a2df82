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

export interface ReplicaHardware {
  model: ModelSpec;
  accelerator: AcceleratorSpec;
  hw: HardwareConfig;
}

export function replicaHardware(modelId: string, acceleratorId: string, gpus: number): ReplicaHardware {
  return asRefusal(() => {
    const model = resolveModel(modelId);
    const accelerator = resolveAccelerator(acceleratorId);
    return { model, accelerator, hw: defaultHardware(accelerator, within(GPUS_PER_REPLICA, gpus)) };
  });
}
