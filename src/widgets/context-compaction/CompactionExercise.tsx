/** 07.11's exercise: the re-prefill time of an 80k → 10k compaction, from the same worker method as the widget. */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import { formatDuration, formatFlops, formatNumber } from '../../lib/format';
import { EXERCISE_ARGS } from './schema';
import { resolveAccelerator, resolveModel } from '../../sim/engine/catalog/index';

export const EXERCISE_ID = '07-11-compaction-reprefill';

export function CompactionExercise() {
  const sim = useSimulation('compactionPayback', EXERCISE_ARGS);
  const r = sim.result;
  const t = r?.runs.summarise.turns.find((x) => x.compacted);
  const none = r && t ? r.runs.none.turns[t.turn - 1] : undefined;
  const p = EXERCISE_ARGS.params;
  const n = p.summaryTokens + p.growthTokens;
  const c = p.headTokens;
  return (
    <Exercise
      id={EXERCISE_ID}
      question={
        <p>
          An agent on {resolveModel(EXERCISE_ARGS.modelId).name}, served by{' '}
          {EXERCISE_ARGS.tp === 1 ? 'one' : `${EXERCISE_ARGS.tp} ×`}{' '}
          {resolveAccelerator(EXERCISE_ARGS.acceleratorId).name} (the cost model&apos;s fitted efficiencies),
          reaches {formatNumber(p.contextTokens, 6)} tokens and compacts: everything after the{' '}
          {formatNumber(c, 6)}
          -token head (system prompt and tools, still cached) is replaced by a{' '}
          {formatNumber(p.summaryTokens, 6)}-token summary, and the turn adds{' '}
          {formatNumber(p.growthTokens, 6)} new tokens. How many milliseconds does the next request&apos;s
          prefill take? Predict, then check with the second widget (model, GPUs).
        </p>
      }
      answer={t ? t.prefillSeconds * 1e3 : null}
      tolerance={0.05}
      unit="ms"
      format={(v) => `${formatNumber(v, 3)} ms`}
      hint={
        r ? (
          <p>
            The summary was written at the end of the old context, so its KV sits at the wrong positions: n ={' '}
            {formatNumber(n, 6)} tokens are new, c = {formatNumber(c, 6)} cached. FLOPs ≈ 2N·n + A·(n·c +
            n²/2) with 2N = {formatFlops(r.replica.bodyFlopsPerToken)} per token and A ={' '}
            {formatFlops(r.replica.attentionFlopsPerPair)} per (query, key) pair; divide the first by G_m ={' '}
            {formatFlops(r.replica.effectiveFlops, true)}, the second by G_a ={' '}
            {formatFlops(r.replica.attentionFlops, true)}, and add {formatDuration(r.replica.iterationFixedS)}{' '}
            of per-iteration overhead.
          </p>
        ) : null
      }
      explanation={
        r && t && none ? (
          <p>
            2N·n = {formatFlops(r.replica.bodyFlopsPerToken * n)}, attention A·(n·c + n²/2) ={' '}
            {formatFlops(r.replica.attentionFlopsPerPair * (n * c + (n * n) / 2))}; over G_m and G_a, with the
            overhead, that is {formatDuration(t.prefillSeconds)} (the core adds the LM head and checks the
            memory side). A turn without compaction prefills only its {formatNumber(p.growthTokens, 6)} new
            tokens, in {formatDuration(none.prefillSeconds)} at this context, so the compaction costs about{' '}
            {formatNumber(t.prefillSeconds / none.prefillSeconds, 2)} ordinary turns of prefill, paid back
            only by the turns that follow attending to a shorter context (in dollars:{' '}
            {r.breakEven.summarise.dollars === null
              ? 'never in this window'
              : `from turn ${r.breakEven.summarise.dollars}`}
            ).
          </p>
        ) : null
      }
    />
  );
}
