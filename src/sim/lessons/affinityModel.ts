/**
 * The arithmetic of lesson 07.02 (session affinity), free of the fleet simulator so that the lesson's prose
 * can compute its figures on the main thread: the lesson's trajectory, what a turn leaves computed, the
 * extra TTFT of re-prefilling, and the 1/R model of request-level routing. src/sim/lessons/affinity.ts runs the
 * simulations on top of it.
 */
import type { ModelSpec } from '../engine/catalog/models';
import { perTokenPrefillTime, prefillTime, type HardwareConfig } from '../engine/cost';
import { limit } from '../engine/limits';

/**
 * What the lesson's replay and fleet view accept, one range per setting: the worker checks these and the widgets'
 * controls offer exactly these (src/widgets/session-affinity/schema.ts), so neither can drift from the other.
 */
export const AFFINITY_LIMITS = {
  replicas: limit('the number of replicas', 1, 16, { integer: true, unit: 'replicas' }),
  turns: limit('the turns in the trajectory', 2, 48, { integer: true, unit: 'turns' }),
  toolResultTokens: limit('the tool result per turn', 0, 10_000, { integer: true, unit: 'tokens' }),
  agentsPerReplica: limit('the agents in flight per replica', 2, 16, { integer: true, unit: 'agents' }),
} as const;

/** One agent session with a fixed shape: every turn appends the model's output and a tool result. */
export interface TrajectoryShape {
  systemTokens: number;
  toolSchemaTokens: number;
  taskTokens: number;
  /** Output tokens per turn (reasoning + a tool call). */
  outputTokens: number;
  /** Tokens of the tool result appended after every turn but the last. */
  toolResultTokens: number;
  turns: number;
}

/** The lesson's trajectory: a 10,000-token head, 2,500 tokens more per turn, so turn 12's prompt is 40,000. */
export const DEFAULT_TRAJECTORY: TrajectoryShape = {
  systemTokens: 2_000,
  toolSchemaTokens: 6_000,
  taskTokens: 2_000,
  outputTokens: 500,
  toolResultTokens: 2_000,
  turns: 24,
};

/** Prompt tokens of turn k (0-based): head + k · (output + tool result). */
export function trajectoryPrompt(shape: TrajectoryShape, k: number): number {
  return (
    shape.systemTokens +
    shape.toolSchemaTokens +
    shape.taskTokens +
    k * (shape.outputTokens + shape.toolResultTokens)
  );
}

/** The most turns whose prompt and output fit in `maxContext` tokens (at least 1). */
export function maxTurnsWithin(shape: TrajectoryShape, maxContext: number): number {
  const head = shape.systemTokens + shape.toolSchemaTokens + shape.taskTokens;
  const grow = shape.outputTokens + shape.toolResultTokens;
  if (grow <= 0) return shape.turns;
  return Math.max(1, Math.floor((maxContext - shape.outputTokens - head) / grow) + 1);
}

/**
 * Tokens a finished turn leaves computed, in whole blocks: its prompt and output, less the last output token
 * (sampled, never fed back), rounded down to a block (only full blocks are shared).
 */
export function computedAfterTurn(promptTokens: number, outputTokens: number, blockSize: number): number {
  return Math.floor((promptTokens + outputTokens - 1) / blockSize) * blockSize;
}

/**
 * Turn k (k ≥ 1) of a trajectory: its prompt, and what turn k − 1 left computed (computedAfterTurn), the tokens it
 * finds cached when it lands warm.
 */
export function warmTurn(
  shape: TrajectoryShape,
  k: number,
  blockSize: number,
): { prompt: number; cached: number } {
  return {
    prompt: trajectoryPrompt(shape, k),
    cached: computedAfterTurn(trajectoryPrompt(shape, k - 1), shape.outputTokens, blockSize),
  };
}

/** ΔTTFT of re-prefilling N tokens starting at position `from`: N · t_tok(from + (N − 1)/2). */
export function rePrefillCost(
  model: ModelSpec,
  hw: HardwareConfig,
  tokens: number,
  from: number,
): { midContext: number; perTokenS: number; extraS: number } {
  if (!(tokens > 0)) return { midContext: from, perTokenS: perTokenPrefillTime(model, hw, from), extraS: 0 };
  const midContext = from + (tokens - 1) / 2;
  const perTokenS = perTokenPrefillTime(model, hw, midContext);
  return { midContext, perTokenS, extraS: tokens * perTokenS };
}

/**
 * The extra TTFT of a cold turn straight from the cost model: prefilling the whole prompt P against prefilling
 * only its new tokens on top of the K the warm replica holds.
 *   ΔTTFT = prefillTime(P, 0) − prefillTime(P − K, K)
 */
export function coldTurnExtra(
  model: ModelSpec,
  hw: HardwareConfig,
  promptTokens: number,
  cachedTokens: number,
) {
  const coldS = prefillTime(model, hw, promptTokens, 0);
  const warmS = prefillTime(model, hw, promptTokens - cachedTokens, cachedTokens);
  const approx = rePrefillCost(model, hw, cachedTokens, 0);
  return {
    coldS,
    warmS,
    extraS: coldS - warmS,
    perTokenS: approx.perTokenS,
    midContext: approx.midContext,
    approxS: approx.extraS,
  };
}

/** Shared system prompt + tool schemas of every app in the sweep's workload, tokens. */
export const SWEEP_SHARED_TOKENS = 8_000;

/** The sweep's sessions: how many apps share a head, and the turns a session takes (uniform between the two). */
export const SWEEP_SHAPE = { apps: 4, turnsMin: 12, turnsMax: 32 } as const;

/**
 * Expected hit rate under request-level routing: with probability 1/R a turn lands where its session's
 * previous turn ran and finds what affinity would (h₁); otherwise it finds only the apps' shared head (s).
 *   h(R) = s + (h₁ − s) / R
 */
export function oneOverRModel(sharedShare: number, affinityHitRate: number, replicas: number): number {
  return sharedShare + (affinityHitRate - sharedShare) / replicas;
}

/** Fleet sizes the fleet view visits, in the order it runs them (the whole range first, then the gaps). */
export const SWEEP_REPLICAS = [1, 2, 4, 8, 16, 3, 6, 12] as const;
