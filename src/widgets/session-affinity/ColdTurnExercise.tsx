/** 07.02's exercise: the extra TTFT of a cold turn 12; the answer comes from the cost model, through the worker. */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import { formatDuration, formatFlops, formatNumber, formatRatio, formatWhole } from '../../lib/format';
import { DEFAULT_TRAJECTORY, trajectoryPrompt } from '../../sim/lessons/affinityModel';
import { findModel } from '../../sim/engine/catalog/models';
import { findNode } from '../../sim/engine/catalog/nodes';

/** The turn the question asks about (0-based, as the replay numbers them), on the lesson's trajectory. */
const TURN = 12;
const PREVIOUS_PROMPT = trajectoryPrompt(DEFAULT_TRAJECTORY, TURN - 1);

export const COLD_TURN_QUESTION = {
  modelId: 'llama-3.1-70b',
  nodeId: 'dgx-h100',
  promptTokens: trajectoryPrompt(DEFAULT_TRAJECTORY, TURN),
  cachedTokens: PREVIOUS_PROMPT + DEFAULT_TRAJECTORY.outputTokens,
} as const;

const Q = COLD_TURN_QUESTION;
const MODEL = findModel(Q.modelId);
const NODE = findNode(Q.nodeId);
export function ColdTurnExercise() {
  const sim = useSimulation('coldTurnCost', COLD_TURN_QUESTION);
  const r = sim.result;
  const f = r?.formula;
  return (
    <Exercise
      id="07-02-cold-turn-extra-ttft"
      question={
        <p>
          Turn {TURN} of the trajectory above sends a {formatWhole(Q.promptTokens)}-token prompt: the{' '}
          {formatWhole(Q.cachedTokens)} tokens turn {TURN - 1} already processed (its{' '}
          {formatWhole(PREVIOUS_PROMPT)}-token prompt and its {formatWhole(DEFAULT_TRAJECTORY.outputTokens)}
          -token output; ignore the rounding to whole blocks) and a{' '}
          {formatWhole(Q.promptTokens - Q.cachedTokens)}-token tool result. The session runs {MODEL?.name} on
          a {NODE?.name}, tensor parallel {NODE?.gpuCount} (the cost model&apos;s fitted GEMM and attention
          efficiencies and all-reduce). Turn {TURN} lands on a replica that has never seen the session. How
          many seconds longer is its time to first token than it would have been on the replica that served
          turn {TURN - 1}? Predict first, then check.
        </p>
      }
      answer={r ? r.extraS : null}
      tolerance={0.1}
      unit="s"
      format={(v) => formatDuration(v)}
      hint={
        f ? (
          <p>
            Only the {formatWhole(Q.cachedTokens)} tokens the warm replica holds are extra work; the{' '}
            {formatWhole(Q.promptTokens - Q.cachedTokens)} new ones are prefilled either way. One token at
            position c costs {formatFlops(f.bodyFlopsPerToken)} (2 FLOP per body parameter) plus{' '}
            {formatFlops(f.attentionFlopsPerPair)} for each earlier token it attends to. Take c at the middle
            of the {formatWhole(Q.cachedTokens)}. Divide the body FLOPs by {r?.gpus} ×{' '}
            {formatFlops(f.peakFlopsPerGpu, true)} × {f.gemmEfficiency} and the attention FLOPs by {r?.gpus} ×{' '}
            {formatFlops(f.peakFlopsPerGpu, true)} × {f.attentionEfficiency}, add the all-reduce of one token
            ({formatDuration(f.allReducePerTokenS)}), and multiply by {formatWhole(Q.cachedTokens)}.
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
