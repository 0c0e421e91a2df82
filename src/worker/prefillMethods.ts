/**
 * Worker methods of lesson 07.10 (long-context prefill): the chunked-prefill timeline of one replica (the chosen
 * chunk beside whole-prompt prefill), the chunk-size sweep against two SLOs, the prefill of an agent turn against
 * its prefix hit rate and the attention kernel's speed-up, and the lesson's inline figures (the prefill scenarios
 * shipped with the fleet simulator are prefillScenarioMethods.ts). Plain structured-cloneable arguments (catalog ids); every figure
 * comes from src/sim (longPrefill.ts on cost.ts, and the fleet simulator).
 */
import { asRefusal, asRefusalSteps, within } from './badRequest';
import { replicaHardware } from './replicaHardware';
import { prefillFormula, type PrefillFormula } from './prefillFormula';
import { kvBytesPerToken, weightBytes, type ModelSpec } from '../sim/engine/catalog/models';
import { kvBudget, VLLM_GPU_MEMORY_UTILIZATION } from '../sim/engine/hbm';
import { ringBusBandwidth } from '../sim/engine/tensorParallel';
import {
  allReducePerTokenTime,
  attentionFlopsPerPair,
  decodeCost,
  effectiveAttentionFlops,
  effectiveFlops,
  effectiveMemBandwidth,
  kvReplication,
  passComm,
  prefillAttentionFlops,
  prefillCost,
  prefillGemmFlops,
  weightBytesTouched,
  type HardwareConfig,
} from '../sim/engine/cost';
import { finish, finishCooperatively, type Steps } from '../sim/engine/cooperative';
import type { JobContext } from './job';
import { pacedCheckpoint } from './pacedCheckpoint';
import { progressFrames, type JobProgress, type ProgressStage } from './progress';
import { fitted } from './fitted';
import { PREFILL_LIMITS as L } from './limits/prefill';
import {
  chunkGrid,
  chunkPoint,
  chunkPointsSteps,
  feasibleChunksSteps,
  hitRateEquivalent,
  memoryBoundChunk,
  prefillTimeline,
  speedupToMatch,
  turnPrefill,
  type ChunkPoint,
  type PrefillSplit,
  type Timeline,
  type TimelineSetup,
} from '../sim/lessons/longPrefill';

export interface ReplicaChoice {
  modelId: string;
  acceleratorId: string;
  /** GPUs per replica (tensor parallel). */
  gpus: number;
}

function replica(req: ReplicaChoice): {
  model: ModelSpec;
  hw: HardwareConfig;
  name: string;
  acceleratorName: string;
} {
  const { model, accelerator, hw } = replicaHardware(req.modelId, req.acceleratorId, req.gpus);
  return { model, hw, name: model.name, acceleratorName: accelerator.name };
}

/** The replica's constants, for the formulas shown beside the figures: its prefill's (prefillFormula.ts) and more. */
export interface ReplicaFormula extends PrefillFormula {
  iterationOverheadS: number;
  /** All-reduce per iteration: the fixed latency part, the link and its bus bandwidth. */
  allReduceFixedS: number;
  allReduceLink: string;
  allReduceBusBandwidth: number;
  /** G · BW · MBU, bytes/s. */
  effectiveBandwidth: number;
  bandwidthPerGpu: number;
  mbu: number;
  /** Weight bytes a pass streams (all but the input embedding). */
  weightBytesStreamed: number;
  weightBytesTotal: number;
  /** KV bytes per token across the replica (kvReplication included). */
  kvBytesPerToken: number;
  /** KV the replica can hold: 90% of HBM less vLLM's reserve and the weights (engine/hbm.ts), in tokens. */
  kvCapacityTokens: number;
}

function formulaOf(model: ModelSpec, hw: HardwareConfig): ReplicaFormula {
  const comm = passComm(model, hw, 1);
  const kv = kvBytesPerToken(model, hw.kvDtype) * kvReplication(model, hw.tp);
  const budget = kvBudget({
    accelerator: hw.accelerator,
    gpus: hw.tp,
    memoryUtilization: VLLM_GPU_MEMORY_UTILIZATION,
    weightBytes: weightBytes(model, hw.weightDtype),
  }).kvBytes;
  return {
    ...prefillFormula(model, hw),
    iterationOverheadS: hw.iterationOverheadS,
    allReduceFixedS: comm.calls * comm.path.latency,
    allReduceLink: comm.path.linkId,
    allReduceBusBandwidth: hw.tp > 1 ? ringBusBandwidth(comm.path, hw.tp) : 0,
    effectiveBandwidth: effectiveMemBandwidth(hw),
    bandwidthPerGpu: hw.accelerator.memBandwidth,
    mbu: hw.mbu,
    weightBytesStreamed: weightBytesTouched(model, hw.weightDtype, 1e9),
    weightBytesTotal: weightBytes(model, hw.weightDtype),
    kvBytesPerToken: kv,
    kvCapacityTokens: Math.floor(budget / kv),
  };
}

// ───────────────────────────── widget 1: the timeline ─────────────────────────────

export interface TimelineRequest extends ReplicaChoice {
  promptTokens: number;
  decodes: number;
  decodeContext: number;
  /** Prefill tokens per iteration; ignored when `chunked` is false. */
  chunk: number;
  chunked: boolean;
}

/** Where a timeline's TTFT goes: TTFT = own + ride + memory, exactly. */
export interface TtftBreakdown {
  /** The prompt's own FLOPs over G·peak·MFU (its chunks' prefill FLOPs). */
  ownS: number;
  /** The decodes' compute and all-reduce bytes in the chunk iterations (they ride along). */
  rideS: number;
  /** Every prefill iteration's all-reduce latencies and per-iteration overhead. */
  fixedS: number;
  /** What memory-bound chunk iterations add beyond their compute time. */
  memoryS: number;
}

export interface TimelineRun extends Timeline {
  chunk: number | false;
  /** vLLM's max_num_batched_tokens for this schedule: chunk + decodes (chunked), or the prompt (whole). */
  tokenBudget: number;
  breakdown: TtftBreakdown;
}

export interface TimelineResponse {
  modelName: string;
  acceleratorName: string;
  gpus: number;
  promptTokens: number;
  decodes: number;
  decodeContext: number;
  /** The schedule asked for. */
  run: TimelineRun;
  /** Whole-prompt prefill of the same prompt beside the same decodes (the reference). */
  whole: TimelineRun;
  formula: ReplicaFormula;
  /** KV tokens the setup needs at the end (decodes' contexts and the prompt). */
  kvTokensNeeded: number;
}

function breakdownOf(tl: Timeline, hw: HardwareConfig, model: ModelSpec): TtftBreakdown {
  // t = max(compute, memory) + all-reduce + overhead = compute + max(0, memory − compute) + all-reduce + overhead;
  // compute = the prompt's GEMMs / G + its attention / G_a + the decodes' compute; all-reduce = latencies + bytes
  // of the prompt's tokens + bytes of the decodes' tokens.
  const G = effectiveFlops(hw);
  const Ga = effectiveAttentionFlops(hw);
  const perToken = allReducePerTokenTime(model, hw);
  const one = passComm(model, hw, 1);
  const latencies = one.calls * one.path.latency;
  let computeAndBytes = 0;
  let own = 0;
  let fixed = 0;
  let memory = 0;
  for (const it of tl.iterations) {
    if (it.kind === 'decode') continue;
    const itFixed = (it.allReduceS > 0 ? latencies : 0) + it.overheadS;
    computeAndBytes += it.computeS + it.allReduceS - (it.allReduceS > 0 ? latencies : 0);
    fixed += itFixed;
    own +=
      prefillGemmFlops(model, it.prefillTokens) / G +
      prefillAttentionFlops(model, it.prefillTokens, it.prefillCached) / Ga +
      perToken * it.prefillTokens;
    memory += Math.max(0, it.memoryS - it.computeS);
  }
  return { ownS: own, rideS: Math.max(0, computeAndBytes - own), fixedS: fixed, memoryS: memory };
}

function runOf(setup: TimelineSetup): TimelineRun {
  const tl = asRefusal(() => prefillTimeline(setup));
  return {
    ...tl,
    chunk: setup.chunk,
    tokenBudget: setup.chunk === false ? setup.promptTokens : setup.chunk + setup.decodes,
    breakdown: breakdownOf(tl, setup.hw, setup.model),
  };
}

interface TimelineInputs {
  promptTokens: number;
  decodes: number;
  decodeContext: number;
}

function timelineInputs(req: TimelineInputs): TimelineInputs {
  return {
    promptTokens: within(L.promptTokens, req.promptTokens),
    decodes: within(L.decodes, req.decodes),
    decodeContext: within(L.decodeContext, req.decodeContext),
  };
}

export function prefillTimelineRun(req: TimelineRequest): TimelineResponse {
  const { model, hw, name, acceleratorName } = replica(req);
  const inp = timelineInputs(req);
  const chunk = req.chunked ? within(L.chunk, req.chunk) : false;
  const base = { model, hw, ...inp };
  const run = runOf({ ...base, chunk });
  const whole = chunk === false ? run : runOf({ ...base, chunk: false });
  const tail = run.iterations.length - run.iterations.findIndex((it) => it.firstToken) - 1;
  return {
    modelName: name,
    acceleratorName,
    gpus: hw.tp,
    ...inp,
    run,
    whole,
    formula: formulaOf(model, hw),
    kvTokensNeeded:
      inp.decodes * (inp.decodeContext + run.iterations.length) + inp.promptTokens + Math.max(0, tail),
  };
}

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

export interface HitKernelResponse {
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
  /** The three cases compared. */
  fromStandard: PrefillSplit;
  fromFaster: PrefillSplit;
  toStandard: PrefillSplit;
  /** Attention speed-up that would bring hitFrom down to hitTo's time; Infinity if none can. */
  speedupToMatch: number;
  /** Hit rate at which the standard kernel matches hitFrom with the faster kernel. */
  hitEquivalent: number;
  /** Prefill time at hitFrom with attention free. */
  fromFreeS: number;
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
    fromStandard: at(h0, 1),
    fromFaster: at(h0, s),
    toStandard: at(h1, 1),
    speedupToMatch: asRefusal(() => speedupToMatch(model, hw, P, h0, h1)),
    hitEquivalent: asRefusal(() => hitRateEquivalent(model, hw, P, h0, s)),
    fromFreeS: at(h0, Infinity).timeS,
    formula: formulaOf(model, hw),
  };
}

// ───────────────────────────── the lesson's figures ─────────────────────────────

export interface PrefillFiguresRequest extends ReplicaChoice {
  promptTokens: number;
  decodes: number;
  decodeContext: number;
  /** Chunk sizes whose timelines the prose quotes. */
  chunks: number[];
  /** Agent turn for the hit-rate section. */
  turnContext: number;
  hitFrom: number;
  hitTo: number;
  speedup: number;
}

export interface ChunkFigures {
  chunk: number;
  ttftS: number;
  gapMaxS: number;
  gapP99S: number;
  prefillIterations: number;
  memoryBoundIterations: number;
  breakdown: TtftBreakdown;
  /** The most expensive chunk iteration: its tokens, context, duration, compute and memory time. */
  longest: { tokens: number; cached: number; durationS: number; computeS: number; memoryS: number };
  firstChunkS: number;
}

export interface PrefillFiguresResponse {
  modelName: string;
  acceleratorName: string;
  formula: ReplicaFormula;
  /** The whole prompt alone: prefillCost(P, 0). */
  wholeS: number;
  wholeComputeS: number;
  wholeMemoryS: number;
  /** The whole prompt's all-reduce time, s. */
  wholeAllReduceS: number;
  /** Of the whole prompt's FLOPs, the share that is attention. */
  wholeAttentionShare: number;
  /** The decode-only iteration of the N decodes. */
  decodeStepS: number;
  /** Decode-only steps the decodes would have taken during the whole prefill. */
  stepsLost: number;
  /** The decodes' FLOPs per iteration over G (their compute time when riding along). */
  decodeComputeS: number;
  /** What the decodes add to a chunk iteration: their compute and their all-reduce bytes, s. */
  decodeRideS: number;
  /** What every iteration pays whatever its size: all-reduce latencies and the overhead, s. */
  iterationFixedS: number;
  decodeMemoryS: number;
  chunks: ChunkFigures[];
  /** Memory-bound below this chunk, at the prompt's start, middle and end. */
  memoryBoundAt: { start: number; middle: number; end: number };
  turn: {
    fromStandard: PrefillSplit;
    fromFaster: PrefillSplit;
    toStandard: PrefillSplit;
    speedupToMatch: number;
    hitEquivalent: number;
    fromFreeS: number;
  };
}

const figuresCache = new Map<string, PrefillFiguresResponse>();

export function prefillFigures(req: PrefillFiguresRequest): PrefillFiguresResponse {
  const key = JSON.stringify(req);
  const hit = figuresCache.get(key);
  if (hit) return hit;
  const { model, hw, name, acceleratorName } = replica(req);
  const inp = timelineInputs(req);
  const setup = { model, hw, ...inp };
  const whole = asRefusal(() => prefillCost(model, hw, inp.promptTokens, 0));
  const attention =
    attentionFlopsPerPair(model, 'prefill') * ((inp.promptTokens * (inp.promptTokens + 1)) / 2);
  const decode = decodeCost(model, hw, inp.decodes, inp.decodes * (inp.decodeContext + 1));
  const chunks = req.chunks.map((c) => {
    const run = runOf({ ...setup, chunk: within(L.chunk, c) });
    const longest = run.iterations[run.longestPrefillIteration];
    const first = run.iterations.find((it) => it.kind === 'chunk');
    return {
      chunk: c,
      ttftS: run.ttftS,
      gapMaxS: run.gaps.max,
      gapP99S: run.gaps.p99,
      prefillIterations: run.prefillIterations,
      memoryBoundIterations: run.memoryBoundIterations,
      breakdown: run.breakdown,
      longest: {
        tokens: longest.prefillTokens,
        cached: longest.prefillCached,
        durationS: longest.durationS,
        computeS: longest.computeS,
        memoryS: longest.memoryS,
      },
      firstChunkS: first ? first.durationS : NaN,
    };
  });
  const P = inp.promptTokens;
  const turnP = within(L.contextTokens, req.turnContext);
  const h0 = within(L.hitRate, req.hitFrom);
  const h1 = within(L.hitRate, req.hitTo);
  const s = within(L.speedup, req.speedup);
  const out: PrefillFiguresResponse = {
    modelName: name,
    acceleratorName,
    formula: formulaOf(model, hw),
    wholeS: whole.time,
    wholeComputeS: whole.computeTime,
    wholeMemoryS: whole.memoryTime,
    wholeAllReduceS: whole.allReduceTime,
    wholeAttentionShare: attention / whole.flops,
    decodeStepS: decode.time,
    stepsLost: whole.time / decode.time,
    decodeComputeS: decode.computeTime,
    decodeRideS: decode.computeTime + allReducePerTokenTime(model, hw) * inp.decodes,
    iterationFixedS:
      passComm(model, hw, 1).calls * passComm(model, hw, 1).path.latency + hw.iterationOverheadS,
    decodeMemoryS: decode.memoryTime,
    chunks,
    memoryBoundAt: {
      start: memoryBoundChunk(model, hw, inp.decodes, inp.decodeContext, 0),
      middle: memoryBoundChunk(model, hw, inp.decodes, inp.decodeContext, Math.floor(P / 2)),
      end: memoryBoundChunk(model, hw, inp.decodes, inp.decodeContext, P),
    },
    turn: {
      fromStandard: asRefusal(() => turnPrefill(model, hw, turnP, h0)),
      fromFaster: asRefusal(() => turnPrefill(model, hw, turnP, h0, s)),
      toStandard: asRefusal(() => turnPrefill(model, hw, turnP, h1)),
      speedupToMatch: asRefusal(() => speedupToMatch(model, hw, turnP, h0, h1)),
      hitEquivalent: asRefusal(() => hitRateEquivalent(model, hw, turnP, h0, s)),
      fromFreeS: asRefusal(() => turnPrefill(model, hw, turnP, h0, Infinity).timeS),
    },
  };
  if (figuresCache.size > 8) figuresCache.clear();
  figuresCache.set(key, out);
  return out;
}

export const prefillMethods = {
  // As the widgets call them: a replica with no room for KV is a "cannot run" outcome (fitted.ts).
  prefillTimelineRun: fitted('gpus', prefillTimelineRun),
  chunkTradeoff: fitted('gpus', chunkTradeoffCooperative),
  hitRateVsKernel: fitted('gpus', hitRateVsKernel),
  prefillFigures,
};
