/**
 * Which worker of the pool takes a job. Two wishes pull apart: a method's caches (a loaded tokenizer, compiled
 * grammars, a parsed trace) live in the worker that ran it last, so it should go back there; but a long job in
 * one widget must never make another widget wait. So: the method's last worker if it is idle, else any idle
 * worker (fewest jobs ever run first, so the pool fills evenly), else the method's last worker (or the least
 * busy) — when every worker is busy, waiting is unavoidable and warm caches win.
 */
export function chooseLane(inFlight: readonly number[], preferred: number | undefined): number {
  if (inFlight.length === 0) throw new RangeError('the pool has no workers');
  if (preferred !== undefined && preferred < inFlight.length && inFlight[preferred] === 0) return preferred;
  const idle = inFlight.indexOf(0);
  if (idle >= 0) return idle;
  if (preferred !== undefined && preferred < inFlight.length) return preferred;
  let best = 0;
  for (let i = 1; i < inFlight.length; i++) if (inFlight[i] < inFlight[best]) best = i;
  return best;
}

/** Workers in the pool: two where the machine has the cores for it, one on a single-core device. */
export function defaultPoolSize(hardwareConcurrency: number | undefined): number {
  return (hardwareConcurrency ?? 2) >= 2 ? 2 : 1;
}
