/**
 * Ask the worker for a result whenever the arguments change. A newer request cancels the older one (its
 * result is ignored even if it arrives), errors become a state with a retry, and frames stream in. A result the
 * core returns as "cannot run" (src/sim/engine/cannotRun.ts) is kept apart from the results: the widget's frame
 * draws it as a state of the picture, and `result` stays the last one computed (shown again once a setting runs).
 * Results are deterministic in their arguments, so going back to the arguments of the result shown (Cancel, or a
 * slider moved away and back before its job ended) settles at once, without a job.
 */
import { startTransition, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useSimClient } from '../../app/services';
import type { MethodArgs, MethodFrame, MethodName, MethodResult } from '../../worker/methods';
import type { JobProgress } from '../../worker/progress';
import { isCannotRun, type CannotRun } from '../../sim/engine/cannotRun';
import { FrameStream, NO_STREAM, type Streamed } from './streamedFrames';
import { registerSimDebug, SIM_DEBUG, type SimDebugSnapshot } from './simDebug';

/** A method's computed results, without its "cannot run" outcome. */
export type Computed<R> = Exclude<R, CannotRun>;

export type SimStatus = 'loading' | 'ready' | 'error';

export interface SimulationState<R> {
  status: SimStatus;
  result: R | null;
  error: string | null;
  /** True while a newer request runs and the shown result belongs to older arguments. */
  stale: boolean;
  /** The core's answer that the current settings cannot run (why, and what would), or null. */
  cannotRun: CannotRun | null;
  /** The arguments (serialised) `result` was computed for, or null. */
  resultKey: string | null;
  retry(): void;
}

interface Settled<R> {
  /** Which request (arguments and attempt) this outcome answers. */
  request: string;
  result: R | null;
  cannotRun: CannotRun | null;
  error: string | null;
}

export function useSimulation<M extends MethodName>(
  method: M,
  args: MethodArgs<M> | null,
  onFrame?: (frame: MethodFrame<M>, job: number) => void,
  /** More of the caller's state for the diagnostics snapshot (simDebug.ts). */
  describe?: () => SimDebugSnapshot,
  /**
   * How urgent the first request is in the worker (src/worker/turns.ts): 'initial' in the page's reading order, or
   * 'deferred' for a figure only the prose quotes (useDeferredSimulation). Later requests follow a moved control.
   */
  first: 'initial' | 'deferred' = 'initial',
): SimulationState<Computed<MethodResult<M>>> {
  const client = useSimClient();
  const [attempt, setAttempt] = useState(0);
  const [settled, setSettled] = useState<Settled<Computed<MethodResult<M>>> | null>(null);
  const [lastResult, setLastResult] = useState<Computed<MethodResult<M>> | null>(null);
  const [lastKey, setLastKey] = useState<string | null>(null);
  const [cannotRun, setCannotRun] = useState<CannotRun | null>(null);
  const key = args === null ? null : JSON.stringify(args);
  const request = `${attempt}:${key}`;
  const frameRef = useRef(onFrame);
  /** Counts the jobs started, so that a stream can tell a new run of the same arguments from the last one. */
  const jobs = useRef(0);
  /** The arguments (serialised) of lastResult. */
  const resultKey = useRef<string | null>(null);
  const streams = onFrame !== undefined;
  /** The last job started and what became of it, and the committed state, for the diagnostics (simDebug.ts). */
  const lastJob = useRef<{ job: number; outcome: string }>({ job: 0, outcome: 'none' });
  const debug = useRef<SimDebugSnapshot>({});
  const describeRef = useRef(describe);
  // Before the request's layout effect below, so its first frames reach the handler for its own arguments.
  useLayoutEffect(() => {
    frameRef.current = onFrame;
  }, [onFrame]);

  // A layout effect, not a passive one: the request leaves before the browser lays out and paints the page the
  // component is part of (a whole lesson at first load, hundreds of ms on a slow CPU), so the worker computes
  // meanwhile.
  useLayoutEffect(() => {
    if (key === null) return;
    if (key === resultKey.current && lastResult !== null) {
      setSettled({ request, result: lastResult, cannotRun: null, error: null });
      setCannotRun(null);
      lastJob.current = { job: 0, outcome: 'reused the result shown' };
      return;
    }
    let live = true;
    const job = ++jobs.current;
    lastJob.current = { job, outcome: 'running' };
    // Identical requests from several components share one job (client.ts, shareKey): one without frames joins
    // any job for its arguments, one with frames starts its own.
    const call = client.call(method, JSON.parse(key) as MethodArgs<M>, {
      shareKey: key,
      // The page's first requests are taken in the order they were made (reading order); a later one follows a
      // control the reader moved, and goes first (src/worker/turns.ts).
      priority: job === 1 ? first : 'interactive',
      onFrame: streams
        ? (f) => {
            if (live) frameRef.current?.(f, job);
          }
        : undefined,
    });
    // Results are drawn as a transition: React renders the picture in slices that yield to input, so a
    // dragged slider never waits behind a long render of the result before it (one long task per result
    // at 4× CPU throttling before: npm run bench -- browser).
    call.result.then(
      (r) =>
        startTransition(() => {
          if (!live) return;
          lastJob.current = { job, outcome: isCannotRun(r) ? 'cannot-run' : 'result' };
          if (isCannotRun(r)) {
            resultKey.current = null;
            setSettled({ request, result: null, cannotRun: r, error: null });
            setCannotRun(r);
            return;
          }
          const computed = r as Computed<MethodResult<M>>;
          setSettled({ request, result: computed, cannotRun: null, error: null });
          resultKey.current = key;
          setLastResult(computed);
          setLastKey(key);
          setCannotRun(null);
        }),
      (e: unknown) => {
        if (!live) return;
        lastJob.current = { job, outcome: 'error' };
        setSettled({
          request,
          result: null,
          cannotRun: null,
          error: e instanceof Error ? e.message : String(e),
        });
      },
    );
    return () => {
      live = false;
      if (lastJob.current.job === job && lastJob.current.outcome === 'running')
        lastJob.current = { job, outcome: 'cancelled' };
      call.cancel();
    };
    // lastResult is read only to reuse it for its own arguments; a new result must not start a job.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, method, key, request, streams]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  const running = key !== null && settled?.request !== request;
  const error = !running && settled?.error ? settled.error : null;
  // "Cannot run" is drawn (a state of the picture), so the widget is ready; it stays until a newer request settles.
  const status: SimStatus = error ? 'error' : lastResult !== null || cannotRun !== null ? 'ready' : 'loading';
  // Diagnostics (simDebug.ts; registered only in development and the test build): the committed state.
  useLayoutEffect(() => {
    if (!SIM_DEBUG) return;
    describeRef.current = describe;
    debug.current = {
      method,
      key: key === null ? null : key.length > 160 ? `${key.slice(0, 160)}…` : key,
      status,
      request,
      settledRequest: settled?.request ?? null,
      resultKeyMatches: lastKey === key,
      cannotRun: cannotRun !== null,
      error,
    };
  });
  useEffect(
    () =>
      registerSimDebug(() => ({
        ...debug.current,
        jobsStarted: jobs.current,
        lastJob: lastJob.current,
        ...describeRef.current?.(),
      })),
    [],
  );
  return {
    status,
    result: lastResult,
    error,
    stale: running && (lastResult !== null || cannotRun !== null),
    cannotRun: error ? null : cannotRun,
    resultKey: lastKey,
    retry,
  };
}

/**
 * useSimulation for a figure the prose quotes at settings no widget on the page shows: its job waits in the
 * worker until every widget's and figure's first request has had its turn, so the widgets come first.
 */
export function useDeferredSimulation<M extends MethodName>(
  method: M,
  args: MethodArgs<M> | null,
): SimulationState<Computed<MethodResult<M>>> {
  return useSimulation(method, args, undefined, undefined, 'deferred');
}

const NO_FRAMES: never[] = [];

export interface StreamingState<R, F> extends SimulationState<R> {
  /** Frames received so far for the current arguments. */
  frames: F[];
  /**
   * What the picture drawn from this state shows, for WidgetFrame's `drawn`: the arguments and how many of their
   * frames (or "done" with the result); null while nothing for the current arguments has arrived.
   */
  drawn: string | null;
}

/**
 * useSimulation for runs that stream their results (a sweep's points, a grid's cells): also returns the
 * frames received so far for the current arguments; frames of superseded arguments are dropped, except those of
 * the run whose result is shown (kit/streamedFrames.ts). Frames that arrive within one animation frame are handed
 * over together (one render for a burst of remembered points).
 */
export function useStreamingSimulation<M extends MethodName>(
  method: M,
  args: MethodArgs<M> | null,
): StreamingState<Computed<MethodResult<M>>, MethodFrame<M>> {
  const key = args === null ? null : JSON.stringify(args);
  const [streamed, setStreamed] = useState<Streamed<MethodFrame<M>>>(NO_STREAM);
  // The frames live in the stream; React state gets each whole value it publishes, never a functional update
  // (streamedFrames.ts says why: one batch of frames was lost that way).
  const [stream] = useState(
    () =>
      new FrameStream<MethodFrame<M>>({
        schedule: (flush) => requestAnimationFrame(flush),
        cancel: (handle) => cancelAnimationFrame(handle as number),
        publish: (s) => startTransition(() => setStreamed(s)),
      }),
  );
  // Paused, not dropped, when effects are torn down while the component lives on (Strict Mode, a hidden
  // Activity): the frames that arrive meanwhile are handed over when it resumes.
  useEffect(() => {
    stream.resume();
    return () => stream.pause();
  }, [stream]);
  const onFrame = useCallback((f: MethodFrame<M>, job: number) => stream.push(key, job, f), [key, stream]);
  const held = useRef<SimDebugSnapshot>({});
  const sim = useSimulation(method, args, onFrame, () => ({ ...held.current, stream: stream.stats() }));
  useLayoutEffect(() => stream.showing(sim.resultKey), [stream, sim.resultKey]);
  // Going back to the arguments of the result shown before a newer run ends (a control moved away and back)
  // settles at once, with no job and so no frames (useSimulation): the frames of that run are the kept ones.
  // Without them the widget waited for frames that never came ("Computing…" for good).
  const frames =
    key === null
      ? NO_FRAMES
      : streamed.key === key
        ? streamed.frames
        : streamed.kept?.key === key
          ? streamed.kept.frames
          : NO_FRAMES;
  // Diagnostics (simDebug.ts): what the committed render holds, against what the result says it sent.
  useLayoutEffect(() => {
    if (!SIM_DEBUG) return;
    const r = sim.result as { frames?: unknown } | null;
    held.current = {
      framesHeld: frames.length,
      resultFrames: r?.frames ?? null,
      heldJob: streamed.key === key ? streamed.job : null,
    };
  });
  const drawn =
    key === null
      ? null
      : !sim.stale && sim.result !== null
        ? `${key}:done`
        : frames.length > 0
          ? `${key}:${frames.length}`
          : null;
  return { ...sim, frames, drawn };
}

export interface ProgressState<R> extends SimulationState<R> {
  /** The running job's latest progress (src/worker/progress.ts), or null (none sent, or nothing running). */
  progress: JobProgress | null;
}

/**
 * useSimulation for a job that reports its progress (a method whose frames are JobProgress): also returns the
 * latest progress of the request running now, for the frame's progress line (kit/JobProgress.tsx).
 */
export function useProgressSimulation<M extends MethodName>(
  method: M,
  args: MethodArgs<M> | null,
): MethodFrame<M> extends JobProgress ? ProgressState<Computed<MethodResult<M>>> : never {
  const key = args === null ? null : JSON.stringify(args);
  const [latest, setLatest] = useState<{ key: string | null; progress: JobProgress } | null>(null);
  const onFrame = useCallback((f: MethodFrame<M>) => setLatest({ key, progress: f as JobProgress }), [key]);
  const sim = useSimulation(method, args, onFrame);
  const running = sim.status === 'loading' || sim.stale;
  const progress = running && latest !== null && latest.key === key ? latest.progress : null;
  return { ...sim, progress } as never;
}
