/**
 * The worker's small methods that belong to no lesson model: the KV footprint (07.04), the catalog's names, and
 * the bridge's self-test. Kept apart from methods.ts so the worker can load them without every lesson's model.
 */
import { BadRequest, within } from './badRequest';
import { ACCELERATORS } from '../sim/engine/catalog/accelerators';
import { MODELS, type Dtype } from '../sim/engine/catalog/models';
import { replicaHardware } from './replicaHardware';
import { computeFootprint, type FootprintResult } from '../sim/engine/footprint';
import type { JobContext } from './job';
import { FOOTPRINT_LIMITS } from './limits/hierarchy';

export interface FootprintRequest {
  modelId: string;
  acceleratorId: string;
  kvDtype: Dtype;
  weightDtype: Dtype;
  contextTokens: number;
  gpus: number;
  memoryUtilization: number;
}

export interface FootprintResponse extends FootprintResult {
  modelName: string;
  acceleratorName: string;
  acceleratorMemoryBytes: number;
  /** For the comparison chart: the same context on every catalog model. */
  perModel: { id: string; name: string; kvBytesPerToken: number; contextBytes: number }[];
}

function kvFootprint(req: FootprintRequest): FootprintResponse {
  const { model, accelerator } = replicaHardware(req.modelId, req.acceleratorId, req.gpus);
  within(FOOTPRINT_LIMITS.contextTokens, req.contextTokens);
  within(FOOTPRINT_LIMITS.memoryUtilization, req.memoryUtilization);
  const result = computeFootprint({ ...req, model, accelerator });
  const perModel = MODELS.map((m) => {
    const r = computeFootprint({ ...req, model: m, accelerator });
    return { id: m.id, name: m.name, kvBytesPerToken: r.kvBytesPerToken, contextBytes: r.contextBytes };
  });
  return {
    ...result,
    modelName: model.name,
    acceleratorName: accelerator.name,
    acceleratorMemoryBytes: accelerator.memoryBytes,
    perModel,
  };
}

/** Contexts that fit against context length, for 07.04's predict-the-shape exercise (the same core as kvFootprint). */
function kvFootprintSweep(
  req: Omit<FootprintRequest, 'contextTokens'> & { contextTokens: readonly number[] },
): { contextTokens: number[]; concurrentContexts: number[] } {
  if (!Array.isArray(req.contextTokens) || req.contextTokens.length < 2 || req.contextTokens.length > 200)
    throw new BadRequest('Give between 2 and 200 context lengths.');
  const concurrentContexts = req.contextTokens.map(
    (contextTokens) => kvFootprint({ ...req, contextTokens }).concurrentContexts,
  );
  return { contextTokens: [...req.contextTokens], concurrentContexts };
}

/** Exercises the bridge's failure path in tests: a method that throws, and one that kills the worker. */
async function selfTest(
  req: { mode: 'ok' | 'throw' | 'slow' | 'busy'; ms?: number },
  ctx: JobContext<number>,
): Promise<string> {
  if (req.mode === 'throw') throw new Error('self-test failure');
  if (req.mode === 'busy') {
    // A job that never yields (as a long synchronous computation would): its worker answers nothing meanwhile.
    const until = performance.now() + Math.min(req.ms ?? 1000, 10_000);
    while (performance.now() < until) {
      /* spin */
    }
    return 'ok';
  }
  if (req.mode === 'slow') {
    for (let i = 0; i < 50; i++) {
      await ctx.emit(i);
      await ctx.checkpoint();
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return 'ok';
}

function catalogSummary() {
  return {
    models: MODELS.map((m) => ({ id: m.id, name: m.name })),
    accelerators: ACCELERATORS.map((a) => ({ id: a.id, name: a.name, memoryBytes: a.memoryBytes })),
  };
}

export const basicMethods = { kvFootprint, kvFootprintSweep, selfTest, catalogSummary };
