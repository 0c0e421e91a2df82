/** Inline figures and the exercise of lesson 07.09, from the core (src/sim/lessons/grammar/cost.ts) and the live sweep. */
import { InlineFigure } from '../kit/InlineFigure';
import { useMemo } from 'react';
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import { formatDuration, formatNumber } from '../../lib/format';
import {
  addedTtftQuantileS,
  compileQuantileS,
  tailMasksPerSecond,
  type CompilePreset,
} from '../../sim/lessons/grammar/cost';
import {
  FILL_RULES,
  maskStep,
  STEP_CONTEXT_TOKENS,
  threadsToHide,
  type FillRule,
} from '../../sim/lessons/grammar/overlap';

/** q-quantile of the compile time a request adds to TTFT when a share `miss` of requests compiles. */
export function AddedTtft({
  preset = 'xgrammar',
  miss,
  q = 0.99,
}: {
  preset?: CompilePreset;
  miss: number;
  q?: number;
}) {
  const s = addedTtftQuantileS(preset, miss, q);
  return <InlineFigure value={s === 0 ? '0 s' : formatDuration(s)} />;
}

export function CompileQuantile({ preset = 'xgrammar', p }: { preset?: CompilePreset; p: number }) {
  return <InlineFigure value={formatDuration(compileQuantileS(preset, p))} />;
}

export function TailMasks({ batch, stepS, q }: { batch: number; stepS: number; q: number }) {
  return <InlineFigure value={`${formatNumber(tailMasksPerSecond(batch, stepS, q))} per second`} />;
}

/**
 * One decode step of Llama 3.1 8B on an H100 with `batch` constrained sequences of `maskUs` µs each
 * (src/sim/lessons/grammar/overlap.ts): the GPU step, the masks' wall time, TPOT overlapped or charged after the
 * step, the overhead, or the threads that hide the masks.
 */
export function MaskStepFig({
  m,
  batch,
  maskUs,
  threads = 8,
  fill = 'vllm',
}: {
  m: 'gpu' | 'mask' | 'tpot' | 'serial' | 'overhead' | 'hideThreads';
  batch: number;
  maskUs: number;
  threads?: number;
  fill?: FillRule;
}) {
  const p = { batch, contextTokens: STEP_CONTEXT_TOKENS, maskS: maskUs * 1e-6, ...FILL_RULES[fill] };
  if (m === 'hideThreads') {
    const t = threadsToHide(p);
    return <InlineFigure value={Number.isFinite(t) ? formatNumber(t) : 'no number of'} />;
  }
  const s = maskStep({ ...p, threads });
  if (m === 'gpu') return <InlineFigure value={formatDuration(s.gpuS)} />;
  if (m === 'mask') return <InlineFigure value={formatDuration(s.maskWallS)} />;
  if (m === 'tpot') return <InlineFigure value={formatDuration(s.overlappedS)} />;
  if (m === 'serial') return <InlineFigure value={formatDuration(s.serialS)} />;
  return <InlineFigure value={`${formatNumber(100 * s.overhead, 2)}%`} />;
}

/** A figure of the live tool-choice sweep (the widget's default family). */
export function SweepFig({ m, size }: { m: 'compile' | 'mask' | 'ratio'; size: number }) {
  const args = useMemo(() => ({ family: 'tools' as const }), []);
  const sim = useSimulation('grammarCostSweep', args);
  const p = sim.result?.points.find((x) => x.size === size);
  if (!p) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  if (m === 'compile') return <InlineFigure value={`${formatNumber(p.compileMs, 3)} ms`} />;
  if (m === 'mask') return <InlineFigure value={`${formatNumber(p.maskP50Us, 3)} µs`} />;
  return <InlineFigure value={formatNumber((1000 * p.compileMs) / p.maskP50Us, 2)} />;
}

const Q = { batch: 100, stepS: 0.02, q: 0.99 };

export function TailMaskExercise() {
  const answer = tailMasksPerSecond(Q.batch, Q.stepS, Q.q);
  return (
    <Exercise
      id="07-09-tail-masks"
      question={
        <p>
          A replica decodes a batch of 100 constrained sequences, one decode step every 20 ms, and computes
          one mask per sequence per step. How many mask computations per second are slower than the
          engine&apos;s p99 mask time? Predict first: is the p99 a rare event?
        </p>
      }
      answer={answer}
      tolerance={0.02}
      unit="per second"
      hint={
        <p>Masks per second = sequences × steps per second. One in a hundred of them is beyond the p99.</p>
      }
      explanation={
        <p>
          100 sequences × 50 steps per second = 5,000 masks per second, and 1% of them, {formatNumber(answer)}{' '}
          per second, are beyond the p99. With MaskBench&apos;s XGrammar p99 of 5.7 ms against a 20 ms step, a
          slow mask that is not overlapped stalls some step of the batch dozens of times a second: the tail of
          the mask time, not its median, sets the overhead.
        </p>
      }
    />
  );
}
