/** `--model` and `--gpu`, shared by the commands that cost a model on an accelerator. */
import { stringFlag, UsageError, type ParsedArgs } from '../args';
import { ACCELERATORS } from '../../src/sim/engine/catalog/accelerators';
import { MODELS } from '../../src/sim/engine/catalog/models';
import type { FlagHelp } from './index';

export const MODEL_FLAG: FlagHelp = {
  name: 'model',
  value: '<id>',
  default: '(required)',
  meaning: `catalog model: ${MODELS.map((m) => m.id).join(', ')}`,
};

export const GPU_FLAG: FlagHelp = {
  name: 'gpu',
  value: '<id>',
  default: '(required)',
  meaning: `catalog accelerator: ${ACCELERATORS.map((a) => a.id).join(', ')}`,
};

/** The two catalog ids, required, with the choices listed when one is missing. */
export function modelAndGpuIds(args: ParsedArgs): { modelId: string; gpuId: string } {
  const modelId = stringFlag(args, 'model');
  if (!modelId) throw new UsageError(`--model is required (one of: ${MODELS.map((m) => m.id).join(', ')})`);
  const gpuId = stringFlag(args, 'gpu');
  if (!gpuId) throw new UsageError(`--gpu is required (one of: ${ACCELERATORS.map((a) => a.id).join(', ')})`);
  return { modelId, gpuId };
}
