/**
 * A long job's progress where the reader is looking: one line above the widget's picture ("Step 3 of 6 · Replaying
 * the prompt layouts: 12.3M of 48.1M prompt tokens…"), a bar, and **Cancel**. The worker sends the frames
 * (src/worker/progress.ts: none for a job that ends within a quarter second); the picture drawn before stays, dimmed,
 * until the new one is ready. `useCancelToShown` gives a widget driven by its controls what Cancel does: the
 * controls go back to the settings of the picture shown, whose result is kept, so nothing is computed again.
 */
import { useEffect, useRef } from 'react';
import { formatCount, formatNumber } from '../../lib/format';
import { progressFraction, type JobProgress } from '../../worker/progress';
import type { ParamSchema } from '../../state/paramSchema';
import type { WidgetParams } from './useWidgetParams';
import type { StreamingState } from './useSimulation';

/** A count as the line prints it: exact up to 100,000, then 12.3M. */
function count(n: number): string {
  return n < 100_000 ? formatNumber(Math.round(n), 6) : formatCount(n);
}

/** The line's words: stage, what it does, done of total. */
export function progressText(p: JobProgress): string {
  const stage = p.stages !== undefined && p.stages > 1 ? `Step ${p.stage ?? 1} of ${p.stages} · ` : '';
  // No total: a count so far (a fleet run's simulated seconds), or nothing before the first unit.
  const counts =
    p.total > 0
      ? `: ${count(Math.min(p.done, p.total))} of ${count(p.total)} ${p.unit}`
      : p.done > 0
        ? `: ${count(p.done)} ${p.unit} so far`
        : '';
  return `${stage}${p.label}${counts}…`;
}

export function JobProgressLine({
  progress,
  onCancel,
}: {
  progress: JobProgress;
  /** Stops the job (and says what comes back); no button without it. */
  onCancel?: () => void;
}) {
  const fraction = progressFraction(progress);
  return (
    <div
      className="job-progress"
      role="status"
      data-progress-done={progress.done}
      data-progress-total={progress.total}
      data-progress-stage={progress.stage ?? 1}
    >
      <span className="job-progress-text" data-readout="job-progress">
        {progressText(progress)}
      </span>
      <progress
        className="job-progress-bar"
        max={1}
        value={fraction ?? undefined}
        aria-label={`${progress.label}: share done`}
      />
      {onCancel ? (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}

/**
 * Cancel for a widget whose controls start its job: the settings of the last picture drawn for its own settings
 * (or the defaults, before any), put back into the controls. useSimulation keeps that picture's result, so going
 * back draws it at once, and the superseded job stops at its next checkpoint in the worker. Null while there is
 * nothing to go back to (the settings shown are the ones running).
 */
export function useCancelToShown<S extends ParamSchema>(
  params: WidgetParams<S>,
  current: boolean,
): (() => void) | null {
  const shown = useRef<WidgetParams<S>['values'] | null>(null);
  useEffect(() => {
    if (current) shown.current = params.values;
  }, [current, params.values]);
  if (current) return null;
  return () => {
    const back = shown.current;
    if (!back) return params.reset();
    for (const key of Object.keys(back) as (keyof S & string)[])
      if (!Object.is(back[key], params.values[key])) params.set(key, back[key]);
  };
}

/**
 * The progress of a streamed sweep (useStreamingSimulation), for the same line: its points in for the current
 * settings, of all it will have; null once the result for them is in.
 */
export function streamProgress<R, F>(
  sim: StreamingState<R, F>,
  total: number,
  label: string,
  unit: string,
): JobProgress | null {
  const complete = sim.result !== null && !sim.stale && sim.status === 'ready';
  if (complete || sim.status === 'error' || sim.cannotRun) return null;
  return { label, unit, done: Math.min(sim.frames.length, total), total };
}
