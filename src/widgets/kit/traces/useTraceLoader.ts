/**
 * Load a trace from the learner's disk (or a trace shipped with the lab) and hand it to a worker method: 07.01's
 * statistics (`traceShape`) or 07.02's session list (`traceSessions`). The File itself goes to the worker
 * (structured clone: no copy of its text on the main thread); the worker reads, parses and reports progress
 * phases. A newer load cancels the older one, whose late result is ignored.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSimClient } from '../../../app/services';
import type { TraceProgress } from '../../../worker/traceInput';
import type { JobProgress } from '../../../worker/progress';
import type { MethodResult } from '../../../worker/methods';
import { MAX_TRACE_BYTES } from '../../../worker/traceLimits';
import type { Job } from '../../../worker/client';
import { formatBytes } from '../../../lib/format';

/** Worker methods that take a trace file. */
export type TraceMethod = 'traceShape' | 'traceSessions';

export type TraceLoad<R = MethodResult<'traceShape'>> =
  | { state: 'idle' }
  | {
      state: 'busy';
      name: string;
      bytes: number;
      phase: TraceProgress['phase'] | 'fetching';
      /** How far the statistics are, once the worker says (a long trace's replay). */
      progress?: JobProgress;
    }
  | { state: 'ready'; result: R }
  | { state: 'error'; name: string; message: string };

/** 07.01's sample: generated agent and chat sessions in Mooncake format. */
export const SAMPLE_TRACE_PATH = 'traces/agent-mix.mooncake.jsonl';

export function useTraceLoader<M extends TraceMethod = 'traceShape'>(
  method: M = 'traceShape' as M,
  /** The shipped trace `loadSample` fetches, relative to the site's base. */
  samplePath: string = SAMPLE_TRACE_PATH,
) {
  type R = MethodResult<M>;
  const client = useSimClient();
  const [load, setLoad] = useState<TraceLoad<R>>({ state: 'idle' });
  const job = useRef<Job<R> | null>(null);
  const generation = useRef(0);

  useEffect(
    () => () => {
      generation.current++;
      job.current?.cancel();
    },
    [],
  );

  const start = useCallback(
    (source: { blob: Blob; name: string }) => {
      job.current?.cancel();
      const gen = ++generation.current;
      const bytes = source.blob.size;
      if (bytes > MAX_TRACE_BYTES) {
        setLoad({
          state: 'error',
          name: source.name,
          message: `${source.name} is ${formatBytes(bytes)}; the browser reads traces of up to ${formatBytes(MAX_TRACE_BYTES)}. For larger ones use the command line: npm run sim -- trace-stats <file>.`,
        });
        return;
      }
      setLoad({ state: 'busy', name: source.name, bytes, phase: 'reading' });
      const j = client.call(method, { blob: source.blob, name: source.name } as never, {
        onFrame: (f) => {
          const frame = f as TraceProgress;
          if (gen === generation.current)
            setLoad({
              state: 'busy',
              name: source.name,
              bytes,
              phase: frame.phase,
              progress: frame.progress,
            });
        },
      });
      job.current = j as Job<R>;
      (j.result as Promise<R>).then(
        (result) => {
          if (gen === generation.current) setLoad({ state: 'ready', result });
        },
        (e: unknown) => {
          if (gen === generation.current)
            setLoad({
              state: 'error',
              name: source.name,
              message: e instanceof Error ? e.message : String(e),
            });
        },
      );
    },
    [client, method],
  );

  const loadFile = useCallback((file: File) => start({ blob: file, name: file.name }), [start]);

  const loadSample = useCallback(async () => {
    const name = samplePath.split('/').pop()!;
    const gen = ++generation.current;
    job.current?.cancel();
    setLoad({ state: 'busy', name, bytes: 0, phase: 'fetching' });
    try {
      // Same origin only: the file ships with the lab under public/traces/.
      const res = await fetch(`${import.meta.env.BASE_URL}${samplePath}`);
      if (!res.ok) throw new Error(`the shipped trace could not be fetched (HTTP ${res.status})`);
      const blob = await res.blob();
      if (gen !== generation.current) return;
      start({ blob, name });
    } catch (e) {
      if (gen === generation.current)
        setLoad({ state: 'error', name, message: e instanceof Error ? e.message : String(e) });
    }
  }, [start, samplePath]);

  const clear = useCallback(() => {
    generation.current++;
    job.current?.cancel();
    setLoad({ state: 'idle' });
  }, []);

  return { load, loadFile, loadSample, clear };
}
