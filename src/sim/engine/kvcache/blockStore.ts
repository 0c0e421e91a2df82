/**
 * The block records of one replica's KV cache: one 64-byte record per block in a single Int32Array, indexed by a
 * block id, with the index from hash to id (hashMap.ts) and the insertion order kept for iteration (the order a
 * Map would give, so snapshots and frames list blocks as they always did).
 *
 * Why one packed record and not an object per block, nor one array per field: an agent's turn walks its whole
 * context (about a hundred blocks) three or four times, acquiring, unpinning and offloading it. With a record
 * object, a copy object per tier and a boxed hash per block, each step of those walks was several cache misses on
 * objects scattered over the heap, and the collector traced a hundred thousand long-lived records; with one typed
 * array per field it was a miss per field. Here everything a walk reads of a block (flags, the state of its copy in
 * each tier, pins, tokens, tag, hash, scratch marks, and its links in each tier's eviction order, copyOrder.ts)
 * is one cache line.
 *
 * A block has up to one *copy* per local tier (at most three); a tier's eviction order links block ids through
 * that tier's two link words. Ids are reused once a block leaves (most recently freed first); whoever keeps an id
 * across operations (a lookup hint) must check that it still names the block it meant: `live(id)` and
 * `hashIs(id, h)`.
 */

import { widened } from '../widened';
import { HashMap } from './hashMap';

/** Block flags (word FLAGS). */
export const PENDING = 1;
/** Its HBM copy was brought up from below (for promoteOnHit: false). */
export const LOADED = 2;
/** The id names a block in the replica (cleared when the block leaves). */
export const LIVE = 4;
/** Its DRAM copy is ordered by its run's node, not by a link of its own (runs.ts). */
export const INRUN = 8;
/** Not a block: a run's node in an eviction order (runs.ts), never indexed nor listed. */
export const NODE = 16;

/**
 * What the store tells the run registry (runs.ts) of a run's member: `found` when a lookup returns it (a parked
 * run's records must get the truth before anyone reads them), `touched` before its pins or owner change (any run
 * dissolves). Either way the record is the block's own again when the caller goes on.
 */
export interface MemberHooks {
  found(id: number): void;
  touched(id: number): void;
}

/** Copy states, two bits per tier in word STATES. */
export const NO_COPY = 0;
export const POLICY = 1;
export const PINNED = 2;
export const LOCKED = 3;

/** At most three local tiers. */
export const TIERS = 3;

/** Words of a record (16 int32s: 64 bytes, one cache line when the array is aligned, as V8 aligns them). */
export const W = 16;
// What an acquire's walk reads comes first (words 0–7: within one cache line unless the record straddles two).
const FLAGS = 0;
const STATES = 1;
const HASH_LO = 2;
const HASH_HI = 3;
const PINS = 4;
const TOKENS = 5;
const XMARK = 6;
const MARK = 7;
const SCRATCH = 8;
const TAG = 9;
/** Word of tier t's `prev` link (its `next` is the word after). */
export function linkWord(t: number): number {
  return 10 + 2 * t;
}

const TWO32 = 4294967296;
/** Block hashes are non-negative integers below 2⁵³ (chained hashes have 52 bits), stored as two 32-bit words. */
const MAX_HASH = Number.MAX_SAFE_INTEGER;

export class BlockStore {
  private cap: number;
  /** The records, W words each (replaced, not resized, when the store grows: read it after any alloc). */
  r: Int32Array<ArrayBuffer>;
  private insPrev: Int32Array<ArrayBuffer>;
  private insNext: Int32Array<ArrayBuffer>;
  /**
   * A run member's node (runs.ts), by id: meaningful while its INRUN flag is set. Kept here, beside the flag, so that
   * it grows with the records (a table of the registry's own had to check its length at every member it added, and
   * its first growth, well into a run, deoptimized the release path that adds them).
   */
  private runNodeOf: Int32Array<ArrayBuffer>;
  private insHead = -1;
  private insTail = -1;
  private free: number[] = [];
  private fresh = 0;
  /** Hash → id (hashMap.ts: keys inline, no boxed numbers). */
  private readonly idOf: HashMap;
  /** Runs' registry, told before a member is read or changed from outside its run (none: no runs). */
  hooks: MemberHooks | null = null;

  constructor(initialBlocks = 1024) {
    const cap = Math.max(16, initialBlocks);
    this.cap = cap;
    this.r = new Int32Array(cap * W);
    this.insPrev = new Int32Array(cap);
    this.insNext = new Int32Array(cap);
    this.runNodeOf = new Int32Array(cap);
    this.idOf = new HashMap(cap);
  }

  /** The node of member `id`'s run (runs.ts; while its INRUN flag is set). */
  runNode(id: number): number {
    return this.runNodeOf[id];
  }
  setRunNode(id: number, node: number): void {
    this.runNodeOf[id] = node;
  }

  /** Blocks in the replica. */
  get size(): number {
    return this.idOf.size;
  }

  // ───────────────────────────── fields ─────────────────────────────

  live(id: number): boolean {
    return (this.r[id * W + FLAGS] & LIVE) !== 0;
  }
  flags(id: number): number {
    return this.r[id * W + FLAGS];
  }
  isPending(id: number): boolean {
    return (this.r[id * W + FLAGS] & PENDING) !== 0;
  }
  setFlag(id: number, f: number, on: boolean): void {
    const o = id * W + FLAGS;
    this.r[o] = on ? this.r[o] | f : this.r[o] & ~f;
  }

  /** The states of the block's copies, two bits per tier (0 when it has none). */
  states(id: number): number {
    return this.r[id * W + STATES];
  }
  state(id: number, t: number): number {
    return (this.r[id * W + STATES] >> (2 * t)) & 3;
  }
  setStateWord(id: number, t: number, s: number): void {
    const o = id * W + STATES;
    this.r[o] = (this.r[o] & ~(3 << (2 * t))) | (s << (2 * t));
  }
  /** Whether local tier t holds a copy of the block. */
  hasCopy(id: number, t: number): boolean {
    return this.state(id, t) !== NO_COPY;
  }
  /** Bit t set: local tier t holds a copy. */
  tierBits(id: number): number {
    return bitsOf(this.r[id * W + STATES]);
  }
  /** Index of the fastest local tier holding a copy, or −1. */
  top(id: number): number {
    return topOf(this.r[id * W + STATES]);
  }

  pins(id: number): number {
    return this.r[id * W + PINS];
  }
  addPins(id: number, d: number): number {
    if (this.r[id * W + FLAGS] & INRUN) this.hooks?.touched(id);
    return (this.r[id * W + PINS] += d);
  }
  tokens(id: number): number {
    return this.r[id * W + TOKENS];
  }
  setTokens(id: number, n: number): void {
    this.r[id * W + TOKENS] = n;
  }
  tag(id: number): number {
    return this.r[id * W + TAG];
  }
  setTag(id: number, tag: number): void {
    const o = id * W;
    if (this.r[o + FLAGS] & INRUN && this.r[o + TAG] !== tag) this.hooks?.touched(id);
    this.r[o + TAG] = tag;
  }
  /** Set a record's pins and HBM state word without asking anyone (runs.ts keeps its members' records). */
  setPinsRaw(id: number, pins: number): void {
    this.r[id * W + PINS] = pins;
  }

  hash(id: number): number {
    const o = id * W;
    return this.r[o + HASH_HI] * TWO32 + (this.r[o + HASH_LO] >>> 0);
  }
  hashIs(id: number, h: number): boolean {
    const o = id * W;
    return this.r[o + HASH_HI] * TWO32 + (this.r[o + HASH_LO] >>> 0) === h;
  }

  /** Scratch marks of one acquire (sequences.ts), epoch-stamped so they never need clearing. */
  mark(id: number): number {
    return this.r[id * W + MARK];
  }
  setMark(id: number, v: number): void {
    this.r[id * W + MARK] = v;
  }
  scratch(id: number): number {
    return this.r[id * W + SCRATCH];
  }
  setScratch(id: number, v: number): void {
    this.r[id * W + SCRATCH] = v;
  }
  xmark(id: number): number {
    return this.r[id * W + XMARK];
  }
  setXmark(id: number, v: number): void {
    this.r[id * W + XMARK] = v;
  }

  // ───────────────────────────── records ─────────────────────────────

  /** A new block record under `h` (which must not be indexed), at the end of the insertion order. */
  alloc(h: number, tokens: number, tag: number, pending: boolean): number {
    if (!(Number.isInteger(h) && h >= 0 && h <= MAX_HASH))
      throw new RangeError(`a block hash must be a non-negative safe integer, got ${h}`);
    const free = this.free;
    if (free.length === 0 && this.fresh === this.cap) this.grow();
    const id = free.length ? free[free.length - 1] : this.fresh;
    if (!this.idOf.add(h, id)) throw new Error(`BlockStore: hash ${h} is already indexed`);
    if (free.length) free.pop();
    else this.fresh++;
    const r = this.r;
    const o = id * W;
    for (let j = o; j < o + W; j++) r[j] = 0; // a loop: fill() on 16 words cost a builtin call per block
    r[o + FLAGS] = LIVE | (pending ? PENDING : 0);
    r[o + TOKENS] = tokens;
    r[o + TAG] = tag;
    r[o + HASH_LO] = h | 0;
    r[o + HASH_HI] = Math.floor(h / TWO32);
    for (let t = 0; t < TIERS; t++) r[o + linkWord(t)] = r[o + linkWord(t) + 1] = -1;
    this.insPrev[id] = this.insTail;
    this.insNext[id] = -1;
    if (this.insTail >= 0) this.insNext[this.insTail] = id;
    else this.insHead = id;
    this.insTail = id;
    return id;
  }

  /** A record for a run's node (runs.ts): not indexed, not in the insertion order, its links unset. */
  allocNode(): number {
    let id = this.free.pop();
    if (id === undefined) {
      if (this.fresh === this.cap) this.grow();
      id = this.fresh++;
    }
    const o = id * W;
    this.r.fill(0, o, o + W);
    this.r[o + FLAGS] = NODE;
    for (let t = 0; t < TIERS; t++) this.r[o + linkWord(t)] = this.r[o + linkWord(t) + 1] = -1;
    return id;
  }

  releaseNode(id: number): void {
    this.r[id * W + FLAGS] = 0;
    this.free.push(id);
  }

  /** The block leaves the replica: unindexed, its id free for the next alloc. */
  release(id: number): void {
    if (!this.idOf.delete(this.hash(id))) throw new Error(`BlockStore: block ${id} is not indexed`);
    this.r[id * W + FLAGS] = 0;
    const p = this.insPrev[id];
    const nx = this.insNext[id];
    if (p >= 0) this.insNext[p] = nx;
    else this.insHead = nx;
    if (nx >= 0) this.insPrev[nx] = p;
    else this.insTail = p;
    this.free.push(id);
  }

  /**
   * Read the first word of each listed block's record in a loop that does nothing else, so the processor fetches
   * many records at once instead of waiting for each inside the walk that follows (a walk's branches on each
   * record's fields serialise its cache misses). Returns a sum only so the reads are not optimised away.
   */
  warm(ids: readonly number[], from: number, to: number): number {
    const r = this.r;
    let x = 0;
    for (let i = from; i < to; i++) x |= r[ids[i] * W];
    return x;
  }

  /** Ids in insertion order (a block may be released while iterating: its successor is read first). */
  *ids(): IterableIterator<number> {
    for (let id = this.insHead; id >= 0;) {
      const next = this.insNext[id];
      yield id;
      id = next;
    }
  }

  /** The id indexed under h, or −1. A run's member is handed back with its own record (runs.ts). */
  get(h: number): number {
    const id = this.idOf.get(h);
    if (id === undefined) return -1;
    if (this.r[id * W + FLAGS] & INRUN) this.hooks?.found(id);
    return id;
  }

  /** get() without the run registry's say: for checks that must not change how blocks are kept. */
  peek(h: number): number {
    const id = this.idOf.get(h);
    return id === undefined ? -1 : id;
  }

  has(h: number): boolean {
    return this.idOf.has(h);
  }

  private grow(): void {
    const cap = this.cap * 2;
    this.r = widened(this.r, cap * W);
    this.insPrev = widened(this.insPrev, cap);
    this.insNext = widened(this.insNext, cap);
    this.runNodeOf = widened(this.runNodeOf, cap);
    this.cap = cap;
  }
}

/** An owner tag as the records keep it (a 32-bit integer, as snapshots carry it): else a RangeError. */
export function checkTag(tag: number): number {
  if (!Number.isInteger(tag) || tag < -2147483648 || tag > 2147483647)
    throw new RangeError(`an owner tag must be a 32-bit integer (e.g. a session id, or −1), got ${tag}`);
  return tag;
}

/** Tier bits (bit t: a copy in tier t) of a STATES word. */
export function bitsOf(states: number): number {
  return (states & 3 ? 1 : 0) | (states & 12 ? 2 : 0) | (states & 48 ? 4 : 0);
}

/** The fastest tier with a copy in a STATES word, or −1. */
export function topOf(states: number): number {
  return states & 3 ? 0 : states & 12 ? 1 : states & 48 ? 2 : -1;
}
