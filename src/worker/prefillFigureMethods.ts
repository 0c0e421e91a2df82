/**
 * Lesson 07.10's inline figures: the numbers its prose quotes, from the same models as its widgets (the timeline
 * of prefillTimelineMethods.ts, longPrefillChunks.ts and cost.ts).
 */
import { asRefusal, within } from './badRequest';
import { allReducePerTokenTime, decodeCost, passComm, prefillCost } from '../sim/engine/cost';
import { attentionFlopsPerPair } from '../sim/engine/flopsAndBytes';
import { PREFILL_LIMITS as L } from './limits/prefill';
import { memoryBoundChunk } from '../sim/lessons/longPrefillChunks';
import { turnCases, type TurnCases } from '../sim/lessons/prefillSplit';
import { replica, formulaOf, type ReplicaChoice, type ReplicaFormula } from './prefillReplica';
import { runOf, timelineInputs, type TtftBreakdown } from './prefillTimelineMethods';

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
  /** The agent turn's three cases (07.10's hit-rate section). */
  turn: TurnCases;
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
    turn: asRefusal(() => turnCases(model, hw, turnP, h0, h1, s)),
  };
  if (figuresCache.size > 8) figuresCache.clear();
  figuresCache.set(key, out);
  return out;
}
