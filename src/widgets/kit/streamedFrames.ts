/**
 * The frames a streamed widget holds (kit/useSimulation.ts, useStreamingSimulation): those of the run streaming
 * now, and those of the run whose result is shown, kept because its arguments can come back without a job.
 */
/** The frames of the run streaming now (its arguments and job), and those of the run whose result is shown. */
export interface Streamed<F> {
  key: string | null;
  job: number;
  frames: F[];
  kept: { key: string; frames: F[] } | null;
}

export const NO_STREAM: Streamed<never> = { key: null, job: 0, frames: [], kept: null };

/**
 * `s` with a batch of frames of job `job` (for arguments `key`) added. A batch of another job starts a new run,
 * which replaces the frames of any earlier run of the same arguments; the run it replaces is kept when its
 * result is the one shown (`shownKey`), since its arguments can come back without a job.
 */
export function withBatch<F>(
  s: Streamed<F>,
  key: string | null,
  job: number,
  batch: F[],
  shownKey: string | null,
): Streamed<F> {
  if (s.key === key && s.job === job) return { ...s, frames: [...s.frames, ...batch] };
  const kept =
    s.key !== null && s.key !== key && s.key === shownKey ? { key: s.key, frames: s.frames } : s.kept;
  return { key, job, frames: batch, kept: kept?.key === key ? null : kept };
}

/** What a FrameStream needs from its host (the hook: requestAnimationFrame and React state). */
export interface FrameStreamHost<F> {
  /** Call `flush` later, once (the hook: at the next animation frame); returns a handle for `cancel`. */
  schedule(flush: () => void): unknown;
  cancel(handle: unknown): void;
  /** The frames held now, a new value each time (the hook: `startTransition(() => setStreamed(s))`). */
  publish(s: Streamed<F>): void;
}

/**
 * A streamed run's frames as they arrive, held outside React: frames that arrive within one animation frame are
 * handed over together, and each hand-over publishes the whole `Streamed` value, never an update of the one
 * before. React computes a functional state update eagerly against the state it last rendered when it thinks
 * the component has no pending update, and it can think so while an earlier update of the same component is
 * still queued (an update that arrives while a concurrent render is in progress and is in a lane that render
 * covers: the render bails out of the component and clears its lane before the update is in the hook's queue).
 * An update computed that way replaced the one before it: one batch of frames was lost, the widget held fewer
 * frames than its run sent, and it said "Computing…" for good (docs/reliability.md). A published value does not
 * depend on the state it replaces, so whichever updates React applies, the last one holds every frame.
 */
export class FrameStream<F> {
  private state: Streamed<F> = NO_STREAM;
  private buffer: { key: string | null; job: number; frames: F[] } = { key: null, job: 0, frames: [] };
  /** Frames received for the buffer's run (its arguments and job), handed over or not. */
  private received = 0;
  private scheduled: { handle: unknown } | null = null;
  /** The arguments of the result shown (`withBatch`'s `shownKey`). */
  private shown: string | null = null;

  constructor(private readonly host: FrameStreamHost<F>) {}

  /** The frames held (the last value published). */
  get current(): Streamed<F> {
    return this.state;
  }

  /** The arguments of the result shown now (the run with them is kept when a newer one starts). */
  showing(key: string | null): void {
    this.shown = key;
  }

  /** A frame of job `job`, run for arguments `key`. */
  push(key: string | null, job: number, frame: F): void {
    if (this.buffer.key !== key || this.buffer.job !== job) {
      // The last frames of the run before go in first, so that it is kept whole.
      this.flush();
      this.buffer = { key, job, frames: [] };
      this.received = 0;
    }
    this.buffer.frames.push(frame);
    this.received++;
    this.scheduleFlush();
  }

  /** Hand the buffered frames over now. */
  flush(): void {
    const { key, job, frames } = this.buffer;
    if (frames.length === 0) return;
    this.buffer = { key, job, frames: [] };
    this.state = withBatch(this.state, key, job, frames, this.shown);
    this.host.publish(this.state);
  }

  /** No more hand-overs on a schedule (the component's effects are torn down); frames wait in the buffer. */
  pause(): void {
    if (this.scheduled === null) return;
    this.host.cancel(this.scheduled.handle);
    this.scheduled = null;
  }

  /** Hand-overs again (the component's effects are set up), starting with any frames that waited. */
  resume(): void {
    if (this.buffer.frames.length > 0) this.scheduleFlush();
  }

  /** For diagnostics: the run being received, its frames so far, those waiting, and the run held. */
  stats() {
    return {
      receiving: { key: this.buffer.key, job: this.buffer.job, frames: this.received },
      buffered: this.buffer.frames.length,
      scheduled: this.scheduled !== null,
      held: { key: this.state.key, job: this.state.job, frames: this.state.frames.length },
    };
  }

  private scheduleFlush(): void {
    if (this.scheduled !== null) return;
    const slot: { handle: unknown } = { handle: null };
    this.scheduled = slot;
    slot.handle = this.host.schedule(() => {
      if (this.scheduled !== slot) return;
      this.scheduled = null;
      this.flush();
    });
  }
}
