/**
 * Catalog entries as captions and inline figures name them ("Qwen3 32B on 2 × H100 SXM"), an unknown id as itself:
 * one wording for every widget that states the replica it runs.
 */
import { findAccelerator } from './accelerators';
import { findModel } from './models';

export const modelName = (id: string): string => findModel(id)?.name ?? id;

export const acceleratorName = (id: string): string => findAccelerator(id)?.name ?? id;

/** A replica: the model on `gpus` of the accelerator. */
export const replicaName = (modelId: string, gpus: number, acceleratorId: string): string =>
  `${modelName(modelId)} on ${gpus} × ${acceleratorName(acceleratorId)}`;

/** A catalog name without its parenthetical, as running prose says it ("DGX H100 (8 × H100 SXM)" → "DGX H100"). */
export const shortName = (name: string): string => name.replace(/ \(.*\)$/, '');
