/**
 * Which worker of the pool takes a job. Three wishes pull apart: a job whose method and arguments are already
 * being computed (a widget that streams and a figure that quotes the same sweep) should go where that job runs,
 * since its runs are memoised there and would otherwise be computed twice; a method's caches (a loaded tokenizer,
 * compiled grammars, a parsed trace) live in the worker that ran it last, so it should go back there; but a job
 * must not wait behind a busy worker's queue (a worker takes its jobs' turns in order: turns.ts) while another is
 * freer. So: the same work's worker; else the method's last worker if it is idle; else any idle worker (fewest
 * jobs ever run first, so the pool fills evenly); else the least busy, the method's last worker among equals.
 */
export function chooseLane(
  inFlight: readonly number[],
  preferred: number | undefined,
  sameWork?: number,
): number {
  if (inFlight.length === 0) throw new RangeError('the pool has no workers');
  if (sameWork !== undefined && sameWork < inFlight.length) return sameWork;
  if (preferred !== undefined && preferred < inFlight.length && inFlight[preferred] === 0) return preferred;
  const idle = inFlight.indexOf(0);
  if (idle >= 0) return idle;
  let best = preferred !== undefined && preferred < inFlight.length ? preferred : 0;
  for (let i = 0; i < inFlight.length; i++) if (inFlight[i] < inFlight[best]) best = i;
  return best;
}

/** Workers in the pool: two where the machine has the cores for it, one on a single-core device. */
export function defaultPoolSize(hardwareConcurrency: number | undefined): number {
  return (hardwareConcurrency ?? 2) >= 2 ? 2 : 1;
}
