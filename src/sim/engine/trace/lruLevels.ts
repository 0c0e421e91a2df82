/**
 * Prefix hit ratios of several LRU capacities and of the ideal (infinite) cache in one pass over a trace.
 *
 * LRU is a stack algorithm (Mattson et al., "Evaluation techniques for storage hierarchies", IBM Systems
 * Journal 9(2), 1970): every capacity sees the same accesses (each request uses all its blocks, last to first,
 * whatever hit), and a cache of C blocks holds exactly the C most recently used distinct blocks. So one
 * recency list over every block seen serves all capacities at once. Each block carries its level, the index
 * of the smallest cache holding it (capacities ascending; `levels` = seen but in none, the ideal cache only;
 * `levels + 1` = never seen), and each cache keeps its boundary, its least recently used block. When a block
 * moves to the front, every cache that did not hold it pushes its boundary block out one level and the
 * boundary steps one place toward the front: O(caches it missed) per access instead of one list per capacity.
 *
 * The result equals `lruHitRatio` per capacity and `idealHitRatio` exactly (the hit counts are the same
 * integers; tests/trace-lru.test.ts checks it with fast-check). The tokens of a hit prefix of k blocks of a
 * request of n tokens are min(n, k·B), the sum of `blockTokens` over the prefix.
 */
import type { RequestTable } from './table';

export interface HitCounts {
  hitBlocks: number;
  hitTokens: number;
}

export interface LevelRatios {
  /** Per capacity, in the order given. */
  lru: HitCounts[];
  ideal: HitCounts;
  totalBlocks: number;
  totalTokens: number;
}

/** Hit counts of LRU caches of the given capacities (any order, repeats and 0 allowed) and of the ideal cache. */
export function lruLevelCounts(
  t: RequestTable,
  capacities: readonly number[],
  order: Int32Array,
): LevelRatios {
  for (const c of capacities)
    if (!Number.isSafeInteger(c) || c < 0)
      throw new RangeError(`LRU capacity must be a non-negative integer, got ${c}`);
  // Distinct positive capacities ascending; the ideal cache is the level after them.
  const caps = [...new Set(capacities.filter((c) => c > 0))].sort((a, b) => a - b);
  const m = caps.length;
  const hitB = new Float64Array(m + 1);
  const hitT = new Float64Array(m + 1);
  const totals = new Float64Array(2);
  replay(
    t,
    Int32Array.from(caps, (c) => Math.min(c, 0x7fffffff)),
    order,
    hitB,
    hitT,
    totals,
  );
  const lru = capacities.map((c) => {
    if (c === 0) return { hitBlocks: 0, hitTokens: 0 };
    const i = caps.indexOf(c);
    return { hitBlocks: hitB[i], hitTokens: hitT[i] };
  });
  return {
    lru,
    ideal: { hitBlocks: hitB[m], hitTokens: hitT[m] },
    totalBlocks: totals[0],
    totalTokens: totals[1],
  };
}

/**
 * The pass itself, alone in its function, with no branch that only late requests take and nothing after the
 * loop: a command-line run replays the trace once, and the optimised code V8 swaps in mid-loop is thrown away
 * (and compiled again) when it reaches code that had never run before it was compiled.
 */
function replay(
  t: RequestTable,
  cap: Int32Array,
  order: Int32Array,
  hitB: Float64Array,
  hitT: Float64Array,
  totals: Float64Array,
): void {
  const m = cap.length;
  const U = t.uniqueBlocks;
  const UNSEEN = m + 1;
  // Bytes hold the levels of up to 254 capacities (the usual few); more take 4 bytes a block.
  const level = (m < 255 ? new Uint8Array(U) : new Int32Array(U)).fill(UNSEEN);
  // Recency list, most recent first; H is the sentinel (next[H] = most recent, prev[H] = least recent).
  const H = U;
  const next = new Int32Array(U + 1);
  const prev = new Int32Array(U + 1);
  next[H] = prev[H] = H;
  const boundary = new Int32Array(m).fill(-1);
  let size = 0;
  const B = t.blockSize;
  const blocks = t.blocks;
  const blockStart = t.blockStart;
  const inputTokens = t.inputTokens;
  let totB = 0;
  let totT = 0;
  for (let j = 0; j < order.length; j++) {
    const r = order[j];
    const s = blockStart[r];
    const e = blockStart[r + 1];
    const n = inputTokens[r];
    totB += e - s;
    totT += n;
    // Stored as they go rather than after the loop: see above.
    totals[0] = totB;
    totals[1] = totT;
    // Hit prefixes: `need` is the smallest level whose cache held every block so far; when a block needs a
    // larger one, the levels in between end their prefix before it. The end of the request counts as a block
    // no cache holds, so that every level's prefix ends in the same loop.
    let need = 0;
    for (let k = s; need <= m; k++) {
      const l = k < e ? level[blocks[k]] : UNSEEN;
      if (l > need) {
        const len = k - s;
        const tokens = Math.min(n, len * B);
        for (; need < l; need++) {
          hitB[need] += len;
          hitT[need] += tokens;
        }
      }
    }
    // Use the blocks last to first, so the prefix ends most recently used.
    for (let i = e - 1; i >= s; i--) {
      const x = blocks[i];
      const l = level[x];
      if (l === UNSEEN) {
        // A new block in front: each full cache pushes its boundary out; a cache that fills now gets one.
        const first = next[H];
        next[x] = first;
        prev[first] = x;
        prev[x] = H;
        next[H] = x;
        for (let c = 0; c < m; c++) {
          if (size >= cap[c]) {
            const b = boundary[c];
            level[b] = c + 1;
            boundary[c] = prev[b];
          } else if (size + 1 === cap[c]) boundary[c] = prev[H];
        }
        size++;
      } else {
        const p = prev[x];
        if (p === H) continue; // already the most recent
        // Caches that held x: if x was a boundary, the block before it becomes the boundary.
        for (let c = l; c < m; c++) if (boundary[c] === x) boundary[c] = p;
        const q = next[x];
        next[p] = q;
        prev[q] = p;
        const first = next[H];
        next[x] = first;
        prev[first] = x;
        prev[x] = H;
        next[H] = x;
        // Caches that did not hold x (all full, since x was seen): their boundary block leaves them.
        for (let c = 0; c < l; c++) {
          const b = boundary[c];
          level[b] = c + 1;
          boundary[c] = prev[b];
        }
      }
      level[x] = 0;
    }
  }
}
