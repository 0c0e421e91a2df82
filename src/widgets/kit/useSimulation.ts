/**
 * Ask the worker for a result whenever the arguments change. A newer request cancels the older one (its
 * result is ignored even if it arrives), errors become a state with a retry, and frames stream in. A result the
 * core returns as "cannot run" (src/sim/engine/cannotRun.ts) is kept apart from the results: the widget's frame
 * draws it as a state of the picture, and `result` stays the last one computed (shown again once a setting runs).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSimClient } from '../../app/services';
import type { MethodArgs, MethodFrame, MethodName, MethodResult } from '../../worker/methods';
import { isCannotRun, type CannotRun } from '../../sim/engine/cannotRun';

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
  onFrame?: (frame: MethodFrame<M>) => void,
): SimulationState<Computed<MethodResult<M>>> {
  const client = useSimClient();
  const [attempt, setAttempt] = useState(0);
  const [settled, setSettled] = useState<Settled<Computed<MethodResult<M>>> | null>(null);
  const [lastResult, setLastResult] = useState<Computed<MethodResult<M>> | null>(null);
  const [cannotRun, setCannotRun] = useState<CannotRun | null>(null);
  const key = args === null ? null : JSON.stringify(args);
  const request = `${attempt}:${key}`;
  const frameRef = useRef(onFrame);
  useEffect(() => {
    frameRef.current = onFrame;
  }, [onFrame]);

  useEffect(() => {
    if (key === null) return;
    let live = true;
    const job = client.call(method, JSON.parse(key) as MethodArgs<M>, {
      onFrame: (f) => {
        if (live) frameRef.current?.(f);
      },
    });
    job.result.then(
      (r) => {
        if (!live) return;
        if (isCannotRun(r)) {
          setSettled({ request, result: null, cannotRun: r, error: null });
          setCannotRun(r);
          return;
        }
        const computed = r as Computed<MethodResult<M>>;
        setSettled({ request, result: computed, cannotRun: null, error: null });
        setLastResult(computed);
        setCannotRun(null);
      },
      (e: unknown) => {
        if (live)
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
      job.cancel();
    };
  }, [client, method, key, request]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  const running = key !== null && settled?.request !== request;
  const error = !running && settled?.error ? settled.error : null;
  // "Cannot run" is drawn (a state of the picture), so the widget is ready; it stays until a newer request settles.
  const status: SimStatus = error ? 'error' : lastResult !== null || cannotRun !== null ? 'ready' : 'loading';
  return {
    status,
    result: lastResult,
    error,
    stale: running && (lastResult !== null || cannotRun !== null),
    cannotRun: error ? null : cannotRun,
    retry,
  };
}

const NO_FRAMES: never[] = [];

/**
 * useSimulation for runs that stream their results (a sweep's points, a grid's cells): also returns the
 * frames received so far for the current arguments; frames of superseded arguments are dropped.
 */
export function useStreamingSimulation<M extends MethodName>(
  method: M,
  args: MethodArgs<M> | null,
): SimulationState<Computed<MethodResult<M>>> & { frames: MethodFrame<M>[] } {
  const key = args === null ? null : JSON.stringify(args);
  const [streamed, setStreamed] = useState<{ key: string | null; frames: MethodFrame<M>[] }>({
    key: null,
    frames: [],
  });
  const onFrame = useCallback(
    (f: MethodFrame<M>) =>
      setStreamed((s) => (s.key === key ? { key, frames: [...s.frames, f] } : { key, frames: [f] })),
    [key],
  );
  const sim = useSimulation(method, args, onFrame);
  return { ...sim, frames: streamed.key === key ? streamed.frames : NO_FRAMES };
}
