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
