/**
 * "Masks against the decode step" (lesson 07.09): one decode step of Llama 3.1 8B on an H100 (the cost model)
 * with a batch of constrained sequences whose masks are filled on CPU threads while the GPU runs the forward
 * pass (the fleet's rule, src/sim/engine/fleet/grammar.ts, via src/sim/lessons/grammar/overlap.ts), against the
 * same masks charged after the step. Synchronous: one step is a few arithmetic operations.
 */
import { useMemo } from 'react';
import { BarChart } from '../kit/charts/BarChart';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { paramsFrame } from '../kit/frameProps';
import { formatDuration, formatNumber, formatPercent } from '../../lib/format';
import {
  FILL_RULES,
  MASK_COST_CHOICES,
  maskStep,
  STEP_CONTEXT_TOKENS,
  threadsToHide,
} from '../../sim/lessons/grammar/overlap';
import { TryThis, type TryItem } from '../kit/TryThis';
import { GRAMMAR_MASK_COST_PRESETS, median } from '../../sim/engine/fleet/dist';

export { MASK_OVERLAP_ID, maskOverlapSchema } from './schema';
import { MASK_OVERLAP_ID, maskOverlapSchema } from './schema';
import { durationAxis } from '../kit/charts/scales';

/** The batch the widget opens at, which the first and last items speak of. */
const BATCH = maskOverlapSchema.batch.default;

/** A batch past vLLM's serial fill, where its thread pool fills the masks. */
const POOLED_BATCH = 200;

/** "Try this": each item with the state it describes (the lesson's tour plays them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        At {BATCH} sequences switch the mask cost to the XGrammar median mask step: the masks vanish behind
        the step. At the XGrammar mean they no longer fit, and more threads do not help while vLLM fills
        serially.
      </>
    ),
    set: { mask: 'xgr-p50' },
    highlight: 'tpot-overlapped',
  },
  {
    text: (
      <>
        Raise the batch past {FILL_RULES.vllm.serialUpTo}, to {POOLED_BATCH}: the pool takes over, and the
        thread count decides what shows.
      </>
    ),
    set: { batch: POOLED_BATCH },
    highlight: 'threads-to-hide',
  },
  {
    text: (
      <>
        Switch to one sequence per task and find how few threads hide the XGrammar mean at {BATCH} sequences.
      </>
    ),
    set: { fill: 'perSequence' },
    highlight: 'threads-to-hide',
  },
];

/** The most threads the widget offers, and so the most its threads-to-hide read-out searches. */
const MAX_THREADS = maskOverlapSchema.threads.max;

/**
 * The threads-to-hide read-out: its value and the line under it. The thread control sets the pool's size; this
 * answers another question, the fewest pool threads that would hide the masks, and says why there is none: up to
 * vLLM's serial limit the pool is not used at all, and past it one task's masks may outlast the step however many
 * threads share the tasks.
 */
export function hideReadout(
  hide: number,
  p: {
    batch: number;
    /** The pool's threads, as the control sets them. */
    threads: number;
    /** Up to this many sequences the engine thread fills the masks itself (0: the pool always). */
    serialUpTo: number;
    /** Sequences per task on the pool. */
    chunk: number;
    /** One mask's CPU time (s). */
    maskS: number;
    /** The GPU's decode step (s). */
    gpuS: number;
  },
): { text: string; why: string } {
  const seqs = (n: number) => `${formatNumber(n)} sequence${n === 1 ? '' : 's'}`;
  if (p.batch <= p.serialUpTo) {
    const serial = `up to ${seqs(p.serialUpTo)} vLLM fills every mask one after another on its engine thread, without the pool`;
    return Number.isFinite(hide)
      ? { text: 'none needed', why: `${serial}, and they fit in the step` }
      : {
          text: 'none: the pool is not used',
          why: `${serial}: the pool's ${formatNumber(p.threads)} threads wait, so no thread count helps (raise the batch past ${formatNumber(p.serialUpTo)}, or hand the pool one sequence per task)`,
        };
  }
  const tasks = `tasks of ${seqs(p.chunk)}`;
  if (Number.isFinite(hide))
    return { text: formatNumber(hide), why: `${tasks} shared over the pool's threads` };
  const taskS = Math.min(p.chunk, p.batch) * p.maskS;
  return taskS > p.gpuS
    ? {
        text: 'none: one task outlasts the step',
        why: `one task's masks (${seqs(Math.min(p.chunk, p.batch))}) take ${formatDuration(taskS)}, longer than the ${formatDuration(p.gpuS)} GPU step, however many threads share the tasks`,
      }
    : { text: `more than ${formatNumber(MAX_THREADS)}`, why: `${tasks} shared over the pool's threads` };
}

export function MaskOverlap() {
  const params = useWidgetParams(MASK_OVERLAP_ID, maskOverlapSchema);
  const v = params.values;
  const choice = MASK_COST_CHOICES.find((c) => c.id === v.mask) ?? MASK_COST_CHOICES[2];
  const rule = v.fill === 'perSequence' ? FILL_RULES.perSequence : FILL_RULES.vllm;
  const base = useMemo(
    () => ({ batch: v.batch, contextTokens: STEP_CONTEXT_TOKENS, maskS: choice.us * 1e-6, ...rule }),
    [v.batch, choice.us, rule],
  );
  const s = useMemo(() => maskStep({ ...base, threads: v.threads }), [base, v.threads]);
  const hide = useMemo(() => threadsToHide(base, MAX_THREADS), [base]);
  const hideShown = hideReadout(hide, {
    batch: v.batch,
    threads: v.threads,
    serialUpTo: rule.serialUpTo,
    chunk: rule.chunk,
    maskS: base.maskS,
    gpuS: s.gpuS,
  });

  return (
    <WidgetFrame
      {...paramsFrame(params)}
      id={MASK_OVERLAP_ID}
      title="Masks against the decode step"
      status="ready"
      exportData={() => ({ rows: [{ ...v, ...s, maskUs: choice.us }], json: { parameters: v, step: s } })}
      readouts={
        <>
          <Readout
            emphasis
            label="Time per output token, masks overlapped"
            value={
              <span data-readout="tpot-overlapped" data-value={s.overlappedS}>
                {formatDuration(s.overlappedS)}
              </span>
            }
            formula={`max(GPU step ${formatDuration(s.gpuS)}, masks ${formatDuration(s.maskWallS)}): ${
              s.overhead > 0 ? `+${formatPercent(s.overhead, 2)}` : 'hidden'
            }`}
          />
          <Readout
            label="Charged after the step instead"
            value={
              <span data-readout="tpot-serial" data-value={s.serialS}>
                {formatDuration(s.serialS)}
              </span>
            }
            formula={`GPU step + ${formatNumber(v.batch)} × ${formatNumber(choice.us)} µs`}
          />
          <Readout
            label="Fewest pool threads that hide the masks"
            value={
              <span data-readout="threads-to-hide" data-value={Number.isFinite(hide) ? hide : -1}>
                {hideShown.text}
              </span>
            }
            formula={hideShown.why}
          />
        </>
      }
      caption={
        <>
          One decode step of Llama 3.1 8B on one H100 (the lab&apos;s cost model,{' '}
          {formatNumber(STEP_CONTEXT_TOKENS)} tokens of context per sequence), every sequence constrained with
          the same mask cost. The engine fills the masks on the CPU while the GPU runs the forward pass and
          samples once both are done (vLLM&apos;s EngineCore.step, SGLang&apos;s overlap), so the step takes
          the longer of the two. vLLM fills them one after another up to {FILL_RULES.vllm.serialUpTo}{' '}
          constrained sequences, then in tasks of {FILL_RULES.vllm.chunk} on its thread pool. Not charged: the
          bitmask&apos;s copy to the GPU and the accept-token after sampling. The mask costs are
          MaskBench&apos;s per-step figures, pooled over the mask steps of all its schemas: the median is a
          median mask step, not a median schema&apos;s. The fleet simulator instead draws one cost per schema,
          its mean over its steps, from a log-normal through the pooled mean and p99, whose median schema
          costs {formatNumber(median(GRAMMAR_MASK_COST_PRESETS.xgrammar) * 1e6)} µs for XGrammar.
        </>
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      <BarChart
        title="One decode step: GPU, masks, and time per output token"
        description="The GPU's decode step, the wall time of the batch's masks on the CPU threads, and the time per output token with the masks overlapped and charged after the step."
        categories={['GPU step', 'Masks (CPU wall)', 'TPOT overlapped', 'TPOT charged after']}
        series={[{ name: 'Seconds', values: [s.gpuS, s.maskWallS, s.overlappedS, s.serialS] }]}
        value={durationAxis('Time', { unit: 's' })}
        height={240}
      />
    </WidgetFrame>
  );
}
