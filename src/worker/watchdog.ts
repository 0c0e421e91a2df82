/**
 * Notices a worker that has gone silent: one that closed itself, or is stuck in a loop that never yields, sends
 * no `error` event, so without this every widget waiting on it would stay busy forever.
 *
 * While calls are in flight, the client pings the worker every `intervalMs`; a worker answers between a long
 * job's checkpoints (they yield to its event loop every few milliseconds). When no answer has come for
 * `silentAfterMs`, `onSilent` fires once and the client treats the worker as crashed. Timers are injected so
 * the logic is unit-tested without a worker.
 */
export interface WatchdogOptions {
  /** Sends one ping; resolves when the worker answers (never, if it is gone). */
  ping: () => Promise<unknown>;
  onSilent: (silentForMs: number) => void;
  intervalMs?: number;
  silentAfterMs?: number;
  now?: () => number;
  setInterval?: (fn: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
}

export const DEFAULT_SILENT_AFTER_MS = 15_000;

export class Watchdog {
  private handle: unknown = null;
  private lastAnswer = 0;
  private waiting = false;
  private readonly o: Required<WatchdogOptions>;

  constructor(options: WatchdogOptions) {
    this.o = {
      intervalMs: 1_000,
      silentAfterMs: DEFAULT_SILENT_AFTER_MS,
      now: () => performance.now(),
      setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
      clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
      ...options,
    };
  }

  get running(): boolean {
    return this.handle !== null;
  }

  /** Start watching (idempotent): call when a job starts. */
  start(): void {
    if (this.handle !== null) return;
    this.lastAnswer = this.o.now();
    this.waiting = false;
    this.handle = this.o.setInterval(() => this.tick(), this.o.intervalMs);
  }

  /** Stop watching: call when no job is in flight, or the worker was replaced. */
  stop(): void {
    if (this.handle === null) return;
    this.o.clearInterval(this.handle);
    this.handle = null;
  }

  private tick(): void {
    const silentFor = this.o.now() - this.lastAnswer;
    if (silentFor >= this.o.silentAfterMs) {
      this.stop();
      this.o.onSilent(silentFor);
      return;
    }
    if (this.waiting) return;
    this.waiting = true;
    const watched = this.handle;
    this.o.ping().then(
      () => {
        if (this.handle !== watched) return;
        this.waiting = false;
        this.lastAnswer = this.o.now();
      },
      () => {},
    );
  }
}
