/**
 * Lesson 07.10 (long-context prefill): one replica running N decoding sessions when a long prompt arrives (an agent
 * turn's prefill split into its matmul and attention parts is prefillSplit.ts).
 *
 * `prefillTimeline` schedules the iterations one by one with the fleet simulator's batching rule
 *    (src/sim/engine/fleet/replica.ts, Sarathi-Serve's stall-free batching): every decoding sequence gets one token per
 *    iteration and the prompt gets at most `chunk` tokens of it; without chunking the whole prompt runs alone in
 *    one iteration and the decodes wait. Every iteration's time is the cost model's (src/sim/engine/cost.ts
 *    iterationCost), G GPUs of the replica:
 *      t_iter = max( GEMM / (G·peak·e_GEMM) + attention / (G·peak·e_attn) , bytes / (G·BW·MBU) ) + t_AR + t_o,
 *    with t_AR the tensor-parallel all-reduces of the iteration's tokens and t_o the per-iteration overhead.
 *    The prompt's time to first token is the sum of the iterations that carry its chunks (it arrives at an
 *    iteration boundary); the decodes' inter-token gap is the time between two of their tokens.
 *    The timeline is what the fleet simulator computes for the same setup (tests/lesson-07-10.test.ts runs both),
 *    with every iteration kept so a widget can draw and step through them.
 *
 * Choosing the chunk (the sweep against two SLOs, the memory-bound threshold) is longPrefillChunks.ts.
 *
 * Pure: no DOM, no randomness. Units: seconds, FLOP, bytes, tokens.
 */
import type { ModelSpec } from '../engine/catalog/models';
import { iterationCost, type HardwareConfig } from '../engine/cost';
import { percentileSorted } from '../engine/fleet/metrics';

export interface TimelineSetup {
  model: ModelSpec;
  hw: HardwareConfig;
  /** Tokens of the long prompt (none cached). */
  promptTokens: number;
  /** Sequences decoding on the replica when the prompt arrives. */
  decodes: number;
  /** Tokens in each decoding sequence's KV cache when the timeline starts. */
  decodeContext: number;
  /** Prefill tokens of the prompt per iteration at most, or false: the whole prompt in one iteration, decodes paused. */
  chunk: number | false;
  /** Decode-only iterations before the prompt arrives. Default 3. */
  leadIterations?: number;
  /** Iterations after the prompt's first token (the prompt then decodes too). Default 3. */
  tailIterations?: number;
}

export type IterationKind = 'decode' | 'chunk' | 'whole';

export interface TimelineIteration {
  index: number;
  startS: number;
  endS: number;
  durationS: number;
  kind: IterationKind;
  /** Prompt tokens computed in this iteration (the chunk), 0 for a decode-only iteration. */
  prefillTokens: number;
  /** Prompt tokens already in the KV cache before this iteration's chunk (its attention context). */
  prefillCached: number;
  /** Decoding sequences that produce a token in this iteration. */
  decodeTokens: number;
  flops: number;
  bytes: number;
  computeS: number;
  memoryS: number;
  /** Tensor-parallel all-reduce of the iteration's tokens and the per-iteration overhead, s (outside the max). */
  allReduceS: number;
  overheadS: number;
  bound: 'compute' | 'memory';
  /** Whether the prompt's first token is sampled at the end of this iteration. */
  firstToken: boolean;
}

export interface GapStats {
  /** Gaps counted (one per decoding sequence and token). */
  count: number;
  mean: number;
  p50: number;
  p99: number;
  max: number;
}

export interface Timeline {
  iterations: TimelineIteration[];
  arrivalS: number;
  firstTokenS: number;
  /** firstTokenS − arrivalS: the sum of the iterations that carry the prompt. */
  ttftS: number;
  /** Iterations that carry the prompt (chunks, or the one whole prefill). */
  prefillIterations: number;
  /** Of those, the ones whose memory time exceeds their compute time. */
  memoryBoundIterations: number;
  /** Inter-token gaps of the decodes whose span overlaps the prefill, [arrival, first token]. */
  gaps: GapStats;
  /** Duration of the decode-only iteration just before the prompt arrives. */
  decodeStepS: number;
  /** The iteration that carries the most expensive chunk (the last one, at the longest context). */
  longestPrefillIteration: number;
  /** Timeline end, s. */
  endS: number;
}

const MAX_ITERATIONS = 200_000;

function checkSetup(s: TimelineSetup): void {
  const whole = (name: string, v: number, min: number) => {
    if (!Number.isInteger(v) || v < min)
      throw new RangeError(`${name} must be a whole number ≥ ${min}, got ${v}`);
  };
  whole('promptTokens', s.promptTokens, 1);
  whole('decodes', s.decodes, 0);
  whole('decodeContext', s.decodeContext, 0);
  if (s.chunk !== false) {
    whole('chunk', s.chunk, 1);
    if (Math.ceil(s.promptTokens / s.chunk) > MAX_ITERATIONS)
      throw new RangeError(
        `chunk ${s.chunk} needs more than ${MAX_ITERATIONS} iterations for ${s.promptTokens} tokens`,
      );
  }
  whole('leadIterations', s.leadIterations ?? 3, 0);
  whole('tailIterations', s.tailIterations ?? 3, 0);
}

/**
 * Quantiles of a list of gaps, each standing for `weight` tokens (every decoding sequence sees the same gap):
 * linear interpolation between closest ranks, as the fleet simulator's summaries.
 */
function gapStats(gaps: number[], weight: number): GapStats {
  if (gaps.length === 0 || weight <= 0) return { count: 0, mean: NaN, p50: NaN, p99: NaN, max: NaN };
  const sorted = [...gaps].sort((a, b) => a - b);
  let sum = 0;
  for (const g of sorted) sum += g;
  return {
    count: sorted.length * weight,
    mean: sum / sorted.length,
    p50: percentileSorted(sorted, 0.5),
    p99: percentileSorted(sorted, 0.99),
    max: sorted[sorted.length - 1],
  };
}

/**
 * The replica's iterations from a few decode-only steps before the prompt arrives to a few after its first
 * token. All decoding sequences start with `decodeContext` tokens and gain one per iteration they join; after its
 * last chunk the prompt decodes too.
 */
export function prefillTimeline(setup: TimelineSetup): Timeline {
  checkSetup(setup);
  const { model, hw, promptTokens: P, decodes: N, decodeContext: D } = setup;
  const lead = setup.leadIterations ?? 3;
  const tail = setup.tailIterations ?? 3;
  const iterations: TimelineIteration[] = [];
  // Context of the decoding sequences (all equal); the prompt's own once it decodes.
  let ctx = D;
  let promptDone = 0;
  let promptCtx = 0;
  let promptDecoding = false;
  let t = 0;
  let firstTokenS = NaN;
  let afterFirst = 0;
  let decodeStepS = NaN;

  const push = (kind: IterationKind, n: number, cached: number, decodeCtxs: number[]) => {
    const cost = iterationCost(model, hw, {
      prefill: n > 0 ? [{ newTokens: n, cachedTokens: cached }] : [],
      decodeContextTokens: decodeCtxs,
    });
    const it: TimelineIteration = {
      index: iterations.length,
      startS: t,
      endS: t + cost.time,
      durationS: cost.time,
      kind,
      prefillTokens: n,
      prefillCached: cached,
      decodeTokens: decodeCtxs.length,
      flops: cost.flops,
      bytes: cost.bytes,
      computeS: cost.computeTime,
      memoryS: cost.memoryTime,
      allReduceS: cost.allReduceTime,
      overheadS: cost.overheadTime,
      bound: cost.bound,
      firstToken: false,
    };
    iterations.push(it);
    t = it.endS;
    return it;
  };
  // A decoding sequence attends to its context plus the token it is computing (as the fleet simulator counts).
  const decodeCtxs = (withPrompt: boolean) => {
    const out = new Array<number>(N).fill(ctx + 1);
    if (withPrompt) out.push(promptCtx + 1);
    return out;
  };

  for (let i = 0; i < lead; i++) {
    const it = push('decode', 0, 0, decodeCtxs(false));
    if (N > 0) ctx++;
    decodeStepS = it.durationS;
  }
  if (lead === 0 && N > 0)
    decodeStepS = iterationCost(model, hw, { prefill: [], decodeContextTokens: decodeCtxs(false) }).time;
  const arrivalS = t;

  while (afterFirst < tail || !promptDecoding) {
    if (!promptDecoding) {
      if (setup.chunk === false) {
        // Whole-prompt prefill: one iteration, the decodes wait (vLLM V0's default, Orca-style batching).
        const it = push('whole', P, 0, []);
        promptDone = P;
        it.firstToken = true;
      } else {
        const n = Math.min(setup.chunk, P - promptDone);
        const it = push('chunk', n, promptDone, decodeCtxs(false));
        if (N > 0) ctx++;
        promptDone += n;
        if (promptDone >= P) it.firstToken = true;
      }
      if (promptDone >= P) {
        promptDecoding = true;
        firstTokenS = t;
        promptCtx = P; // the sampled token's KV is written by the next iteration
      }
    } else {
      push('decode', 0, 0, decodeCtxs(true));
      if (N > 0) ctx++;
      promptCtx++;
      afterFirst++;
    }
  }

  // Gaps of the decodes: a sequence's token at the end of every iteration it joins; the gap is the time since its
  // previous token. Kept: the gaps whose span overlaps [arrival, first token].
  const gaps: number[] = [];
  if (N > 0) {
    let last = NaN;
    for (const it of iterations) {
      if (it.decodeTokens === 0) continue; // the whole-prompt iteration: the decodes wait
      if (Number.isFinite(last) && last < firstTokenS && it.endS > arrivalS) gaps.push(it.endS - last);
      last = it.endS;
    }
  }

  let prefillIterations = 0;
  let memoryBound = 0;
  let longest = -1;
  for (const it of iterations) {
    if (it.kind === 'decode') continue;
    prefillIterations++;
    if (it.bound === 'memory') memoryBound++;
    if (longest < 0 || it.durationS > iterations[longest].durationS) longest = it.index;
  }
  return {
    iterations,
    arrivalS,
    firstTokenS,
    ttftS: firstTokenS - arrivalS,
    prefillIterations,
    memoryBoundIterations: memoryBound,
    gaps: gapStats(gaps, N),
    decodeStepS,
    longestPrefillIteration: longest,
    endS: t,
  };
}
