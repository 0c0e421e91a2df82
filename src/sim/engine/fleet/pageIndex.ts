/**
 * The pages computed so far in the fleet and the tails placed after them, by the page before them: where a request
 * whose prompt diverges from every cached one inside a page finds the engine blocks it still shares with one
 * (fleet/tails.ts explains tails; fleet/tailReuse.ts is a replica's use of both).
 */
import { widened } from '../widened';
import { contentKey, type Segment } from '../kvcache/hash';
import { HashMap } from '../kvcache/hashMap';

/**
 * Where two prompts diverge inside a page: the pages computed so far, by the page before them, so that a request
 * whose page h differs from every cached page h can still reuse the engine blocks it shares with one of them (a
 * reordered tool block after a system prompt that is not page-aligned, the head kept by a compaction). Shared by
 * every replica (a page's content is the same wherever it is cached); a replica checks that the page is in its own
 * cache before using it.
 *
 * Bounded, and what it costs: each parent keeps its last MAX_CHILDREN distinct next pages (most recent first), so
 * a parent with many continuations (the last shared page of a system prompt, followed by every session's own task)
 * is matched against the most recent ones only; an older continuation that would match longer is missed, at most
 * P − B tokens of one request's prefix.
 */
export class PageIndex {
  static readonly MAX_CHILDREN = 16;
  /*
   * The recorded pages are entries in typed arrays, by entry id, not an object each: the index holds about a
   * hundred thousand pages in a long run, each recorded once and kept to the end, and as objects (with a list of
   * segments each) they were as many long-lived allocations for the collector to copy and trace (measured: recording
   * them took 12% of the bench fleet's CPU time). Keyed by page hashes through open-addressing maps
   * (kvcache/hashMap.ts), not Maps, as a few are read per page computed.
   */
  /** Page hash → its entry. */
  private readonly entryOf = new HashMap();
  /** Parent page hash → its most recently recorded child's entry (the children are linked through `next`). */
  private readonly childHead = new HashMap();
  private hash = new Float64Array(0);
  private parent = new Float64Array(0);
  /** Where the first of the page's segments starts in its sequence. */
  private firstPos = new Float64Array(0);
  private page = new Int32Array(0);
  /** The page's segments (those that cover it) are [segStart, segStart + segCount) of segKey and segTokens. */
  private segStart = new Int32Array(0);
  private segCount = new Int32Array(0);
  /** The next older child of the same parent, −1 at the end. */
  private next = new Int32Array(0);
  private readonly freeEntries: number[] = [];
  private entries = 0;
  /**
   * The segments of every entry, in runs, each as its content key and its tokens (a dropped entry's run stays).
   * Numbers, not the Segment objects: a pool of references was an array in the old generation taking a young
   * object at every push (the write barrier's slow path, and a remembered slot for each collection of the young
   * generation to visit), and it kept every session's segments alive to the end of the run.
   */
  private segKey = new Float64Array(0);
  private segTokens = new Float64Array(0);
  private segsUsed = 0;
  /**
   * Every tail placed in a cache so far, by the hash of the page before it, longest first (firstTailAfter): entries
   * in typed arrays too, linked per parent.
   */
  private readonly tailHead = new HashMap();
  private tBlocks = new Int32Array(1024);
  private tHash = new Float64Array(1024);
  private tNext = new Int32Array(1024);
  private tails = 0;

  /**
   * A tail of `blocks` engine blocks after page `parent` was placed in a cache (any replica's: a tail may reach
   * the shared pool). A replica probing for tails tries only these, so it hashes its own page no further than
   * the longest of them instead of up to the page's end (a tail hash names its parent and length, so no other
   * entry can equal the probe's hash of that length).
   */
  addTail(parent: number, blocks: number, hash: number): void {
    // After the longer ones; before those of the same length (newest first), unless it is one of them.
    let before = -1;
    let e = this.tailHead.get(parent) ?? -1;
    while (e >= 0 && this.tBlocks[e] > blocks) {
      before = e;
      e = this.tNext[e];
    }
    for (let x = e; x >= 0 && this.tBlocks[x] === blocks; x = this.tNext[x])
      if (this.tHash[x] === hash) return;
    const t = this.tails++;
    if (t >= this.tBlocks.length) {
      const cap = this.tBlocks.length * 2;
      this.tBlocks = widened(this.tBlocks, cap);
      this.tHash = widened(this.tHash, cap);
      this.tNext = widened(this.tNext, cap);
    }
    this.tBlocks[t] = blocks;
    this.tHash[t] = hash;
    this.tNext[t] = e;
    if (before < 0) this.tailHead.set(parent, t);
    else this.tNext[before] = t;
  }

  /** The longest tail placed after page `parent` (−1 if none); the next ones by nextTail, longest first. */
  firstTailAfter(parent: number): number {
    return this.tailHead.get(parent) ?? -1;
  }
  nextTail(t: number): number {
    return this.tNext[t];
  }
  tailBlocks(t: number): number {
    return this.tBlocks[t];
  }
  tailHash(t: number): number {
    return this.tHash[t];
  }

  /** Whether any full page after `parent` was recorded (longestShared can find nothing otherwise). */
  hasChildren(parent: number): boolean {
    return this.childHead.has(parent);
  }

  /** Record page `page` of a sequence (hash `hash`, after `parent`), computed from `segs`. */
  add(parent: number, hash: number, segs: readonly Segment[], page: number): void {
    if (!this.entryOf.add(hash, this.peekEntry())) return;
    this.record(parent, hash, segs, 0, segs.length, 0, page);
  }

  /**
   * Record pages from … end − 1 of a sequence whose page k has the chained hash hashes[k], computed from `segs`,
   * in one walk of the segments. Each page keeps only the segments that cover it, not the sequence's whole list:
   * each would otherwise keep its turn's context alive.
   */
  addPages(
    hashes: ArrayLike<number>,
    segs: readonly Segment[],
    from: number,
    end: number,
    pageTokens: number,
  ): void {
    let i = 0; // the first segment that ends after the page's start
    let pos = 0; // where segment i starts
    // A session's list is the same array turn after turn, grown at its end (the engine's segsOf), and a list never
    // changes what it holds before that: the walk resumes where the last one on this list stopped, if that is
    // before this page, instead of reading the whole context from its first segment.
    const cur = this.cursors.get(segs);
    if (cur && cur.i <= segs.length && cur.pos <= from * pageTokens) {
      i = cur.i;
      pos = cur.pos;
    }
    for (let k = from; k < end; k++) {
      const hash = hashes[k];
      // Filed under the entry it would get, in the same probe that finds it absent (record() then takes that entry).
      if (!this.entryOf.add(hash, this.peekEntry())) continue;
      const start = k * pageTokens;
      const stop = start + pageTokens;
      while (i < segs.length && pos + segs[i].tokens <= start) pos += segs[i++].tokens;
      let j = i;
      for (let p = pos; j < segs.length && p < stop; p += segs[j++].tokens);
      this.record(k > 0 ? hashes[k - 1] : 0, hash, segs, i, j, pos, k);
    }
    if (cur) {
      cur.i = i;
      cur.pos = pos;
    } else this.cursors.set(segs, { i, pos });
  }

  /** Where addPages' walk last stopped on each list: segment index and the token it starts at. */
  private readonly cursors = new WeakMap<readonly Segment[], { i: number; pos: number }>();

  /** Record a page covered by segs[from .. to), the first of which starts at token `firstPos` (`entryOf` already
   * files `hash` under the entry newEntry() returns next: peekEntry). */
  private record(
    parent: number,
    hash: number,
    segs: readonly Segment[],
    from: number,
    to: number,
    firstPos: number,
    page: number,
  ): void {
    const e = this.newEntry();
    this.hash[e] = hash;
    this.parent[e] = parent;
    this.firstPos[e] = firstPos;
    this.page[e] = page;
    const at = this.segsUsed;
    const end = at + to - from;
    if (end > this.segKey.length) {
      const cap = Math.max(end, 2 * this.segKey.length, 1024);
      this.segKey = widened(this.segKey, cap);
      this.segTokens = widened(this.segTokens, cap);
    }
    for (let j = from, i = at; j < to; j++, i++) {
      this.segKey[i] = contentKey(segs[j].id);
      this.segTokens[i] = segs[j].tokens;
    }
    this.segsUsed = end;
    this.segStart[e] = at;
    this.segCount[e] = to - from;
    this.next[e] = this.childHead.exchange(parent, e);
    // Past MAX_CHILDREN, the parent's oldest child is forgotten.
    let n = 1;
    let before = -1;
    let last = e;
    while (this.next[last] >= 0) {
      before = last;
      last = this.next[last];
      n++;
    }
    if (n > PageIndex.MAX_CHILDREN) {
      this.next[before] = -1;
      this.entryOf.delete(this.hash[last]);
      this.freeEntries.push(last);
    }
  }

  /** The entry newEntry() will return. */
  private peekEntry(): number {
    const n = this.freeEntries.length;
    return n ? this.freeEntries[n - 1] : this.entries;
  }

  private newEntry(): number {
    const reused = this.freeEntries.pop();
    if (reused !== undefined) return reused;
    const e = this.entries++;
    if (e >= this.hash.length) {
      const cap = Math.max(1024, this.hash.length * 2);
      this.hash = widened(this.hash, cap);
      this.parent = widened(this.parent, cap);
      this.firstPos = widened(this.firstPos, cap);
      this.page = widened(this.page, cap);
      this.segStart = widened(this.segStart, cap);
      this.segCount = widened(this.segCount, cap);
      this.next = widened(this.next, cap);
    }
    return e;
  }

  /**
   * The longest run of whole engine blocks at the start of page `page`, at most `room`, that the request whose
   * segments are `mine` (from token 0) shares with a recorded page after `parent` that `has` accepts (in the
   * replica's cache), and that page's hash. The contents are compared piece by piece, as their tail hashes would
   * be (pageTailHashes), without hashing them.
   */
  longestShared(
    parent: number,
    page: number,
    mine: readonly Segment[],
    room: number,
    pageTokens: number,
    blockTokens: number,
    has: (hash: number) => boolean,
  ): { blocks: number; hash: number } {
    let best = { blocks: 0, hash: 0 };
    const head = this.childHead.get(parent);
    if (head === undefined || room < 1) return best;
    const start = page * pageTokens;
    const limit = start + room * blockTokens;
    // The most this request can share: its own whole blocks in the page, up to room.
    let mineEnd = 0;
    for (const seg of mine) if (seg.tokens > 0) mineEnd += seg.tokens;
    const most = Math.max(0, Math.floor((Math.min(mineEnd, limit) - start) / blockTokens));
    if (most === 0) return best;
    for (let e = head; e >= 0; e = this.next[e]) {
      const h = this.hash[e];
      if (this.page[e] !== page || !has(h)) continue;
      const from = this.segStart[e];
      const theirs = commonTokensOf(
        this.segKey,
        this.segTokens,
        from,
        from + this.segCount[e],
        this.firstPos[e],
        mine,
        0,
        start,
        limit,
      );
      const m = Math.floor(theirs / blockTokens);
      if (m > best.blocks) best = { blocks: m, hash: h };
      if (m === most) break;
    }
    return best;
  }
}

/**
 * Tokens from `start` (up to `limit`) in which two segment lists (each from its own first token) hold the same
 * content: the same segment at the same offset, token by token.
 */
export function commonTokens(
  a: readonly Segment[],
  aFirstPos: number,
  b: readonly Segment[],
  bFirstPos: number,
  start: number,
  limit: number,
): number {
  const keys = Float64Array.from(a, (x) => contentKey(x.id));
  const tokens = Float64Array.from(a, (x) => x.tokens);
  return commonTokensOf(keys, tokens, 0, a.length, aFirstPos, b, bFirstPos, start, limit);
}

/**
 * commonTokens with the first list as the page index keeps its segments: content keys and tokens, positions
 * [aFrom, aTo), the first starting at token aFirstPos.
 */
function commonTokensOf(
  aKey: Float64Array,
  aTokens: Float64Array,
  aFrom: number,
  aTo: number,
  aFirstPos: number,
  b: readonly Segment[],
  bFirstPos: number,
  start: number,
  limit: number,
): number {
  let ia = aFrom;
  let pa = aFirstPos;
  let ib = 0;
  let pb = bFirstPos;
  let t = start;
  while (t < limit) {
    // The segment of each list that holds token t.
    while (ia < aTo && (aTokens[ia] <= 0 || pa + aTokens[ia] <= t)) pa += Math.max(0, aTokens[ia++]);
    while (ib < b.length && (b[ib].tokens <= 0 || pb + b[ib].tokens <= t)) pb += Math.max(0, b[ib++].tokens);
    if (ia >= aTo || ib >= b.length) break;
    const sb = b[ib];
    if (pa !== pb || aKey[ia] !== contentKey(sb.id)) break;
    t = Math.min(pa + aTokens[ia], pb + sb.tokens, limit);
  }
  return t - start;
}
