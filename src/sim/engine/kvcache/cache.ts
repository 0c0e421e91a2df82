/**
 * One replica's tiered, paged, prefix-reusing KV cache. See index.ts for the model and a usage example.
 *
 * The work is split by job: tierStore.ts keeps the copies per tier, their eviction and write policies and the
 * bytes per link; sequences.ts pins and unpins what running requests hold; invariants.ts checks the books for
 * tests; this class is the public API over them. Every operation costs O(blocks it touches); nothing loops over
 * tokens or over the whole cache (except blocks(), snapshot(), checkInvariants()).
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
import { NO_BLOCKS, Sequences, type Seq } from './sequences';
import { checkTag, INRUN, LOCKED, PENDING, PINNED, POLICY } from './blockStore';
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
  /** offloadEach's blocks written per source tier (reused: a fleet offloads a tail on every tool call). */
  private readonly perSource: number[];

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
    this.perSource = this.tierNames.map(() => 0);
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
    return this.sq.acquireFrom(seq, s, c, hashes, c, len - c, opts);
  }

  /** Append blocks to what `seq` holds (decode growth, the next prefill chunk): O(new blocks). */
  extend(seq: SeqId, more: ArrayLike<BlockHash>, opts: AcquireOptions = {}): AcquireResult {
    const s = this.sq.seqs.get(seq);
    const c = s ? s.blocks.length : 0;
    return this.sq.acquireFrom(seq, s, c, more, 0, more.length, opts);
  }

  /**
   * extend() with the blocks taken from the sequence's whole list: positions [held, upTo) of `hashes` (held: what
   * `seq` holds now). Decode growth asks for one block at a time; this spares it a copy of the list's slice.
   */
  extendTo(seq: SeqId, hashes: ArrayLike<BlockHash>, upTo: number, opts: AcquireOptions = {}): AcquireResult {
    const s = this.sq.seqs.get(seq);
    const c = s ? s.blocks.length : 0;
    return this.sq.acquireFrom(seq, s, c, hashes, c, Math.max(0, Math.min(upTo, hashes.length) - c), opts);
  }

  /**
   * Mark the first `upTo` blocks of `seq` (default all) as computed: they become findable and cacheable, and a
   * write-through tier below HBM receives a copy of each full one.
   */
  commit(seq: SeqId, upTo?: number): number {
    const s = this.sq.seqs.get(seq);
    if (!s) return 0;
    const end = Math.min(upTo ?? s.blocks.length, s.blocks.length);
    let n = 0;
    const B = this.st.b;
    for (let i = s.committed; i < end; i++) {
      const id = s.blocks[i];
      if (B.isPending(id)) {
        this.markComputed(id);
        n++;
      }
    }
    if (end > s.committed) s.committed = end;
    return n;
  }

  /**
   * Unpin everything `seq` holds. Computed blocks nobody else pins stay cached in HBM (the prefix most recently
   * used), pending ones are freed. `then` applies a tool-pause policy to the sequence's blocks right away:
   * `cache` (default: hold them unpinned, for LRU to evict), `drop` (evict from every local tier; recompute
   * later), or a tier to offload them to (free the copies above it; write only blocks it lacks).
   */
  release(
    seq: SeqId,
    then: ReleaseThen = 'cache',
  ): { unpinned: number; freed: number; offload?: OffloadResult; dropped?: number } {
    const s = this.sq.seqs.get(seq);
    if (!s) return { unpinned: 0, freed: 0 };
    // Offloading to a tier this cache has (checked first: a bad tier must throw with nothing parked).
    const offloading = then !== 'cache' && then !== 'drop' && this.tierNames.indexOf(then) > 0;
    const runs = this.st.runs;
    if (runs) {
      const parked = offloading && then === this.tierNames[1] ? this.park(seq, s) : null;
      if (parked) return parked;
      const run = runs.of(seq);
      if (run) runs.dissolve(run);
    }
    this.sq.seqs.delete(seq);
    this.sq.released(seq, s.blocks);
    const r = this.sq.unpinAll(s.blocks, 0, offloading, 0, 0, this.sq.leaveShare(s));
    if (then === 'cache') return r;
    // The sequence's own block ids, not their hashes: no lookup per block (a block that left the replica meanwhile
    // is no longer live, which is what a lookup of its hash would have found; no id is reused before these loops
    // end, as they create no block).
    if (then === 'drop') return { ...r, dropped: this.dropBlocks(s.blocks).dropped };
    return { ...r, offload: this.offloadBlocks(s.blocks, then) };
  }

  /**
   * release(seq, 'dram') with the sequence's context kept as a run (runs.ts): the same result as unpinning every
   * block and offloading them last first, with the run's members moved as one and the turn's new blocks joining
   * it. Null, having changed nothing, when it does not apply (then release() goes block by block).
   */
  private park(seq: SeqId, s: Seq): { unpinned: number; freed: number; offload: OffloadResult } | null {
    const st = this.st;
    const runs = st.runs!;
    const B = st.b;
    const hbm = st.local[0];
    const blocks = s.blocks;
    const n = blocks.length;
    if (st.logs.length || st.hbmSinks.length || n === 0) return null;
    let run = runs.of(seq);
    const tag = s.tag;
    if (run && (run.tag !== tag || run.end > n)) {
      runs.dissolve(run);
      run = undefined;
    }
    // Positions [0, sharedTo) are a share's that others hold on to: pinned, so joining no run, and each offload
    // skips them as pinned. (A run of this sequence's that begins inside them, kept from before the share, has the
    // walks below take every position, as without a share.)
    const othersHold = this.sq.leaveShare(s);
    const sharedTo = run && run.first < othersHold ? 0 : othersHold;
    // A member held at another position too (a list that is not chained hashes): block by block.
    for (let i = sharedTo; run && i < n; i++) {
      if (i === run.first) i = run.end;
      if (i < n && B.flags(blocks[i]) & INRUN) {
        runs.dissolve(run);
        run = undefined;
      }
    }
    this.sq.seqs.delete(seq);
    this.sq.released(seq, blocks);
    // 1. Unpin, last first (the run's members as one: each held one pin, its sequence's).
    const up = this.sq.unpinAll(blocks, 0, true, run ? run.first : 0, run ? run.end : 0, sharedTo);
    if (run) {
      up.unpinned += run.len;
      hbm.pinned -= run.len;
      hbm.locked += run.len;
      run.parking = true; // until the members leave HBM below: what a dissolve must write into their records
    }
    // 2. The stretch that will be the run: the old run and the blocks after it that can join (computed, full,
    // unpinned now, this owner's, their HBM copy parked); without an old run, the longest such stretch from the
    // top. Blocks above it are offloaded first, those below it after, each on its own, as the plain offload does.
    // (Each block that joins is marked, so a block met twice ends the stretch.)
    const ep = this.sq.freshEpoch();
    const joins = (i: number) => {
      const id = blocks[i];
      if (!B.live(id)) return false;
      const states = B.states(id);
      const ok =
        B.pins(id) === 0 &&
        !B.isPending(id) &&
        !(B.flags(id) & INRUN) &&
        B.xmark(id) !== ep &&
        B.tokens(id) === this.blockSize &&
        B.tag(id) === tag &&
        (states & 3) === LOCKED &&
        ((states >> 2) & 3) !== LOCKED;
      if (ok) B.setXmark(id, ep);
      return ok;
    };
    let lo: number;
    let e: number;
    if (run) {
      lo = run.first;
      e = run.end;
      while (e < n && joins(e)) e++;
    } else {
      let i = n - 1;
      while (i >= sharedTo && !joins(i)) i--;
      e = i + 1;
      if (i >= sharedTo) i--;
      while (i >= sharedTo && joins(i)) i--;
      lo = i + 1;
    }
    // A block of the stretch held at another position too: nothing joins (block by block, below).
    let twice = false;
    for (let i = sharedTo; !twice && i < n; i++) {
      if (i === lo) i = e;
      if (i < n && B.live(blocks[i]) && B.xmark(blocks[i]) === ep) twice = true;
    }
    if (twice) {
      if (run) runs.dissolve(run); // its members get their records (unpinned, HBM copy parked)
      run = undefined;
      e = lo;
    }
    const job = this.startOffload(1);
    const r = job.r;
    const at = (i: number) => (B.live(blocks[i]) ? blocks[i] : -1);
    // The blocks above the stretch, then the new members, last first, as the plain offload does them: DRAM's order
    // gets the new members newest, in that order. Room made in DRAM may evict down to the run's node, which
    // dissolves the run (its members then go on their own, below, as the plain offload moves them).
    for (let i = n - 1; i >= e; i--) this.offloadOne(at(i), job);
    const from = run ? run.end : lo;
    const keep = e > lo && (run !== undefined || e - lo >= 2);
    if (keep) for (let i = e - 1; i >= from; i--) this.offloadOne(blocks[i], job);
    // They are DRAM's newest entries now, in that order, unless making room took one of them (a DRAM smaller
    // than the stretch).
    let joined = keep;
    for (let i = from; joined && i < e; i++) {
      const id = blocks[i];
      joined = B.live(id) && B.state(id, 1) === POLICY && !(B.flags(id) & INRUN);
    }
    if (run && runs.of(seq) === run && !joined) runs.dissolve(run); // its members go on their own, below
    if (run && runs.of(seq) !== run) {
      // Dissolved on the way: each member was given its record (unpinned, its HBM copy parked).
      for (let i = from - 1; i >= lo; i--) this.offloadOne(at(i), job);
    } else if (joined) {
      if (run) {
        // The old members: each loses its HBM copy and moves to DRAM's newest end, after the new ones.
        hbm.locked -= run.len;
        hbm.used -= run.len;
        hbm.usedTokens -= run.tokens;
        this.c.offloads += run.len;
        r.moved += run.len;
        runs.order.unlink(run.node);
        run.parking = false;
      }
      const kept = run ?? runs.create(seq, lo, tag);
      // The new members leave DRAM's order (its newest entries, in the order just made) for the node.
      for (let i = from; i < e; i++) {
        const id = blocks[i];
        runs.order.unlink(id); // still counted: the node orders it
        B.setPinsRaw(id, 1); // the record reads as held while parked (runs.ts)
        B.setStateWord(id, 0, PINNED);
        runs.addMember(kept, id, B.tokens(id));
      }
      runs.order.linkTail(kept.node);
      kept.linked = true;
      kept.reversed = true;
      kept.parked = true;
    } else if (!keep) for (let i = e - 1; i >= lo; i--) this.offloadOne(at(i), job);
    for (let i = lo - 1; i >= sharedTo; i--) this.offloadOne(at(i), job);
    r.skippedPinned += sharedTo; // what offloadOne counts for each of them
    // Fields named, not spread: a spread is a generic object copy, and a tool call's offload runs this often.
    return { unpinned: up.unpinned, freed: up.freed, offload: this.endOffload(job) };
  }

  // ───────────────────────────── blocks ─────────────────────────────

  /**
   * Put computed blocks in HBM, unpinned (as a finished request leaves them). Blocks already in this replica
   * are refreshed (given an HBM copy without a transfer if they were only lower; a pending one becomes
   * computed). Processed last to first, so the prefix ends most recently used. Stops when HBM is full of
   * pinned blocks.
   */
  insert(hashes: ArrayLike<BlockHash>, opts: AcquireOptions = {}): InsertResult {
    const st = this.st;
    const n = hashes.length;
    const last = this.sq.lastTokens(n, opts.tokens);
    const tag = opts.tag === undefined ? -1 : checkTag(opts.tag);
    const hbm = st.local[0];
    const r: InsertResult = { inserted: 0, refreshed: 0, failed: 0 };
    const B = st.b;
    for (let i = n - 1; i >= 0; i--) {
      const h = hashes[i];
      const id = B.get(h);
      if (id >= 0) {
        if (B.isPending(id)) this.markComputed(id);
        if (B.hasCopy(id, 0)) {
          if (B.pins(id) === 0) hbm.order.touch(id);
        } else if (!this.makeRoomAbove(id)) {
          r.failed += i + 1;
          break;
        } else {
          st.addCopy(id, 0);
          st.writeThrough(id, 0);
        }
        B.setTag(id, tag);
        r.refreshed++;
        continue;
      }
      if (!st.makeRoom(0)) {
        r.failed += i + 1;
        break;
      }
      const tokens = i === n - 1 ? last : this.blockSize;
      const nb = st.newBlock(h, tokens, tag, false);
      this.c.created++;
      this.c.createdTokens += tokens;
      st.addCopy(nb, 0);
      st.writeThrough(nb, 0);
      r.inserted++;
    }
    return r;
  }

  /**
   * Offload unpinned computed blocks to tier `to` (a tool-pause offload): free their copies above `to` and make
   * sure `to` holds one. A block that already has a copy there moves no bytes; one that lacks it is written
   * from its nearest copy above, over every link in between (room is made in `to` by its policy).
   */
  offload(hashes: ArrayLike<BlockHash>, to: Exclude<TierName, 'hbm'>): OffloadResult {
    return this.offloadEach(hashes.length, (i) => this.st.b.get(hashes[i]), to);
  }

  /** offload() of block ids (a released sequence's): a block that left the replica counts as missing. */
  private offloadBlocks(blocks: readonly number[], to: Exclude<TierName, 'hbm'>): OffloadResult {
    const B = this.st.b;
    return this.offloadEach(blocks.length, (i) => (B.live(blocks[i]) ? blocks[i] : -1), to);
  }

  /** Offload the blocks `at(n − 1) … at(0)` (last first, −1: absent); each is read when its turn comes, as evictions run. */
  private offloadEach(n: number, at: (i: number) => number, to: Exclude<TierName, 'hbm'>): OffloadResult {
    const t = this.tierNames.indexOf(to);
    if (t <= 0)
      throw new RangeError(`cannot offload to "${to}": this cache's tiers are ${this.tierNames.join(', ')}`);
    const job = this.startOffload(t);
    for (let i = n - 1; i >= 0; i--) this.offloadOne(at(i), job);
    return this.endOffload(job);
  }

  private startOffload(t: number): OffloadJob {
    const st = this.st;
    const L = st.local.length;
    // Where the offload would write a block: the target, or past it when the target holds nothing (capacity 0). A
    // copy already there moves no bytes; writing it again would evict that very copy to make room for itself.
    let dest = t;
    while (dest < L && st.local[dest].capacity === 0) dest++;
    return {
      t,
      dest,
      perSource: this.perSource.fill(0),
      bytesBefore: sum(this.c.bytesDown),
      r: { moved: 0, written: 0, skippedPinned: 0, missing: 0, alreadyLower: 0, bytes: 0, timeS: 0 },
    };
  }

  /** Offload one block (−1: absent) as offload() does. */
  private offloadOne(id: number, job: OffloadJob): void {
    const st = this.st;
    const B = st.b;
    const { t, dest, r } = job;
    const L = st.local.length;
    if (id < 0) r.missing++;
    else if (B.pins(id) > 0 || B.isPending(id)) r.skippedPinned++;
    else if (B.top(id) >= t) r.alreadyLower++;
    else {
      let src = -1; // nearest copy above the target: where a write would come from
      for (let k = 0; k < t && k < L; k++) if (B.hasCopy(id, k)) src = k;
      const has = dest < L && B.hasCopy(id, dest);
      for (let k = 0; k < t && k < L; k++) if (B.hasCopy(id, k)) st.removeCopy(id, k);
      this.c.offloads++;
      r.moved++;
      if (has) {
        st.local[dest].order.touch(id);
        return;
      }
      const dedup = t === st.remoteIndex && st.pool !== null && st.pool.has(B.hash(id));
      for (let k = src + 1; k < t; k++) st.sent(k, 'down');
      // Its copies below the target stay locked while room is made: the evictions cascade down the tiers and
      // could otherwise take the block's own lower copy, drop the block, and leave the new copy unowned.
      const locked = this.lockLower(id);
      st.placeBelow(id, t, 'offload');
      this.unlockLower(id, locked);
      job.perSource[src]++;
      if (!dedup) r.written++;
    }
  }

  private endOffload(job: OffloadJob): OffloadResult {
    const st = this.st;
    const r = job.r;
    r.bytes = sum(this.c.bytesDown) - job.bytesBefore;
    for (let s = 0; s < job.t; s++)
      if (job.perSource[s]) r.timeS += st.transferS(job.perSource[s], st.linksBetween(s, job.t));
    return r;
  }

  /** Remove unpinned blocks from every local tier of this replica (the pool keeps its copies). */
  drop(hashes: ArrayLike<BlockHash>): { dropped: number; skippedPinned: number; missing: number } {
    return this.dropEach(hashes.length, (i) => this.st.b.get(hashes[i]));
  }

  private dropBlocks(blocks: readonly number[]): { dropped: number; skippedPinned: number; missing: number } {
    const B = this.st.b;
    return this.dropEach(blocks.length, (i) => (B.live(blocks[i]) ? blocks[i] : -1));
  }

  private dropEach(
    n: number,
    at: (i: number) => number,
  ): { dropped: number; skippedPinned: number; missing: number } {
    const r = { dropped: 0, skippedPinned: 0, missing: 0 };
    for (let i = 0; i < n; i++) {
      const id = at(i);
      if (id < 0) r.missing++;
      else if (this.st.b.pins(id) > 0) r.skippedPinned++;
      else {
        this.st.dropAll(id);
        r.dropped++;
      }
    }
    return r;
  }

  /** Consistency checks for tests: the violations found (empty when all invariants hold). O(blocks). */
  checkInvariants(): string[] {
    return checkCacheInvariants(this.st, this.sq.seqs.values(), this.sq.hints(), this.sq.shares.all());
  }

  // ───────────────────────────── internals ─────────────────────────────

  private markComputed(id: number): void {
    this.st.b.setFlag(id, PENDING, false);
    this.st.local[0].pending--;
    if (this.st.logs.length) this.st.emit(this.st.b.hash(id), 0, true); // a pending block's only copy is in HBM
    this.c.committed++;
    this.st.writeThrough(id, 0);
  }

  /** Room in HBM for a block whose lower copies must survive the evictions that make it. */
  private makeRoomAbove(id: number): boolean {
    const locked = this.lockLower(id);
    const ok = this.st.makeRoom(0);
    this.unlockLower(id, locked);
    return ok;
  }

  /**
   * Lock the block's lower copies, so that making room cannot evict its last copy under it; returns the tiers
   * locked (a bit each) for unlockLower. A mask, not a closure: an offload does this for every block it moves.
   */
  private lockLower(id: number): number {
    let mask = 0;
    for (let i = 1; i < this.st.local.length; i++) {
      if (this.st.b.state(id, i) === POLICY) {
        this.st.setState(id, i, LOCKED);
        mask |= 1 << i;
      }
    }
    return mask;
  }

  private unlockLower(id: number, mask: number): void {
    for (let i = 1; mask >> i; i++) if (mask & (1 << i)) this.st.setState(id, i, POLICY);
  }
}

/** Σ xs, in order (as reduce adds them, so the same float). */
function sum(xs: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return s;
}

/** One offload's target, where it writes, and what it has done so far. */
interface OffloadJob {
  t: number;
  dest: number;
  perSource: number[];
  bytesBefore: number;
  r: OffloadResult;
}
