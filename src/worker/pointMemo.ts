/**
 * Sweep points remembered by their inputs, in the worker. A step of a slider often leaves most of a sweep's
 * points as they were (the load threshold changes cache-aware routing's points only; returning to a value asks
 * for points computed a moment ago): those come from here at once, and only the changed points are simulated.
 *
 * One run per key is shared by every job that asks for it while it runs: it goes on while any of them still
 * waits, and stops at its next checkpoint once every one of them has been cancelled (then it is forgotten, so a
 * later request runs it again). The memo keeps the most recently used `capacity` points.
 */
import { JobCancelled, type JobContext } from './job';
import { takeTurn } from './turns';

interface Entry<P> {
  promise: Promise<P>;
  waiters: JobContext<unknown>[];
}

export class PointMemo<P> {
  private readonly entries = new Map<string, Entry<P>>();

  constructor(private readonly capacity = 400) {}

  /** True when the point is computed (not only running). */
  has(key: string): boolean {
    const e = this.entries.get(key);
    return e !== undefined && e.waiters.length === 0;
  }

  /**
   * The point for `key`: remembered, joined while it runs, or run now with `run(checkpoint)`. `checkpoint`
   * yields to the worker's event loop and throws JobCancelled once every waiting job has been cancelled.
   */
  get(
    key: string,
    ctx: JobContext<unknown>,
    run: (checkpoint: () => Promise<void>) => Promise<P>,
  ): Promise<P> {
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last, so the oldest is dropped first.
      this.entries.delete(key);
      this.entries.set(key, hit);
      if (hit.waiters.length > 0) hit.waiters.push(ctx);
      return hit.promise;
    }
    const entry: Entry<P> = { promise: Promise.resolve(null as unknown as P), waiters: [ctx] };
    entry.promise = run(async () => {
      // The run takes its turns at the rank of the most urgent job still waiting for it (turns.ts).
      await takeTurn(entry.waiters, entry);
      if (entry.waiters.every((w) => w.isCancelled())) throw new JobCancelled();
    }).then((p) => {
      entry.waiters = [];
      return p;
    });
    entry.promise.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    this.entries.set(key, entry);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return entry.promise;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A sweep point to compute: its memo key and how to run it. */
export interface SweepTask<P> {
  key: string;
  run: (checkpoint: () => Promise<void>) => Promise<P>;
}

/**
 * Compute a sweep's points in the given order (progressive.ts: coarse to fine), streaming each as a frame, with
 * points already in `memo` reused. The first frame is a newly computed point, sent together with the
 * remembered ones, so the first repaint after a change shows something computed for it; when every point is
 * remembered they are all sent at once. Returns the points in `tasks` order.
 */
export async function runSweep<P>(
  tasks: readonly SweepTask<P>[],
  order: readonly number[],
  memo: PointMemo<P>,
  ctx: JobContext<P>,
  /** The point task i stands for, when tasks share a run (default: the run's point). */
  label: (point: P, i: number) => P = (p) => p,
): Promise<P[]> {
  const points: (P | undefined)[] = new Array(tasks.length);
  const remembered = order.filter((i) => memo.has(tasks[i].key));
  const fresh = order.filter((i) => !memo.has(tasks[i].key));
  const compute = async (i: number) => {
    await ctx.checkpoint();
    points[i] = label(await memo.get(tasks[i].key, ctx, tasks[i].run), i);
    return points[i] as P;
  };
  if (fresh.length > 0) await compute(fresh[0]);
  for (const i of remembered) points[i] = label(await memo.get(tasks[i].key, ctx, tasks[i].run), i);
  if (fresh.length > 0) await ctx.emit(points[fresh[0]] as P);
  for (const i of remembered) await ctx.emit(points[i] as P);
  for (const i of fresh.slice(1)) await ctx.emit(await compute(i));
  return points as P[];
}
