/**
 * The core's cooperative computations (src/sim/engine/cooperative.ts) yield every few ms of work, counted in work
 * units. Giving the worker's event loop a turn costs more than that: a `setTimeout(0)` chained from a timer is
 * clamped to 4 ms in browsers, so yielding at every one of the core's yields would add seconds to a run with
 * thousands of them. This adapter checks for a cancel at every yield (cheap) but gives the event loop a turn
 * (where a cancel message and the watchdog's ping are answered) only when `everyMs` of wall time have passed
 * since the last turn. Where the core yields stays deterministic; the clock decides only whether a yield waits,
 * which never changes a result. The progress a yield carries goes to `onProgress` (progress.ts throttles it).
 */
import type { Checkpoint, StepProgress } from '../sim/engine/cooperative';
import { JobCancelled, type JobContext } from './job';

export const YIELD_EVERY_MS = 15;

/** A Checkpoint for the core from a job: cancel checks at every yield, an event-loop turn every `everyMs`. */
export function pacedCheckpoint(
  ctx: JobContext<never>,
  onProgress?: ProgressSink,
  everyMs = YIELD_EVERY_MS,
): Checkpoint {
  return pacedYield(
    () => ctx.isCancelled(),
    () => ctx.checkpoint(),
    everyMs,
    onProgress,
  );
}

/** Where a checkpoint passes the core's progress (may wait for the page to take a frame). */
export type ProgressSink = (progress: StepProgress) => Promise<void> | undefined;

/** The same from a cancel test and a turn of the event loop (which may throw to cancel). */
export function pacedYield(
  isCancelled: () => boolean,
  turn: () => Promise<void>,
  everyMs = YIELD_EVERY_MS,
  onProgress?: ProgressSink,
): Checkpoint {
  let last = performance.now();
  return async (progress) => {
    if (isCancelled()) throw new JobCancelled();
    if (progress && onProgress) {
      const sent = onProgress(progress);
      if (sent) await sent;
    }
    if (performance.now() - last < everyMs) return;
    await turn();
    last = performance.now();
  };
}
