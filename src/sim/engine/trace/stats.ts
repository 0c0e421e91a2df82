/**
 * Trace statistics, with typed arrays only (every LRU capacity and the ideal cache share one pass, lruLevels.ts):
 * - request count, duration (last − first arrival), arrival rate (requests / duration);
 * - input and output lengths: mean, median, p90, p99 (linear interpolation between order statistics, as
 *   numpy.percentile's default);
 * - prefix hit ratio of an ideal (infinite) cache and of an LRU cache of a given capacity in blocks, replaying
 *   requests in arrival order (file order breaks ties). For each request: the hit is the longest prefix of its
 *   blocks present in the cache; then all its blocks are written/used, last to first (as vLLM frees a request's
 *   blocks in reverse), so its prefix ends most recently used. Ratios in blocks (hit blocks / all blocks) and in
 *   tokens (tokens of hit blocks / all input tokens; block k of a request of n tokens holds
 *   min(B, n − kB) tokens, so a partial last block counts only its tokens).
 */
import { blockTokens } from '../kvcache/hash';
import type { Steps } from '../cooperative';
import { sortSteps } from '../sortSteps';
import { lruLevelCounts } from './lruLevels';
import type { RequestTable } from './table';

export interface Summary {
  mean: number;
  median: number;
  p90: number;
  p99: number;
}

export interface HitRatio {
  blocks: number;
  tokens: number;
}

export interface TraceStats {
  format: RequestTable['format'];
  requests: number;
  /** Native traces: distinct sessions; Mooncake: null. */
  sessions: number | null;
  durationS: number;
  /** requests / durationS; null when the duration is 0. */
  arrivalRatePerS: number | null;
  inputTokens: Summary;
  outputTokens: Summary;
  blocks: { blockSize: number; total: number; unique: number; lengthMismatches: number };
  idealHitRatio: HitRatio;
  lru: { capacityBlocks: number; hitRatio: HitRatio }[];
}

/** Quantile q ∈ [0, 1] of sorted values, linear between order statistics. NaN when empty. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const pos = q * (n - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

export function summarize(values: ArrayLike<number>): Summary {
  // slice() copies a typed array in one call; Float64Array.from walks it through the iterator protocol.
  return summaryOfSorted(
    (values instanceof Float64Array ? values.slice() : Float64Array.from(values)).sort(),
  );
}

/** The summary of values already sorted ascending (summarize after its sort). */
export function summaryOfSorted(s: ArrayLike<number>): Summary {
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += s[i];
  return {
    mean: s.length ? sum / s.length : NaN,
    median: quantileSorted(s, 0.5),
    p90: quantileSorted(s, 0.9),
    p99: quantileSorted(s, 0.99),
  };
}

/** Request indices in arrival order (stable: file order among equal times). */
export function arrivalOrder(t: RequestTable): Int32Array {
  const order = new Int32Array(t.count);
  let sorted = true;
  for (let i = 0; i < t.count; i++) {
    order[i] = i;
    if (i > 0 && t.arrivalS[i] < t.arrivalS[i - 1]) sorted = false;
  }
  if (!sorted) {
    const a = t.arrivalS;
    return Int32Array.from(Array.from(order).sort((x, y) => a[x] - a[y] || x - y));
  }
  return order;
}

/** arrivalOrder as a cooperative computation (engine/cooperative.ts): the same order, its sort yielding. */
export function* arrivalOrderSteps(t: RequestTable): Steps<Int32Array> {
  let sorted = true;
  for (let i = 1; i < t.count && sorted; i++) if (t.arrivalS[i] < t.arrivalS[i - 1]) sorted = false;
  if (sorted) return arrivalOrder(t);
  const a = t.arrivalS;
  const order = Array.from({ length: t.count }, (_, i) => i);
  return Int32Array.from(yield* sortSteps(order, (x, y) => a[x] - a[y] || x - y));
}

function ratio(hitBlocks: number, totalBlocks: number, hitTokens: number, totalTokens: number): HitRatio {
  return {
    blocks: totalBlocks ? hitBlocks / totalBlocks : 0,
    tokens: totalTokens ? hitTokens / totalTokens : 0,
  };
}

/** Prefix hit ratio with an infinite cache. */
export function idealHitRatio(t: RequestTable, order: Int32Array = arrivalOrder(t)): HitRatio {
  const seen = new Uint8Array(t.uniqueBlocks);
  const B = t.blockSize;
  let hitB = 0;
  let hitT = 0;
  let totB = 0;
  let totT = 0;
  for (let j = 0; j < order.length; j++) {
    const r = order[j];
    const s = t.blockStart[r];
    const e = t.blockStart[r + 1];
    const n = t.inputTokens[r];
    let k = s;
    while (k < e && seen[t.blocks[k]]) {
      hitT += blockTokens(k - s, n, B);
      k++;
    }
    hitB += k - s;
    for (; k < e; k++) seen[t.blocks[k]] = 1;
    totB += e - s;
    totT += n;
  }
  return ratio(hitB, totB, hitT, totT);
}

/** Prefix hit ratio of an LRU cache of `capacity` blocks (typed-array intrusive list, O(blocks)). */
export function lruHitRatio(
  t: RequestTable,
  capacity: number,
  order: Int32Array = arrivalOrder(t),
): HitRatio {
  if (!Number.isSafeInteger(capacity) || capacity < 0)
    throw new RangeError(`LRU capacity must be a non-negative integer, got ${capacity}`);
  const U = t.uniqueBlocks;
  const H = U; // sentinel: next[H] = least recent, prev[H] = most recent
  const prev = new Int32Array(U + 1).fill(-1);
  const next = new Int32Array(U + 1).fill(-1);
  const inCache = new Uint8Array(U);
  next[H] = prev[H] = H;
  let size = 0;
  const B = t.blockSize;
  let hitB = 0;
  let hitT = 0;
  let totB = 0;
  let totT = 0;
  const blocks = t.blocks;
  for (let j = 0; j < order.length; j++) {
    const r = order[j];
    const s = t.blockStart[r];
    const e = t.blockStart[r + 1];
    const n = t.inputTokens[r];
    let k = s;
    while (k < e && inCache[blocks[k]]) {
      hitT += blockTokens(k - s, n, B);
      k++;
    }
    hitB += k - s;
    totB += e - s;
    totT += n;
    if (capacity === 0) continue;
    for (let i = e - 1; i >= s; i--) {
      const x = blocks[i];
      if (inCache[x]) {
        if (prev[H] === x) continue;
        next[prev[x]] = next[x];
        prev[next[x]] = prev[x];
      } else {
        if (size === capacity) {
          const v = next[H];
          next[H] = next[v];
          prev[next[v]] = H;
          inCache[v] = 0;
          size--;
        }
        inCache[x] = 1;
        size++;
      }
      const m = prev[H];
      next[m] = x;
      prev[x] = m;
      next[x] = H;
      prev[H] = x;
    }
  }
  return ratio(hitB, totB, hitT, totT);
}

export function traceStats(t: RequestTable, opts: { lruCapacities?: readonly number[] } = {}): TraceStats {
  const order = arrivalOrder(t);
  const capacities = opts.lruCapacities ?? [];
  // Every capacity and the ideal cache in one pass (the same figures as idealHitRatio and lruHitRatio each).
  const counts = lruLevelCounts(t, capacities, order);
  const { totalBlocks, totalTokens } = counts;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < t.count; i++) {
    const a = t.arrivalS[i];
    if (a < lo) lo = a;
    if (a > hi) hi = a;
  }
  const durationS = t.count ? hi - lo : 0;
  return {
    format: t.format,
    requests: t.count,
    sessions: t.format === 'native' ? t.sessions : null,
    durationS,
    arrivalRatePerS: durationS > 0 ? t.count / durationS : null,
    inputTokens: summarize(t.inputTokens),
    outputTokens: summarize(t.outputTokens),
    blocks: {
      blockSize: t.blockSize,
      total: t.blocks.length,
      unique: t.uniqueBlocks,
      lengthMismatches: t.lengthMismatches,
    },
    idealHitRatio: ratio(counts.ideal.hitBlocks, totalBlocks, counts.ideal.hitTokens, totalTokens),
    lru: capacities.map((c, i) => ({
      capacityBlocks: c,
      hitRatio: ratio(counts.lru[i].hitBlocks, totalBlocks, counts.lru[i].hitTokens, totalTokens),
    })),
  };
}
