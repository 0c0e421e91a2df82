/** The economics lab's replica as its captions name it (economicsLabSetup.ts: the model, its GPUs per replica). */
import { findModel } from '../../sim/engine/catalog/models';
import { ECON_MODEL } from '../../sim/lessons/economicsLabSetup';

export const ECON_MODEL_NAME = findModel(ECON_MODEL)?.name ?? ECON_MODEL;
