/**
 * Worker methods of lesson 07.10 (long-context prefill), as the widgets call them: the chunked-prefill timeline
 * (prefillTimelineMethods.ts), the chunk-size sweep against two SLOs and the prefill of an agent turn against its
 * prefix hit rate and the attention kernel's speed-up (here), and the lesson's inline figures
 * (prefillFigureMethods.ts); the replica they run on is prefillReplica.ts, the prefill scenarios shipped with the
 * fleet simulator prefillScenarioMethods.ts. Plain structured-cloneable arguments (catalog ids); every figure comes
 * from src/sim (longPrefill.ts and longPrefillChunks.ts on cost.ts, and the fleet simulator).
 */
import { asRefusal, asRefusalSteps, within } from './badRequest';
import { finish, finishCooperatively, type Steps } from '../sim/engine/cooperative';
import type { JobContext } from './job';
import { pacedCheckpoint } from './pacedCheckpoint';
import { progressFrames, type JobProgress, type ProgressStage } from './progress';
import { fitted } from './fitted';
import { PREFILL_LIMITS as L } from './limits/prefill';
import { prefillTimeline } from '../sim/lessons/longPrefill';
import {
  chunkGrid,
  chunkPoint,
  chunkPointsSteps,
  feasibleChunksSteps,
  memoryBoundChunk,
  type ChunkPoint,
} from '../sim/lessons/longPrefillChunks';
import { turnCases, turnPrefill, type TurnCases } from '../sim/lessons/prefillSplit';
import { replica, formulaOf, type ReplicaChoice, type ReplicaFormula } from './prefillReplica';
import { prefillTimelineRun, timelineInputs } from './prefillTimelineMethods';
import { prefillFigures } from './prefillFigureMethods';

// ───────────────────────────── widget 2: the chunk-size sweep ─────────────────────────────

export interface TradeoffRequest extends ReplicaChoice {
  promptTokens: number;
  decodes: number;
  decodeContext: number;
  /** TTFT SLO of the long prompt, s. */
  ttftSloS: number;
  /** p99 inter-token gap SLO of the decodes, s. */
  itlSloS: number;
  /** The chunk whose figures are read out. */
  chunk: number;
}

export interface TradeoffResponse {
  modelName: string;
  acceleratorName: string;
  gpus: number;
  points: ChunkPoint[];
  /** Whole-prompt prefill: TTFT and the decodes' gap (one stall). */
  whole: { ttftS: number; gapP99S: number; gapMaxS: number };
  /** The chunk read out. */
  at: ChunkPoint;
  /** Chunk sizes meeting both SLOs, to the token; null when none does. */
  feasible: { lo: number; hi: number } | null;
  ttftSloS: number;
  itlSloS: number;
  /** Below this chunk an iteration at the prompt's middle is memory-bound (weights and KV streamed per iteration). */
  memoryBoundBelow: number;
  /** The decode-only iteration (the floor of every gap). */
  decodeStepS: number;
  formula: ReplicaFormula;
}

export function chunkTradeoff(req: TradeoffRequest): TradeoffResponse {
  return finish(chunkTradeoffSteps(req));
}

/**
 * The worker's chunkTradeoff: cooperative, so a newer request cancels it between two of its timelines, with progress
 * (0.3–0.6 s at the widget's maxima, 2.5 s under heavy load: docs/reliability.md).
 */
function chunkTradeoffCooperative(
  req: TradeoffRequest,
  ctx: JobContext<JobProgress>,
): Promise<TradeoffResponse> {
  return finishCooperatively(chunkTradeoffSteps(req), pacedCheckpoint(ctx, progressFrames(ctx).sink));
}

/** The trade-off's two stages, as its progress names them. */
const TRADEOFF_STAGES: readonly ProgressStage[] = [
  { label: 'Running a timeline per chunk size', unit: 'chunk sizes', stage: 1, stages: 2 },
  { label: 'Refining the feasible range to the token', unit: 'bisection steps', stage: 2, stages: 2 },
];

/** A stage's progress on the yields of `steps` (the checkpoint adds the words; straight through it is ignored). */
function* staged<T>(steps: Steps<T>, stage: ProgressStage): Steps<T> {
  try {
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      yield r.value ? { ...stage, done: r.value.done, total: r.value.total } : undefined;
    }
  } finally {
    // Cancelled (this generator returned early): end the inner one too.
    steps.return(undefined as never);
  }
}

/** A cooperative computation (engine/cooperative.ts): ~40 timelines and two bisections, yielding after each. */
function* chunkTradeoffSteps(req: TradeoffRequest): Steps<TradeoffResponse> {
  const { model, hw, name, acceleratorName } = replica(req);
  const inp = timelineInputs(req);
  const ttftSloS = within(L.ttftSloS, req.ttftSloS);
  const itlSloS = within(L.itlSloS, req.itlSloS);
  const chunk = within(L.chunk, req.chunk);
  const setup = { model, hw, ...inp };
  const hi = Math.max(64, Math.min(32_768, inp.promptTokens));
  const points = yield* asRefusalSteps(
    staged(chunkPointsSteps(setup, chunkGrid(32, hi)), TRADEOFF_STAGES[0]),
  );
  const whole = asRefusal(() =>
    prefillTimeline({ ...setup, chunk: false, leadIterations: 1, tailIterations: 1 }),
  );
  const feasible = yield* asRefusalSteps(
    staged(feasibleChunksSteps(setup, points, ttftSloS, itlSloS), TRADEOFF_STAGES[1]),
  );
  return {
    modelName: name,
    acceleratorName,
    gpus: hw.tp,
    points,
    whole: { ttftS: whole.ttftS, gapP99S: whole.gaps.p99, gapMaxS: whole.gaps.max },
    at: asRefusal(() => chunkPoint(setup, chunk)),
    feasible,
    ttftSloS,
    itlSloS,
    memoryBoundBelow: memoryBoundChunk(
      model,
      hw,
      inp.decodes,
      inp.decodeContext,
      Math.floor(inp.promptTokens / 2),
    ),
    decodeStepS: whole.decodeStepS,
    formula: formulaOf(model, hw),
  };
}

// ───────────────────────────── widget 3: hit rate against the kernel ─────────────────────────────

export interface HitKernelRequest extends ReplicaChoice {
  contextTokens: number;
  /** The hit rate the agent has (0..1). */
  hitFrom: number;
  /** The hit rate it could have. */
  hitTo: number;
  /** Attention kernel speed-up (×). */
  speedup: number;
}

export interface HitKernelResponse extends TurnCases {
  modelName: string;
  acceleratorName: string;
  gpus: number;
  contextTokens: number;
  hitFrom: number;
  hitTo: number;
  speedup: number;
  /** Hit rates of the curves. */
  hits: number[];
  /** Turn prefill time at each hit rate: standard kernel, attention `speedup`× faster, attention free. */
  standard: number[];
  faster: number[];
  free: number[];
  formula: ReplicaFormula;
}

export function hitRateVsKernel(req: HitKernelRequest): HitKernelResponse {
  const { model, hw, name, acceleratorName } = replica(req);
  const P = within(L.contextTokens, req.contextTokens);
  const h0 = within(L.hitRate, req.hitFrom);
  const h1 = within(L.hitRate, req.hitTo);
  const s = within(L.speedup, req.speedup);
  const hits: number[] = [];
  for (let i = 0; i <= 200; i++) hits.push(0.5 + (0.495 * i) / 200);
  for (const h of [h0, h1]) if (!hits.some((x) => Math.abs(x - h) < 1e-9)) hits.push(h);
  hits.sort((a, b) => a - b);
  const at = (h: number, sp: number) => asRefusal(() => turnPrefill(model, hw, P, h, sp));
  return {
    modelName: name,
    acceleratorName,
    gpus: hw.tp,
    contextTokens: P,
    hitFrom: h0,
    hitTo: h1,
    speedup: s,
    hits,
    standard: hits.map((h) => at(h, 1).timeS),
    faster: hits.map((h) => at(h, s).timeS),
    free: hits.map((h) => at(h, Infinity).timeS),
    ...asRefusal(() => turnCases(model, hw, P, h0, h1, s)),
    formula: formulaOf(model, hw),
  };
}

export const prefillMethods = {
  // As the widgets call them: a replica with no room for KV is a "cannot run" outcome (fitted.ts).
  prefillTimelineRun: fitted('gpus', prefillTimelineRun),
  chunkTradeoff: fitted('gpus', chunkTradeoffCooperative),
  hitRateVsKernel: fitted('gpus', hitRateVsKernel),
  prefillFigures,
};
