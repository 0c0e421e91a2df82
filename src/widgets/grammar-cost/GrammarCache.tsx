/**
 * "A grammar cache and the TTFT tail" (lesson 07.09): the fleet simulator (src/sim/engine/fleet) runs coding agents on
 * one replica, every turn constrained by one of the app's schemas, twice: with the chosen grammar-cache capacity
 * and with none. Compile times come from the MaskBench-fitted preset; a miss compiles before admission.
 */
import { useMemo } from 'react';
import { BarChart } from '../kit/charts/BarChart';
import { durationAxis } from '../kit/charts/scales';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { paramsFrame } from '../kit/frameProps';
import { formatDuration, formatNumber, formatPercent } from '../../lib/format';
import { grammarCacheScenario } from '../../sim/lessons/grammar/cacheScenario';
import { TryThis, type TryItem } from '../kit/TryThis';
import { defaultValues } from '../../state/paramSchema';
import { median } from '../../sim/engine/fleet/dist';
import type { SessionsWorkload } from '../../sim/engine/fleet/scenarioFormat';

export { GRAMMAR_CACHE_ID, grammarCacheSchema } from './schema';
import { GRAMMAR_CACHE_ID, grammarCacheSchema } from './schema';

const QS = ['p50', 'p90', 'p99'] as const;
const DEFAULTS = defaultValues(grammarCacheSchema);
/** The agents every run simulates (the scenario's one class): the caption restates their count and turns. */
const WORKLOAD = grammarCacheScenario({ preset: 'xgrammar', schemas: 1, cacheCapacity: 0, seed: 1 })
  .workload as SessionsWorkload;
const TURNS = WORKLOAD.classes[0].turns;

/** The share of the compile threads' time spent compiling over the run: when it nears 1, compiles queue. */
export const threadsBusy = (compileSeconds: number, threads: number, simulatedS: number) =>
  compileSeconds / (threads * Math.max(simulatedS, 1e-9));

/** "Try this": each item with the state it describes (the lesson's tour plays them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        At the defaults ({formatNumber(DEFAULTS.schemas)} schemas, a cache of{' '}
        {formatNumber(DEFAULTS.cacheCapacity)}) compare the two p99 bars: the cache leaves a handful of
        compiles in the whole run, and on most seeds the compile tail leaves p99. Press New seed a few times:
        on some, one slow first compile that many turns wait on still reaches p99.
      </>
    ),
    highlight: 'p99-with',
  },
  {
    text: (
      <>
        Raise the distinct schemas to 100,000 (a new schema every turn): the cache no longer helps and p99
        TTFT carries the compile tail again.
      </>
    ),
    set: { schemas: 100_000 },
    highlight: 'hit-rate',
  },
  {
    text: (
      <>
        With one-shot schemas, cut the CPU threads to 1: compiles queue behind each other and even the median
        TTFT grows.
      </>
    ),
    set: { schemas: 100_000, cpuThreads: 1 },
    highlight: 'p99-with',
  },
  {
    text: <>Switch the engine to LLGuidance: with millisecond compiles the cache hardly matters.</>,
    set: { preset: 'llguidance' },
    highlight: 'p99-with',
  },
];

export function GrammarCache() {
  const params = useWidgetParams(GRAMMAR_CACHE_ID, grammarCacheSchema);
  const v = params.values;
  const preset = v.preset === 'llguidance' ? 'llguidance' : 'xgrammar';
  const withArgs = useMemo(
    () => ({
      scenario: grammarCacheScenario({
        preset,
        schemas: v.schemas,
        cacheCapacity: v.cacheCapacity,
        cpuThreads: v.cpuThreads,
        seed: v.seed,
      }),
      includeSeries: false,
    }),
    [preset, v.schemas, v.cacheCapacity, v.cpuThreads, v.seed],
  );
  const noArgs = useMemo(
    () => ({
      scenario: grammarCacheScenario({
        preset,
        schemas: v.schemas,
        cacheCapacity: 0,
        cpuThreads: v.cpuThreads,
        seed: v.seed,
      }),
      includeSeries: false,
    }),
    [preset, v.schemas, v.cpuThreads, v.seed],
  );
  const on = useSimulation('runFleet', withArgs);
  const off = useSimulation('runFleet', noArgs);
  const a = on.result?.metrics;
  const b = off.result?.metrics;
  const ga = a?.replicas[0]?.grammar;
  const status = on.status === 'error' || off.status === 'error' ? 'error' : a && b ? 'ready' : 'loading';
  const hitRate = ga ? ga.hits / Math.max(1, ga.hits + ga.joined + ga.compiles) : 0;

  return (
    <WidgetFrame
      {...paramsFrame(params)}
      id={GRAMMAR_CACHE_ID}
      title="A grammar cache and the TTFT tail"
      status={status}
      error={on.error ?? off.error}
      onRetry={() => {
        on.retry();
        off.retry();
      }}
      stale={on.stale || off.stale}
      exportData={() => ({
        rows:
          a && b
            ? QS.map((q) => ({
                quantile: q,
                ttftWithCacheS: a.requests.ttft[q],
                ttftNoCacheS: b.requests.ttft[q],
              }))
            : [],
        json: { parameters: v, withCache: a, noCache: b },
      })}
      readouts={
        a && b && ga ? (
          <>
            <Readout
              emphasis
              label={`p99 TTFT, cache of ${formatNumber(v.cacheCapacity)}`}
              value={
                <span data-readout="p99-with" data-value={a.requests.ttft.p99}>
                  {formatDuration(a.requests.ttft.p99)}
                </span>
              }
              formula={`without a cache: ${formatDuration(b.requests.ttft.p99)}`}
            />
            <Readout
              label="Turns served from the cache"
              value={
                <span data-readout="hit-rate" data-value={hitRate}>
                  {formatPercent(hitRate, 3)}
                </span>
              }
              formula={`${formatNumber(ga.hits)} hits, ${formatNumber(ga.joined)} joined a compile in flight, ${formatNumber(ga.compiles)} compiles`}
            />
            <Readout
              label="CPU time compiling"
              value={<span data-readout="compile-seconds">{formatDuration(ga.compileSeconds)}</span>}
              formula={`over ${formatNumber(a.requests.ttft.count)} requests, ${v.cpuThreads} threads busy compiling ${formatPercent(threadsBusy(ga.compileSeconds, v.cpuThreads, a.simulatedS), 2)} of the run; ${formatDuration(b.replicas[0]?.grammar.compileSeconds ?? 0)} without a cache`}
            />
          </>
        ) : null
      }
      caption={
        <>
          The fleet simulator runs {WORKLOAD.sessions} coding-agent sessions (
          {TURNS.kind === 'uniform' ? `${TURNS.min} to ${TURNS.max}` : formatNumber(median(TURNS))} turns
          each) on one H100 replica of Llama 3.1 8B, every turn constrained by one of the schemas. A turn
          whose grammar is not cached waits for a compile before it is admitted, so the compile lands in its
          TTFT. Each schema has one compile time, drawn from the engine&apos;s MaskBench-fitted distribution,
          and a compile holds one of the replica&apos;s CPU threads for its single-threaded MaskBench time
          (simplified: vLLM&apos;s XGrammar compiler spreads one compile over up to eight threads): when all
          are busy, compiles queue. The default, {DEFAULTS.cpuThreads} threads, is the size of vLLM&apos;s
          mask pool; vLLM compiles on a pool of half the host&apos;s CPUs. With one-shot schemas{' '}
          {DEFAULTS.cpuThreads} threads are busy most of the run (the CPU-time read-out), so waiting for a
          thread, not only the compile, sets the median TTFT: more threads lower it. Same seed, same sessions,
          with the chosen cache and with none. Value axis on a log scale.
        </>
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {a && b ? (
        <BarChart
          title="Time to first token by quantile, with and without a grammar cache"
          description="p50, p90 and p99 of time to first token over all requests of the run, with the chosen grammar cache and with no cache."
          categories={QS.map((q) => `TTFT ${q}`)}
          series={[
            { name: `Cache of ${formatNumber(v.cacheCapacity)}`, values: QS.map((q) => a.requests.ttft[q]) },
            { name: 'No cache', values: QS.map((q) => b.requests.ttft[q]) },
          ]}
          value={durationAxis('Time to first token', { unit: 's', scale: 'log' })}
          height={280}
        />
      ) : null}
    </WidgetFrame>
  );
}
