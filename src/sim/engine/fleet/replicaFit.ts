/**
 * When a replica has no room for KV: the outcome a reader sees, with the changes that would fit (more GPUs per
 * replica, or the largest catalog model that fits the same GPUs). The fit itself is the scenario's own (its
 * `fitsAt`), so what this suggests is what resolveScenario then accepts.
 */
import { findAccelerator, type AcceleratorSpec } from '../catalog/accelerators';
import { findModel, MODELS, weightBytes, type Dtype, type ModelSpec } from '../catalog/models';
import { cannotRun, type CannotRun, type CannotRunFix } from '../cannotRun';
import { kvBudget, VLLM_GPU_MEMORY_UTILIZATION, type KvBudget } from '../hbm';
import { GPUS_PER_REPLICA } from '../cost';
import { replicaKvBytesPerToken } from '../flopsAndBytes';
import { withinLimit } from '../limits';
import { defaultPageTokens, ENGINE_BLOCK_SIZE } from '../blocks';

/** GPUs per replica: one Limit, declared beside the hardware it sizes (engine/hardware.ts), re-exported beside the fixes that step through it. */
export { GPUS_PER_REPLICA };

export interface NoRoomInput {
  model: ModelSpec;
  accelerator: Pick<AcceleratorSpec, 'name'>;
  gpus: number;
  memoryUtilization: number;
  budget: KvBudget;
  /** Whether `model` on `gpus` GPUs leaves at least one KV block (the scenario's test). */
  fitsAt(gpus: number, model: ModelSpec): boolean;
}

const GB = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

export function noRoomForKv(i: NoRoomInput): CannotRun {
  const fixes: CannotRunFix[] = [];
  for (let g = i.gpus + 1; g <= GPUS_PER_REPLICA.max; g++)
    if (i.fitsAt(g, i.model)) {
      fixes.push({ label: `Use ${g} GPUs per replica`, set: { gpus: g } });
      break;
    }
  // The largest model (by parameters) that fits the GPUs as they are.
  const smaller = MODELS.filter((m) => m.id !== i.model.id && i.fitsAt(i.gpus, m)).sort(
    (a, b) => b.totalParams - a.totalParams,
  )[0];
  if (smaller) fixes.push({ label: `Use ${smaller.name}`, set: { modelId: smaller.id } });
  const gpus = `${i.gpus} × ${i.accelerator.name}`;
  return cannotRun(
    `${i.model.name} does not fit on ${gpus}: its weights (${GB(i.budget.weightBytes)}) and the engine's reserve ` +
      `(${GB(i.budget.reserveBytes)}) fill the ${GB(i.budget.usableBytes)} the engine may use ` +
      `(${Math.round(i.memoryUtilization * 100)}% of ${GB(i.budget.totalBytes)}), leaving no room for the KV cache. ` +
      `A replica needs more GPUs, or a smaller model.`,
    fixes,
  );
}

/**
 * For the analytic widgets that time a replica without simulating it (prefill timelines, compaction, reload or
 * recompute): whether `model` on `gpus` × `accelerator` leaves room for one KV page under vLLM's defaults, the same
 * budget (engine/hbm.ts) and page the fleet simulator's replica uses at its defaults (BF16 weights and KV, 90% of
 * memory, vLLM's profiled reserve); null when it does, else the outcome with its fixes. Unknown ids or a GPU count out
 * of range give null: the method's own checks word those.
 */
export function replicaCannotRun(
  modelId: string,
  acceleratorId: string,
  gpus: number,
  dtypes: { weight?: Dtype; kv?: Dtype } = {},
): CannotRun | null {
  const model = findModel(modelId);
  const accelerator = findAccelerator(acceleratorId);
  if (!model || !accelerator) return null;
  if (!withinLimit(GPUS_PER_REPLICA, gpus)) return null;
  const util = VLLM_GPU_MEMORY_UTILIZATION;
  const budgetOf = (g: number, m: ModelSpec) =>
    kvBudget({
      accelerator,
      gpus: g,
      memoryUtilization: util,
      weightBytes: weightBytes(m, dtypes.weight ?? 'bf16'),
    });
  const page = defaultPageTokens(ENGINE_BLOCK_SIZE);
  const fitsAt = (g: number, m: ModelSpec) =>
    Math.floor(budgetOf(g, m).kvBytes / (replicaKvBytesPerToken(m, dtypes.kv ?? 'bf16', g) * page)) >= 1;
  if (fitsAt(gpus, model)) return null;
  return noRoomForKv({
    model,
    accelerator,
    gpus,
    memoryUtilization: util,
    budget: budgetOf(gpus, model),
    fitsAt,
  });
}
