/** What a long-running core function sees of its job: cancellation, cooperative yielding, streamed frames. */
export interface JobContext<Frame = unknown> {
  /** True once a newer request superseded this one or the caller cancelled it. */
  isCancelled(): boolean;
  /**
   * Give the worker's event loop a turn (so a cancel message can arrive) and throw JobCancelled if the job
   * was cancelled meanwhile. Call it every few milliseconds of work.
   */
  checkpoint(): Promise<void>;
  /** Send a frame to the caller and wait until it has taken it (backpressure). */
  emit(frame: Frame): Promise<void>;
  /**
   * How urgent the job is in its worker (turns.ts: smaller first); read at every turn, as a more urgent caller
   * joining the job raises it. Absent in direct calls.
   */
  readonly rank?: number;
}

export class JobCancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'JobCancelled';
  }
}

/** A context for direct calls (tests, the command line): never cancelled, frames go to an optional sink. */
export function directContext<Frame>(sink?: (frame: Frame) => void): JobContext<Frame> {
  return {
    isCancelled: () => false,
    checkpoint: async () => {},
    emit: async (frame) => sink?.(frame),
  };
}
