/**
 * Ask the worker for a result whenever the arguments change. A newer request cancels the older one (its
 * result is ignored even if it arrives), errors become a state with a retry, and frames stream in.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSimClient } from '../../app/services';
import type { MethodArgs, MethodFrame, MethodName, MethodResult } from '../../worker/methods';

export type SimStatus = 'loading' | 'ready' | 'error';

export interface SimulationState<R> {
  status: SimStatus;
  result: R | null;
  error: string | null;
  /** True while a newer request runs and the shown result belongs to older arguments. */
  stale: boolean;
  retry(): void;
}

export function useSimulation<M extends MethodName>(
  method: M,
  args: MethodArgs<M> | null,
  onFrame?: (frame: MethodFrame<M>) => void,
): SimulationState<MethodResult<M>> {
  const client = useSimClient();
  const [result, setResult] = useState<MethodResult<M> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const key = args === null ? null : JSON.stringify(args);
  const argsRef = useRef(args);
  argsRef.current = args;
  const frameRef = useRef(onFrame);
  frameRef.current = onFrame;

  useEffect(() => {
    if (key === null) return;
    let live = true;
    setRunning(true);
    const job = client.call(method, argsRef.current as MethodArgs<M>, {
      onFrame: frameRef.current ? (f) => live && frameRef.current?.(f) : undefined,
    });
    job.result.then(
      (r) => {
        if (!live) return;
        setResult(r);
        setError(null);
        setRunning(false);
      },
      (e: unknown) => {
        if (!live) return;
        setError(e instanceof Error ? e.message : String(e));
        setRunning(false);
      },
    );
    return () => {
      live = false;
      job.cancel();
    };
  }, [client, method, key, attempt]);

  const retry = useCallback(() => setAttempt((a) => a + 1), []);
  const status: SimStatus = error && !running ? 'error' : result !== null ? 'ready' : 'loading';
  return { status, result, error, stale: running && result !== null, retry };
}
