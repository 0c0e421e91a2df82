/**
 * A worker method as a widget calls it when it times one replica without simulating it (07.05's reload or
 * recompute, 07.07's tool-schema widgets, 07.10's prefill, 07.11's compaction): a replica whose weights and the
 * engine's reserve leave no room for KV is a "cannot run" outcome (engine/fleet/replicaFit.ts) the widget draws,
 * not a figure for a replica that could not start. The unwrapped method stays exported for the tests and for
 * the lessons' fixed figures, whose settings are known to fit.
 */
import type { CannotRun } from '../sim/engine/cannotRun';
import { replicaCannotRun } from '../sim/engine/fleet/replicaFit';

/** The request fields a replica's fit is read from: catalog ids and the GPUs per replica (named `gpusField`). */
type ReplicaIds<K extends string> = { modelId: string; acceleratorId: string } & Record<K, number>;

export function fitted<K extends 'gpus' | 'tp', R extends ReplicaIds<K>, A extends unknown[], T>(
  gpusField: K,
  f: (req: R, ...rest: A) => T,
): (req: R, ...rest: A) => T | CannotRun {
  return (req, ...rest) =>
    replicaCannotRun(req.modelId, req.acceleratorId, req[gpusField]) ?? f(req, ...rest);
}
