/** 07.09's predict-the-shape exercise: TPOT against the batch when masks are slow (the same maskStep as the widget). */
import { useMemo } from 'react';
import { ShapeExercise } from '../../lessons-kit/ShapeExercise';
import {
  FILL_RULES,
  MASK_COST_CHOICES,
  maskStep,
  STEP_CONTEXT_TOKENS,
} from '../../sim/lessons/grammar/overlap';
import { durationAxis } from '../kit/charts/scales';

const MASK = MASK_COST_CHOICES.find((c) => c.id === 'xgr-mean')!;
const THREADS = 4;
/** 8 to 256 sequences in even steps (the x axis is linear). */
const BATCHES = Array.from({ length: 32 }, (_, i) => 8 * (i + 1));

export function maskShapeCurve() {
  return BATCHES.map((batch) => ({
    x: batch,
    y: maskStep({
      batch,
      contextTokens: STEP_CONTEXT_TOKENS,
      maskS: MASK.us * 1e-6,
      threads: THREADS,
      ...FILL_RULES.vllm,
    }).overlappedS,
  }));
}

export function MaskShapeExercise() {
  const computed = useMemo(() => maskShapeCurve(), []);
  return (
    <ShapeExercise
      id="07-09-tpot-shape"
      question={
        <p>
          Every sequence of a Llama 3.1 8B batch on one H100 is constrained by a schema whose mask takes
          XGrammar&apos;s mean CPU time, and vLLM&apos;s mask pool has {THREADS} threads. As the batch grows
          from {BATCHES[0]} to {BATCHES[BATCHES.length - 1]} sequences, which curve is the time per output
          token?
        </p>
      }
      computed={computed}
      x={{ label: 'Batch', unit: 'sequences' }}
      y={durationAxis('Time per output token')}
      explanation={
        <p>
          Up to {FILL_RULES.vllm.serialUpTo} sequences vLLM fills the masks one after another on its engine
          thread, so the masks&apos; wall time grows with every sequence and soon dwarfs the GPU&apos;s step:
          the token time climbs in a straight line. Past {FILL_RULES.vllm.serialUpTo} the masks go to the pool
          in chunks of {FILL_RULES.vllm.chunk} over {THREADS} threads, their wall time falls by about the
          thread count, and the token time drops before it climbs again, more slowly. A larger batch can be
          faster per token than a smaller one.
        </p>
      }
    />
  );
}
