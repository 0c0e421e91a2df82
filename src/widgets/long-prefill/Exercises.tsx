/**
 * 07.10's exercises. The answers come from the same worker methods as the widgets: the timeline's largest gap
 * with 2,000-token chunks, and the attention speed-up that matches raising the hit rate from 90% to 95%.
 */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import {
  formatDuration,
  formatFlops,
  formatNumber,
  formatPercent,
  formatRatio,
  formatTokens,
  formatWhole,
} from '../../lib/format';
import { GAP_EXERCISE, MATCH_EXERCISE } from './schema';
import { resolveAccelerator, resolveModel } from '../../sim/engine/catalog/index';

/** "Llama 3.1 70B on 8 × H100 SXM": the replica an exercise's request names. */
const replicaOf = (q: { modelId: string; acceleratorId: string; gpus: number }, joiner = 'on') =>
  `${resolveModel(q.modelId).name} ${joiner} ${q.gpus} × ${resolveAccelerator(q.acceleratorId).name}`;

const G = GAP_EXERCISE;
/** The exercise's chunks, and the context its last full chunk attends to. */
const GAP_CHUNKS = Math.ceil(G.promptTokens / G.chunk);
const LAST_CONTEXT = G.promptTokens - G.chunk;
const M = MATCH_EXERCISE;
/** Tokens the turn prefills at the lower hit rate, and the cached tokens before them. */
const MATCH_NEW = Math.round((1 - M.hitFrom) * M.contextTokens);
const MATCH_CACHED = M.contextTokens - MATCH_NEW;
export function LargestGapExercise() {
  const sim = useSimulation('prefillTimelineRun', GAP_EXERCISE);
  const r = sim.result;
  const run = r?.run;
  const longest = run ? run.iterations[run.longestPrefillIteration] : undefined;
  const first = run?.iterations.find((x) => x.kind === 'chunk');
  const f = r?.formula;
  return (
    <Exercise
      id="07-10-largest-gap"
      question={
        <p>
          The replica of the timeline above ({replicaOf(G)}, {G.decodes} sessions decoding at{' '}
          {formatWhole(G.decodeContext)} tokens of context) receives a {formatWhole(G.promptTokens)}-token
          prompt and prefills it in chunks of {formatWhole(G.chunk)} tokens: {GAP_CHUNKS} chunks, each sharing
          an iteration with the {G.decodes} decodes. What is the longest gap, in milliseconds, that the
          decoding sessions see between two of their tokens while the prompt is prefilled? Predict first, then
          check with the widget (set the chunk to {formatWhole(G.chunk)}).
        </p>
      }
      answer={run ? run.gaps.max * 1000 : null}
      tolerance={0.1}
      unit="ms"
      format={(v) => formatDuration(v / 1000)}
      hint={
        f ? (
          <p>
            Every chunk iteration is compute-bound, and the decodes get their token when it ends, so the
            longest gap is the most expensive chunk: the last one, whose {formatWhole(G.chunk)} tokens attend
            to the {formatWhole(LAST_CONTEXT)} before them. Its matmuls are n ×{' '}
            {formatFlops(f.bodyFlopsPerToken)} over {formatFlops(f.effectiveFlops, true)}, its attention n ×{' '}
            {formatFlops(f.attentionFlopsPerPair)} × (c + n/2) over {formatFlops(f.attentionFlops, true)},
            with n = {formatWhole(G.chunk)} and c = {formatWhole(LAST_CONTEXT)}. Add the all-reduce of the
            iteration&apos;s tokens ({formatDuration(f.allReducePerTokenS)} per token +{' '}
            {formatDuration(f.allReduceFixedS)}) and the {formatDuration(f.iterationOverheadS)} overhead; the
            {G.decodes} decodes add about a millisecond.
          </p>
        ) : null
      }
      explanation={
        r && run && longest && first ? (
          <p>
            The last chunk computes {formatTokens(longest.prefillTokens)} after{' '}
            {formatTokens(longest.prefillCached)}: its compute time is {formatDuration(longest.computeS)}{' '}
            against {formatDuration(longest.memoryS)} to stream the weights and the KV, so it takes{' '}
            {formatDuration(longest.durationS)}, and that is the gap. The first chunk took only{' '}
            {formatDuration(first.durationS)}: a fixed chunk size does not give a fixed iteration time,
            because each chunk attends to everything before it. The p99 gap is {formatDuration(run.gaps.p99)},
            the prompt’s TTFT {formatDuration(run.ttftS)}, against {formatDuration(r.whole.ttftS)} and a
            single stall of {formatDuration(r.whole.gaps.max)} without chunking.
          </p>
        ) : null
      }
    />
  );
}

export function KernelMatchExercise() {
  const sim = useSimulation('hitRateVsKernel', MATCH_EXERCISE);
  const r = sim.result;
  const f = r?.formula;
  return (
    <Exercise
      id="07-10-kernel-to-match"
      question={
        <p>
          An agent’s {formatWhole(M.contextTokens)}-token turn finds {formatPercent(M.hitFrom)} of its prompt
          in the prefix cache. You could raise the hit rate to {formatPercent(M.hitTo)} (by routing and by not
          editing the prompt’s head), or buy an attention kernel that is s times faster. On{' '}
          {replicaOf(M, 'and')}, how large must s be for the kernel alone to make the{' '}
          {formatPercent(M.hitFrom)} turn as fast as the {formatPercent(M.hitTo)} turn with today’s kernel?
          Predict first, then check with the widget above.
        </p>
      }
      answer={r && Number.isFinite(r.speedupToMatch) ? r.speedupToMatch : null}
      tolerance={0.1}
      unit="×"
      format={(v) => formatRatio(v, 3)}
      hint={
        r && f ? (
          <p>
            At {formatPercent(M.hitFrom)} the turn prefills {formatWhole(MATCH_NEW)} tokens after{' '}
            {formatWhole(MATCH_CACHED)}: matmuls L = {formatWhole(MATCH_NEW)} ×{' '}
            {formatFlops(f.bodyFlopsPerToken)} and attention A = {formatFlops(f.attentionFlopsPerPair)} × (
            {formatWhole(MATCH_NEW)} × {formatWhole(MATCH_CACHED)} + {formatWhole(MATCH_NEW)}²/2). At{' '}
            {formatPercent(M.hitTo)} it takes {formatDuration(r.toStandard.timeS)}. Solve L /{' '}
            {formatFlops(f.effectiveFlops, true)} + A / (s × {formatFlops(f.attentionFlops, true)}) +
            all-reduce ({formatDuration(r.fromStandard.allReduceS)}) + overhead ={' '}
            {formatDuration(r.toStandard.timeS)} for s.
          </p>
        ) : null
      }
      explanation={
        r ? (
          <p>
            Attention is {formatPercent(r.fromStandard.attentionShare)} of the 90% turn’s work:{' '}
            {formatDuration(r.fromStandard.attentionS)} of its {formatDuration(r.fromStandard.timeS)}. A
            kernel shrinks only that part; the matmuls ({formatDuration(r.fromStandard.linearS)}) and the
            all-reduce ({formatDuration(r.fromStandard.allReduceS)}) stay. Reaching{' '}
            {formatDuration(r.toStandard.timeS)} needs s = {formatRatio(r.speedupToMatch, 3)}, more than twice
            what a new generation of attention kernels delivers. Raising the hit rate halves the tokens to
            prefill and so halves both parts at once: a {formatRatio(r.speedup, 2)} kernel is worth only{' '}
            {formatNumber((r.hitEquivalent - r.hitFrom) * 100, 2)} points of hit rate.
          </p>
        ) : null
      }
    />
  );
}
