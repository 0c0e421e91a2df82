/**
 * The shape of a request stream, from a request table: the same statistics for a generated workload and for a
 * trace loaded from disk (Mooncake or native format), so the two can be drawn on the same axes.
 *
 *   ρ (input:output ratio)           Σ input tokens / Σ output tokens
 *   ideal prefix hit ratio           Σ hit tokens / Σ input tokens, replaying requests in arrival order into an
 *                                    infinite cache of blocks (trace/stats.ts idealHitRatio: a request hits the
 *                                    longest run of leading blocks already seen; a partial last block counts only
 *                                    its tokens)
 *   per-request hit share            hit tokens / input tokens of each request (the same replay)
 *   per-request ratio                input / output of each request (requests with output 0 are left out)
 */
import {
  arrivalOrder,
  arrivalOrderSteps,
  summaryOfSorted,
  type HitRatio,
  type Summary,
} from '../engine/trace/stats';
import { sortedNumbersSteps } from '../engine/sortSteps';
import { blockTokens } from '../engine/kvcache/hash';
import { finish, Pace, type Steps } from '../engine/cooperative';
import type { RequestTable, TraceFormat } from '../engine/trace/table';
import { TraceError } from '../engine/trace/errors';
import { isBlank, numberedLines } from '../engine/trace/lines';

/** Hit tokens and hit blocks of every request (table order) under an ideal infinite cache replayed in `order`. */
export function idealHitsPerRequest(
  t: RequestTable,
  order: Int32Array = arrivalOrder(t),
): { tokens: Float64Array; blocks: Int32Array } {
  return finish(idealHitsSteps(t, order));
}

/** Blocks of the table between yields of idealHitsSteps (a typed-array read or write each: a few ms). */
const HIT_BLOCKS_PER_YIELD = 200_000;

/** idealHitsPerRequest as a cooperative computation (engine/cooperative.ts): it yields between requests. */
export function* idealHitsSteps(
  t: RequestTable,
  order: Int32Array,
): Steps<{ tokens: Float64Array; blocks: Int32Array }> {
  const pace = new Pace(HIT_BLOCKS_PER_YIELD);
  const total = order.length;
  const seen = new Uint8Array(t.uniqueBlocks);
  const hits = new Float64Array(t.count);
  const hitBlocks = new Int32Array(t.count);
  const B = t.blockSize;
  for (let j = 0; j < order.length; j++) {
    const r = order[j];
    const s = t.blockStart[r];
    const e = t.blockStart[r + 1];
    const n = t.inputTokens[r];
    let k = s;
    let h = 0;
    while (k < e && seen[t.blocks[k]]) {
      h += blockTokens(k - s, n, B);
      k++;
    }
    hits[r] = h;
    hitBlocks[r] = k - s;
    for (; k < e; k++) seen[t.blocks[k]] = 1;
    if (pace.due(e - s)) yield { done: j + 1, total };
  }
  yield { done: total, total };
  return { tokens: hits, blocks: hitBlocks };
}

/** Evenly thinned copy (by index) of at most `max` values, for charts; statistics use every value. */
export function thin(values: ArrayLike<number>, max: number): number[] {
  const n = values.length;
  if (n <= max) return Array.from(values);
  const out: number[] = new Array(max);
  for (let i = 0; i < max; i++) out[i] = values[Math.floor((i * n) / max)];
  return out;
}

export interface TrafficShape {
  format: TraceFormat | 'generated';
  requests: number;
  /** Distinct sessions, or null when the trace has none (Mooncake). */
  sessions: number | null;
  durationS: number;
  blockSize: number;
  inputTokens: Summary;
  outputTokens: Summary;
  totalInputTokens: number;
  totalOutputTokens: number;
  /** ρ = Σ input / Σ output (NaN when there is no output). */
  ioRatio: number;
  idealHitRatio: HitRatio;
  /** Median and p90 of turns per session (null without sessions). */
  turns: Summary | null;
  /** Spread of prompt lengths: p90 / p10. */
  inputSpread: number;
  /** Samples for the charts, thinned to at most `maxSamples` each. */
  samples: {
    input: number[];
    output: number[];
    /** input / output per request (output > 0). */
    ratio: number[];
    /** Ideal-cache hit share per request (input > 0). */
    hitShare: number[];
    /** Turns per session (empty without sessions). */
    turns: number[];
  };
}

export function trafficShape(
  t: RequestTable,
  opts: { format?: TrafficShape['format']; maxSamples?: number } = {},
): TrafficShape {
  return finish(trafficShapeSteps(t, opts));
}

/**
 * trafficShape as a cooperative computation (engine/cooperative.ts): the arrival sort, the cache replay (whose
 * yields say how many requests are replayed, of all) and the sorts for the summaries yield.
 */
export function* trafficShapeSteps(
  t: RequestTable,
  opts: { format?: TrafficShape['format']; maxSamples?: number } = {},
): Steps<TrafficShape> {
  const max = opts.maxSamples ?? 4000;
  const order = yield* arrivalOrderSteps(t);
  const ideal = yield* idealHitsSteps(t, order);
  const hits = ideal.tokens;
  let inSum = 0;
  let outSum = 0;
  let hitSum = 0;
  let lo = Infinity;
  let hi = -Infinity;
  const ratio: number[] = [];
  const share: number[] = [];
  for (let i = 0; i < t.count; i++) {
    const I = t.inputTokens[i];
    const O = t.outputTokens[i];
    inSum += I;
    outSum += O;
    hitSum += hits[i];
    if (O > 0) ratio.push(I / O);
    if (I > 0) share.push(hits[i] / I);
    const a = t.arrivalS[i];
    if (a < lo) lo = a;
    if (a > hi) hi = a;
  }
  let hitBlocks = 0;
  for (let i = 0; i < t.count; i++) hitBlocks += ideal.blocks[i];
  const hasSessions = t.sessions > 0;
  const turnCounts: number[] = [];
  if (hasSessions) {
    const c = new Int32Array(t.sessions);
    for (let i = 0; i < t.count; i++) if (t.session[i] >= 0) c[t.session[i]]++;
    for (let s = 0; s < c.length; s++) if (c[s] > 0) turnCounts.push(c[s]);
  }
  // One sort of the prompt lengths for their summary and p10 (summarize and a second sort before: the same array).
  const sortedIn = yield* sortedNumbersSteps(t.inputTokens);
  const inputSummary = summaryOfSorted(sortedIn);
  const p10 = sortedIn.length ? sortedIn[Math.floor(0.1 * (sortedIn.length - 1))] : NaN;
  const outputSummary = summaryOfSorted(yield* sortedNumbersSteps(t.outputTokens));
  const turnsSummary = hasSessions ? summaryOfSorted(yield* sortedNumbersSteps(turnCounts)) : null;
  return {
    format: opts.format ?? t.format,
    requests: t.count,
    sessions: hasSessions ? turnCounts.length : null,
    durationS: t.count ? hi - lo : 0,
    blockSize: t.blockSize,
    inputTokens: inputSummary,
    outputTokens: outputSummary,
    totalInputTokens: inSum,
    totalOutputTokens: outSum,
    ioRatio: outSum > 0 ? inSum / outSum : NaN,
    idealHitRatio: {
      tokens: inSum > 0 ? hitSum / inSum : 0,
      blocks: t.blocks.length ? hitBlocks / t.blocks.length : 0,
    },
    turns: turnsSummary,
    inputSpread: p10 > 0 ? inputSummary.p90 / p10 : NaN,
    samples: {
      input: thin(t.inputTokens, max),
      output: thin(t.outputTokens, max),
      ratio: thin(ratio, max),
      hitShare: thin(share, max),
      turns: thin(turnCounts, max),
    },
  };
}

/**
 * The format of a trace from its first recognisable lines: the first of up to `maxLines` non-blank lines that is
 * a JSON object with `hash_ids` (Mooncake) or `session`/`format` (native). Unreadable lines before it are
 * skipped here (the reader reports them with their numbers). Throws a TraceError when none is recognisable.
 */
export function sniffFormat(text: string, maxLines = 50): TraceFormat {
  let looked = 0;
  let firstLine = 0;
  for (const [n, line] of numberedLines(text)) {
    if (isBlank(line)) continue;
    if (!firstLine) firstLine = n;
    if (++looked > maxLines) break;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof o === 'object' && o !== null && !Array.isArray(o)) {
      if ('hash_ids' in o) return 'mooncake';
      if ('session' in o || 'format' in o) return 'native';
    }
  }
  if (!firstLine) throw new TraceError(0, 'the file is empty');
  throw new TraceError(
    firstLine,
    `not a Mooncake trace (no "hash_ids") nor a native sal-trace (no "session"/"format") in the first ${Math.min(looked, maxLines)} non-blank lines`,
  );
}
