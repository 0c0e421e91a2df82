/// <reference lib="webworker" />
/** The web worker: runs the simulation core off the main thread, exposed through Comlink. */
import * as Comlink from 'comlink';
import { JobCancelled, type JobContext } from './job';
import type { MethodName } from './methods';
import { loadMethod } from './methodLoaders';
import { rankOf, takeTurn, type Priority, type Rank } from './turns';

const cancelled = new Set<number>();
/** Each job's rank in this worker's turns (turns.ts), raised when a more urgent caller joins it. */
const ranks = new Map<number, Rank>();

/** A job in flight here, as `jobs()` reports it (diagnostics: what a widget that waits for good is waiting on). */
interface JobTrace {
  method: string;
  started: number;
  /** Its method's module is loaded (the job runs). */
  loaded: boolean;
  /** Frames sent to the caller, and those it has taken (emit resolved). */
  emitted: number;
  taken: number;
}
const running = new Map<number, JobTrace>();
/** Set by crash(): later calls hang, as they would in a worker that is going down. */
let dying = false;

async function run(
  jobId: number,
  method: MethodName,
  args: unknown,
  trace: JobTrace,
  onFrame?: (frame: unknown) => Promise<void>,
): Promise<unknown> {
  const fn = (await loadMethod(method)) as unknown as ((a: unknown, ctx: JobContext) => unknown) | undefined;
  if (!fn) throw new Error(`The worker has no method "${String(method)}".`);
  trace.loaded = true;
  const ctx: JobContext = {
    isCancelled: () => cancelled.has(jobId),
    get rank() {
      return ranks.get(jobId) ?? 0;
    },
    async checkpoint() {
      await takeTurn([ctx], ctx);
      if (cancelled.has(jobId)) throw new JobCancelled();
    },
    async emit(frame) {
      if (!onFrame) return;
      trace.emitted++;
      await onFrame(frame);
      trace.taken++;
    },
  };
  return fn(args, ctx);
}

const api = {
  async call(
    jobId: number,
    method: MethodName,
    args: unknown,
    onFrame?: (frame: unknown) => Promise<void>,
    priority: Priority = 'initial',
  ) {
    if (dying) return new Promise(() => {});
    const trace: JobTrace = { method, started: performance.now(), loaded: false, emitted: 0, taken: 0 };
    running.set(jobId, trace);
    ranks.set(jobId, rankOf(priority, jobId));
    try {
      return await run(jobId, method, args, trace, onFrame);
    } finally {
      cancelled.delete(jobId);
      running.delete(jobId);
      ranks.delete(jobId);
    }
  },
  cancel(jobId: number) {
    cancelled.add(jobId);
  },
  /** A more urgent caller joined the job (client.ts): it takes its turns at that rank from now on. */
  raise(jobId: number, priority: Priority) {
    const r = ranks.get(jobId);
    if (r !== undefined) ranks.set(jobId, Math.min(r, rankOf(priority, jobId)));
  },
  /** Answered between a long job's checkpoints; the client's watchdog (watchdog.ts) waits for it. */
  ping() {
    return true;
  },
  /** The jobs in flight in this worker, for the test build's diagnostics (debugHandles.ts). */
  jobs() {
    const now = performance.now();
    return [...running].map(([id, t]) => ({
      id,
      method: t.method,
      ms: Math.round(now - t.started),
      loaded: t.loaded,
      emitted: t.emitted,
      taken: t.taken,
      cancelled: cancelled.has(id),
    }));
  },
  /** For the watchdog's test: stop without an error event, as a worker stuck or closed would look. */
  silence() {
    dying = true;
    setTimeout(() => self.close(), 0);
  },
  /** For the bridge's own test: an uncaught error that kills this worker's event loop turn. */
  crash(delayMs = 0) {
    dying = true;
    setTimeout(() => {
      throw new Error('deliberate worker crash');
    }, delayMs);
  },
};

export type WorkerApi = typeof api;
Comlink.expose(api);
