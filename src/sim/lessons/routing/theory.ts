/**
 * Lesson 07.03 (cache-aware routing): the arithmetic of spreading a session over R replicas.
 *
 * A session's turn k re-sends its whole context: the app's shared prefix (system prompt and tool schemas,
 * S tokens, the same for every session of the app), then its own history. Where the turn lands decides how
 * much of that is already cached:
 *  - on the replica that served turn k − 1 ("warm"): the previous turn's whole context C_{k−1} is reused;
 *  - on any other replica ("cold"): at best the shared prefix S, which every busy replica holds, plus a stale
 *    copy of an older turn if one survived eviction.
 * A router that ignores the session sends each turn to a replica independent of where the previous one went,
 * so the turn is warm with probability 1/R. Round-robin does that and more: it visits the replicas in turn, so
 * after R turns every replica holds its own copy of the session's prefix.
 */
import { kvBudget } from '../../engine/hbm';

/** Probability that a turn lands on the replica that served the session's previous turn. */
export function warmTurnProbability(policy: 'spread' | 'affinity', replicas: number): number {
  if (!(replicas >= 1)) throw new RangeError(`replicas must be ≥ 1, got ${replicas}`);
  return policy === 'affinity' ? 1 : 1 / replicas;
}

export interface TurnShape {
  /** Fleet size R. */
  replicas: number;
  /** Shared prefix S (system prompt + tool schemas), tokens: cached on every replica. */
  sharedTokens: number;
  /** The previous turn's whole context C_{k−1} (its prompt and output), tokens. */
  previousContextTokens: number;
  /** This turn's prompt P_k = C_{k−1} + the new tool result / user message, tokens. */
  promptTokens: number;
}

function checkShape(t: TurnShape): void {
  const { replicas, sharedTokens: s, previousContextTokens: c, promptTokens: p } = t;
  if (!(replicas >= 1)) throw new RangeError(`replicas must be ≥ 1, got ${replicas}`);
  if (!(s >= 0 && c >= s && p >= c && p > 0)) {
    throw new RangeError(`need 0 ≤ shared (${s}) ≤ previous context (${c}) ≤ prompt (${p}), prompt > 0`);
  }
}

/**
 * Expected prefix hit rate (reused ÷ prompt tokens) of one turn when turns are spread over R replicas
 * independently of the session (round-robin, random, least-load) and a cold replica holds only the shared
 * prefix:  E[h] = (S + (C_{k−1} − S) / R) / P_k.
 * Stale copies on cold replicas can only add to this; under memory pressure they are the first evicted.
 */
export function spreadTurnHitRate(t: TurnShape): number {
  checkShape(t);
  return (t.sharedTokens + (t.previousContextTokens - t.sharedTokens) / t.replicas) / t.promptTokens;
}

/** Hit rate of the same turn with session affinity: everything but the new tokens, C_{k−1} / P_k. */
export function affinityTurnHitRate(t: TurnShape): number {
  checkShape(t);
  return t.previousContextTokens / t.promptTokens;
}

/**
 * Expected number of replicas holding a copy of a session's prefix after k turns (no eviction):
 * round-robin visits a new replica every turn until all R are covered, min(k, R) (exact for a lone session,
 * and the fastest any policy can spread); uniformly random placement covers R (1 − (1 − 1/R)^k); affinity 1.
 */
export function replicasHoldingSession(
  policy: 'round-robin' | 'random' | 'affinity',
  replicas: number,
  turns: number,
): number {
  if (!(replicas >= 1) || !Number.isInteger(replicas))
    throw new RangeError(`replicas must be a whole number ≥ 1, got ${replicas}`);
  if (!(turns >= 0) || !Number.isInteger(turns))
    throw new RangeError(`turns must be a whole number ≥ 0, got ${turns}`);
  if (turns === 0) return 0;
  if (policy === 'affinity') return 1;
  if (policy === 'round-robin') return Math.min(turns, replicas);
  return replicas * (1 - (1 - 1 / replicas) ** turns);
}

/**
 * KV bytes held in duplicate when `copies` replicas each hold the same `contextTokens`-token prefix:
 * (copies − 1) × tokens × KV bytes per token. The first copy is useful; the rest is capacity that could have
 * held other sessions.
 */
export function duplicatedPrefixBytes(
  kvBytesPerToken: number,
  contextTokens: number,
  copies: number,
): number {
  if (!(kvBytesPerToken > 0) || !(contextTokens >= 0) || !(copies >= 0)) {
    throw new RangeError('kvBytesPerToken must be > 0, contextTokens and copies ≥ 0');
  }
  return Math.max(0, copies - 1) * contextTokens * kvBytesPerToken;
}

/**
 * KV blocks one replica's HBM holds after the weights: ⌊(G × (M × u − R) − W) ÷ (block tokens × KV bytes/token ×
 * replication)⌋ for G accelerators of M bytes, usable share u, reserve R per GPU, weights W (the fleet
 * simulator's default, see fleet/scenario.ts resolveScenario and engine/hbm.ts).
 */
export function replicaKvBlocks(o: {
  gpus: number;
  memoryBytes: number;
  memoryUtilization: number;
  weightBytes: number;
  kvBytesPerToken: number;
  blockSize: number;
  /** KV copies across the tensor-parallel GPUs (1 when KV heads ≥ GPUs). */
  replication?: number;
}): number {
  const budget = kvBudget({
    accelerator: { memoryBytes: o.memoryBytes },
    gpus: o.gpus,
    memoryUtilization: o.memoryUtilization,
    weightBytes: o.weightBytes,
  }).kvBytes;
  return Math.max(0, Math.floor(budget / (o.blockSize * o.kvBytesPerToken * (o.replication ?? 1))));
}
