/** 07.02's exercise: the extra TTFT of a cold turn 12; the answer comes from the cost model, through the worker. */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import { formatDuration, formatFlops, formatNumber, formatRatio } from '../../lib/format';

export const COLD_TURN_QUESTION = {
  modelId: 'llama-3.1-70b',
  nodeId: 'dgx-h100',
  promptTokens: 40_000,
  cachedTokens: 38_000,
} as const;

export function ColdTurnExercise() {
  const sim = useSimulation('coldTurnCost', COLD_TURN_QUESTION);
  const r = sim.result;
  const f = r?.formula;
  return (
    <Exercise
      id="07-02-cold-turn-extra-ttft"
      question={
        <p>
          Turn 12 of the trajectory above sends a 40,000-token prompt: the 38,000 tokens turn 11 already
          processed (its 37,500-token prompt and its 500-token output; ignore the rounding to whole blocks)
          and a 2,000-token tool result. The session runs Llama 3.1 70B on a DGX H100 (8 × H100 SXM, tensor
          parallel 8; the cost model&apos;s fitted GEMM and attention efficiencies and all-reduce). Turn 12
          lands on a replica that has never seen the session. How many seconds longer is its time to first
          token than it would have been on the replica that served turn 11? Predict first, then check.
        </p>
      }
      answer={r ? r.extraS : null}
      tolerance={0.1}
      unit="s"
      format={(v) => formatDuration(v)}
      hint={
        f ? (
          <p>
            Only the 38,000 tokens the warm replica holds are extra work; the 2,000 new ones are prefilled
            either way. One token at position c costs {formatFlops(f.bodyFlopsPerToken)} (2 FLOP per body
            parameter) plus {formatFlops(f.attentionFlopsPerPair)} for each earlier token it attends to. Take
            c at the middle of the 38,000. Divide the body FLOPs by 8 × {formatFlops(f.peakFlopsPerGpu, true)}{' '}
            × {f.gemmEfficiency} and the attention FLOPs by 8 × {formatFlops(f.peakFlopsPerGpu, true)} ×{' '}
            {f.attentionEfficiency}, add the all-reduce of one token ({formatDuration(f.allReducePerTokenS)}),
            and multiply by 38,000.
          </p>
        ) : null
      }
      explanation={
        r ? (
          <p>
            From the cost model: prefilling all {formatNumber(r.promptTokens)} tokens takes{' '}
            {formatDuration(r.coldS)}; prefilling the {formatNumber(r.promptTokens - r.cachedTokens)} new ones
            on top of {formatNumber(r.cachedTokens)} cached takes {formatDuration(r.warmS)}. The difference,{' '}
            {formatDuration(r.extraS)}, is {formatNumber(r.cachedTokens)} × t<sub>tok</sub>(
            {formatNumber(r.midContext)}) = {formatNumber(r.cachedTokens)} × {formatDuration(r.perTokenS)}:
            the cost per token is linear in the position, so the sum over the re-prefilled positions is their
            count times the cost at the middle. The cold turn waits {formatRatio(r.coldS / r.warmS, 2)} as
            long as the warm one, and under round-robin over R replicas a share (R − 1)/R of the turns pays a
            bill like this, growing with the context.
          </p>
        ) : null
      }
    />
  );
}
