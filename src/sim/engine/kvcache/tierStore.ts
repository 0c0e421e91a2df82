/**
 * Tier storage of one replica's KV cache: which local tiers hold a copy of each block, each tier's eviction
 * policy, how a tier is filled from the one above (its write policy), and the copies and bytes sent over each
 * link. cache.ts builds the sequence operations on top of it.
 *
 * Tiers are inclusive, as engines keep them: a block is one record (an id in the block store, blockStore.ts) with
 * up to one *copy* per local tier. A hit is served from the fastest tier holding a copy. An eviction removes one copy;
 * only when it was the block's last copy does anything move (a write-back down the chain, into the pool past
 * the last local tier, or a drop). Bytes are counted per copy made: a block already in DRAM is never written
 * again, and evicting the HBM copy of a block with a valid DRAM copy moves nothing (SGLang HiCache
 * `_evict_backuped`, sgl-project/sglang python/sglang/srt/mem_cache/hiradix_cache.py; vLLM's offloading manager
 * filters hashes it already stores, vllm-project/vllm vllm/v1/kv_offload/lru_manager.py `prepare_store`).
 *
 * A copy is in one of three states: `policy` (evictable, ordered by its tier's policy), `pinned` (HBM only, held
 * by a sequence) or `locked` (a lower copy being read up during an acquire, so making room cannot evict it).
 */
import { BlockStore, LOCKED, NO_COPY, PINNED, POLICY, TIERS } from './blockStore';
import { copyOrder, type CopyOrder } from './copyOrder';
import type { Runs } from './runs';
import type { HbmSlotSink, KvEventSink } from './events';
import { capacityInBlocks, type KvPool } from './pool';
import type { PolicyFactory, PolicyName } from './policy';
import type { KvCacheCounters, RemoteTierConfig, TierConfig, WritePolicy } from './cacheTypes';
import {
  TIER_ORDER,
  transferTimeS,
  type BlockHash,
  type LinkSpec,
  type TierName,
  type TransferModel,
} from './types';

export interface Tier {
  name: TierName;
  capacity: number;
  used: number;
  usedTokens: number;
  pinned: number;
  pending: number;
  locked: number;
  /** The order its evictable copies leave in (its eviction policy). */
  order: CopyOrder;
  write: WritePolicy;
  /** Links from this tier up to HBM, this tier's own first. */
  pathUp: LinkSpec[];
}

/** Tier config as buildTiers takes it, before the store that owns the copies' links exists. */
type TierSpec = Omit<Tier, 'order'> & { policy: PolicyName | PolicyFactory | undefined };

export class TierStore {
  /** The block records (blocks are named by id everywhere in the cache: blockStore.ts). */
  readonly b: BlockStore;
  readonly local: Tier[];
  /** Subscribers' KV event sinks (events.ts); usually none. */
  readonly logs: KvEventSink[] = [];
  /** Watchers of every HBM slot taken or freed, pending blocks included (events.ts HbmSlotSink); usually none. */
  readonly hbmSinks: HbmSlotSink[] = [];
  /** Sequences' contexts kept as runs in DRAM's order (runs.ts), when the cache's tiers allow it. */
  runs: Runs | null = null;

  constructor(
    tiers: TierSpec[],
    readonly pool: KvPool | null,
    /** Index of the remote tier in the counters' arrays (= local.length) when there is a pool. */
    readonly remoteIndex: number,
    private readonly remotePath: LinkSpec[],
    readonly bytesPerBlock: number,
    readonly blockSize: number,
    readonly replicaId: string | number,
    readonly transferModel: TransferModel,
    readonly c: KvCacheCounters,
  ) {
    if (tiers.length > TIERS)
      throw new RangeError(`a cache has at most ${TIERS} local tiers, not ${tiers.length}`);
    // Every block has a copy in some local tier, so their capacities bound the records: sized for them up to 8,192
    // records (0.5 MB, and 0.25 MB of index), a fleet replica's store never grows (the bench fleet's grew from
    // 1,024 records to 8,192 each, re-filing every hash at each doubling).
    let blocks = 0;
    for (const t of tiers) blocks += t.capacity;
    this.b = new BlockStore(Math.min(Math.max(blocks, 16), 8192));
    // One literal, every field in one order: each tier of every cache then has the same shape, so the hot paths'
    // reads of `used`, `pinned`, `locked`… stay monomorphic (built by rest and spread, the tiers got shapes of their
    // own and those reads went megamorphic).
    this.local = tiers.map((t, i) => ({
      name: t.name,
      capacity: t.capacity,
      used: t.used,
      usedTokens: t.usedTokens,
      pinned: t.pinned,
      pending: t.pending,
      locked: t.locked,
      order: copyOrder(t.policy, this.b, i),
      write: t.write,
      pathUp: t.pathUp,
    }));
  }

  // ───────────────────────────── queries ─────────────────────────────

  /** Links from tier i (local or remote) up to HBM. */
  pathOf(i: number): LinkSpec[] {
    return i === this.remoteIndex && this.pool ? this.remotePath : this.local[i].pathUp;
  }

  /** Links crossed going down from tier `from` to tier `to` (> from). The tiers never change: each list is made once
   * (every offload's timing asks for one). */
  linksBetween(from: number, to: number): LinkSpec[] {
    const key = from * (TIERS + 2) + to;
    let links = this.between.get(key);
    if (!links) this.between.set(key, (links = this.pathOf(to).slice(0, to - from)));
    return links;
  }
  private readonly between = new Map<number, LinkSpec[]>();

  transferS(blocks: number, links: LinkSpec[]): number {
    return transferTimeS(blocks * this.bytesPerBlock, links, this.transferModel);
  }

  // ───────────────────────────── blocks ─────────────────────────────

  newBlock(hash: BlockHash, tokens: number, tag: number, pending: boolean): number {
    return this.b.alloc(hash, tokens, tag, pending);
  }

  /** The block left the replica (its last copy is gone): counted as dropped. */
  discard(id: number): void {
    this.c.dropped++;
    this.c.droppedTokens += this.b.tokens(id);
    this.forget(id);
  }

  /** A computed copy of `hash` appeared in (stored) or left local tier `tier`: tell the subscribers. */
  emit(hash: BlockHash, tier: number, stored: boolean): void {
    for (const log of this.logs) log.record(hash, tier, stored);
  }

  /** Remove block `id` from the replica (every way a block leaves goes through here); its id may be reused. */
  forget(id: number): void {
    this.b.release(id);
  }

  // ───────────────────────────── copies ─────────────────────────────

  /** Give block `id` a copy in tier i (room must have been made). In HBM it is pinned if the block is. */
  addCopy(id: number, i: number): void {
    const b = this.b;
    const t = this.local[i];
    const pending = b.isPending(id);
    if (this.logs.length && !pending) this.emit(b.hash(id), i, true);
    if (i === 0 && this.hbmSinks.length)
      for (const w of this.hbmSinks) w.hbmSlot(b.hash(id), b.tag(id), true);
    t.used++;
    t.usedTokens += b.tokens(id);
    if (i === 0 && b.pins(id) > 0) {
      b.setStateWord(id, i, PINNED);
      t.pinned++;
    } else {
      b.setStateWord(id, i, POLICY);
      t.order.add(id);
    }
    if (i === 0 && pending) t.pending++;
  }

  removeCopy(id: number, i: number): void {
    const b = this.b;
    const t = this.local[i];
    this.setState(id, i, LOCKED);
    t.locked--;
    t.used--;
    t.usedTokens -= b.tokens(id);
    const pending = b.isPending(id);
    if (i === 0 && pending) t.pending--;
    b.setStateWord(id, i, NO_COPY);
    if (this.logs.length && !pending) this.emit(b.hash(id), i, false);
    if (i === 0 && this.hbmSinks.length)
      for (const w of this.hbmSinks) w.hbmSlot(b.hash(id), b.tag(id), false);
  }

  /** Move block `id`'s copy in tier i (which must exist) to state s, keeping the tier's counts and order. */
  setState(id: number, i: number, s: number): void {
    const from = this.b.state(id, i);
    if (from === s) return;
    const t = this.local[i];
    if (from === POLICY) t.order.remove(id);
    else if (from === PINNED) t.pinned--;
    else t.locked--;
    this.b.setStateWord(id, i, s);
    if (s === POLICY) t.order.add(id);
    else if (s === PINNED) t.pinned++;
    else t.locked++;
  }

  /** Pin block `id`'s HBM copy for one more position. */
  pin(id: number): void {
    this.b.addPins(id, 1);
    this.setState(id, 0, PINNED);
  }

  /** Remove every copy of an unpinned block and drop it from the replica. */
  dropAll(id: number): void {
    for (let i = 0; i < this.local.length; i++) if (this.b.hasCopy(id, i)) this.removeCopy(id, i);
    this.discard(id);
  }

  // ───────────────────────────── movement ─────────────────────────────

  /** One block copy crossed link `link` (indexed by the tier below it). */
  sent(link: number, dir: 'up' | 'down'): void {
    if (dir === 'up') {
      this.c.copiesUp[link]++;
      this.c.bytesUp[link] += this.bytesPerBlock;
    } else {
      this.c.copiesDown[link]++;
      this.c.bytesDown[link] += this.bytesPerBlock;
    }
  }

  /** sent(link, dir) n times: one addition of n copies' bytes where that is the same number as n additions. */
  sentMany(link: number, dir: 'up' | 'down', n: number): void {
    const bytes = dir === 'up' ? this.c.bytesUp : this.c.bytesDown;
    if (dir === 'up') this.c.copiesUp[link] += n;
    else this.c.copiesDown[link] += n;
    const bpb = this.bytesPerBlock;
    const total = bytes[link] + n * bpb;
    if (Number.isInteger(bpb) && Number.isInteger(bytes[link]) && total <= Number.MAX_SAFE_INTEGER)
      bytes[link] = total;
    else for (let i = 0; i < n; i++) bytes[link] += bpb;
  }

  /** One copy read up from tier `from` (local or remote) to HBM: every link on the way carries it once. */
  readUp(from: number): void {
    for (let j = 1; j <= from; j++) this.sent(j, 'up');
  }

  /** Evict from tier i until it has a free slot. False if it cannot (everything left is pinned or locked). */
  makeRoom(i: number): boolean {
    const t = this.local[i];
    while (t.used >= t.capacity) {
      const id = t.order.victim();
      if (id < 0) return false;
      this.removeCopy(id, i);
      this.c.evictions[i]++;
      // A valid copy elsewhere: the block stays in the replica and nothing moves.
      if (this.b.states(id) === 0) this.placeBelow(id, i + 1, 'evicted');
    }
    return true;
  }

  /**
   * Write a block that has no copy left (or is being offloaded) into tier i, passing through tiers of capacity
   * 0; past the last local tier into the pool if there is one. Unless `forced` (an explicit offload, or a
   * promoted block sent back with promoteOnHit: false), a tier that is not write-back takes nothing and the
   * block is dropped. Each link crossed carries one copy; the caller counts the links above tier i.
   */
  placeBelow(id: number, i: number, why: 'evicted' | 'offload' | 'returned'): void {
    const forced = why !== 'evicted';
    for (; i < this.local.length; i++) {
      const t = this.local[i];
      if (!forced && t.write !== 'write-back') return this.discard(id);
      this.sent(i, 'down');
      if (t.capacity === 0) continue;
      if (!this.makeRoom(i)) return this.discard(id); // only while copies are locked
      this.addCopy(id, i);
      if (why !== 'offload') this.c.demotions[i]++; // offload() counts its own
      this.writeThrough(id, i);
      return;
    }
    if (this.pool) {
      const b = this.b;
      const r = this.pool.put(b.hash(id), b.tokens(id), b.tag(id), this.replicaId);
      if (r !== 'rejected') {
        if (r === 'stored') this.sent(this.remoteIndex, 'down'); // a hash the pool holds moves nothing
        this.c.toPool++;
        this.c.toPoolTokens += b.tokens(id);
        if (why !== 'offload') this.c.demotions[this.remoteIndex]++;
        this.forget(id);
        return;
      }
    }
    this.discard(id);
  }

  /**
   * Block `id` has just become a computed, full copy in tier i: copy it down into every write-through tier below
   * that lacks it, once (vLLM `_get_reqs_to_store` offloads each new full block once). Skipped when the tier
   * cannot make room (all locked), as vLLM skips a store `prepare_store` refuses.
   */
  writeThrough(id: number, i: number): void {
    const b = this.b;
    if (b.isPending(id) || b.tokens(id) !== this.blockSize) return;
    const j = i + 1;
    if (j >= this.local.length) return;
    const t = this.local[j];
    if (t.write !== 'write-through' || t.capacity === 0 || b.hasCopy(id, j)) return;
    if (!this.makeRoom(j)) return;
    if (!b.live(id)) return; // cannot happen: the block keeps its copy above while room is made below
    this.sent(j, 'down');
    this.addCopy(id, j);
    this.c.writeThroughs[j]++;
    this.writeThrough(id, j);
  }

  /** Lower copies of a block whose content changed (a partial block filled in place) are stale: free them. */
  invalidateLower(id: number): void {
    for (let i = 1; i < this.local.length; i++)
      if (this.b.hasCopy(id, i)) {
        this.removeCopy(id, i);
        this.c.invalidated++;
      }
  }
}

/** Check a cache's tier list (order, links, write policies) and build its local tiers; the remote one apart. */
export function buildTiers(
  tiers: readonly TierConfig[],
  bytesPerBlock: number,
): { local: TierSpec[]; remote: RemoteTierConfig | null } {
  if (!tiers.length || tiers[0].name !== 'hbm') throw new RangeError('the first tier must be "hbm"');
  let lastOrder = -1;
  for (const t of tiers) {
    const o = TIER_ORDER.indexOf(t.name);
    if (o < 0) throw new RangeError(`unknown tier "${String(t.name)}"`);
    if (o <= lastOrder)
      throw new RangeError(`tiers must be distinct and in the order ${TIER_ORDER.join(', ')}`);
    lastOrder = o;
    if (t.name !== 'hbm') checkLink(t.link, t.name);
    if (t.name !== 'remote' && t.write !== undefined) {
      if (t.name === 'hbm') throw new RangeError('HBM has no write policy (it is the top tier)');
      if (!WRITE_POLICIES.includes(t.write))
        throw new RangeError(
          `tier ${t.name}: unknown write policy "${String(t.write)}" (${WRITE_POLICIES.join(', ')})`,
        );
    }
  }
  const local: TierSpec[] = [];
  let remote: RemoteTierConfig | null = null;
  for (const t of tiers) {
    if (t.name === 'remote') {
      remote = t;
      continue;
    }
    const above = local.length ? local[local.length - 1].pathUp : [];
    local.push({
      name: t.name,
      capacity: capacityInBlocks(t.capacityBlocks, t.capacityBytes, bytesPerBlock, `tier ${t.name}`),
      used: 0,
      usedTokens: 0,
      pinned: 0,
      pending: 0,
      locked: 0,
      policy: t.policy,
      write: t.write ?? 'write-back',
      pathUp: t.name === 'hbm' ? [] : [t.link as LinkSpec, ...above],
    });
  }
  return { local, remote };
}

const WRITE_POLICIES: readonly WritePolicy[] = ['write-through', 'write-back', 'none'];

function checkLink(link: LinkSpec | undefined, name: string): void {
  if (!link) throw new RangeError(`tier ${name} needs a link to the tier above`);
  if (!(link.bandwidthGBps > 0) || !(link.latencyS >= 0))
    throw new RangeError(`tier ${name}: link bandwidth must be > 0 and latency >= 0`);
}
