/** 07.04's exercise: the answer comes from the same worker method as the calculator. */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import { formatBytesDecimal, formatNumber } from '../../lib/format';

const QUESTION_ARGS = {
  modelId: 'llama-3.1-70b',
  acceleratorId: 'h100-sxm',
  kvDtype: 'bf16',
  weightDtype: 'bf16',
  contextTokens: 100_000,
  gpus: 8,
  memoryUtilization: 0.9,
} as const;

export function KvFootprintExercise() {
  const sim = useSimulation('kvFootprint', QUESTION_ARGS);
  const r = sim.result;
  return (
    <Exercise
      id="07-04-contexts-per-replica"
      question={
        <p>
          A replica serves Llama 3.1 70B in BF16 (weights and KV cache) on 8 × H100 SXM (80 GB each), and the
          engine may use 90% of HBM. How many 100,000-token agent contexts fit in its KV budget at once?
          Predict first, then check with the calculator above.
        </p>
      }
      answer={r ? r.concurrentContexts : null}
      tolerance={0.04}
      unit="contexts"
      hint={
        <p>
          Budget = 8 × 80 GB × 0.9 − weights (70.6 B parameters × 2 bytes). One context = 100,000 tokens × 2 ×
          80 layers × 8 KV heads × 128 × 2 bytes. Divide and round down.
        </p>
      }
      explanation={
        r ? (
          <p>
            Usable HBM is {formatBytesDecimal(r.usableHbmBytes)}; vLLM&apos;s profiled activation reserve
            takes {formatBytesDecimal(r.reserveBytes)} and the weights{' '}
            {formatBytesDecimal(r.weightBytesTotal)}, leaving a KV budget of{' '}
            {formatBytesDecimal(r.kvBudgetBytes)}. One context is {formatBytesDecimal(r.contextBytes)} (
            {formatNumber(r.kvBytesPerToken)} bytes per token), so ⌊budget / context⌋ = {r.concurrentContexts}
            . Eight of the world&apos;s largest accelerators keep only about a dozen long agent contexts warm:
            the rest must wait in a slower tier or be recomputed.
          </p>
        ) : null
      }
    />
  );
}
