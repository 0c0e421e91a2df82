/**
 * Progress of a long job, as the page shows it ("Replaying layout 3 of 6: 12,000,000 of 48,000,000 prompt
 * tokens", with Cancel). The core says how far a cooperative computation is at its yields (`StepProgress`, done of
 * total in a unit of work it counts anyway: engine/cooperative.ts); a worker method names the stage and the unit
 * (`withStage`) and sends the result as its job's frames, the one channel a job has to the page (job.ts `emit`,
 * Comlink's frame callback in client.ts), throttled here so a run of thousands of yields sends a few frames a second.
 * Frames are monotonic (by stage, then done) and the last one of a job that sent any is its last stage at total
 * (a count without a total, total 0, has no such end: its line goes when the result comes).
 */
import type { Checkpoint, StepProgress } from '../sim/engine/cooperative';
import type { JobContext } from './job';

export interface JobProgress extends StepProgress {
  /** What the job is doing now, in the reader's words ("Replaying the prompt layouts"). */
  label: string;
  /** What done and total count, plural ("prompt tokens"). */
  unit: string;
  /** Which stage (from 1) of how many, when the job has several. */
  stage?: number;
  stages?: number;
}

/** A stage of a job: its progress without the counts. */
export type ProgressStage = Omit<JobProgress, 'done' | 'total'>;

/** A job that ends sooner than this sends no progress at all (nothing flickers on a quick redraw). */
export const FIRST_PROGRESS_AFTER_MS = 250;
/** Frames after the first: at most one this often. */
export const PROGRESS_EVERY_MS = 100;

/** The share of a job done, 0–1, counting its stages as equal parts (null when the counts are unknown yet). */
export function progressFraction(p: JobProgress): number | null {
  const stages = p.stages ?? 1;
  const stage = p.stage ?? 1;
  if (!(p.total > 0)) return stages > 1 ? (stage - 1) / stages : null;
  return (stage - 1 + Math.min(1, p.done / p.total)) / stages;
}

/** Is this the last frame a job can send (its last stage at total)? */
function isEnd(p: JobProgress): boolean {
  return p.total > 0 && p.done >= p.total && (p.stage ?? 1) >= (p.stages ?? 1);
}

/**
 * A job's progress frames, throttled by wall time (which only decides whether a frame is sent, never a result):
 * none before `firstAfterMs`, then at most one every `everyMs`, and the end (the last stage at total) always once
 * any was sent, so a shown progress line is never left short of its end.
 */
export class ProgressFrames {
  private readonly started: number;
  private last = -Infinity;
  private sent = 0;
  private ended = false;

  constructor(
    private readonly send: (p: JobProgress) => Promise<void>,
    private readonly firstAfterMs = FIRST_PROGRESS_AFTER_MS,
    private readonly everyMs = PROGRESS_EVERY_MS,
  ) {
    this.started = performance.now();
  }

  /** Send `p` if it is due; resolves when the page took it (the frame channel's backpressure). */
  report(p: JobProgress): Promise<void> | undefined {
    if (this.ended) return undefined;
    const now = performance.now();
    const end = isEnd(p);
    const due = now - this.started >= this.firstAfterMs && now - this.last >= this.everyMs;
    if (!due && !(end && this.sent > 0)) return undefined;
    this.last = now;
    this.sent++;
    if (end) this.ended = true;
    return this.send(p);
  }

  /** The sink a paced checkpoint passes the core's progress to: stage-named progress only. */
  readonly sink = (p: StepProgress): Promise<void> | undefined =>
    'label' in p ? this.report(p as JobProgress) : undefined;
}

/** A job's progress frames over its own frame channel. */
export function progressFrames(ctx: JobContext<JobProgress>): ProgressFrames {
  return new ProgressFrames((p) => ctx.emit(p));
}

/** A checkpoint that names the stage of every progress it passes on (the core's counts, the method's words). */
export function withStage(checkpoint: Checkpoint, stage: ProgressStage): Checkpoint {
  return (p) => checkpoint(p ? { ...stage, done: p.done, total: p.total } : undefined);
}
