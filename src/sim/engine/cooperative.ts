/**
 * Long computations that a caller can pause and cancel, without the core knowing who the caller is.
 *
 * A long loop is written as a generator (`Steps<T>`) that yields every so many units of work (a `Pace` counts
 * them; never the clock, so where it yields is the same on every run and results never depend on time). A yield
 * may carry how far the computation is (`StepProgress`: done of total, in a unit of work the loop counts anyway,
 * such as prompt tokens replayed or requests tabulated), which a caller can show. Two drivers run it:
 * - `finish(steps)` straight through, synchronously (tests, the command line, other core code): the same result
 *   as before, at the cost of one generator step per yield;
 * - `finishCooperatively(steps, checkpoint)` awaits the `Checkpoint` at every yield, passing it the yield's
 *   progress when there is one. A worker passes one that gives its event loop a turn (so a cancel message can
 *   arrive), forwards the progress to the page, and throws when the job was cancelled; the throw ends the
 *   computation there.
 */

/**
 * How far a computation is: `done` of `total` units of its own work (never wall time); done ≤ total, or `total` 0
 * when the end is not known before it comes (a fleet run: simulated seconds so far).
 */
export interface StepProgress {
  done: number;
  total: number;
}

/** Awaited at every yield of a cooperative computation, with its progress if it said; may throw to cancel it. */
export type Checkpoint = (progress?: StepProgress) => Promise<void>;

/** A computation that yields (its progress, or nothing) now and then and returns T. */
export type Steps<T> = Generator<StepProgress | void, T, void>;

/** Run a computation straight through, synchronously. */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Run a computation, awaiting `checkpoint` at each of its yields (straight through when there is none). */
export async function finishCooperatively<T>(steps: Steps<T>, checkpoint?: Checkpoint): Promise<T> {
  if (!checkpoint) return finish(steps);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    try {
      await checkpoint(r.value ?? undefined);
    } catch (e) {
      steps.return(undefined as never);
      throw e;
    }
  }
}

/**
 * Counts units of work and says when a yield is due: `if (pace.due(blocks)) yield;`. One addition and one
 * comparison per call, so it can sit in a hot loop.
 */
export class Pace {
  private done = 0;

  /** @param every units of work between yields (choose it so that is a few to a few tens of milliseconds) */
  constructor(private readonly every: number) {
    if (!(every >= 1)) throw new RangeError(`a pace needs at least 1 unit between yields, got ${every}`);
  }

  due(units = 1): boolean {
    this.done += units;
    if (this.done < this.every) return false;
    this.done = 0;
    return true;
  }
}
