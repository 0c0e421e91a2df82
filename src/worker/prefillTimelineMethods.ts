/**
 * Lesson 07.10's first widget: the chunked-prefill timeline of one replica, the chosen chunk beside whole-prompt
 * prefill, with each request's TTFT broken down (longPrefill.ts prefillTimeline on cost.ts).
 */
import { asRefusal, within } from './badRequest';
import type { ModelSpec } from '../sim/engine/catalog/models';
import {
  allReducePerTokenTime,
  effectiveAttentionFlops,
  effectiveFlops,
  passComm,
  type HardwareConfig,
} from '../sim/engine/cost';
import { prefillAttentionFlops, prefillGemmFlops } from '../sim/engine/flopsAndBytes';
import { PREFILL_LIMITS as L } from './limits/prefill';
import { prefillTimeline, type Timeline, type TimelineSetup } from '../sim/lessons/longPrefill';
import { replica, formulaOf, type ReplicaChoice, type ReplicaFormula } from './prefillReplica';

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

export function runOf(setup: TimelineSetup): TimelineRun {
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

export function timelineInputs(req: TimelineInputs): TimelineInputs {
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
