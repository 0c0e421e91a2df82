/**
 * Deterministic runs memoised by their arguments and shared by every job that asks for one (a widget and the
 * lesson's prose often ask for the same run). A run goes on while any of its jobs still waits, and stops at its
 * next checkpoint once every one of them has been cancelled, so a superseded request stops the work without
 * failing a neighbour that waits for the same result. The run's progress (progress.ts) goes to every job still
 * waiting, each through its own throttle; a job that joins late gets it from then on.
 */
import type { Checkpoint } from '../sim/engine/cooperative';
import { JobCancelled, type JobContext } from './job';
import { pacedYield } from './pacedCheckpoint';
import { takeTurn } from './turns';
import { ProgressFrames, type JobProgress } from './progress';

interface Waiter {
  ctx: JobContext<unknown>;
  frames: ProgressFrames;
}

interface Entry<T> {
  promise: Promise<T>;
  waiters: Waiter[];
}

function waiter(ctx: JobContext<unknown>): Waiter {
  return { ctx, frames: new ProgressFrames((p) => (ctx as JobContext<JobProgress>).emit(p)) };
}

export class SharedRuns<T> {
  private readonly memo = new Map<string, Entry<T>>();

  constructor(private readonly capacity = 16) {}

  run(key: string, ctx: JobContext<unknown>, compute: (checkpoint: Checkpoint) => Promise<T>): Promise<T> {
    const hit = this.memo.get(key);
    if (hit) {
      if (hit.waiters.length > 0) hit.waiters.push(waiter(ctx));
      return hit.promise;
    }
    const entry: Entry<T> = { promise: Promise.resolve(undefined as T), waiters: [waiter(ctx)] };
    const abandoned = () => {
      if (!entry.waiters.every((w) => w.ctx.isCancelled())) return false;
      // Forget it now, so a request arriving before the rejection settles starts afresh.
      if (this.memo.get(key) === entry) this.memo.delete(key);
      return true;
    };
    // A turn of the event loop every few ms of wall time (pacedCheckpoint.ts); the cancel check at every yield.
    const checkpoint: Checkpoint = pacedYield(
      abandoned,
      async () => {
        await takeTurn(
          entry.waiters.map((w) => w.ctx),
          entry,
        );
        if (abandoned()) throw new JobCancelled();
      },
      undefined,
      (p) => {
        if (!('label' in p)) return undefined;
        // Every waiter, cancelled or not: a cancelled job's frames are dropped by the page (client.ts).
        const sent = entry.waiters
          .map((w) => w.frames.report(p as JobProgress))
          .filter((s) => s !== undefined);
        return sent.length ? Promise.all(sent).then(() => {}) : undefined;
      },
    );
    entry.promise = Promise.resolve()
      .then(() => compute(checkpoint))
      .then((r) => {
        entry.waiters = [];
        return r;
      });
    this.memo.set(key, entry);
    entry.promise.catch(() => {
      if (this.memo.get(key) === entry) this.memo.delete(key);
    });
    if (this.memo.size > this.capacity) this.memo.delete(this.memo.keys().next().value as string);
    return entry.promise;
  }
}
