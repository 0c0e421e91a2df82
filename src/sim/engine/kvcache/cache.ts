/**
 * One replica's tiered, paged, prefix-reusing KV cache. See index.ts for the model and a usage example.
 *
 * The work is split by job: tierStore.ts keeps the copies per tier, their eviction and write policies and the
 * bytes per link; acquire.ts finds and pins what a request's prompt reuses, computedBlocks.ts turns blocks computed
 * (commit, insert), sequences.ts keeps the running requests' records and unpins them, release.ts applies a released
 * sequence's tool-pause policy; offloads.ts moves unpinned blocks down or out on purpose, and parking.ts does so for
 * a released context kept as a run; invariants.ts checks the books for tests; this class is the public API over
 * them. Every operation costs O(blocks it touches); nothing loops over tokens or over the whole cache (except
 * blocks(), snapshot(), checkInvariants()).
 */
import {
  copyCounters,
  newCounters,
  type AcquireOptions,
  type AcquireResult,
  type BlockInfo,
  type InsertResult,
  type KvCacheConfig,
  type KvCacheCounters,
  type KvSnapshot,
  type LookupResult,
  type OffloadResult,
  type ReleaseThen,
  type TierOccupancy,
} from './cacheTypes';
import { KvEventLog, type Clock, type HbmSlotSink, type KvEventSink } from './events';
import { checkCacheInvariants } from './invariants';
import type { KvPool } from './pool';
import { acquireFrom, NO_BLOCKS } from './acquire';
import { commitBlocks, insertBlocks } from './computedBlocks';
import { Sequences } from './sequences';
import { Offloads, type DropResult } from './offloads';
import { releaseSeq, type Released } from './release';
import { buildTiers, TierStore } from './tierStore';
import { CopyList } from './copyOrder';
import { Runs } from './runs';
import type { BlockHash, SeqId, TierName, TransferModel } from './types';
import { blocksOf, occupancyOf, snapshotOf, tiersOf } from './views';

export * from './cacheTypes';

export class KvCache {
  readonly id: string | number;
  readonly blockSize: number;
  readonly bytesPerBlock: number;
  readonly promoteOnHit: boolean;
  readonly transferModel: TransferModel;
  /** Tier names in order, remote last if configured. */
  readonly tierNames: TierName[];
  readonly pool: KvPool | null;

  private readonly st: TierStore;
  private readonly sq: Sequences;
  private readonly c: KvCacheCounters;
  private readonly off: Offloads;

  constructor(config: KvCacheConfig) {
    if (!Number.isInteger(config.blockSize) || config.blockSize < 1)
      throw new RangeError(`blockSize must be a positive integer, got ${config.blockSize}`);
    if (!(config.bytesPerBlock > 0))
      throw new RangeError(`bytesPerBlock must be > 0, got ${config.bytesPerBlock}`);
    this.id = config.id ?? 0;
    this.blockSize = config.blockSize;
    this.bytesPerBlock = config.bytesPerBlock;
    this.promoteOnHit = config.promoteOnHit ?? true;
    this.transferModel = config.transferModel ?? 'pipelined';
    const { local, remote } = buildTiers(config.tiers, this.bytesPerBlock);
    this.pool = remote ? remote.pool : null;
    if (this.pool && this.pool.bytesPerBlock !== this.bytesPerBlock)
      throw new RangeError(
        `pool bytesPerBlock ${this.pool.bytesPerBlock} differs from the cache's ${this.bytesPerBlock}`,
      );
    const remotePath = remote ? [remote.link, ...local[local.length - 1].pathUp] : [];
    this.tierNames = local.map((t) => t.name);
    if (remote) this.tierNames.push('remote');
    this.c = newCounters([...this.tierNames]);
    this.st = new TierStore(
      local,
      this.pool,
      local.length,
      remotePath,
      this.bytesPerBlock,
      this.blockSize,
      this.id,
      this.transferModel,
      this.c,
    );
    this.off = new Offloads(this.st, this.c, this.tierNames);
    const hints = config.lookupHints ?? 256;
    if (!Number.isInteger(hints) || hints < 0)
      throw new RangeError(`lookupHints must be a non-negative integer, got ${hints}`);
    this.sq = new Sequences(this.st, this.tierNames, this.promoteOnHit, hints);
    const [hbmTier, dramTier] = this.st.local;
    if (
      config.contextRuns !== false &&
      this.st.local.length === 2 &&
      !this.pool &&
      this.promoteOnHit &&
      dramTier.capacity > 0 &&
      hbmTier.order instanceof CopyList &&
      dramTier.order instanceof CopyList &&
      dramTier.order.name === 'lru'
    )
      this.st.runs = new Runs(this.st.b, dramTier.order);
  }

  // ───────────────────────────── queries (no side effects) ─────────────────────────────

  /** Number of distinct blocks resident in this replica's local tiers. */
  get size(): number {
    return this.st.b.size;
  }

  /** The fastest tier holding a block (`remote` if only in the pool), or undefined. Pending blocks count. */
  where(hash: BlockHash): TierName | undefined {
    const id = this.st.b.get(hash);
    if (id >= 0) return this.st.local[this.st.b.top(id)].name;
    return this.pool?.has(hash) ? 'remote' : undefined;
  }

  /**
   * Index in `tierNames` of the tier a lookup of `hash` alone would serve it from (the fastest local tier with a
   * computed copy, else the pool), −1 if none (absent, or still pending); O(1), unlike lookup([hash]).
   */
  computedTier(hash: BlockHash): number {
    const id = this.st.b.get(hash);
    if (id >= 0) return this.st.b.isPending(id) ? -1 : this.st.b.top(id);
    return this.pool?.has(hash) ? this.st.remoteIndex : -1;
  }

  /** Every local tier holding a copy of a block, fastest first (empty if none). */
  copiesOf(hash: BlockHash): TierName[] {
    const id = this.st.b.get(hash);
    return id >= 0 ? tiersOf(this.st, id) : [];
  }

  /** Hashes a sequence holds, in order (empty if unknown). */
  held(seq: SeqId): BlockHash[] {
    const B = this.st.b;
    return this.sq.seqs.get(seq)?.blocks.map((id) => B.hash(id)) ?? [];
  }

  /** Number of blocks a sequence holds (0 if unknown); O(1). */
  heldCount(seq: SeqId): number {
    return this.sq.seqs.get(seq)?.blocks.length ?? 0;
  }

  /** HBM blocks not pinned by a sequence (free or evictable); O(1), unlike occupancy(). */
  get unpinnedHbmBlocks(): number {
    const hbm = this.st.local[0];
    return hbm.capacity - hbm.pinned;
  }

  /** Share of HBM blocks pinned by sequences, 0..1 (vLLM's KV-cache usage; 0 for an HBM of no blocks); O(1). */
  get hbmPinnedShare(): number {
    const hbm = this.st.local[0];
    return hbm.capacity > 0 ? hbm.pinned / hbm.capacity : 0;
  }

  /** The most holders any live prefix share has (shares.ts): for tests. */
  get shareHolders(): number {
    let most = 0;
    for (const s of this.sq.shares.all()) most = Math.max(most, s.holders);
    return most;
  }

  /** Released contexts kept as runs in DRAM's order (runs.ts): how many, for tests and the bench. */
  get runCount(): number {
    return this.st.runs?.size ?? 0;
  }

  /** Sequences currently holding blocks. */
  get sequences(): number {
    return this.sq.seqs.size;
  }

  /** Longest cached (computed) prefix of `hashes`, per tier it is served from, with load times. Changes nothing. */
  lookup(hashes: ArrayLike<BlockHash>): LookupResult {
    const nT = this.tierNames.length;
    const blocks = new Array<number>(nT).fill(0);
    const tokens = new Array<number>(nT).fill(0);
    const B = this.st.b;
    for (let i = 0; i < hashes.length; i++) {
      const id = B.get(hashes[i]);
      if (id >= 0) {
        if (B.isPending(id)) break;
        const t = this.st.b.top(id);
        blocks[t]++;
        tokens[t] += B.tokens(id);
        continue;
      }
      const p = this.pool?.peek(hashes[i]);
      if (!p) break;
      blocks[this.st.remoteIndex]++;
      tokens[this.st.remoteIndex] += p.tokens;
    }
    return this.sq.hitResult(blocks, tokens);
  }

  /** Time to bring `blocks` blocks from `tier` up to HBM. */
  loadTimeS(tier: TierName, blocks: number): number {
    const i = this.tierNames.indexOf(tier);
    if (i < 0) throw new RangeError(`this cache has no tier "${tier}"`);
    return this.st.transferS(blocks, this.st.pathOf(i));
  }

  /** Copies written into a tier so far as computed (write-through); offloads not included. For link booking. */
  writtenThrough(tierIndex: number): number {
    return this.c.writeThroughs[tierIndex] ?? 0;
  }
  /** Copies written into a tier so far on an eviction above (write-back, and blocks sent back with promoteOnHit:
   * false); offloads not included. */
  writtenBack(tierIndex: number): number {
    return this.c.demotions[tierIndex] ?? 0;
  }

  occupancy(): TierOccupancy[] {
    return occupancyOf(this.st);
  }

  /** A copy of the event counters. */
  counters(): KvCacheCounters {
    return copyCounters(this.c);
  }

  /** Every block in this replica's local tiers (the pool has its own blocks()). */
  blocks(): IterableIterator<BlockInfo> {
    return blocksOf(this.st);
  }

  snapshot(): KvSnapshot {
    return snapshotOf(this.st, this.id, this.tierNames);
  }

  /**
   * Subscribe to this cache's KV events (events.ts): from now on every computed copy stored in or removed from a
   * local tier is recorded in the returned log, stamped by `clock` if given. Read it with drain().
   */
  subscribe(clock?: Clock): KvEventLog {
    const log = new KvEventLog(clock ?? null);
    this.st.logs.push(log);
    return log;
  }

  /** Hand every KV event to `sink` as it happens (a view's running total: fleet/view.ts). */
  attach(sink: KvEventSink): void {
    this.st.logs.push(sink);
  }

  /**
   * Tell `sink` of every HBM slot a block takes or frees from now on, pending blocks included, with the block's
   * owner tag (events.ts HbmSlotSink): who holds HBM, kept current without snapshots.
   */
  watchHbm(sink: HbmSlotSink): void {
    this.st.hbmSinks.push(sink);
  }

  unwatchHbm(sink: HbmSlotSink): void {
    const i = this.st.hbmSinks.indexOf(sink);
    if (i >= 0) this.st.hbmSinks.splice(i, 1);
  }

  /** Stop sending events to a log or sink. */
  unsubscribe(sink: KvEventSink): void {
    const i = this.st.logs.indexOf(sink);
    if (i >= 0) this.st.logs.splice(i, 1);
  }

  // ───────────────────────────── sequences ─────────────────────────────

  /**
   * Make `seq` hold exactly `hashes`, pinned in HBM. Positions it already holds (the common prefix with what it
   * held) are kept; blocks it held past that are released. For the new positions: the longest cached prefix is
   * served from the fastest tier holding each block (a lower copy is read up to HBM and kept; a pool copy is
   * fetched), reported with its load time, and every later position gets a pending slot, to be computed and
   * then commit()ed. All or nothing: when HBM cannot hold the pinned blocks, nothing changes and the result
   * says why.
   */
  acquire(seq: SeqId, hashes: ArrayLike<BlockHash>, opts: AcquireOptions = {}): AcquireResult {
    const s = this.sq.seqs.get(seq);
    const held = s ? s.blocks : NO_BLOCKS;
    const len = opts.blocks === undefined ? hashes.length : Math.min(opts.blocks, hashes.length);
    let c = 0;
    const m = Math.min(held.length, len);
    const B = this.st.b;
    while (c < m && B.hashIs(held[c], hashes[c])) c++;
    return acquireFrom(this.sq, seq, s, c, hashes, c, len - c, opts);
  }

  /** Append blocks to what `seq` holds (decode growth, the next prefill chunk): O(new blocks). */
  extend(seq: SeqId, more: ArrayLike<BlockHash>, opts: AcquireOptions = {}): AcquireResult {
    const s = this.sq.seqs.get(seq);
    const c = s ? s.blocks.length : 0;
    return acquireFrom(this.sq, seq, s, c, more, 0, more.length, opts);
  }

  /**
   * extend() with the blocks taken from the sequence's whole list: positions [held, upTo) of `hashes` (held: what
   * `seq` holds now). Decode growth asks for one block at a time; this spares it a copy of the list's slice.
   */
  extendTo(seq: SeqId, hashes: ArrayLike<BlockHash>, upTo: number, opts: AcquireOptions = {}): AcquireResult {
    const s = this.sq.seqs.get(seq);
    const c = s ? s.blocks.length : 0;
    return acquireFrom(this.sq, seq, s, c, hashes, c, Math.max(0, Math.min(upTo, hashes.length) - c), opts);
  }

  /**
   * Mark the first `upTo` blocks of `seq` (default all) as computed: they become findable and cacheable, and a
   * write-through tier below HBM receives a copy of each full one.
   */
  commit(seq: SeqId, upTo?: number): number {
    const s = this.sq.seqs.get(seq);
    return s ? commitBlocks(this.st, s, upTo) : 0;
  }

  /**
   * Unpin everything `seq` holds. Computed blocks nobody else pins stay cached in HBM (the prefix most recently
   * used), pending ones are freed. `then` applies a tool-pause policy to the sequence's blocks right away:
   * `cache` (default: hold them unpinned, for LRU to evict), `drop` (evict from every local tier; recompute
   * later), or a tier to offload them to (free the copies above it; write only blocks it lacks).
   */
  release(seq: SeqId, then: ReleaseThen = 'cache'): Released {
    const s = this.sq.seqs.get(seq);
    if (!s) return { unpinned: 0, freed: 0 };
    return releaseSeq(this.st, this.sq, this.off, this.tierNames, seq, s, then);
  }

  // ───────────────────────────── blocks ─────────────────────────────

  /**
   * Put computed blocks in HBM, unpinned (as a finished request leaves them). Blocks already in this replica
   * are refreshed (given an HBM copy without a transfer if they were only lower; a pending one becomes
   * computed). Processed last to first, so the prefix ends most recently used. Stops when HBM is full of
   * pinned blocks.
   */
  insert(hashes: ArrayLike<BlockHash>, opts: AcquireOptions = {}): InsertResult {
    return insertBlocks(this.st, this.sq, hashes, opts);
  }

  /**
   * Offload unpinned computed blocks to tier `to` (a tool-pause offload): free their copies above `to` and make
   * sure `to` holds one. A block that already has a copy there moves no bytes; one that lacks it is written
   * from its nearest copy above, over every link in between (room is made in `to` by its policy).
   */
  offload(hashes: ArrayLike<BlockHash>, to: Exclude<TierName, 'hbm'>): OffloadResult {
    return this.off.each(hashes.length, (i) => this.st.b.get(hashes[i]), to);
  }

  /** Remove unpinned blocks from every local tier of this replica (the pool keeps its copies). */
  drop(hashes: ArrayLike<BlockHash>): DropResult {
    return this.off.drop(hashes.length, (i) => this.st.b.get(hashes[i]));
  }

  /** Consistency checks for tests: the violations found (empty when all invariants hold). O(blocks). */
  checkInvariants(): string[] {
    return checkCacheInvariants(this.st, this.sq.seqs.values(), this.sq.hints(), this.sq.shares.all());
  }
}
