/**
 * Reuse at the engine's block size while the cache tracks coarser pages.
 *
 * vLLM caches and reuses KV in blocks of 16 tokens (vllm/config/cache.py CacheConfig.DEFAULT_BLOCK_SIZE; newer
 * releases also let `prefix_match_unit` match finer than the physical block), SGLang's radix tree at one token.
 * Tracking every 16-token block in the fleet simulator costs 16× the per-block work of 256-token pages (measured
 * on the bench fleet: 33× the time and 7.7× the memory). The fleet keeps its pages (`kv.pageTokens`, 256 by
 * default) for allocation, eviction and transfers, and matches the one place where the difference is large at the
 * engine's block size (`kv.blockSize`): the partial page a sequence leaves behind.
 *
 * When a request finishes, its last page is partial (it holds ctx − k·P tokens). The engine would cache that
 * page's m = ⌊(ctx − k·P) / B⌋ full blocks; the fleet keeps them as a *tail*, one cache entry of m·B tokens named
 * by `tailHash(k, m)`: a hash of page k−1's chained hash and of the content of the page's first m·B tokens. The
 * next request whose first k pages match and whose page k begins with the same m·B tokens (a session's next turn,
 * which extends the previous prompt and output) finds the tail and reuses those tokens, as the engine would. A
 * request's own probe computes the same hash for each m from its segments, so equal hashes mean equal prefixes,
 * as for full pages.
 *
 * What stays at page granularity, and what it costs: two different prompts that diverge inside a page share only
 * the pages before it (at most P − B tokens of one request's prefix lost, where the engine would keep them, e.g.
 * at the end of a shared system prompt that is not page-aligned); the router's view of the caches matches whole
 * pages; a tail occupies a whole page of HBM, as a sequence's partial page does while it runs; and a preempted
 * sequence leaves no tail.
 */
import { widened } from '../widened';
import { chainHash, contentKey, ROOT_HASH, type Segment } from '../kvcache/hash';

/** Tag folded into a tail's content key so that no tail hash equals a full page's. */
const TAIL_TAG = 0x7461696c;

/**
 * Hashes of the first m·B tokens of page `page` (P tokens a page, B tokens an engine block), for m = 1..maxBlocks,
 * given the chained hash of the page before it (ROOT_HASH for page 0). Entry m − 1 is tailHash(page, m). Cost:
 * O(segments up to the page's end + maxBlocks).
 *
 * A tail hash names the content of the first m·B tokens of the page as *pieces*, one per segment it overlaps:
 * (segment, offset within the segment, length), chained in order onto the parent, the last piece cut at the
 * tail's end, and m folded in last. Equal pieces in order mean equal tokens, and the pieces of a token range are
 * unique (a segment's offsets restart at 0), so equal hashes mean equal prefixes. Pieces are per segment, not per
 * engine block, so one tail costs O(segments in the page) however many blocks it holds.
 */
export function pageTailHashes(
  segments: readonly Segment[],
  pageTokens: number,
  blockTokens: number,
  page: number,
  parent: number,
  maxBlocks: number,
  /** Token offset of segments[0] in the sequence (a slice of its segments that starts at or before the page). */
  firstPos = 0,
): number[] {
  const out: number[] = [];
  if (maxBlocks < 1) return out;
  const start = page * pageTokens;
  let pos = firstPos; // token offset of the segment being read
  let acc = chainHash(parent, TAIL_TAG);
  let m = 1;
  for (const seg of segments) {
    const n = seg.tokens;
    if (n <= 0) continue;
    if (pos + n <= start) {
      pos += n;
      continue;
    }
    const key = contentKey(seg.id);
    const from = Math.max(pos, start);
    // The tails that end inside this segment.
    for (; m <= maxBlocks && start + m * blockTokens <= pos + n; m++)
      out.push(tailOfPiece(acc, key, from - pos, start + m * blockTokens - from, m));
    if (m > maxBlocks) return out;
    acc = chainHash(acc, chainHash(key, (from - pos) * 1048576 + (pos + n - from)));
    pos += n;
  }
  return out;
}

/** The hash of a tail of m blocks whose last piece is `take` tokens of the segment `key` from `off`, after `acc`. */
function tailOfPiece(acc: number, key: number, off: number, take: number, m: number): number {
  return chainHash(chainHash(acc, chainHash(key, off * 1048576 + take)), m);
}

function sameSegment(a: Segment, b: Segment): boolean {
  return a === b || (a.id === b.id && a.tokens === b.tokens);
}

/**
 * tailHash(page, m) for one session's successive requests, resumed where the previous call stopped. The tail a
 * request leaves (sequenceTail) and the tails its session's next request probes (the same page after the same
 * parent, as the next prompt extends the last one) are on the same pieces: the hasher keeps the pieces of the page
 * read so far (each with the running hash before it) and, when the page, its parent and the segments read so far
 * are the same, goes on from there instead of from the start of the page. Otherwise it starts over. Either way the
 * result equals pageTailHashes(...)[m − 1] (tested). A segment list must not be changed once passed (pass a new one).
 */
export class TailHasher {
  private segs: readonly Segment[] = [];
  private page = -1;
  private parent = NaN;
  private pageTokens = 0;
  private blockTokens = 0;
  // The pieces read: each one's segment index, the segment's first token, its content key, the hash before it.
  // (Typed arrays with a count, not arrays emptied per page: refilled for every request, those were reallocated.)
  private pieceSeg = new Int32Array(8);
  private piecePos = new Float64Array(8);
  private pieceKey = new Float64Array(8);
  private pieceAcc = new Float64Array(8);
  private pieces = 0;
  // Where reading goes on: the next segment, its first token, the hash over the pieces before it.
  private nextSeg = 0;
  private nextPos = 0;
  private acc = 0;

  /** tailHash(page, m): entry m − 1 of pageTailHashes(…, m); NaN if the page has fewer blocks. */
  tail(
    segments: readonly Segment[],
    pageTokens: number,
    blockTokens: number,
    page: number,
    parent: number,
    m: number,
  ): number {
    if (m < 1) return NaN;
    this.resume(segments, pageTokens, blockTokens, page, parent);
    const start = page * pageTokens;
    const end = start + m * blockTokens;
    // The piece holding the tail's last token: read on until one ends at or after `end`.
    let j = 0;
    for (;;) {
      const np = this.pieces;
      while (j < np && this.piecePos[j] + segments[this.pieceSeg[j]].tokens < end) j++;
      if (j < np) break;
      if (!this.readPiece(segments, start)) return NaN;
    }
    const pos = this.piecePos[j];
    const from = Math.max(pos, start);
    return tailOfPiece(this.pieceAcc[j], this.pieceKey[j], from - pos, end - from, m);
  }

  /** Keep the pieces read when the page, its parent and the segments read so far are the same; else start over. */
  private resume(
    segments: readonly Segment[],
    pageTokens: number,
    blockTokens: number,
    page: number,
    parent: number,
  ): void {
    const old = this.segs;
    this.segs = segments;
    let same =
      page === this.page &&
      parent === this.parent &&
      pageTokens === this.pageTokens &&
      blockTokens === this.blockTokens;
    // The segments read so far must be the same (the later ones are not read yet). The same array is: a request
    // probes several tails of one page, and a segment list is never changed once made (a changed prompt is a new
    // list), so only the first call of a request compares them.
    const upto = this.nextSeg - 1;
    if (same && segments !== old) {
      if (segments.length <= upto) same = false;
      for (let i = 0; same && i <= upto; i++) same = sameSegment(old[i], segments[i]);
    }
    if (same) return;
    // Start over on this page, but skip the segments that end before it from where the last page's pieces began
    // when the segments up to there are the same ones (a session's next prompt extends its last, and its pages only
    // move forward): walking them from the first read every segment of a long context again.
    const start = page * pageTokens;
    const hasPieces = this.pieces > 0;
    const skipSeg = hasPieces ? this.pieceSeg[0] : this.nextSeg;
    const skipPos = hasPieces ? this.piecePos[0] : this.nextPos;
    let from = 0;
    let fromPos = 0;
    if (skipPos <= start && skipSeg <= segments.length && skipSeg <= old.length) {
      let ok = true;
      // The same array is the same segments up to there: a list grown in place only gains entries at its end.
      if (segments !== old) for (let i = 0; ok && i < skipSeg; i++) ok = sameSegment(old[i], segments[i]);
      if (ok) {
        from = skipSeg;
        fromPos = skipPos;
      }
    }
    this.page = page;
    this.parent = parent;
    this.pageTokens = pageTokens;
    this.blockTokens = blockTokens;
    this.pieces = 0;
    this.nextSeg = from;
    this.nextPos = fromPos;
    this.acc = chainHash(parent, TAIL_TAG);
  }

  private growPieces(): void {
    const n = this.pieceSeg.length * 2;
    this.pieceSeg = widened(this.pieceSeg, n);
    this.piecePos = widened(this.piecePos, n);
    this.pieceKey = widened(this.pieceKey, n);
    this.pieceAcc = widened(this.pieceAcc, n);
  }

  /** Read the next piece of the page (the next segment that overlaps it); false when the segments end. */
  private readPiece(segments: readonly Segment[], start: number): boolean {
    let pos = this.nextPos;
    for (let i = this.nextSeg; i < segments.length; i++) {
      const n = segments[i].tokens;
      if (n <= 0) continue;
      if (pos + n <= start) {
        pos += n;
        continue;
      }
      const key = contentKey(segments[i].id);
      const from = Math.max(pos, start);
      if (this.pieces === this.pieceSeg.length) this.growPieces();
      const j = this.pieces++;
      this.pieceSeg[j] = i;
      this.piecePos[j] = pos;
      this.pieceKey[j] = key;
      this.pieceAcc[j] = this.acc;
      this.acc = chainHash(this.acc, chainHash(key, (from - pos) * 1048576 + (pos + n - from)));
      this.nextSeg = i + 1;
      this.nextPos = pos + n;
      return true;
    }
    this.nextSeg = segments.length;
    this.nextPos = pos;
    return false;
  }
}

/** The tail a sequence of `ctx` computed tokens leaves: its last page's full engine blocks, or null if none. */
export function sequenceTail(
  segments: readonly Segment[] | null,
  hashes: ArrayLike<number>,
  ctx: number,
  pageTokens: number,
  blockTokens: number,
  hasher: TailHasher | null = null,
): { page: number; blocks: number; hash: number; parent: number } | null {
  if (!segments || blockTokens >= pageTokens) return null;
  const page = Math.floor(ctx / pageTokens);
  const blocks = Math.floor((ctx - page * pageTokens) / blockTokens);
  if (blocks < 1) return null;
  const parent = page > 0 ? hashes[page - 1] : ROOT_HASH;
  if (hasher) {
    const hash = hasher.tail(segments, pageTokens, blockTokens, page, parent, blocks);
    return Number.isNaN(hash) ? null : { page, blocks, hash, parent };
  }
  const h = pageTailHashes(segments, pageTokens, blockTokens, page, parent, blocks);
  return h.length === blocks ? { page, blocks, hash: h[blocks - 1], parent } : null;
}
