/**
 * Lesson 07.02 (session affinity), on the fleet simulator: `replayTrajectory` replays one agent session over R
 * replicas, routed per request (round-robin, random) and per session (session affinity): per turn, which replica
 * served it, the prefix it found cached, the tokens it had to prefill again, its TTFT, and the extra TTFT of a cold
 * turn as
 *     ΔTTFT = N · t_tok(c̄)        (N re-prefilled tokens, c̄ the middle of their positions)
 * where t_tok is cost.ts's marginal prefill time per token (linear in the position when compute-bound, so the sum
 * over the N positions is exactly N times its value at the middle). The fleet view (many sessions, one summary per
 * policy) is affinitySweep.ts; a recorded session's replay is affinityTrace.ts.
 *
 * Pure and deterministic (seeded); no DOM. The arithmetic lives in affinityModel.ts (re-exported here).
 */
import type { ModelSpec } from '../engine/catalog/models';
import type { HardwareConfig } from '../engine/cost';
import {
  computedAfterTurn,
  maxTurnsWithin,
  rePrefillCost,
  type TrajectoryShape,
} from './affinityModel';
import { runScenarioSync, type RequestTable } from '../engine/fleet/run';
import { ENGINE_BLOCK_SIZE } from '../engine/blocks';
import { resolveScenario, type Scenario } from '../engine/fleet/scenario';
import type { Dist } from '../engine/fleet/dist';

export * from './affinityModel';

export type RequestRouting = 'round-robin' | 'random';
export type AffinityPolicy = 'session-affinity' | RequestRouting;

export interface HardwareChoice {
  /** Catalog ids. */
  model: string;
  accelerator: string;
  /** GPUs per replica (tensor parallel). */
  tp: number;
}

const constant = (value: number): Dist => ({ kind: 'constant', value });

/**
 * What every 07.02 scenario shares, whatever its workload: R replicas of the chosen hardware behind one routing
 * policy, and a duration no run reaches, so that each ends when its sessions do.
 */
export function affinityFleet(
  hw: HardwareChoice,
  replicas: number,
  policy: AffinityPolicy,
  seed: number,
): Pick<Scenario, 'seed' | 'durationS' | 'model' | 'hardware' | 'replicas' | 'router'> {
  return {
    seed,
    durationS: 1e7,
    model: hw.model,
    hardware: { accelerator: hw.accelerator, tp: hw.tp },
    replicas,
    router: policy === 'session-affinity' ? { kind: 'session-affinity' } : { kind: policy },
  };
}

/** The scenario of one session alone on R replicas (a tool call of 1 s between turns; it does not affect TTFT). */
export function replayScenario(
  hw: HardwareChoice,
  shape: TrajectoryShape,
  replicas: number,
  policy: AffinityPolicy,
  seed = 1,
  /** The engine's block size, tokens (default: the fleet's, vLLM's 16). */
  blockSize?: number,
): Scenario {
  return {
    name: `07.02 replay: one trajectory, ${replicas} replicas, ${policy}`,
    ...(blockSize === undefined ? {} : { kv: { blockSize } }),
    ...affinityFleet(hw, replicas, policy, seed),
    workload: {
      arrival: { kind: 'closed', concurrency: 1 },
      sessions: 1,
      classes: [
        {
          kind: 'agent',
          name: 'trajectory',
          systemTokens: constant(shape.systemTokens),
          toolSchemaTokens: constant(shape.toolSchemaTokens),
          taskTokens: constant(shape.taskTokens),
          turns: constant(shape.turns),
          outputTokens: constant(shape.outputTokens),
          toolResultTokens: constant(shape.toolResultTokens),
          toolLatency: constant(1),
        },
      ],
    },
    output: { sampleIntervalS: 1e6 },
  };
}

export type TurnKind = 'first' | 'warm' | 'partial' | 'cold';

export interface TurnRow {
  turn: number;
  replica: number;
  promptTokens: number;
  outputTokens: number;
  /** Prompt tokens found in the replica's prefix cache. */
  reusedTokens: number;
  /** Prompt tokens computed by this turn's prefill. */
  prefilledTokens: number;
  /** Prompt tokens the session had computed before, on whichever replica (earlier turns, in whole blocks). */
  knownTokens: number;
  /** knownTokens − reusedTokens: work done before, done again here. */
  rePrefilledTokens: number;
  /** Tokens the previous turn left computed that are no longer a prefix of this prompt (the agent rewrote its context). */
  droppedTokens: number;
  /** reused / prompt. */
  hitRate: number;
  ttftS: number;
  /** first: turn 0; warm: found all it had computed before; partial: an older prefix; cold: nothing. */
  kind: TurnKind;
  /** Position in the middle of the re-prefilled tokens (c̄), and t_tok there. */
  midContext: number;
  perTokenS: number;
  /** ΔTTFT = rePrefilledTokens · t_tok(c̄), s. */
  extraS: number;
}

/**
 * Per-turn rows of a single-session run, from the request table (rows in turn order). What each turn's session
 * had computed before is `knownBefore[i]` for the i-th turn when given (a recorded session whose prompts need not
 * extend each other: affinityTrace.ts), else everything the previous turns left computed (a prompt that extends
 * the previous context, as the synthetic trajectory's do).
 */
export function trajectoryRows(
  table: RequestTable,
  blockSize: number,
  model: ModelSpec,
  hw: HardwareConfig,
  knownBefore?: readonly number[],
): TurnRow[] {
  const d = table.data;
  const n = d.turn.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => d.turn[a] - d.turn[b]);
  const rows: TurnRow[] = [];
  let known = 0;
  let previous = 0;
  for (const [k, i] of order.entries()) {
    const prompt = d.promptTokens[i];
    const output = d.outputTokens[i];
    const reused = d.reusedHbm[i] + d.reusedDram[i] + d.reusedNvme[i] + d.reusedRemote[i];
    const turn = d.turn[i];
    const knownHere = knownBefore ? knownBefore[k] : Math.min(known, prompt - 1);
    const re = Math.max(0, knownHere - reused);
    const kind: TurnKind = turn === 0 ? 'first' : re === 0 ? 'warm' : reused === 0 ? 'cold' : 'partial';
    const cost = rePrefillCost(model, hw, re, reused);
    rows.push({
      turn,
      replica: d.replica[i],
      promptTokens: prompt,
      outputTokens: output,
      reusedTokens: reused,
      prefilledTokens: d.prefilled[i],
      knownTokens: knownHere,
      rePrefilledTokens: re,
      droppedTokens: Math.max(0, Math.min(previous, prompt - 1) - knownHere),
      hitRate: prompt > 0 ? reused / prompt : 0,
      ttftS: d.ttft[i],
      kind,
      ...cost,
    });
    previous = computedAfterTurn(prompt, output, blockSize);
    known = Math.max(known, previous);
  }
  return rows;
}

export interface TrajectoryTotals {
  promptTokens: number;
  reusedTokens: number;
  prefilledTokens: number;
  rePrefilledTokens: number;
  /** Σ reused / Σ prompt. */
  hitRate: number;
  /** Σ ΔTTFT over the turns (formula). */
  extraS: number;
  ttftSumS: number;
  coldTurns: number;
  partialTurns: number;
}

export function trajectoryTotals(rows: readonly TurnRow[]): TrajectoryTotals {
  const t: TrajectoryTotals = {
    promptTokens: 0,
    reusedTokens: 0,
    prefilledTokens: 0,
    rePrefilledTokens: 0,
    hitRate: 0,
    extraS: 0,
    ttftSumS: 0,
    coldTurns: 0,
    partialTurns: 0,
  };
  for (const r of rows) {
    t.promptTokens += r.promptTokens;
    t.reusedTokens += r.reusedTokens;
    t.prefilledTokens += r.prefilledTokens;
    t.rePrefilledTokens += r.rePrefilledTokens;
    t.extraS += r.extraS;
    t.ttftSumS += r.ttftS;
    if (r.kind === 'cold') t.coldTurns++;
    if (r.kind === 'partial') t.partialTurns++;
  }
  t.hitRate = t.promptTokens > 0 ? t.reusedTokens / t.promptTokens : 0;
  return t;
}

/**
 * Tokens of the session each replica holds just before turn k is routed: [turn][replica]. A replica holds what
 * the last turn it served left computed (one session alone never fills HBM, so nothing is evicted).
 */
export function holdingsBeforeTurns(
  rows: readonly TurnRow[],
  replicas: number,
  blockSize: number,
): number[][] {
  const held = new Array<number>(replicas).fill(0);
  const out: number[][] = [];
  for (const r of rows) {
    out.push(held.slice());
    if (r.replica >= 0 && r.replica < replicas)
      held[r.replica] = computedAfterTurn(r.promptTokens, r.outputTokens, blockSize);
  }
  out.push(held.slice()); // after the last turn
  return out;
}

export interface ReplayRun {
  policy: AffinityPolicy;
  rows: TurnRow[];
  totals: TrajectoryTotals;
  /** [turn][replica] tokens of the session held before the turn is routed (one extra row: after the last). */
  holdings: number[][];
}

export interface ReplayOutput {
  blockSize: number;
  turns: number;
  /** Turns asked for, when the model's context window cut the trajectory short. */
  requestedTurns: number;
  runs: ReplayRun[];
}

/** Replay one trajectory under each policy (same shape, same hardware, same seed). */
export function replayTrajectory(
  hwChoice: HardwareChoice,
  shape: TrajectoryShape,
  replicas: number,
  policies: readonly AffinityPolicy[],
  seed = 1,
  engineBlockSize?: number,
): ReplayOutput {
  let turns = shape.turns;
  const runs: ReplayRun[] = [];
  let blockSize = ENGINE_BLOCK_SIZE;
  for (const policy of policies) {
    const scenario = replayScenario(hwChoice, shape, replicas, policy, seed, engineBlockSize);
    const rs = resolveScenario(scenario);
    turns = Math.min(shape.turns, maxTurnsWithin(shape, rs.model.maxContext));
    const sc =
      turns === shape.turns
        ? scenario
        : replayScenario(hwChoice, { ...shape, turns }, replicas, policy, seed, engineBlockSize);
    const res = runScenarioSync(sc, { includeRequests: true, includeSeries: false });
    // Reuse is at the engine's block size (the fleet's pages are only its bookkeeping: fleet/tails.ts).
    blockSize = rs.engineBlockSize;
    const rows = trajectoryRows(res.requests!, blockSize, rs.model, rs.hw);
    runs.push({
      policy,
      rows,
      totals: trajectoryTotals(rows),
      holdings: holdingsBeforeTurns(rows, replicas, blockSize),
    });
  }
  return { blockSize, turns, requestedTurns: shape.turns, runs };
}
