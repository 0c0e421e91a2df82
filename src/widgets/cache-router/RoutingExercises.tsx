/**
 * 07.03's exercises. Answers come from the lesson's formulas (src/sim/lessons/routing/theory.ts) and the model catalog,
 * the same code the widgets and the prose figures use; nothing is typed in.
 */
import { Exercise } from '../../lessons-kit/Exercise';
import { findAccelerator } from '../../sim/engine/catalog/accelerators';
import { findModel, kvBytesPerToken, weightBytes } from '../../sim/engine/catalog/models';
import {
  duplicatedPrefixBytes,
  replicaKvBlocks,
  replicasHoldingSession,
  spreadTurnHitRate,
  affinityTurnHitRate,
} from '../../sim/lessons/routing/theory';
import { formatBytesDecimal, formatNumber, formatPercent } from '../../lib/format';

const TURN = { replicas: 4, sharedTokens: 5000, previousContextTokens: 30_000, promptTokens: 32_000 };

export function RoundRobinHitRateExercise() {
  const h = spreadTurnHitRate(TURN);
  const aff = affinityTurnHitRate(TURN);
  return (
    <Exercise
      id="07-03-round-robin-hit-rate"
      question={
        <p>
          An agent app’s prompts open with a 5,000-token shared head (system prompt and tool schemas) that
          every replica keeps cached. Turn 12 of one session sends a 32,000-token prompt; the previous turn’s
          whole context (its prompt and its output) was 30,000 tokens. A round-robin router spreads the turns
          over 4 replicas, and the session’s older copies on other replicas have been evicted. What prefix hit
          rate do you expect for this turn, in percent? Predict first, then check.
        </p>
      }
      answer={h * 100}
      tolerance={0.03}
      unit="%"
      format={(v) => `${formatNumber(v, 3)}%`}
      hint={
        <p>
          With probability 1/R the turn lands where the previous turn ran and reuses all 30,000 tokens;
          otherwise it reuses only the shared 5,000. Average the reused tokens, then divide by the prompt.
        </p>
      }
      explanation={
        <p>
          Expected reused tokens = 5,000 + (30,000 − 5,000) / 4 ={' '}
          {formatNumber(TURN.sharedTokens + (TURN.previousContextTokens - TURN.sharedTokens) / 4, 5)}, over a
          32,000-token prompt: {formatPercent(h)}. With session affinity the same turn reuses 30,000 of 32,000
          tokens, {formatPercent(aff)}: round-robin makes this turn prefill about{' '}
          {formatNumber((TURN.promptTokens * (1 - h)) / (TURN.promptTokens * (1 - aff)), 2)} times as many
          tokens, and the gap widens with R and with the context.
        </p>
      }
    />
  );
}

const DUP = { model: 'qwen3-32b', tokens: 40_000, replicas: 8, turns: 12 };

export function DuplicateKvExercise() {
  const m = findModel(DUP.model)!;
  const perToken = kvBytesPerToken(m, 'bf16');
  const copies = replicasHoldingSession('round-robin', DUP.replicas, DUP.turns);
  const bytes = duplicatedPrefixBytes(perToken, DUP.tokens, copies);
  const h100 = findAccelerator('h100-sxm')!;
  const replicaKv =
    replicaKvBlocks({
      gpus: 2,
      memoryBytes: h100.memoryBytes,
      memoryUtilization: 0.9,
      weightBytes: weightBytes(m, 'bf16'),
      kvBytesPerToken: perToken,
      blockSize: 256,
    }) *
    256 *
    perToken;
  return (
    <Exercise
      id="07-03-duplicate-kv"
      question={
        <p>
          A fleet of 8 replicas serves Qwen3-32B with a BF16 KV cache behind a round-robin router. One agent
          session has run 12 turns and its context has grown to 40,000 tokens; assume no copy has been
          evicted. How many gigabytes (10⁹ bytes) of HBM across the fleet hold copies of its prefix beyond the
          one copy it needs?
        </p>
      }
      answer={bytes / 1e9}
      tolerance={0.03}
      unit="GB"
      hint={
        <p>
          Round-robin visits a new replica each turn, so after 12 turns every one of the 8 replicas has served
          the session. KV bytes per token = 2 × layers (64) × KV heads (8) × head dim (128) × 2 bytes. Count
          the copies beyond the first.
        </p>
      }
      explanation={
        <p>
          Copies = min(12, 8) = {copies}; one token of Qwen3-32B’s KV is {formatNumber(perToken)} bytes, so
          the duplicates are ({copies} − 1) × 40,000 × {formatNumber(perToken)} B ={' '}
          {formatBytesDecimal(bytes)}. On 2 × H100 a replica has {formatBytesDecimal(replicaKv)} of KV after
          the weights, so one session’s copies fill {formatPercent(bytes / replicaKv)} of a whole replica’s
          budget, and only the replica that serves its next turn can use any of them.
        </p>
      }
    />
  );
}
