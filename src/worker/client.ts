/**
 * The main thread's side of the worker bridge: one lazily created module worker, typed calls, cancellation
 * of superseded requests, streamed frames, and a restart when the worker dies.
 */
import * as Comlink from 'comlink';
import type { WorkerApi } from './sim.worker';
import type { MethodArgs, MethodFrame, MethodName, MethodResult } from './methods';
import { DEFAULT_SILENT_AFTER_MS, Watchdog } from './watchdog';

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
}

interface Pending {
  reject(error: Error): void;
}

export interface CallOptions<F> {
  onFrame?: (frame: F) => void;
}

export interface Job<R> {
  id: number;
  result: Promise<R>;
  cancel(): void;
}

export class SimClient {
  private worker: Worker | null = null;
  private remote: Comlink.Remote<WorkerApi> | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private readonly watchdog: Watchdog;

  constructor(options: SimClientOptions = {}) {
    this.watchdog = new Watchdog({
      ping: () => this.remote?.ping() ?? Promise.resolve(),
      silentAfterMs: options.silentAfterMs ?? DEFAULT_SILENT_AFTER_MS,
      onSilent: (ms) => this.fail(`it did not answer for ${Math.round(ms / 1000)} s`),
    });
  }

  private ensure(): Comlink.Remote<WorkerApi> {
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

  /** Reject everything in flight and drop the worker; the next call starts a fresh one. */
  private fail(detail: string) {
    this.watchdog.stop();
    const err = new WorkerCrashed(detail);
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
    this.remote = null;
  }

  call<M extends MethodName>(
    method: M,
    args: MethodArgs<M>,
    options: CallOptions<MethodFrame<M>> = {},
  ): Job<MethodResult<M>> {
    const id = this.nextId++;
    let remote: Comlink.Remote<WorkerApi>;
    try {
      remote = this.ensure();
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      return { id, result: Promise.reject(error), cancel: () => {} };
    }
    let settled = false;
    const result = new Promise<MethodResult<M>>((resolve, reject) => {
      this.pending.set(id, { reject });
      this.watchdog.start();
      const onFrame = options.onFrame
        ? Comlink.proxy(async (frame: unknown) => {
            if (!settled) options.onFrame!(frame as MethodFrame<M>);
          })
        : undefined;
      remote
        .call(id, method, args, onFrame)
        .then(
          (r) => resolve(r as MethodResult<M>),
          (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
        )
        .finally(() => {
          settled = true;
          this.pending.delete(id);
          if (this.pending.size === 0) this.watchdog.stop();
        });
    });
    return {
      id,
      result,
      cancel: () => {
        settled = true;
        if (this.remote === remote) void remote.cancel(id).catch(() => {});
      },
    };
  }

  /** Test hook: make the worker throw outside any call, as a real crash would. */
  crashForTest(delayMs = 0) {
    void this.ensure().crash(delayMs);
  }

  /** Test hook: make the worker go silent (close itself, no error event), as a hung worker would. */
  silenceForTest() {
    void this.ensure().silence();
  }

  dispose() {
    this.fail('disposed');
  }
}
