/// <reference lib="webworker" />
/** The web worker: runs the simulation core off the main thread, exposed through Comlink. */
import * as Comlink from 'comlink';
import { JobCancelled, type JobContext } from './job';
import type { MethodName } from './methods';
import { loadMethod } from './methodLoaders';

const cancelled = new Set<number>();
/** Set by crash(): later calls hang, as they would in a worker that is going down. */
let dying = false;

const api = {
  async call(jobId: number, method: MethodName, args: unknown, onFrame?: (frame: unknown) => Promise<void>) {
    if (dying) return new Promise(() => {});
    const fn = (await loadMethod(method)) as unknown as
      ((a: unknown, ctx: JobContext) => unknown) | undefined;
    if (!fn) throw new Error(`The worker has no method "${String(method)}".`);
    const ctx: JobContext = {
      isCancelled: () => cancelled.has(jobId),
      async checkpoint() {
        await new Promise((r) => setTimeout(r, 0));
        if (cancelled.has(jobId)) throw new JobCancelled();
      },
      async emit(frame) {
        if (onFrame) await onFrame(frame);
      },
    };
    try {
      return await fn(args, ctx);
    } finally {
      cancelled.delete(jobId);
    }
  },
  cancel(jobId: number) {
    cancelled.add(jobId);
  },
  /** Answered between a long job's checkpoints; the client's watchdog (watchdog.ts) waits for it. */
  ping() {
    return true;
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
