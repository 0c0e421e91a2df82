import { describe, expect, it } from 'vitest';
import { coarsePassSize, coarseToFine, sweepOrder } from '../src/lib/progressive';
import { PointMemo, runSweep, type SweepTask } from '../src/worker/pointMemo';
import { JobCancelled, directContext, type JobContext } from '../src/worker/job';
import { JobSharing } from '../src/worker/sharedJobs';

describe('coarse-to-fine sweep order', () => {
  it('starts with both ends, then the middle, and visits every index once', () => {
    expect(coarseToFine(0)).toEqual([]);
    expect(coarseToFine(1)).toEqual([0]);
    expect(coarseToFine(2)).toEqual([0, 1]);
    expect(coarseToFine(6)).toEqual([0, 5, 2, 3, 1, 4]);
    expect(coarseToFine(8).slice(0, 3)).toEqual([0, 7, 3]);
    for (let n = 0; n <= 40; n++) {
      const o = coarseToFine(n);
      expect([...o].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
    }
  });

  it('refines evenly: after k points no gap is more than twice the narrowest split', () => {
    const o = coarseToFine(17);
    // After the first 3 points (0, 16, 8) the axis is halved; after 5 it is in quarters.
    expect([...o.slice(0, 5)].sort((a, b) => a - b)).toEqual([0, 4, 8, 12, 16]);
  });

  it('puts every series at each x before the next x, and the coarse pass is both ends of every series', () => {
    const cells = sweepOrder(6, 3);
    expect(cells).toHaveLength(18);
    expect(cells.slice(0, 6)).toEqual([
      { x: 0, series: 0 },
      { x: 0, series: 1 },
      { x: 0, series: 2 },
      { x: 5, series: 0 },
      { x: 5, series: 1 },
      { x: 5, series: 2 },
    ]);
    expect(coarsePassSize(6, 3)).toBe(6);
    expect(coarsePassSize(1, 3)).toBe(3);
    expect(() => coarseToFine(-1)).toThrow(RangeError);
  });
});

function counting(values: Record<string, number>) {
  const runs: string[] = [];
  const tasks: SweepTask<number>[] = Object.keys(values).map((key) => ({
    key,
    run: async (checkpoint) => {
      await checkpoint();
      runs.push(key);
      return values[key];
    },
  }));
  return { tasks, runs };
}

describe('runSweep with a point memo', () => {
  it('computes in the given order, streams each point, and returns them in task order', async () => {
    const memo = new PointMemo<number>();
    const { tasks, runs } = counting({ a: 1, b: 2, c: 3 });
    const frames: number[] = [];
    const out = await runSweep(
      tasks,
      [2, 0, 1],
      memo,
      directContext((f: number) => frames.push(f)),
    );
    expect(out).toEqual([1, 2, 3]);
    expect(runs).toEqual(['c', 'a', 'b']);
    expect(frames).toEqual([3, 1, 2]);
  });

  it('reruns only the points whose inputs changed; the first frame is a newly computed one', async () => {
    const memo = new PointMemo<number>();
    await runSweep(counting({ a: 1, b: 2, c: 3 }).tasks, [0, 1, 2], memo, directContext());
    const next = counting({ a: 1, b2: 20, c: 3 });
    const frames: number[] = [];
    const out = await runSweep(
      next.tasks,
      [0, 1, 2],
      memo,
      directContext((f: number) => frames.push(f)),
    );
    expect(next.runs).toEqual(['b2']);
    expect(out).toEqual([1, 20, 3]);
    expect(frames).toEqual([20, 1, 3]);
  });

  it('labels a shared run per task', async () => {
    const memo = new PointMemo<{ v: number; who: number }>();
    const tasks: SweepTask<{ v: number; who: number }>[] = [0, 1].map(() => ({
      key: 'same',
      run: async () => ({ v: 7, who: -1 }),
    }));
    const out = await runSweep(tasks, [0, 1], memo, directContext(), (p, i) => ({ ...p, who: i }));
    expect(out).toEqual([
      { v: 7, who: 0 },
      { v: 7, who: 1 },
    ]);
  });

  it('keeps the most recent points within its capacity', async () => {
    const memo = new PointMemo<number>(2);
    const ctx = directContext();
    for (const k of ['a', 'b', 'c']) await memo.get(k, ctx, async () => 1);
    expect(memo.size).toBe(2);
    expect(memo.has('a')).toBe(false);
    expect(memo.has('c')).toBe(true);
  });

  it('stops a shared run only when every job waiting for it was cancelled, and forgets it', async () => {
    const memo = new PointMemo<number>();
    let cancelledA = false;
    let cancelledB = false;
    const ctxOf = (flag: () => boolean): JobContext<unknown> => ({
      isCancelled: flag,
      checkpoint: async () => {},
      emit: async () => {},
    });
    let steps = 0;
    const run = async (checkpoint: () => Promise<void>) => {
      for (let i = 0; i < 5; i++) {
        await checkpoint();
        steps++;
        if (i === 1) cancelledA = true;
        if (i === 3) cancelledB = true;
      }
      return 42;
    };
    const a = memo.get(
      'k',
      ctxOf(() => cancelledA),
      run,
    );
    const b = memo.get(
      'k',
      ctxOf(() => cancelledB),
      run,
    );
    await expect(a).rejects.toBeInstanceOf(JobCancelled);
    await expect(b).rejects.toBeInstanceOf(JobCancelled);
    // A was cancelled after step 2 but B still waited; the run stopped once B was cancelled too.
    expect(steps).toBe(4);
    expect(memo.has('k')).toBe(false);
    expect(memo.size).toBe(0);
  });
});

describe('identical requests share one job', () => {
  function fakeJob() {
    let resolve!: (v: number) => void;
    const result = new Promise<number>((r) => (resolve = r));
    const job = { result, cancelled: 0, cancel: () => job.cancelled++ };
    return { job, resolve };
  }

  it('starts one job per key while it runs, and cancels it only when every caller has', async () => {
    const sharing = new JobSharing();
    const started: ReturnType<typeof fakeJob>[] = [];
    const start = () => {
      const j = fakeJob();
      started.push(j);
      return j.job;
    };
    const a = sharing.join('k', start);
    const b = sharing.join('k', start);
    const other = sharing.join('other', start);
    expect(started).toHaveLength(2);
    a.cancel();
    a.cancel();
    expect(started[0].job.cancelled).toBe(0);
    b.cancel();
    expect(started[0].job.cancelled).toBe(1);
    // A new caller after everyone left starts a fresh job.
    sharing.join('k', start);
    expect(started).toHaveLength(3);
    started[1].resolve(5);
    await expect(other.result).resolves.toBe(5);
    await Promise.resolve();
    expect(sharing.size).toBe(1);
  });
});

describe('the router sweep, progressive', async () => {
  const { routerSweep } = await import('../src/worker/routerMethods');
  const { runRouterSweep } = await import('../src/sim/lessons/routing/lab');
  const args = {
    replicas: 2,
    loadThreshold: 8,
    seed: 3,
    arrivalS: 8,
    perReplicaRates: [0.05, 0.1, 0.2],
    policies: ['round-robin', 'cache-aware'] as const,
  };

  it('gives the sequential sweep’s points, and a load-threshold step reruns only cache-aware routing', async () => {
    const frames: unknown[] = [];
    const progressive = await routerSweep(
      { ...args, policies: [...args.policies] },
      directContext((f) => frames.push(f)),
    );
    const sequential = await runRouterSweep({ ...args, policies: [...args.policies] });
    expect(progressive.points).toEqual(sequential.points);
    // Coarse to fine: both ends of the load range before the middle.
    expect(frames.slice(0, 4).map((f) => (f as { sessionsPerS: number }).sessionsPerS)).toEqual([
      0.1, 0.1, 0.4, 0.4,
    ]);

    const stepped = await routerSweep(
      { ...args, loadThreshold: 0, policies: [...args.policies] },
      directContext(),
    );
    progressive.points.forEach((p, i) => {
      if (p.policy === 'round-robin') expect(stepped.points[i]).toBe(p);
      else expect(stepped.points[i]).not.toBe(p);
    });
  });
});

describe('a streaming caller owns its job', () => {
  it('starts its own job, which a later caller without frames joins', () => {
    const sharing = new JobSharing();
    let started = 0;
    const start = () => {
      started++;
      return { result: new Promise<number>(() => {}), cancel: () => {} };
    };
    sharing.join('k', start);
    sharing.join('k', start, true);
    expect(started).toBe(2);
    sharing.join('k', start);
    expect(started).toBe(2);
  });
});
