/**
 * Lesson 07.10, widget 1: one replica running N decoding sessions when a long prompt arrives. Every iteration on
 * a time axis (its chunk tokens, its decode tokens, its duration from the cost model's roofline), the prompt's
 * TTFT and the decodes' inter-token gaps, for the chosen chunk size and, for comparison, for whole-prompt prefill.
 * Computed in the worker (prefillTimelineRun); the transport steps from iteration to iteration, and the picture is
 * a function of (result, t).
 */
import { useCallback, useEffect, useMemo, type KeyboardEvent } from 'react';
import { ParamControls } from '../kit/controls/ParamControls';
import { TransportBar } from '../kit/controls/TransportBar';
import { useTransport, type Transport } from '../kit/controls/useTransport';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame } from '../kit/frameProps';
import { usePreferences } from '../../app/services';
import {
  formatBandwidth,
  formatBytesDecimal,
  formatCount,
  formatDuration,
  formatFlops,
  formatNumber,
  formatPercent,
  formatTokens,
} from '../../lib/format';
import type { TimelineIteration } from '../../sim/lessons/longPrefill';
import { chunkLabel, TIMELINE_ID, timelineArgs, timelineSchema } from './schema';
import { TimelineChart } from './TimelineChart';
import { iterationAt } from './timelineData';
import { TryThis, type TryItem } from '../kit/TryThis';
import './long-prefill.css';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-10-try-this checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Switch chunked prefill off: the prompt runs in one iteration of several seconds in which the decoding
        sessions get nothing, and their gap jumps from tens of milliseconds to the whole prefill. TTFT falls:
        one iteration pays the all-reduce latencies and the overhead once, and no decodes ride along.
      </>
    ),
    set: { chunked: false },
    highlight: 'max-gap',
  },
  {
    text: (
      <>
        Raise the chunk from {formatNumber(timelineSchema.chunk.default)} to 8,192 tokens: the largest gap
        grows about in proportion to the chunk, while TTFT falls by the fixed costs and the decodes'
        ride-along of the iterations saved. Step through the iterations: later full chunks take longer than
        early ones, because they attend to more of the prompt (the last one, the remainder, is shorter).
      </>
    ),
    set: { chunk: 8192 },
    highlight: 'max-gap',
  },
  {
    text: (
      <>
        Set the chunk to 256 and the sessions to 128: many iterations turn memory-bound (hover one), and TTFT
        grows three ways: every extra iteration pays its fixed costs, the decodes’ arithmetic rides along in
        each, and the memory-bound ones wait for the weights and the KV to stream. The TTFT read-out splits
        them.
      </>
    ),
    set: { chunk: 256, decodes: 128 },
    highlight: 'ttft',
  },
];

function isFormField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return (
    tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'BUTTON' || target.isContentEditable
  );
}

/** The kit's transport with its steps moved to iteration boundaries (an iteration is the natural frame). */
function useIterationSteps(transport: Transport, iterations: readonly TimelineIteration[] | null): Transport {
  const stepBy = useCallback(
    (direction: 1 | -1) => {
      transport.pause();
      if (!iterations || iterations.length === 0) return transport.stepBy(direction);
      const ends = iterations.map((x) => x.endS);
      const t = transport.t;
      if (direction > 0) {
        const next = ends.find((e) => e > t + 1e-9);
        transport.seek(next ?? transport.duration);
      } else {
        let prev = 0;
        for (const e of ends) if (e < t - 1e-9) prev = e;
        transport.seek(prev);
      }
    },
    [transport, iterations],
  );
  const handleKey = useCallback(
    (e: KeyboardEvent) => {
      if (
        !e.defaultPrevented &&
        !isFormField(e.target) &&
        (e.key === 'ArrowRight' || e.key === 'ArrowLeft')
      ) {
        stepBy(e.key === 'ArrowRight' ? 1 : -1);
        e.preventDefault();
        return;
      }
      transport.handleKey(e);
    },
    [stepBy, transport],
  );
  return { ...transport, stepBy, handleKey };
}

export function ChunkedPrefillTimeline() {
  const params = useWidgetParams(TIMELINE_ID, timelineSchema);
  const v = params.values;
  const args = useMemo(() => timelineArgs(v), [v]);
  const sim = useSimulation('prefillTimelineRun', args);
  const r = sim.result;
  const reduced = usePreferences((s) => s.motion) === 'reduced';
  const end = r ? Math.max(r.run.endS, r.whole.endS) : 1;
  const base = useTransport({ duration: end, rate: end / 10, step: end / 100, reducedMotion: reduced });
  const transport = useIterationSteps(base, r?.run.iterations ?? null);
  // A new result opens on its whole picture (t at the end); Play runs it again from the start.
  const seekBase = base.seek;
  useEffect(() => {
    if (r) seekBase(Math.max(r.run.endS, r.whole.endS));
  }, [r, seekBase]);

  const run = r?.run;
  const whole = r && r.run.chunk !== false ? r.whole : null;
  const t = transport.t;
  const cur = run ? run.iterations[iterationAt(run.iterations, t)] : undefined;
  const progress = useMemo(() => {
    if (!run) return { prompt: 0, decodeTokens: 0 };
    let prompt = 0;
    let decodeTokens = 0;
    for (const it of run.iterations) {
      if (it.endS > t + 1e-12) break;
      prompt += it.prefillTokens;
      if (it.startS >= run.arrivalS - 1e-12 && it.decodeTokens > 0) decodeTokens++;
    }
    return { prompt, decodeTokens };
  }, [run, t]);

  const f = r?.formula;
  const runLabel = run ? chunkLabel(run.chunk) : '';
  const longest =
    run && run.longestPrefillIteration >= 0 ? run.iterations[run.longestPrefillIteration] : undefined;
  const kvShort = r ? r.kvTokensNeeded > r.formula.kvCapacityTokens : false;

  // The timeline changes with the result and the playhead only: a dragged control re-renders the widget on every
  // input event, and redrawing the whole timeline's SVG each time was most of that task at 4× CPU throttling.
  const { pause, seek } = transport;
  const picture = useMemo(
    () =>
      r && run ? (
        <TimelineChart
          run={run}
          whole={whole}
          runLabel={runLabel}
          t={t}
          onPick={(x) => {
            pause();
            seek(x);
          }}
          title={`Iterations of one replica when a ${formatCount(r.promptTokens)}-token prompt arrives beside ${r.decodes} decoding sessions, ${runLabel}`}
          description="Top: tokens computed in each iteration, drawn across its duration (decode tokens under the prompt's chunk). Middle: whether the decoding sessions get a token. Bottom: the gap before each decode token on a log scale, for this schedule and, dashed, without chunking."
        />
      ) : null,
    [r, run, whole, runLabel, t, pause, seek],
  );

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      id={TIMELINE_ID}
      title="Chunked prefill timeline"
      fixFields={{ modelId: 'model' }}
      corrected={params.corrected}
      onReset={() => {
        params.reset();
        transport.seek(transport.duration);
      }}
      onKeyDown={transport.handleKey}
      controls={<ParamControls params={params} />}
      transport={<TransportBar transport={transport} format={(x) => `${formatNumber(x, 3)} s`} />}
      exportData={() => ({
        rows: r
          ? r.run.iterations.map((it) => ({
              schedule: runLabel,
              iteration: it.index,
              kind: it.kind,
              startS: it.startS,
              endS: it.endS,
              durationS: it.durationS,
              promptTokens: it.prefillTokens,
              promptTokensBefore: it.prefillCached,
              decodeTokens: it.decodeTokens,
              flops: it.flops,
              bytes: it.bytes,
              computeS: it.computeS,
              memoryS: it.memoryS,
              bound: it.bound,
            }))
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && run && f ? (
          <>
            <Readout
              emphasis
              label={`Time to first token, ${formatCount(r.promptTokens)}-token prompt`}
              value={
                <span>
                  <span data-readout="ttft">{formatDuration(run.ttftS)}</span>
                  {whole ? (
                    <span className="lp-readout-sub">no chunking: {formatDuration(whole.ttftS)}</span>
                  ) : null}
                </span>
              }
              formula={
                <>
                  Σ of {formatNumber(run.prefillIterations)} iteration{run.prefillIterations === 1 ? '' : 's'}{' '}
                  = {formatDuration(run.breakdown.ownS)} of the prompt’s own work (FLOPs and all-reduce bytes)
                  + {formatDuration(run.breakdown.rideS)} of the decodes’ riding along +{' '}
                  {formatDuration(run.breakdown.fixedS)} of per-iteration all-reduce latency and overhead +{' '}
                  {formatDuration(run.breakdown.memoryS)} where memory-bound
                </>
              }
            />
            <Readout
              emphasis
              label="Decodes’ largest inter-token gap"
              value={
                <span>
                  <span data-readout="max-gap">{formatDuration(run.gaps.max)}</span>
                  <span className="lp-readout-sub">
                    p99 <span data-readout="p99-gap">{formatDuration(run.gaps.p99)}</span>
                    {whole ? `; no chunking: ${formatDuration(whole.gaps.max)}` : ''}
                  </span>
                </span>
              }
              formula={
                longest ? (
                  longest.kind === 'whole' ? (
                    <>
                      the whole prompt’s iteration ({formatDuration(longest.durationS)}) plus the decode step
                      after it
                    </>
                  ) : (
                    <>
                      the chunk of {formatCount(longest.prefillTokens)} after{' '}
                      {formatTokens(longest.prefillCached)}: max(
                      {formatDuration(longest.computeS)} compute, {formatDuration(longest.memoryS)} memory) +{' '}
                      {formatDuration(longest.allReduceS)} all-reduce + {formatDuration(longest.overheadS)}{' '}
                      overhead; the first chunk took{' '}
                      {formatDuration(run.iterations.find((x) => x.kind === 'chunk')?.durationS)}
                    </>
                  )
                ) : null
              }
            />
            <Readout
              label={cur ? `Iteration ${cur.index} (playhead at ${formatNumber(t, 3)} s)` : 'Iteration'}
              value={
                <span data-readout="iteration">
                  {cur ? `${formatDuration(cur.durationS)}, ${cur.bound}-bound` : '—'}
                </span>
              }
              formula={
                cur ? (
                  <>
                    t = max(GEMM / G_m + attention / G_a, bytes / (G·BW·MBU)) + t_AR + t_o = max(
                    {formatDuration(cur.computeS)}, {formatBytesDecimal(cur.bytes)} /{' '}
                    {formatBandwidth(f.effectiveBandwidth)}) + {formatDuration(cur.allReduceS)} +{' '}
                    {formatDuration(cur.overheadS)}, with G_m = {formatFlops(f.effectiveFlops, true)}, G_a ={' '}
                    {formatFlops(f.attentionFlops, true)} (the FLOP/s of the matmuls and of attention),
                    G·BW·MBU the HBM bandwidth the replica&apos;s G GPUs achieve, t_AR = 2 × layers ×
                    (2(TP−1)/TP × tokens × hidden × 2 B / {formatBandwidth(f.allReduceBusBandwidth)} +
                    latency); {formatNumber(cur.prefillTokens)} prompt + {formatNumber(cur.decodeTokens)}{' '}
                    decode tokens
                  </>
                ) : null
              }
            />
            <Readout
              label="Prompt prefilled by now"
              value={<span data-readout="progress">{formatPercent(progress.prompt / r.promptTokens)}</span>}
              formula={`${formatNumber(progress.prompt)} of ${formatNumber(r.promptTokens)} tokens; each session got ${formatNumber(progress.decodeTokens)} token${progress.decodeTokens === 1 ? '' : 's'} since the prompt arrived`}
            />
            <Readout
              label="Decode step alone"
              value={formatDuration(run.decodeStepS)}
              formula={`${r.decodes} sessions: weights ${formatBytesDecimal(f.weightBytesStreamed)} + KV of ${formatTokens(r.decodes * r.decodeContext)}, streamed at ${formatBandwidth(f.effectiveBandwidth)}`}
            />
            <Readout
              label="Token budget per iteration"
              value={formatNumber(run.tokenBudget)}
              formula={
                run.chunk === false
                  ? 'the whole prompt in one iteration (decodes wait)'
                  : `chunk ${formatNumber(run.chunk)} + ${r.decodes} decode tokens (vLLM max_num_batched_tokens)`
              }
            />
          </>
        ) : null
      }
      caption={
        r && run ? (
          <>
            {r.modelName} on {r.gpus} × {r.acceleratorName}: {r.decodes} sessions decoding at{' '}
            {formatTokens(r.decodeContext)} of context when a {formatCount(r.promptTokens)}-token prompt
            arrives (after three decode steps, at an iteration boundary). Shown:{' '}
            {run.chunk === false ? 'whole-prompt prefill' : `${formatNumber(run.chunk)}-token chunks`}
            {whole ? '; the dashed line in the lower panel is the same prompt without chunking' : ''}. Hover
            an iteration for its roofline, or step through the iterations with the transport (← →).
            {kvShort ? (
              <strong>
                {' '}
                This setup needs {formatTokens(r.kvTokensNeeded)} of KV but the replica holds{' '}
                {formatTokens(r.formula.kvCapacityTokens)}: a real engine would queue the prompt or preempt
                sessions.
              </strong>
            ) : null}
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {picture}
    </WidgetFrame>
  );
}
