/**
 * Worker methods of lesson 07.11 (context compaction): what an edit does to the prefix cache of the next
 * request, and when a compaction pays back. Plain structured-cloneable arguments (catalog ids); every figure
 * comes from src/sim/lessons/compaction.ts, src/sim/engine/kvcache/hash.ts and src/sim/engine/cost.ts.
 */
import { asRefusal, asRefusalSteps, BadRequest, within } from './badRequest';
import { replicaHardware } from './replicaHardware';
import { prefillFormula, type PrefillFormula } from './prefillFormula';
import {
  buildPrompt,
  cacheAfterEditSteps,
  editPrompt,
  type CacheAfterEdit,
  type Edit,
  type SessionShape,
} from '../sim/lessons/compaction';
import {
  paybackSeries,
  prefillClock,
  type PaybackParams,
  type PaybackResult,
  type Prices,
} from '../sim/lessons/compactionPayback';
import { fitted } from './fitted';
import { finish, finishCooperatively, type Steps } from '../sim/engine/cooperative';
import type { JobContext } from './job';
import { pacedCheckpoint } from './pacedCheckpoint';
import { kvBytesPerToken } from '../sim/engine/catalog/models';
import { prefillCost, GEMM_EFFICIENCY } from '../sim/engine/cost';
import { limitRefusal } from '../sim/engine/limits';
import { EDIT_LIMITS } from '../sim/lessons/compactionLimits';

export interface ReplicaChoice {
  modelId: string;
  acceleratorId: string;
  tp: number;
  gemmEfficiency: number;
}

function replica(r: ReplicaChoice) {
  const { model, hw } = replicaHardware(r.modelId, r.acceleratorId, r.tp);
  return { model, hw: { ...hw, gemmEfficiency: within(GEMM_EFFICIENCY, r.gemmEfficiency) } };
}

/** The replica the re-prefill runs on: its names, its prefill constants (prefillFormula.ts) and its KV. */
export interface ReplicaInfo extends PrefillFormula {
  modelName: string;
  acceleratorName: string;
  kvBytesPerToken: number;
  maxContext: number;
}

function replicaInfo(r: ReplicaChoice): ReplicaInfo {
  const { model, hw } = replica(r);
  return {
    modelName: model.name,
    acceleratorName: hw.accelerator.name,
    ...prefillFormula(model, hw),
    kvBytesPerToken: kvBytesPerToken(model, hw.kvDtype),
    maxContext: model.maxContext,
  };
}

// ---------------------------------------------------------------------------------------------------------

export interface EditRequest extends ReplicaChoice {
  shape: SessionShape;
  edit: Edit;
  blockSize: number;
}

export interface EditResult extends CacheAfterEdit {
  applied: Edit;
  replica: ReplicaInfo;
  /** Seconds to prefill the edited prompt's misses on top of its hits (cost.ts prefillTime), and without edit. */
  reprefillSeconds: number;
  reprefillFlops: number;
  reprefillBound: 'compute' | 'memory';
  baselineSeconds: number;
  deadBytes: number;
}

export function compactionEdit(req: EditRequest): EditResult {
  return finish(compactionEditSteps(req));
}

/** The worker's compactionEdit: cooperative, so a newer request cancels it inside its hashing and lookup. */
function compactionEditCooperative(req: EditRequest, ctx: JobContext): Promise<EditResult> {
  return finishCooperatively(compactionEditSteps(req), pacedCheckpoint(ctx));
}

function* compactionEditSteps(req: EditRequest): Steps<EditResult> {
  const { model, hw } = replica(req);
  const why = limitRefusal(EDIT_LIMITS.blockSize, req.blockSize);
  if (why) throw new BadRequest(why);
  const before = asRefusal(() => buildPrompt(req.shape));
  const { prompt, applied } = asRefusal(() => editPrompt(before, req.shape.turns, req.edit));
  const c = yield* asRefusalSteps(cacheAfterEditSteps(before, prompt, req.blockSize));
  return asRefusal(() => {
    const cost = prefillCost(model, hw, c.reprefillTokens, c.hitTokens);
    const base = prefillCost(
      model,
      hw,
      c.baselineReprefillTokens,
      c.tokensBefore - c.baselineReprefillTokens,
    );
    const info = replicaInfo(req);
    return {
      ...c,
      applied,
      replica: info,
      reprefillSeconds: cost.time,
      reprefillFlops: cost.flops,
      reprefillBound: cost.computeTime >= cost.memoryTime ? 'compute' : 'memory',
      baselineSeconds: base.time,
      deadBytes: c.deadTokens * info.kvBytesPerToken,
    };
  });
}

// ---------------------------------------------------------------------------------------------------------

export interface PaybackRequest extends ReplicaChoice {
  params: Omit<PaybackParams, 'limitTokens'> & { limitTokens?: number };
  prices: Prices;
}

export interface PaybackResponse extends PaybackResult {
  params: PaybackParams;
  prices: Prices;
  replica: ReplicaInfo;
}

export function compactionPayback(req: PaybackRequest): PaybackResponse {
  const { model, hw } = replica(req);
  const params: PaybackParams = { ...req.params, limitTokens: req.params.limitTokens ?? model.maxContext };
  return asRefusal(() => {
    const res = paybackSeries(params, req.prices, prefillClock(model, hw));
    return { ...res, params, prices: req.prices, replica: replicaInfo(req) };
  });
}

export const compactionMethods = {
  // As the widgets call them: a replica with no room for KV is a "cannot run" outcome (fitted.ts).
  compactionEdit: fitted('tp', compactionEditCooperative),
  compactionPayback: fitted('tp', compactionPayback),
};
