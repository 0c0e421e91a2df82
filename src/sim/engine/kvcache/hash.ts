/**
 * Block identities by chained hashing, as vLLM and Mooncake do: the hash of block k covers the hash of block
 * k−1 and block k's own content, so equal hashes mean equal *prefixes* and a cache lookup is a walk along the
 * request's hash list until the first miss.
 *
 * Hashes are 52-bit non-negative integers (safe in a double, usable as Map keys without allocation): two
 * independent 32-bit murmur3-style mixes, 20 + 32 bits. At 10⁶ distinct blocks the chance of any collision is
 * about 10⁻⁴.
 *
 * Four ways in:
 * - `chainHashes(contentIds)`: one content id per block (not yet chained) → chained hashes.
 * - `segmentBlockHashes(segments, blockSize)`: a prompt as content segments with token counts (a system
 *   prompt, a tool result, …) → one hash per block of `blockSize` tokens (the last one may be partial). Cost is
 *   O(segments + blocks), never per token. Two prompts with the same segments in the same order get the same
 *   hashes; a prompt that differs at some token misses from the block holding that token on.
 * - `PromptHasher`: the same hashes for one session's successive prompts, hashing only the segments appended
 *   since its previous prompt (the fleet's sessions; `BlockChain` is the running state underneath).
 * - Mooncake `hash_ids` are already chained: use them as they are (`mooncakeBlockTokens` gives the tokens of
 *   each block).
 */

import { keepFirst } from '../keepFirst';
import type { BlockHash } from './types';

/** Parent hash of the first block of every sequence. */
export const ROOT_HASH: BlockHash = 0;

const TWO32 = 4294967296;
/** x mod 2²⁰ for a uint32 x, as a mask: `%` on a double is a call into the runtime, `&` one instruction. */
const LOW20 = 0xfffff;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function mixWord(h: number, w: number): number {
  let k = Math.imul(w | 0, 0xcc9e2d51);
  k = rotl(k, 15);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = rotl(h, 13);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function fmix(h: number, len: number): number {
  h ^= len;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** 52-bit hash of four 32-bit words. */
function hash4(a: number, b: number, c: number, d: number): number {
  let h1 = 0x243f6a88;
  let h2 = 0x85a308d3;
  h1 = mixWord(mixWord(mixWord(mixWord(h1, a), b), c), d);
  h2 = mixWord(mixWord(mixWord(mixWord(h2, d), c), b), a);
  const lo = fmix(h1, 16);
  const hi = fmix(h2 ^ lo, 16) & LOW20;
  return hi * TWO32 + lo;
}

/** The low 32 bits of a non-negative safe integer, as an int32: ToInt32 (`| 0`) is exactly x mod 2³², without `%`. */
function lo32(x: number): number {
  return x | 0;
}
function hi32(x: number): number {
  return Math.floor(x / TWO32) | 0;
}

/** A content id (string or non-negative integer) as a 52-bit integer. Strings are hashed once, per character. */
export function contentKey(id: string | number): number {
  if (typeof id === 'number') {
    if (!Number.isSafeInteger(id) || id < 0) return contentKey(String(id));
    return hash4(0x6e756d31, lo32(id), hi32(id), 0x2f);
  }
  let h1 = 0x73747231;
  let h2 = 0x9e3779b9;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    h1 = mixWord(h1, c);
    h2 = mixWord(h2, c ^ 0x5bd1e995);
  }
  const lo = fmix(h1, id.length);
  const hi = fmix(h2 ^ lo, id.length) & LOW20;
  return hi * TWO32 + lo;
}

/** Hash of a block given its parent's hash and a key for its own content. */
export function chainHash(parent: BlockHash, content: number): BlockHash {
  return hash4(lo32(parent), hi32(parent), lo32(content), hi32(content));
}

/** Chained hashes of blocks given one (unchained) content id per block. */
export function chainHashes(
  contentIds: ArrayLike<string | number>,
  parent: BlockHash = ROOT_HASH,
): BlockHash[] {
  const out = new Array<BlockHash>(contentIds.length);
  let h = parent;
  for (let i = 0; i < contentIds.length; i++) {
    h = chainHash(h, contentKey(contentIds[i]));
    out[i] = h;
  }
  return out;
}

/** One piece of a prompt: `tokens` tokens of the content named `id`. */
export interface Segment {
  id: string | number;
  tokens: number;
}

export interface BlockList {
  /** One chained hash per block, the last block possibly partial. */
  hashes: BlockHash[];
  /** Tokens in the last block (= blockSize when it is full; 0 when there are no blocks). */
  lastBlockTokens: number;
  /** Total tokens. */
  tokens: number;
}

/**
 * Block hashes of a prompt made of content segments. A block's content key folds (segment, offset within the
 * segment, length) of every piece of a segment that falls in it; its hash chains that onto the previous one.
 * With `fullBlocksOnly`, a trailing partial block is left out (vLLM only caches full blocks).
 */
export function segmentBlockHashes(
  segments: readonly Segment[],
  blockSize: number,
  opts: { fullBlocksOnly?: boolean; parent?: BlockHash } = {},
): BlockList {
  const chain = new BlockChain(blockSize, opts.parent ?? ROOT_HASH);
  for (const seg of segments) chain.push(seg);
  return chain.list(opts.fullBlocksOnly ?? false);
}

/**
 * The running state of segmentBlockHashes: the chained hashes of the full blocks so far and the content key of
 * the block being filled. Pushing a segment costs O(blocks it completes + 1); the prompt so far can be read out
 * at any point (a partial last block is hashed from the state without changing it), so a prompt that grows by
 * appended segments is hashed once, block by block, however many times it is read.
 */
export class BlockChain {
  /** Chained hashes of the full blocks so far (owned by the chain: copy before keeping). */
  readonly full: BlockHash[] = [];
  /** Total tokens pushed. */
  tokens = 0;
  private parent: BlockHash;
  private acc1 = 0; // content key of the block being filled, as two words
  private acc2 = 0;
  private fill = 0; // tokens in the block being filled

  constructor(
    readonly blockSize: number,
    parent: BlockHash = ROOT_HASH,
  ) {
    if (!Number.isInteger(blockSize) || blockSize < 1)
      throw new RangeError(`blockSize must be a positive integer, got ${blockSize}`);
    this.parent = parent;
  }

  push(seg: Segment): void {
    const n = seg.tokens;
    if (!Number.isInteger(n) || n < 0)
      throw new RangeError(`segment tokens must be a non-negative integer, got ${n}`);
    if (n === 0) return;
    const blockSize = this.blockSize;
    const key = contentKey(seg.id);
    const k1 = lo32(key);
    const k2 = hi32(key);
    let off = 0;
    while (off < n) {
      const take = Math.min(n - off, blockSize - this.fill);
      const piece = hash4(k1, k2, off, take);
      this.acc1 = mixWord(this.acc1, lo32(piece));
      this.acc2 = mixWord(this.acc2, hi32(piece) ^ this.fill);
      this.fill += take;
      off += take;
      if (this.fill === blockSize) {
        this.parent = chainHash(
          this.parent,
          (fmix(this.acc2, blockSize) & LOW20) * TWO32 + fmix(this.acc1, blockSize),
        );
        this.full.push(this.parent);
        this.acc1 = this.acc2 = 0;
        this.fill = 0;
      }
    }
    this.tokens += n;
  }

  /** Hash of the partial block being filled, or undefined when the last block is full. */
  partial(): BlockHash | undefined {
    if (this.fill === 0) return undefined;
    const f = this.fill;
    return chainHash(this.parent, (fmix(this.acc2, f) & LOW20) * TWO32 + fmix(this.acc1, f));
  }

  /** The prompt so far, as segmentBlockHashes gives it (a fresh array). */
  list(fullBlocksOnly = false): BlockList {
    return this.readInto(this.full.slice(), this.full.length, fullBlocksOnly);
  }

  /**
   * The prompt so far into `into`, whose first `from` entries already hold the first `from` full hashes: the rest
   * of the full hashes are appended (anything past `from` is replaced), then the partial one unless
   * `fullBlocksOnly`. O(new blocks) when `into` is kept from call to call (PromptHasher.hashInPlace).
   */
  readInto(into: BlockHash[], from: number, fullBlocksOnly = false): BlockList {
    const full = this.full;
    keepFirst(into, from);
    for (let i = from; i < full.length; i++) into.push(full[i]);
    let lastBlockTokens = into.length ? this.blockSize : 0;
    const p = fullBlocksOnly ? undefined : this.partial();
    if (p !== undefined) {
      into.push(p);
      lastBlockTokens = this.fill;
    }
    return { hashes: into, lastBlockTokens, tokens: this.tokens };
  }

  /** An independent copy of the state. */
  clone(): BlockChain {
    const c = new BlockChain(this.blockSize, this.parent);
    for (let i = 0; i < this.full.length; i++) c.full.push(this.full[i]);
    c.tokens = this.tokens;
    c.acc1 = this.acc1;
    c.acc2 = this.acc2;
    c.fill = this.fill;
    return c;
  }
}

function sameSegment(a: Segment, b: Segment): boolean {
  return a === b || (a.id === b.id && a.tokens === b.tokens);
}

/**
 * Block hashes of one session's successive prompts. An agent's or a chat's next prompt is its previous prompt,
 * the output, and new segments (a tool result, a user message): when the segments given begin with every
 * segment of the previous call, only the new ones are hashed (O(new blocks) hashing; the result array is still a
 * fresh copy, O(blocks) but no hashing). Otherwise (a compaction, a reordered tool block, a timestamp at the
 * top) the prompt is hashed from the start. Either way the result equals segmentBlockHashes(segments ++ extra).
 * The same array passed again must have changed only by growing at its end (the fleet's contexts grow in place).
 */
export class PromptHasher {
  private chain: BlockChain;
  private readonly prev: Segment[] = [];
  /** hashInPlace's array: the chain's full hashes (the first viewFull entries), then the partial one if any. */
  private view: BlockHash[] = [];
  private viewFull = 0;
  /** The segment list of the last call, and its length then (prev holds its entries, then that call's extra). */
  private last: readonly Segment[] | null = null;
  private lastLength = 0;

  constructor(readonly blockSize: number) {
    this.chain = new BlockChain(blockSize);
  }

  /** segmentBlockHashes(segments ++ [extra]) (extra optional), reusing what the previous call hashed. */
  hash(segments: readonly Segment[], extra?: Segment): BlockList {
    this.advance(segments, extra);
    return this.chain.list();
  }

  /**
   * As hash(), but the hashes are an array the hasher owns and changes on its next call (its partial last entry
   * replaced, new blocks appended: O(new blocks), no copy of the prompt's hashes). For a caller that keeps one
   * prompt of this hasher alive at a time (a session's current request) and never reads an earlier result after
   * asking for the next. A prompt that does not extend the previous one gets a new array, so the old one stays
   * intact.
   */
  hashInPlace(segments: readonly Segment[], extra?: Segment): BlockList {
    this.advance(segments, extra);
    const list = this.chain.readInto(this.view, this.viewFull); // the previous partial entry replaced
    this.viewFull = this.chain.full.length;
    return list;
  }

  /**
   * The full blocks' hashes of segments ++ [extra] without copying them: the hasher's own array, valid until its
   * next call (read it, never keep or change it), and the prompt's tokens.
   */
  hashFullBlocks(
    segments: readonly Segment[],
    extra?: Segment,
  ): { full: readonly BlockHash[]; tokens: number } {
    this.advance(segments, extra);
    return { full: this.chain.full, tokens: this.chain.tokens };
  }

  private advance(segments: readonly Segment[], extra: Segment | undefined): void {
    const prev = this.prev;
    const n = segments.length + (extra ? 1 : 0);
    let extends_ = prev.length <= n;
    // The list the last call read, grown in place (a session's context gains entries only at its end), still holds
    // what it held then: only the entries past it are compared (comparing from the first made a session O(turns²)).
    const known = segments === this.last && segments.length >= this.lastLength ? this.lastLength : 0;
    for (let i = known; extends_ && i < prev.length; i++)
      extends_ = sameSegment(prev[i], i < segments.length ? segments[i] : (extra as Segment));
    this.last = segments;
    this.lastLength = segments.length;
    if (!extends_) {
      this.chain = new BlockChain(this.blockSize);
      prev.length = 0;
      this.view = [];
      this.viewFull = 0;
    }
    for (let i = prev.length; i < n; i++) {
      const seg = i < segments.length ? segments[i] : (extra as Segment);
      this.chain.push(seg);
      prev.push(seg);
    }
  }
}

/**
 * Tokens in block `k` of a request of `inputTokens` tokens cut in blocks of `blockSize`: blockSize for full
 * blocks, the remainder for the last, 0 past the end (when a trace lists more blocks than its length needs).
 */
export function blockTokens(k: number, inputTokens: number, blockSize: number): number {
  const rest = inputTokens - k * blockSize;
  return rest <= 0 ? 0 : rest >= blockSize ? blockSize : rest;
}
