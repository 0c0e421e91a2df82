/**
 * The block records of one replica's KV cache as parallel typed arrays indexed by a block id, with the index from
 * hash to id (hashMap.ts) and the insertion order kept for iteration (the order a Map would give, so snapshots and frames list blocks as they always did).
 *
 * Why arrays and not an object per block: an agent's turn walks its whole context (about a hundred blocks) three
 * or four times, acquiring, unpinning and offloading it, and with a record, a copy record per tier and a boxed
 * hash per block those walks were cache misses on objects scattered over the heap, plus a collector tracing a
 * hundred thousand long-lived records. Here a block is about 60 bytes spread over a few dense arrays, a replica's
 * blocks fit in the processor's cache, and the collector sees a dozen arrays.
 *
 * A block has up to one *copy* per local tier (at most three); a copy is named by its copy id, `id * 3 + tier`,
 * which indexes the copy's state and its two links in its tier's eviction order (copyOrder.ts).
 * Ids are reused once a block leaves (most recently freed first); whoever keeps an id across operations (a
 * lookup hint) must check that it still names the block it meant: `live(id) && hash[id] === h`.
 */

import { HashMap } from './hashMap';

/** Block flags. */
export const PENDING = 1;
/** Its HBM copy was brought up from below (for promoteOnHit: false). */
export const LOADED = 2;
/** The id names a block in the replica (cleared when the block leaves). */
export const LIVE = 4;

/** Copy states, per copy id. */
export const NO_COPY = 0;
export const POLICY = 1;
export const PINNED = 2;
export const LOCKED = 3;

/** At most three local tiers: a copy id is id * TIERS + tier. */
export const TIERS = 3;

/** The copies' links in their tiers' eviction orders (replaced, not resized, when the store grows). */
export interface CopyLinks {
  prev: Int32Array;
  next: Int32Array;
}

export class BlockStore {
  private cap: number;
  hash: Float64Array;
  tokens: Int32Array;
  pins: Int32Array;
  tag: Float64Array;
  flags: Uint8Array;
  /** Bit i set: local tier i holds a copy. */
  bits: Uint8Array;
  /** Per copy id: NO_COPY, POLICY, PINNED or LOCKED. */
  state: Uint8Array;
  readonly links: CopyLinks;
  /** Scratch marks of one acquire (epoch-stamped so they never need clearing; zeroed when an id is reused). */
  mark: Int32Array;
  scratch: Int32Array;
  xmark: Int32Array;
  private insPrev: Int32Array;
  private insNext: Int32Array;
  private insHead = -1;
  private insTail = -1;
  private free: number[] = [];
  private fresh = 0;

  /** Hash → id (hashMap.ts: keys inline, no boxed numbers). */
  private readonly idOf: HashMap<number>;

  constructor(initialBlocks = 1024) {
    const cap = Math.max(16, initialBlocks);
    this.cap = cap;
    this.hash = new Float64Array(cap);
    this.tokens = new Int32Array(cap);
    this.pins = new Int32Array(cap);
    this.tag = new Float64Array(cap);
    this.flags = new Uint8Array(cap);
    this.bits = new Uint8Array(cap);
    this.state = new Uint8Array(cap * TIERS);
    this.links = { prev: new Int32Array(cap * TIERS), next: new Int32Array(cap * TIERS) };
    this.mark = new Int32Array(cap);
    this.scratch = new Int32Array(cap);
    this.xmark = new Int32Array(cap);
    this.insPrev = new Int32Array(cap);
    this.insNext = new Int32Array(cap);
    this.idOf = new HashMap<number>(cap);
  }

  /** Blocks in the replica. */
  get size(): number {
    return this.idOf.size;
  }

  live(id: number): boolean {
    return (this.flags[id] & LIVE) !== 0;
  }

  // ───────────────────────────── records ─────────────────────────────

  /** A new block record under `h` (which must not be indexed), at the end of the insertion order. */
  alloc(h: number, tokens: number, tag: number, pending: boolean): number {
    let id = this.free.pop();
    if (id === undefined) {
      if (this.fresh === this.cap) this.grow();
      id = this.fresh++;
    }
    this.hash[id] = h;
    this.tokens[id] = tokens;
    this.pins[id] = 0;
    this.tag[id] = tag;
    this.flags[id] = LIVE | (pending ? PENDING : 0);
    this.bits[id] = 0;
    this.mark[id] = 0;
    this.scratch[id] = 0;
    this.xmark[id] = 0;
    this.index(h, id);
    this.insPrev[id] = this.insTail;
    this.insNext[id] = -1;
    if (this.insTail >= 0) this.insNext[this.insTail] = id;
    else this.insHead = id;
    this.insTail = id;
    return id;
  }

  /** The block leaves the replica: unindexed, its id free for the next alloc. */
  release(id: number): void {
    this.unindex(this.hash[id]);
    this.flags[id] = 0;
    const p = this.insPrev[id];
    const nx = this.insNext[id];
    if (p >= 0) this.insNext[p] = nx;
    else this.insHead = nx;
    if (nx >= 0) this.insPrev[nx] = p;
    else this.insTail = p;
    this.free.push(id);
  }

  /** Ids in insertion order (a block may be released while iterating: its successor is read first). */
  *ids(): IterableIterator<number> {
    for (let id = this.insHead; id >= 0; ) {
      const next = this.insNext[id];
      yield id;
      id = next;
    }
  }

  private grow(): void {
    const cap = this.cap * 2;
    const f64 = (a: Float64Array, n: number) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array, n: number) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    const u8 = (a: Uint8Array, n: number) => {
      const b = new Uint8Array(n);
      b.set(a);
      return b;
    };
    this.hash = f64(this.hash, cap);
    this.tokens = i32(this.tokens, cap);
    this.pins = i32(this.pins, cap);
    this.tag = f64(this.tag, cap);
    this.flags = u8(this.flags, cap);
    this.bits = u8(this.bits, cap);
    this.state = u8(this.state, cap * TIERS);
    this.links.prev = i32(this.links.prev, cap * TIERS);
    this.links.next = i32(this.links.next, cap * TIERS);
    this.mark = i32(this.mark, cap);
    this.scratch = i32(this.scratch, cap);
    this.xmark = i32(this.xmark, cap);
    this.insPrev = i32(this.insPrev, cap);
    this.insNext = i32(this.insNext, cap);
    this.cap = cap;
  }

  // ───────────────────────────── the index ─────────────────────────────

  /** The id indexed under h, or −1. */
  get(h: number): number {
    const id = this.idOf.get(h);
    return id === undefined ? -1 : id;
  }

  has(h: number): boolean {
    return this.idOf.has(h);
  }

  private index(h: number, id: number): void {
    if (this.idOf.has(h)) throw new Error(`BlockStore: hash ${h} is already indexed`);
    this.idOf.set(h, id);
  }

  private unindex(h: number): void {
    if (!this.idOf.delete(h)) throw new Error(`BlockStore: hash ${h} is not indexed`);
  }
}
