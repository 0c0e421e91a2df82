/** 07.04's predict-the-shape exercise: how the contexts that fit fall as each context grows. */
import { ShapeExercise } from '../../lessons-kit/ShapeExercise';
import { formatTokens } from '../../lib/format';
import { useSimulation } from '../kit/useSimulation';

/** 10k to 200k tokens in even steps: the chart's x axis is linear. */
const CONTEXTS = Array.from({ length: 20 }, (_, i) => 10_000 * (i + 1));

const ARGS = {
  modelId: 'llama-3.1-70b',
  acceleratorId: 'h100-sxm',
  kvDtype: 'bf16',
  weightDtype: 'bf16',
  gpus: 8,
  memoryUtilization: 0.9,
  contextTokens: CONTEXTS,
} as const;

export function ContextShapeExercise() {
  const sim = useSimulation('kvFootprintSweep', ARGS);
  const r = sim.result;
  const computed = r ? r.contextTokens.map((x, i) => ({ x, y: r.concurrentContexts[i] })) : null;
  return (
    <ShapeExercise
      id="07-04-contexts-shape"
      question={
        <p>
          Keep the replica above (Llama 3.1 70B, 8 × H100) and let every agent&apos;s context grow from 10k to
          200k tokens. Which curve is the number of contexts that fit at once?
        </p>
      }
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
