/**
 * The main thread's side of the worker bridge: a small pool of lazily created module workers, typed calls,
 * cancellation of superseded requests, streamed frames, a watchdog per worker, and a restart when one dies.
 * A long job in one widget never blocks another while a worker is idle (lanes.ts says which worker takes a job).
 */
import * as Comlink from 'comlink';
import type { WorkerApi } from './sim.worker';
import type { MethodArgs, MethodFrame, MethodName, MethodResult } from './methods';
import { DEFAULT_SILENT_AFTER_MS, Watchdog } from './watchdog';
import { chooseLane, defaultPoolSize } from './lanes';
import { JobSharing } from './sharedJobs';
import type { Priority } from './turns';

export class WorkerCrashed extends Error {
  constructor(detail: string) {
    super(`The simulation worker stopped unexpectedly (${detail}). It has been restarted.`);
    this.name = 'WorkerCrashed';
  }
}

/** The browser would not start a worker (Workers disabled, or a script policy refused it). */
export class WorkerUnavailable extends Error {
  constructor(detail: string) {
    super(
      `This browser did not start the lab's simulation worker (${detail}). The lab computes every figure in a ` +
        'Web Worker: try a current Chrome, Firefox, Safari or Edge with scripts allowed for this site.',
    );
    this.name = 'WorkerUnavailable';
  }
}

export interface SimClientOptions {
  /** A worker that answers no ping for this long while a job runs is treated as crashed. Default 15 s. */
  silentAfterMs?: number;
  /** Workers in the pool. Default: 2 (1 on a single-core device). */
  poolSize?: number;
}

export interface CallOptions<F> {
  onFrame?: (frame: F) => void;
  /**
   * Calls of one method with the same share key (its arguments, serialised) while one is in flight share that
   * job (sharedJobs.ts). A call with onFrame always starts its own job (a late joiner would miss the frames
   * already sent), which calls without onFrame may then join.
   */
  shareKey?: string;
  /**
   * How urgent the job is in its worker (turns.ts): 'initial' for a widget's or figure's first request (taken in
   * the order the page asks), 'interactive' for a later one (the reader moved a control: it goes first).
   */
  priority?: Priority;
}

export interface Job<R> {
  id: number;
  result: Promise<R>;
  cancel(): void;
  raise?(priority: Priority): void;
}

/** One worker and what is in flight on it. */
class Lane {
  worker: Worker | null = null;
  remote: Comlink.Remote<WorkerApi> | null = null;
  readonly pending = new Map<number, (error: Error) => void>();
  readonly watchdog: Watchdog;

  constructor(silentAfterMs: number) {
    this.watchdog = new Watchdog({
      ping: () => this.remote?.ping() ?? Promise.resolve(),
      silentAfterMs,
      onSilent: (ms) => this.fail(`it did not answer for ${Math.round(ms / 1000)} s`),
    });
  }

  ensure(): Comlink.Remote<WorkerApi> {
    if (this.remote) return this.remote;
    if (typeof Worker === 'undefined') throw new WorkerUnavailable('this browser has no Worker');
    let worker: Worker;
    try {
      worker = new Worker(new URL('./sim.worker.ts', import.meta.url), { type: 'module', name: 'sim' });
    } catch (e) {
      throw new WorkerUnavailable(e instanceof Error ? e.message : String(e));
    }
    worker.addEventListener('error', (e) => this.fail(e.message || 'uncaught error'));
    worker.addEventListener('messageerror', () => this.fail('a message could not be read'));
    this.worker = worker;
    this.remote = Comlink.wrap<WorkerApi>(worker);
    return this.remote;
  }

  /** Reject everything in flight and drop the worker; the next call on this lane starts a fresh one. */
  fail(detail: string) {
    this.watchdog.stop();
    const err = new WorkerCrashed(detail);
    for (const reject of this.pending.values()) reject(err);
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
    this.remote = null;
  }
}

/**
 * When the page sets `window.__salJobTiming = true` (the browser bench does), every job leaves a User Timing
 * measure `sim <method> lane <n> <done|cancelled>` from its call to its settling, to read with
 * performance.getEntriesByType('measure') or in a Chromium trace. Off by default: measures would pile up.
 */
function jobTiming(method: string, lane: number): ((how: string) => void) | null {
  const g = globalThis as { __salJobTiming?: boolean; performance?: Performance };
  if (!g.__salJobTiming || !g.performance?.measure) return null;
  const start = g.performance.now();
  return (how) => g.performance!.measure(`sim ${method} lane ${lane} ${how}`, { start });
}

/** A job as the client saw it, for the test build's diagnostics (`debugState`, debugHandles.ts). */
export interface JobRecord {
  id: number;
  method: string;
  lane: number;
  started: number;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  /** Frames handed to the caller, and frames that arrived after the job settled or was cancelled (dropped). */
  frames: number;
  dropped: number;
}

/** Jobs remembered for diagnostics: those in flight and the latest settled ones. */
const JOB_RECORDS = 64;

export class SimClient {
  private nextId = 1;
  private readonly records = new Map<number, JobRecord>();
  private readonly lanes: Lane[];
  /** Where each method ran last, so its worker-side caches are reused. */
  private readonly laneOf = new Map<MethodName, number>();
  private readonly sharing = new JobSharing();
  /** The worker of each job in flight by its method and arguments (chooseLane's "same work"). */
  private readonly laneOfWork = new Map<string, { lane: number; jobs: number }>();

  constructor(options: SimClientOptions = {}) {
    const size =
      options.poolSize ??
      defaultPoolSize(typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency);
    const silent = options.silentAfterMs ?? DEFAULT_SILENT_AFTER_MS;
    this.lanes = Array.from({ length: Math.max(1, size) }, () => new Lane(silent));
  }

  call<M extends MethodName>(
    method: M,
    args: MethodArgs<M>,
    options: CallOptions<MethodFrame<M>> = {},
  ): Job<MethodResult<M>> {
    if (options.shareKey !== undefined) {
      let id = 0;
      const shared = this.sharing.join(
        `${method}\u0000${options.shareKey}`,
        () => {
          const job = this.start(method, args, {
            onFrame: options.onFrame,
            priority: options.priority,
            shareKey: options.shareKey,
          });
          id = job.id;
          return job;
        },
        options.onFrame !== undefined,
        options.priority,
      );
      return { id: id || this.nextId++, ...shared };
    }
    return this.start(method, args, options);
  }

  /**
   * Start every worker of the pool now (module fetch and evaluation) rather than at the first call: the lesson
   * page calls this as soon as its route is known, so the workers load while React renders the lesson.
   */
  warm(): void {
    for (const lane of this.lanes) {
      try {
        lane.ensure();
      } catch {
        /* no Worker here: the first call reports it */
      }
    }
  }

  private start<M extends MethodName>(
    method: M,
    args: MethodArgs<M>,
    options: CallOptions<MethodFrame<M>>,
  ): Job<MethodResult<M>> {
    const id = this.nextId++;
    const work = options.shareKey === undefined ? undefined : `${method}\u0000${options.shareKey}`;
    const index = chooseLane(
      this.lanes.map((l) => l.pending.size),
      this.laneOf.get(method),
      work === undefined ? undefined : this.laneOfWork.get(work)?.lane,
    );
    let workDone = false;
    const leaveWork = () => {
      if (work === undefined || workDone) return;
      workDone = true;
      const w = this.laneOfWork.get(work);
      if (w && --w.jobs <= 0) this.laneOfWork.delete(work);
    };
    const lane = this.lanes[index];
    let remote: Comlink.Remote<WorkerApi>;
    try {
      remote = lane.ensure();
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      return { id, result: Promise.reject(error), cancel: () => {} };
    }
    if (work !== undefined) {
      const w = this.laneOfWork.get(work) ?? { lane: index, jobs: 0 };
      w.jobs++;
      this.laneOfWork.set(work, w);
    }
    this.laneOf.set(method, index);
    const timing = jobTiming(method, index);
    const record: JobRecord = {
      id,
      method,
      lane: index,
      started: performance.now(),
      state: 'running',
      frames: 0,
      dropped: 0,
    };
    this.remember(record);
    let settled = false;
    const result = new Promise<MethodResult<M>>((resolve, reject) => {
      lane.pending.set(id, reject);
      lane.watchdog.start();
      const onFrame = options.onFrame
        ? Comlink.proxy(async (frame: unknown) => {
            if (settled) {
              record.dropped++;
              return;
            }
            record.frames++;
            options.onFrame!(frame as MethodFrame<M>);
          })
        : undefined;
      remote
        .call(id, method, args, onFrame, options.priority ?? 'initial')
        .then(
          (r) => {
            if (record.state === 'running') record.state = 'done';
            resolve(r as MethodResult<M>);
          },
          (e: unknown) => {
            if (record.state === 'running') record.state = 'failed';
            reject(e instanceof Error ? e : new Error(String(e)));
          },
        )
        .finally(() => {
          leaveWork();
          timing?.(settled ? 'cancelled' : 'done');
          settled = true;
          lane.pending.delete(id);
          if (lane.pending.size === 0) lane.watchdog.stop();
        });
    });
    return {
      id,
      result,
      cancel: () => {
        settled = true;
        leaveWork();
        if (record.state === 'running') record.state = 'cancelled';
        // No longer counted as this worker's load (chooseLane): it stops at its next checkpoint, and the
        // request that replaces it should go back to this worker, where its method's memos are.
        lane.pending.delete(id);
        if (lane.remote === remote) void remote.cancel(id).catch(() => {});
      },
      raise: (priority) => {
        if (!settled && lane.remote === remote) void remote.raise(id, priority).catch(() => {});
      },
    };
  }

  private remember(record: JobRecord) {
    this.records.set(record.id, record);
    if (this.records.size <= JOB_RECORDS) return;
    for (const [id, r] of this.records) {
      if (r.state === 'running') continue;
      this.records.delete(id);
      break;
    }
  }

  /**
   * What the client knows now, for diagnostics (the test build's `__salDebug.report()`): the jobs in flight and
   * the latest settled ones, with the frames each handed over, and each worker's pending jobs.
   */
  debugState() {
    const now = performance.now();
    return {
      lanes: this.lanes.map((l, i) => ({
        lane: i,
        worker: l.remote !== null,
        pending: [...l.pending.keys()],
        watchdog: l.watchdog.running,
      })),
      jobs: [...this.records.values()].map((r) => ({
        ...r,
        started: undefined,
        ms: Math.round(now - r.started),
      })),
    };
  }

  /** Each live worker's own account of its jobs in flight (sim.worker.ts, `jobs`); "no answer" after 2 s. */
  async debugWorkers(): Promise<unknown[]> {
    return Promise.all(
      this.lanes.map((l) =>
        l.remote
          ? Promise.race([l.remote.jobs(), new Promise((r) => setTimeout(() => r('no answer in 2 s'), 2000))])
          : Promise.resolve('no worker'),
      ),
    );
  }

  /** Test hook: make every worker throw outside any call, as a real crash would. */
  crashForTest(delayMs = 0) {
    for (const lane of this.lanes) void lane.ensure().crash(delayMs);
  }

  /** Test hook: make every worker go silent (close itself, no error event), as a hung worker would. */
  silenceForTest() {
    for (const lane of this.lanes) void lane.ensure().silence();
  }

  dispose() {
    for (const lane of this.lanes) lane.fail('disposed');
  }
}
