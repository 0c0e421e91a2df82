/**
 * 07.03's exercises. Answers come from the lesson's formulas (src/sim/lessons/routing/theory.ts) and the model catalog,
 * the same code the widgets and the prose figures use; nothing is typed in. The questions, hints and explanations
 * state the figures from the same constants (TURN, DUP, DUP_REPLICA) and catalog entries the answers use.
 */
import { Exercise } from '../../lessons-kit/Exercise';
import { findAccelerator } from '../../sim/engine/catalog/accelerators';
import {
  DTYPE_BYTES,
  findModel,
  kvBytesPerToken,
  weightBytes,
  type Dtype,
} from '../../sim/engine/catalog/models';
import { acceleratorName, modelName } from '../../sim/engine/catalog/names';
import {
  duplicatedPrefixBytes,
  replicaKvBlocks,
  replicasHoldingSession,
  spreadTurnHitRate,
  affinityTurnHitRate,
} from '../../sim/lessons/routing/theory';
import {
  LAB_ACCELERATOR,
  LAB_BLOCK_SIZE,
  LAB_MODEL,
  LAB_SHARED_TOKENS,
  LAB_TP,
} from '../../sim/lessons/routing/constants';
import { VLLM_GPU_MEMORY_UTILIZATION } from '../../sim/engine/hbm';
import { formatBytesDecimal, formatNumber, formatPercent, formatWhole } from '../../lib/format';

/**
 * The turn the first exercise asks about: turn `turn` of one session, its turns spread over `replicas`, behind the
 * lab's shared head (system prompt and tool schemas).
 */
export const TURN = {
  turn: 12,
  replicas: 4,
  sharedTokens: LAB_SHARED_TOKENS,
  previousContextTokens: 30_000,
  promptTokens: 32_000,
} as const;

/** Tokens the turn reuses on average: S + (C − S) / R. */
const expectedReused = TURN.sharedTokens + (TURN.previousContextTokens - TURN.sharedTokens) / TURN.replicas;

export function RoundRobinQuestion() {
  return (
    <p>
      An agent app’s prompts open with a {formatWhole(TURN.sharedTokens)}-token shared head (system prompt and
      tool schemas) that every replica keeps cached. Turn {formatWhole(TURN.turn)} of one session sends a{' '}
      {formatWhole(TURN.promptTokens)}-token prompt; the previous turn’s whole context (its prompt and its
      output) was {formatWhole(TURN.previousContextTokens)} tokens. A round-robin router spreads the turns
      over {formatWhole(TURN.replicas)} replicas in a busy fleet: other sessions’ requests move its counter
      between this session’s turns, so each turn lands on a replica as if at random. The session’s older
      copies on other replicas have been evicted. What prefix hit rate do you expect for this turn, in
      percent? Predict first, then check.
    </p>
  );
}

export function RoundRobinHint() {
  return (
    <p>
      With probability 1/R = 1/{formatWhole(TURN.replicas)} the turn lands where the previous turn ran and
      reuses all {formatWhole(TURN.previousContextTokens)} tokens; otherwise it reuses only the shared{' '}
      {formatWhole(TURN.sharedTokens)}. Average the reused tokens, then divide by the prompt.
    </p>
  );
}

export function RoundRobinExplanation() {
  const h = spreadTurnHitRate(TURN);
  const aff = affinityTurnHitRate(TURN);
  return (
    <p>
      Expected reused tokens = {formatWhole(TURN.sharedTokens)} + ({formatWhole(TURN.previousContextTokens)} −{' '}
      {formatWhole(TURN.sharedTokens)}) / {formatWhole(TURN.replicas)} = {formatNumber(expectedReused, 5)},
      over a {formatWhole(TURN.promptTokens)}-token prompt: {formatPercent(h)}. With session affinity the same
      turn reuses {formatWhole(TURN.previousContextTokens)} of {formatWhole(TURN.promptTokens)} tokens,{' '}
      {formatPercent(aff)}: round-robin makes this turn prefill about{' '}
      {formatNumber((TURN.promptTokens * (1 - h)) / (TURN.promptTokens * (1 - aff)), 2)} times as many tokens,
      and the gap widens with R and with the context.
    </p>
  );
}

export function RoundRobinHitRateExercise() {
  const h = spreadTurnHitRate(TURN);
  return (
    <Exercise
      id="07-03-round-robin-hit-rate"
      question={<RoundRobinQuestion />}
      answer={h * 100}
      tolerance={0.03}
      unit="%"
      format={(v) => `${formatNumber(v, 3)}%`}
      hint={<RoundRobinHint />}
      explanation={<RoundRobinExplanation />}
    />
  );
}

/** The session the second exercise asks about: `turns` turns over `replicas` replicas, `tokens` of context. */
export const DUP = {
  model: LAB_MODEL,
  kvDtype: 'bf16' as Dtype,
  tokens: 40_000,
  replicas: 8,
  turns: 12,
} as const;

/**
 * One replica of that fleet, the lab's (src/sim/lessons/routing/constants.ts), as replicaKvBlocks sizes its KV budget:
 * its GPUs, vLLM's default memory utilisation, the lab's KV pages, BF16 weights.
 */
export const DUP_REPLICA = {
  gpus: LAB_TP,
  accelerator: LAB_ACCELERATOR,
  memoryUtilization: VLLM_GPU_MEMORY_UTILIZATION,
  blockSize: LAB_BLOCK_SIZE,
  weightDtype: 'bf16' as Dtype,
} as const;

/** Everything the second exercise states and answers, from DUP, DUP_REPLICA and the catalogs. */
export function duplicateKvFigures() {
  const m = findModel(DUP.model)!;
  const perToken = kvBytesPerToken(m, DUP.kvDtype);
  const copies = replicasHoldingSession('round-robin', DUP.replicas, DUP.turns);
  const bytes = duplicatedPrefixBytes(perToken, DUP.tokens, copies);
  const accelerator = findAccelerator(DUP_REPLICA.accelerator)!;
  const replicaKv =
    replicaKvBlocks({
      gpus: DUP_REPLICA.gpus,
      memoryBytes: accelerator.memoryBytes,
      memoryUtilization: DUP_REPLICA.memoryUtilization,
      weightBytes: weightBytes(m, DUP_REPLICA.weightDtype),
      kvBytesPerToken: perToken,
      blockSize: DUP_REPLICA.blockSize,
    }) *
    DUP_REPLICA.blockSize *
    perToken;
  return { model: m, perToken, copies, bytes, replicaKv };
}

/** "2 × H100 SXM": the replica's GPUs, as the catalog names them. */
const replicaHardware = `${formatWhole(DUP_REPLICA.gpus)} × ${acceleratorName(DUP_REPLICA.accelerator)}`;

export function DuplicateKvQuestion() {
  return (
    <p>
      A fleet of {formatWhole(DUP.replicas)} replicas serves {modelName(DUP.model)} with a{' '}
      {DUP.kvDtype.toUpperCase()} KV cache behind a round-robin router. One agent session has run{' '}
      {formatWhole(DUP.turns)} turns and its context has grown to {formatWhole(DUP.tokens)} tokens; assume no
      copy has been evicted, and for the most copies that no other request reached the router between its
      turns, so each turn went to the next replica in turn. Each replica holds the context as of the last turn
      it served; for an upper bound, count every copy at the full {formatWhole(DUP.tokens)} tokens. At most
      how many gigabytes (10⁹ bytes) of HBM across the fleet hold copies of its prefix beyond the one copy it
      needs?
    </p>
  );
}

export function DuplicateKvHint() {
  const m = findModel(DUP.model)!;
  return (
    <p>
      With no other request between its turns, round-robin sends each turn to the next replica, so after{' '}
      {formatWhole(DUP.turns)} turns every one of the {formatWhole(DUP.replicas)} replicas has served the
      session (in a busy fleet, where turns land as if at random, some would have served it twice and fewer
      would hold a copy). KV bytes per token = 2 × layers ({formatWhole(m.layers)}) × KV heads (
      {formatWhole(m.kvHeads)}) × head dim ({formatWhole(m.headDim)}) ×{' '}
      {formatWhole(DTYPE_BYTES[DUP.kvDtype])} bytes. Count the copies beyond the first, each at the whole
      context.
    </p>
  );
}

export function DuplicateKvExplanation() {
  const { model, perToken, copies, bytes, replicaKv } = duplicateKvFigures();
  return (
    <p>
      Copies = min({formatWhole(DUP.turns)}, {formatWhole(DUP.replicas)}) = {copies}; one token of{' '}
      {model.name}’s KV is {formatNumber(perToken)} bytes, so the duplicates are ({copies} − 1) ×{' '}
      {formatWhole(DUP.tokens)} × {formatNumber(perToken)} B = {formatBytesDecimal(bytes)} at most: each older
      copy holds the context as of the turn its replica last served, less than the whole. On {replicaHardware}{' '}
      a replica has {formatBytesDecimal(replicaKv)} of KV after the weights, so one session’s copies can fill
      up to {formatPercent(bytes / replicaKv)} of a whole replica’s budget, and only the replica that serves
      its next turn can use any of them.
    </p>
  );
}

export function DuplicateKvExercise() {
  const { bytes } = duplicateKvFigures();
  return (
    <Exercise
      id="07-03-duplicate-kv"
      question={<DuplicateKvQuestion />}
      answer={bytes / 1e9}
      tolerance={0.03}
      unit="GB"
      hint={<DuplicateKvHint />}
      explanation={<DuplicateKvExplanation />}
    />
  );
}
