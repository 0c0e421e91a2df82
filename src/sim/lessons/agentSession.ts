/**
 * One session of lesson 07.01, on the fleet's WorkloadGenerator: the two session classes the lesson contrasts (a
 * coding agent, a chat), and one session laid out turn by turn (what each prompt re-sends, what is new, what the
 * model writes, how long the tool or the human takes), timed as if served alone with its context cached. Many
 * sessions together are agentWorkload.ts.
 *
 * Definitions (the lesson's formulas):
 *   I_k, O_k   prompt (input) and output tokens of turn k
 *   r_k        reused prefix: the longest common prefix, in tokens, of prompt_k and the previous turn's full
 *              context prompt_{k−1} ‖ output_{k−1} (0 for the first turn)
 *   n_k        new input = I_k − r_k (tool result, user message, and on turn 0 everything)
 *   ρ          input:output ratio = Σ I_k / Σ O_k
 *   s          prefix share = Σ_{k≥1} r_k / Σ_{k≥1} I_k (token-weighted over the turns that have a predecessor)
 */
import {
  WorkloadGenerator,
  type AgentClass,
  type ChatClass,
  type RequestSpec,
  type SessionClass,
} from '../engine/fleet/workload';
import { CHAT_THINK_TIME, type ToolLatencyPreset } from '../engine/fleet/dist';
import type { Segment } from '../engine/kvcache/hash';
import { finish, Pace, type StepProgress, type Steps } from '../engine/cooperative';
import { decodeStepTime, defaultHardware, prefillTime, type HardwareConfig } from '../engine/cost';
import { findAccelerator } from '../engine/catalog/accelerators';
import { findModel, type ModelSpec } from '../engine/catalog/models';
import {
  LESSON_ACCELERATOR_ID,
  LESSON_MODEL_ID,
  LESSON_TP,
  WORKLOAD_LIMITS,
} from './agentWorkloadSetup';
import { refuseOutside } from '../engine/limits';

export type SessionKind = 'agent' | 'chat';

export interface AgentPresetOptions {
  /** Median turns (model calls) per session. Default 30. */
  medianTurns?: number;
  /** Tool-call duration preset. Default 'coding-mix'. */
  toolLatency?: ToolLatencyPreset;
}

/**
 * A coding agent. The shape (a fixed head of system prompt and tool schemas, a short task, then turns that each
 * add a short tool call and a longer tool result) follows the traces of the vLLM/Mooncake blog (Codex on
 * SWE-bench Pro: median 33 turns, ≈ 131:1 input:output) and Mooncake's tool & agent trace (mean output 182
 * tokens). The sizes are illustrative log-normals, not a fit to either trace.
 */
export function codingAgentClass(opts: AgentPresetOptions = {}): AgentClass {
  const medianTurns = opts.medianTurns ?? 30;
  refuseOutside(WORKLOAD_LIMITS.medianTurns, medianTurns);
  return {
    kind: 'agent',
    name: 'coding agent',
    apps: 4,
    systemTokens: { kind: 'lognormal', median: 2_500, sigma: 0.25 },
    toolSchemaTokens: { kind: 'lognormal', median: 6_000, sigma: 0.35 },
    taskTokens: { kind: 'lognormal', median: 300, sigma: 0.8, max: 8_000 },
    turns: { kind: 'lognormal', median: medianTurns, sigma: 0.6, min: 1, max: Math.max(4 * medianTurns, 10) },
    outputTokens: { kind: 'lognormal', median: 150, sigma: 0.9, min: 5, max: 4_000 },
    finalOutputTokens: { kind: 'lognormal', median: 500, sigma: 0.6, max: 4_000 },
    toolResultTokens: { kind: 'lognormal', median: 600, sigma: 1.0, min: 10, max: 32_000 },
    toolLatency: opts.toolLatency ?? 'coding-mix',
  };
}

/**
 * A chat assistant in the ShareGPT mould that chat-serving systems were tuned on: a short system prompt, short
 * user messages, answers of a few hundred tokens, a few turns, a human thinking between turns (TraceLab's
 * human-reply times, CHAT_THINK_TIME).
 */
export function chatClass(): ChatClass {
  return {
    kind: 'chat',
    name: 'chat',
    systemTokens: { kind: 'lognormal', median: 250, sigma: 0.3 },
    userTokens: { kind: 'lognormal', median: 60, sigma: 1.0, min: 2, max: 4_000 },
    outputTokens: { kind: 'lognormal', median: 280, sigma: 0.7, min: 5, max: 4_000 },
    turns: { kind: 'lognormal', median: 3, sigma: 0.7, min: 1, max: 40 },
    thinkTime: CHAT_THINK_TIME,
  };
}

export function sessionClass(kind: SessionKind, opts: AgentPresetOptions = {}): SessionClass {
  return kind === 'agent' ? codingAgentClass(opts) : chatClass();
}

/** Tokens of the longest common prefix of two segment lists (token-exact: a segment may match in part). */
export function commonPrefixTokens(a: readonly Segment[], b: readonly Segment[]): number {
  let t = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i].id !== b[i].id) break;
    if (a[i].tokens !== b[i].tokens) return t + Math.min(a[i].tokens, b[i].tokens);
    t += a[i].tokens;
  }
  return t;
}

/** How long a turn takes on the model, given what it must compute. */
export interface TurnTiming {
  /** Seconds to prefill `newTokens` on top of `cachedTokens` already in the KV cache. */
  prefillS(newTokens: number, cachedTokens: number): number;
  /** Seconds to decode `outputTokens` after a prompt of `promptTokens`. */
  decodeS(outputTokens: number, promptTokens: number): number;
  /** What the timing assumes, for captions. */
  label: string;
}

export function lessonHardware(): { model: ModelSpec; hw: HardwareConfig } {
  const model = findModel(LESSON_MODEL_ID);
  const acc = findAccelerator(LESSON_ACCELERATOR_ID);
  if (!model || !acc) throw new Error('lesson model or accelerator missing from the catalog');
  return { model, hw: defaultHardware(acc, LESSON_TP) };
}

/**
 * A request served alone on one replica (batch 1), with its own earlier context still cached: prefill of the
 * new tokens on top of the cached ones (cost.ts prefillTime) plus O decode steps, each at the mean context of
 * the decode (P + O/2; the step time is linear in the context, so the midpoint gives the exact sum).
 */
export function aloneTiming(model: ModelSpec, hw: HardwareConfig): TurnTiming {
  return {
    prefillS: (n, c) => prefillTime(model, hw, n, c),
    decodeS: (o, p) => (o > 0 ? o * decodeStepTime(model, hw, 1, p + (o + 1) / 2) : 0),
    label: `${model.name} on ${hw.tp} × ${hw.accelerator.name}, served alone`,
  };
}

export interface TrajectoryTurn {
  turn: number;
  promptTokens: number;
  /** r_k: exact prefix of the previous turn's full context. */
  reusedTokens: number;
  /** n_k = I_k − r_k. */
  newTokens: number;
  outputTokens: number;
  /** r_k / I_k (0 on the first turn). */
  prefixShare: number;
  /** Arrival of the request, seconds from the session's start. */
  startS: number;
  prefillS: number;
  decodeS: number;
  /** What follows: a tool call, a human's think time, or the end; and how long it lasts. */
  gapKind: 'tool' | 'think' | 'end';
  gapS: number;
}

export interface TrajectoryTotals {
  turns: number;
  inputTokens: number;
  outputTokens: number;
  reusedTokens: number;
  newTokens: number;
  /** ρ = Σ I / Σ O. */
  ioRatio: number;
  /** Σ_{k≥1} r_k / Σ_{k≥1} I_k; null for a single-turn session. */
  prefixShare: number | null;
  /** Session wall time: end of the last output. */
  wallS: number;
  modelS: number;
  gapS: number;
  /** The prompt of the last turn (the context the session ends with, less its last output). */
  lastPromptTokens: number;
}

export interface Trajectory {
  kind: SessionKind;
  className: string;
  seed: number;
  turns: TrajectoryTurn[];
  totals: TrajectoryTotals;
  timing: string;
}

export interface SessionRequest {
  spec: RequestSpec;
  reusedTokens: number;
  startS: number;
  prefillS: number;
  decodeS: number;
  gapKind: 'tool' | 'think' | 'end';
  gapS: number;
}

/** Walk one session of `gen` to its end, timing each turn. */
export function runSession(
  gen: WorkloadGenerator,
  index: number,
  cls: number,
  timing: TurnTiming,
): SessionRequest[] {
  return finish(runSessionSteps(gen, index, cls, timing, new Pace(Infinity)));
}

/**
 * runSession as a cooperative computation (engine/cooperative.ts): `pace` counts its turns (a session can have
 * hundreds, each comparing its prompt with the previous one segment by segment), and it yields when one is due.
 */
export function* runSessionSteps(
  gen: WorkloadGenerator,
  index: number,
  cls: number,
  timing: TurnTiming,
  pace: Pace,
  progress?: () => StepProgress,
): Steps<SessionRequest[]> {
  const s = gen.createSession(index, cls);
  const out: SessionRequest[] = [];
  let prevContext: Segment[] | null = null;
  let t = 0;
  for (;;) {
    const spec = gen.nextRequest(s);
    const reused = prevContext ? commonPrefixTokens(spec.segments, prevContext) : 0;
    const prefillS = timing.prefillS(spec.promptTokens - reused, reused);
    const decodeS = timing.decodeS(spec.outputTokens, spec.promptTokens);
    prevContext = spec.segments.concat({ id: spec.outputSegmentId, tokens: spec.outputTokens });
    const after = gen.afterTurn(s, spec);
    out.push({
      spec,
      reusedTokens: reused,
      startS: t,
      prefillS,
      decodeS,
      gapKind: after.kind,
      gapS: after.kind === 'end' ? 0 : after.delayS,
    });
    if (after.kind === 'end') break;
    t += prefillS + decodeS + after.delayS;
    if (pace.due()) yield progress?.();
  }
  return out;
}

export function totalsOf(turns: readonly TrajectoryTurn[]): TrajectoryTotals {
  let inT = 0;
  let outT = 0;
  let reused = 0;
  let later = 0;
  let laterReused = 0;
  let modelS = 0;
  let gapS = 0;
  for (const t of turns) {
    inT += t.promptTokens;
    outT += t.outputTokens;
    reused += t.reusedTokens;
    if (t.turn > 0) {
      later += t.promptTokens;
      laterReused += t.reusedTokens;
    }
    modelS += t.prefillS + t.decodeS;
    gapS += t.gapS;
  }
  const last = turns[turns.length - 1];
  return {
    turns: turns.length,
    inputTokens: inT,
    outputTokens: outT,
    reusedTokens: reused,
    newTokens: inT - reused,
    ioRatio: outT > 0 ? inT / outT : NaN,
    prefixShare: later > 0 ? laterReused / later : null,
    wallS: last ? last.startS + last.prefillS + last.decodeS : 0,
    modelS,
    gapS,
    lastPromptTokens: last ? last.promptTokens : 0,
  };
}

/** One session of the given kind, turn by turn. */
export function generateTrajectory(
  kind: SessionKind,
  seed: number,
  opts: AgentPresetOptions & { timing?: TurnTiming } = {},
): Trajectory {
  const cls = sessionClass(kind, opts);
  const gen = new WorkloadGenerator([cls], seed);
  const { model, hw } = lessonHardware();
  const timing = opts.timing ?? aloneTiming(model, hw);
  const reqs = runSession(gen, 0, 0, timing);
  const turns: TrajectoryTurn[] = reqs.map((r) => ({
    turn: r.spec.turn,
    promptTokens: r.spec.promptTokens,
    reusedTokens: r.reusedTokens,
    newTokens: r.spec.promptTokens - r.reusedTokens,
    outputTokens: r.spec.outputTokens,
    prefixShare: r.spec.promptTokens > 0 ? r.reusedTokens / r.spec.promptTokens : 0,
    startS: r.startS,
    prefillS: r.prefillS,
    decodeS: r.decodeS,
    gapKind: r.gapKind,
    gapS: r.gapS,
  }));
  return { kind, className: cls.name, seed, turns, totals: totalsOf(turns), timing: timing.label };
}
