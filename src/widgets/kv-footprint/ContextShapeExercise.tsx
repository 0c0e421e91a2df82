/** 07.04's predict-the-shape exercise: how the contexts that fit fall as each context grows. */
import { ShapeExercise } from '../../lessons-kit/ShapeExercise';
import { formatCount, formatTokens } from '../../lib/format';
import { acceleratorName, modelName } from '../../sim/engine/catalog/names';
import { useSimulation } from '../kit/useSimulation';
import { FOOTPRINT_REPLICA } from './KvFootprintExercise';

/** The context lengths swept: `points` even steps of `step` tokens (the chart's x axis is linear). */
export const CONTEXT_SWEEP = { step: 10_000, points: 20 } as const;

const CONTEXTS = Array.from({ length: CONTEXT_SWEEP.points }, (_, i) => CONTEXT_SWEEP.step * (i + 1));

/** The replica of the exercise above (KvFootprintExercise), swept over the context lengths. */
export const SHAPE_ARGS = { ...FOOTPRINT_REPLICA, contextTokens: CONTEXTS } as const;

export function ContextShapeQuestion() {
  const a = SHAPE_ARGS;
  return (
    <p>
      Keep the replica above ({modelName(a.modelId)}, {a.gpus} × {acceleratorName(a.acceleratorId)}) and let
      every agent&apos;s context grow from {formatCount(CONTEXTS[0])} to{' '}
      {formatCount(CONTEXTS[CONTEXTS.length - 1])} tokens. Which curve is the number of contexts that fit at
      once?
    </p>
  );
}

export function ContextShapeExercise() {
  const sim = useSimulation('kvFootprintSweep', SHAPE_ARGS);
  const r = sim.result;
  const computed = r ? r.contextTokens.map((x, i) => ({ x, y: r.concurrentContexts[i] })) : null;
  return (
    <ShapeExercise
      id="07-04-contexts-shape"
      question={<ContextShapeQuestion />}
      computed={computed}
      x={{ label: 'Context', unit: 'tokens', format: (v) => formatTokens(v) }}
      y={{ label: 'Contexts that fit', format: (v) => String(Math.round(v)) }}
      explanation={
        <p>
          The budget is fixed and each context takes bytes in proportion to its length, so the count is
          ⌊budget / (tokens × bytes per token)⌋: a hyperbola, steep at short contexts and flat at long ones,
          in whole steps. Doubling the context halves the count; no straight line or bend the other way can do
          that.
        </p>
      }
    />
  );
}
