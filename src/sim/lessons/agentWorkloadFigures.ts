/**
 * Lesson 07.01's figures: what a generated agent workload (agentWorkload.ts) shows against the chat-serving
 * assumptions (prompts much longer than outputs, most of each prompt seen before, seconds between a session's
 * requests, prefill a large share of GPU time). Apart from the generator because they read a finished workload and
 * price it with the cost model: the generator, its request table and the sample trace need none of this, and these
 * figures need nothing of how the workload was made.
 */
import { lessonHardware } from './agentSession';
import type { GeneratedRequest, GeneratedWorkload } from './agentWorkload';
import { finish, Pace, type StepProgress, type Steps } from '../engine/cooperative';
import { sortedNumbersSteps } from '../engine/sortSteps';
import { decodeStepTime, prefillTime, type HardwareConfig } from '../engine/cost';
import type { ModelSpec } from '../engine/catalog/models';
import { LESSON_DECODE_BATCH } from './agentWorkloadSetup';

/** Median of values (NaN when empty): the middle order statistic, the mean of the two middle ones for an even count. */
export function medianOf(values: readonly number[]): number {
  return finish(medianSteps(values));
}

/** medianOf as a cooperative computation (engine/cooperative.ts): its sort yields. */
function* medianSteps(values: readonly number[]): Steps<number> {
  if (!values.length) return NaN;
  const s = yield* sortedNumbersSteps(values);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Share of GPU time spent in prefill when every request is served on one replica whose decode steps are shared
 * by `decodeBatch` sequences of the same shape:
 *   prefill_k = prefillTime(I_k − c_k | c_k)          c_k = r_k with prefix reuse, 0 without
 *   decode_k  = O_k · decodeStepTime(B, B · (I_k + (O_k+1)/2)) / B
 *   share     = Σ prefill_k / Σ (prefill_k + decode_k)
 */
export function prefillShareOfGpuTime(
  requests: readonly Pick<GeneratedRequest, 'inputTokens' | 'outputTokens' | 'reusedTokens'>[],
  model: ModelSpec,
  hw: HardwareConfig,
  decodeBatch: number,
  reuse: boolean,
): number {
  return finish(prefillShareSteps(requests, model, hw, decodeBatch, reuse));
}

/** Requests between yields of prefillShareSteps and assumptionFiguresSteps (two cost-model calls each). */
const FIGURE_REQUESTS_PER_YIELD = 5_000;

/** prefillShareOfGpuTime as a cooperative computation (engine/cooperative.ts). */
function* prefillShareSteps(
  requests: readonly Pick<GeneratedRequest, 'inputTokens' | 'outputTokens' | 'reusedTokens'>[],
  model: ModelSpec,
  hw: HardwareConfig,
  decodeBatch: number,
  reuse: boolean,
  progress: (requestsDone: number) => StepProgress | void = () => {},
): Steps<number> {
  const pace = new Pace(FIGURE_REQUESTS_PER_YIELD);
  if (!Number.isInteger(decodeBatch) || decodeBatch < 1)
    throw new RangeError(`decodeBatch must be a whole number ≥ 1, got ${decodeBatch}`);
  let pre = 0;
  let dec = 0;
  let done = 0;
  for (const r of requests) {
    done++;
    const c = reuse ? r.reusedTokens : 0;
    pre += prefillTime(model, hw, r.inputTokens - c, c);
    if (r.outputTokens > 0)
      dec +=
        (r.outputTokens *
          decodeStepTime(model, hw, decodeBatch, decodeBatch * (r.inputTokens + (r.outputTokens + 1) / 2))) /
        decodeBatch;
    if (pace.due()) yield progress(done);
  }
  return pre + dec > 0 ? pre / (pre + dec) : NaN;
}

/** The figures that break the chat-serving assumptions, for one generated workload. */
export interface AssumptionFigures {
  requests: number;
  sessions: number;
  medianTurns: number;
  meanInputTokens: number;
  meanOutputTokens: number;
  /** ρ = Σ I / Σ O. */
  ioRatio: number;
  /** Requests that continue an earlier request of their session (turn ≥ 1) / all requests. */
  continuingShare: number;
  /** Σ_{k≥1} r_k / Σ_{k≥1} I_k over all sessions. */
  prefixShare: number;
  /** Median seconds from the end of a turn's output to the session's next request. */
  medianGapS: number;
  /** Median prompt I_k, and median new input n_k: what a turn prefills cold and warm. */
  medianInputTokens: number;
  medianNewTokens: number;
  /** Median over multi-turn sessions of (last prompt / first prompt). */
  contextGrowth: number;
  /** Share of GPU time in prefill, without and with prefix reuse. */
  prefillShareNoReuse: number;
  prefillShareReuse: number;
}

export function assumptionFigures(
  w: GeneratedWorkload,
  decodeBatch = LESSON_DECODE_BATCH,
): AssumptionFigures {
  return finish(assumptionFiguresSteps(w, decodeBatch));
}

/** assumptionFigures as a cooperative computation (engine/cooperative.ts): it yields between requests. */
export function* assumptionFiguresSteps(
  w: GeneratedWorkload,
  decodeBatch = LESSON_DECODE_BATCH,
): Steps<AssumptionFigures> {
  const { model, hw } = lessonHardware();
  const pace = new Pace(FIGURE_REQUESTS_PER_YIELD);
  let inSum = 0;
  let outSum = 0;
  let later = 0;
  let laterIn = 0;
  let laterReused = 0;
  const gaps: number[] = [];
  const inputs: number[] = [];
  const news: number[] = [];
  const first = new Map<number, number>();
  const last = new Map<number, { turn: number; tokens: number }>();
  // Progress in requests over the three passes (this one, then the prefill share without and with reuse).
  const n = w.requests.length;
  const total = 3 * n;
  let done = 0;
  for (const r of w.requests) {
    done++;
    inSum += r.inputTokens;
    outSum += r.outputTokens;
    inputs.push(r.inputTokens);
    news.push(r.inputTokens - r.reusedTokens);
    if (r.turn > 0) {
      later++;
      laterIn += r.inputTokens;
      laterReused += r.reusedTokens;
    }
    if (r.turn < w.turnsPerSession[r.session] - 1) gaps.push(r.gapS);
    if (r.turn === 0) first.set(r.session, r.inputTokens);
    const l = last.get(r.session);
    if (!l || r.turn > l.turn) last.set(r.session, { turn: r.turn, tokens: r.inputTokens });
    if (pace.due()) yield { done, total };
  }
  const growth: number[] = [];
  for (const [s, l] of last) {
    const f = first.get(s);
    if (l.turn > 0 && f && f > 0) growth.push(l.tokens / f);
  }
  const prefillShareNoReuse = yield* prefillShareSteps(w.requests, model, hw, decodeBatch, false, (k) => ({
    done: n + k,
    total,
  }));
  const prefillShareReuse = yield* prefillShareSteps(w.requests, model, hw, decodeBatch, true, (k) => ({
    done: 2 * n + k,
    total,
  }));
  const medianTurns = yield* medianSteps(w.turnsPerSession);
  const medianGapS = yield* medianSteps(gaps);
  const medianInputTokens = yield* medianSteps(inputs);
  const medianNewTokens = yield* medianSteps(news);
  const contextGrowth = yield* medianSteps(growth);
  yield { done: total, total };
  return {
    requests: n,
    sessions: w.sessions,
    medianTurns,
    meanInputTokens: n ? inSum / n : NaN,
    meanOutputTokens: n ? outSum / n : NaN,
    ioRatio: outSum > 0 ? inSum / outSum : NaN,
    continuingShare: n ? later / n : NaN,
    prefixShare: laterIn > 0 ? laterReused / laterIn : NaN,
    medianGapS,
    medianInputTokens,
    medianNewTokens,
    contextGrowth,
    prefillShareNoReuse,
    prefillShareReuse,
  };
}
