/** The economics lab's replica as its captions name it (economicsLabSetup.ts: the model, its GPUs per replica). */
import { modelName } from '../../sim/engine/catalog/names';
import { ECON_MODEL } from '../../sim/lessons/economicsLabSetup';

export const ECON_MODEL_NAME = modelName(ECON_MODEL);
