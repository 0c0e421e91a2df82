/**
 * Tier storage of one replica's KV cache: which local tiers hold a copy of each block, each tier's eviction
 * policy, how a tier is filled from the one above (its write policy), and the copies and bytes sent over each
 * link. cache.ts builds the sequence operations on top of it.
 *
 * Tiers are inclusive, as engines keep them: a block is one record (one Map entry per replica) with up to one
 * *copy* per local tier. A hit is served from the fastest tier holding a copy. An eviction removes one copy;
 * only when it was the block's last copy does anything move (a write-back down the chain, into the pool past
 * the last local tier, or a drop). Bytes are counted per copy made: a block already in DRAM is never written
 * again, and evicting the HBM copy of a block with a valid DRAM copy moves nothing (SGLang HiCache
 * `_evict_backuped`, sgl-project/sglang python/sglang/srt/mem_cache/hiradix_cache.py; vLLM's offloading manager
 * filters hashes it already stores, vllm-project/vllm vllm/v1/kv_offload/lru_manager.py `prepare_store`).
 *
 * A copy is in one of three states: `policy` (evictable, ordered by its tier's policy), `pinned` (HBM only, held
 * by a sequence) or `locked` (a lower copy being read up during an acquire, so making room cannot evict it).
 */
import { BlockIndex } from './blockIndex';
import type { HbmSlotSink, KvEventSink } from './events';
import { capacityInBlocks, type KvPool } from './pool';
import { resolvePolicy, type EvictionPolicy, type PolicyNode } from './policy';
import type { KvCacheCounters, RemoteTierConfig, TierConfig, WritePolicy } from './cacheTypes';
import {
  TIER_ORDER,
  transferTimeS,
  type BlockHash,
  type LinkSpec,
  type TierName,
  type TransferModel,
} from './types';

export type CopyState = 'policy' | 'pinned' | 'locked';

export interface Copy extends PolicyNode {
  /** Mutable only so removed copies can be reused (TierStore.spare); nothing else writes them. */
  block: Block;
  tier: number;
  state: CopyState;
}

export interface Block {
  hash: BlockHash;
  tokens: number;
  pins: number;
  pending: boolean;
  tag: number;
  /** Its HBM copy was brought up from below (for promoteOnHit: false). */
  loaded: boolean;
  /**
   * The copy in local tier 0 (HBM), 1 and 2 (the tiers below, in the cache's order), or null: fields rather than
   * an array, so reading a block's copy costs no second object (copyAt reads them by index).
   */
  c0: Copy | null;
  c1: Copy | null;
  c2: Copy | null;
  /** Number of copies (≥ 1 while the block is in the replica, except inside one operation). */
  nCopies: number;
  /** Bit i set: local tier i holds a copy (so the fastest tier is found without reading `copies`). */
  bits: number;
  /** The block left the replica (its map entry is gone); a block object never comes back (newBlock makes a new one). */
  gone: boolean;
  /** Neighbours in the index's insertion order (blockIndex.ts). */
  prevIns: Block | null;
  nextIns: Block | null;
  /** Scratch marks for one acquire (epoch-stamped so they never need clearing). */
  mark: number;
  scratch: number;
  xmark: number;
}

export interface Tier {
  name: TierName;
  capacity: number;
  used: number;
  usedTokens: number;
  pinned: number;
  pending: number;
  locked: number;
  policy: EvictionPolicy;
  write: WritePolicy;
  /** Links from this tier up to HBM, this tier's own first. */
  pathUp: LinkSpec[];
}

/** The copy of b in local tier i, or null. */
export function copyAt(b: Block, i: number): Copy | null {
  return i === 0 ? b.c0 : i === 1 ? b.c1 : b.c2;
}

function setCopyAt(b: Block, i: number, cp: Copy | null): void {
  if (i === 0) b.c0 = cp;
  else if (i === 1) b.c1 = cp;
  else if (i === 2) b.c2 = cp;
  else throw new RangeError(`a cache has at most three local tiers, not ${i + 1}`);
}

export class TierStore {
  readonly map = new BlockIndex<Block>();
  /**
   * Copies removed from a tier, reused by the next addCopy: a copy moves between tiers as a context is offloaded
   * and read back every tool call, and allocating one each time left the garbage collector most of the churn.
   * A removed copy is unlinked from its policy and referenced by nothing else (only locked copies are held
   * across calls, and a locked copy is never removed).
   */
  private readonly spare: Copy[] = [];
  /** Subscribers' KV event sinks (events.ts); usually none. */
  readonly logs: KvEventSink[] = [];
  /** Watchers of every HBM slot taken or freed, pending blocks included (events.ts HbmSlotSink); usually none. */
  readonly hbmSinks: HbmSlotSink[] = [];

  constructor(
    readonly local: Tier[],
    readonly pool: KvPool | null,
    /** Index of the remote tier in the counters' arrays (= local.length) when there is a pool. */
    readonly remoteIndex: number,
    private readonly remotePath: LinkSpec[],
    readonly bytesPerBlock: number,
    readonly blockSize: number,
    readonly replicaId: string | number,
    readonly transferModel: TransferModel,
    readonly c: KvCacheCounters,
  ) {}

  // ───────────────────────────── queries ─────────────────────────────

  /** Index of the fastest local tier holding a copy, or −1. */
  top(b: Block): number {
    const x = b.bits;
    return x === 0 ? -1 : 31 - Math.clz32(x & -x);
  }

  /** Links from tier i (local or remote) up to HBM. */
  pathOf(i: number): LinkSpec[] {
    return i === this.remoteIndex && this.pool ? this.remotePath : this.local[i].pathUp;
  }

  /** Links crossed going down from tier `from` to tier `to` (> from). */
  linksBetween(from: number, to: number): LinkSpec[] {
    return this.pathOf(to).slice(0, to - from);
  }

  transferS(blocks: number, links: LinkSpec[]): number {
    return transferTimeS(blocks * this.bytesPerBlock, links, this.transferModel);
  }

  // ───────────────────────────── blocks ─────────────────────────────

  newBlock(hash: BlockHash, tokens: number, tag: number, pending: boolean): Block {
    const b: Block = {
      hash,
      tokens,
      pins: 0,
      pending,
      tag,
      loaded: false,
      c0: null,
      c1: null,
      c2: null,
      nCopies: 0,
      bits: 0,
      gone: false,
      prevIns: null,
      nextIns: null,
      mark: 0,
      scratch: 0,
      xmark: 0,
    };
    this.map.set(hash, b);
    return b;
  }

  /** The block left the replica (its last copy is gone): counted as dropped. */
  discard(b: Block): void {
    this.forget(b);
    this.c.dropped++;
    this.c.droppedTokens += b.tokens;
  }

  /** A computed copy of `hash` appeared in (stored) or left local tier `tier`: tell the subscribers. */
  emit(hash: BlockHash, tier: number, stored: boolean): void {
    for (const log of this.logs) log.record(hash, tier, stored);
  }

  /** Remove b from the replica's map (every way a block leaves goes through here). */
  forget(b: Block): void {
    this.map.delete(b.hash);
    b.gone = true;
  }

  // ───────────────────────────── copies ─────────────────────────────

  /** Give b a copy in tier i (room must have been made). In HBM it is pinned if b is. */
  addCopy(b: Block, i: number): Copy {
    const t = this.local[i];
    let cp = this.spare.pop();
    if (cp) {
      cp.block = b;
      cp.tier = i;
      cp.state = 'policy';
    } else cp = { block: b, tier: i, state: 'policy', prev: null, next: null };
    setCopyAt(b, i, cp);
    b.nCopies++;
    b.bits |= 1 << i;
    if (this.logs.length && !b.pending) this.emit(b.hash, i, true);
    if (i === 0 && this.hbmSinks.length) for (const w of this.hbmSinks) w.hbmSlot(b.hash, b.tag, true);
    t.used++;
    t.usedTokens += b.tokens;
    if (i === 0 && b.pins > 0) {
      cp.state = 'pinned';
      t.pinned++;
    } else t.policy.add(cp);
    if (i === 0 && b.pending) t.pending++;
    return cp;
  }

  removeCopy(b: Block, i: number): void {
    const cp = copyAt(b, i) as Copy;
    const t = this.local[i];
    this.setState(cp, 'locked');
    t.locked--;
    t.used--;
    t.usedTokens -= b.tokens;
    if (i === 0 && b.pending) t.pending--;
    setCopyAt(b, i, null);
    b.nCopies--;
    b.bits &= ~(1 << i);
    this.spare.push(cp);
    if (this.logs.length && !b.pending) this.emit(b.hash, i, false);
    if (i === 0 && this.hbmSinks.length) for (const w of this.hbmSinks) w.hbmSlot(b.hash, b.tag, false);
  }

  setState(cp: Copy, s: CopyState): void {
    if (cp.state === s) return;
    const t = this.local[cp.tier];
    if (cp.state === 'policy') t.policy.remove(cp);
    else if (cp.state === 'pinned') t.pinned--;
    else t.locked--;
    cp.state = s;
    if (s === 'policy') t.policy.add(cp);
    else if (s === 'pinned') t.pinned++;
    else t.locked++;
  }

  /** Pin b's HBM copy for one more position. */
  pin(b: Block): void {
    b.pins++;
    this.setState(b.c0 as Copy, 'pinned');
  }

  /** Remove every copy of an unpinned block and drop it from the replica. */
  dropAll(b: Block): void {
    for (let i = 0; i < this.local.length; i++) if (copyAt(b, i)) this.removeCopy(b, i);
    this.discard(b);
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

  /** One copy read up from tier `from` (local or remote) to HBM: every link on the way carries it once. */
  readUp(from: number): void {
    for (let j = 1; j <= from; j++) this.sent(j, 'up');
  }

  /** Evict from tier i until it has a free slot. False if it cannot (everything left is pinned or locked). */
  makeRoom(i: number): boolean {
    const t = this.local[i];
    while (t.used >= t.capacity) {
      const v = t.policy.peekVictim() as Copy | undefined;
      if (!v) return false;
      const b = v.block;
      this.removeCopy(b, i);
      this.c.evictions[i]++;
      // A valid copy elsewhere: the block stays in the replica and nothing moves.
      if (b.nCopies === 0) this.placeBelow(b, i + 1, 'evicted');
    }
    return true;
  }

  /**
   * Write a block that has no copy left (or is being offloaded) into tier i, passing through tiers of capacity
   * 0; past the last local tier into the pool if there is one. Unless `forced` (an explicit offload, or a
   * promoted block sent back with promoteOnHit: false), a tier that is not write-back takes nothing and the
   * block is dropped. Each link crossed carries one copy; the caller counts the links above tier i.
   */
  placeBelow(b: Block, i: number, why: 'evicted' | 'offload' | 'returned'): void {
    const forced = why !== 'evicted';
    for (; i < this.local.length; i++) {
      const t = this.local[i];
      if (!forced && t.write !== 'write-back') return this.discard(b);
      this.sent(i, 'down');
      if (t.capacity === 0) continue;
      if (!this.makeRoom(i)) return this.discard(b); // only while copies are locked
      this.addCopy(b, i);
      if (why !== 'offload') this.c.demotions[i]++; // offload() counts its own
      this.writeThrough(b, i);
      return;
    }
    if (this.pool) {
      const r = this.pool.put(b.hash, b.tokens, b.tag, this.replicaId);
      if (r !== 'rejected') {
        if (r === 'stored') this.sent(this.remoteIndex, 'down'); // a hash the pool holds moves nothing
        this.forget(b);
        this.c.toPool++;
        this.c.toPoolTokens += b.tokens;
        if (why !== 'offload') this.c.demotions[this.remoteIndex]++;
        return;
      }
    }
    this.discard(b);
  }

  /**
   * b has just become a computed, full copy in tier i: copy it down into every write-through tier below that
   * lacks it, once (vLLM `_get_reqs_to_store` offloads each new full block once). Skipped when the tier cannot
   * make room (all locked), as vLLM skips a store `prepare_store` refuses.
   */
  writeThrough(b: Block, i: number): void {
    if (b.pending || b.tokens !== this.blockSize) return;
    const j = i + 1;
    if (j >= this.local.length) return;
    const t = this.local[j];
    if (t.write !== 'write-through' || t.capacity === 0 || copyAt(b, j)) return;
    if (!this.makeRoom(j)) return;
    if (!this.map.has(b.hash)) return; // cannot happen: b keeps its copy above while room is made below
    this.sent(j, 'down');
    this.addCopy(b, j);
    this.c.writeThroughs[j]++;
    this.writeThrough(b, j);
  }

  /** Lower copies of a block whose content changed (a partial block filled in place) are stale: free them. */
  invalidateLower(b: Block): void {
    for (let i = 1; i < this.local.length; i++)
      if (copyAt(b, i)) {
        this.removeCopy(b, i);
        this.c.invalidated++;
      }
  }
}

/** Check a cache's tier list (order, links, write policies) and build its local tiers; the remote one apart. */
export function buildTiers(
  tiers: readonly TierConfig[],
  bytesPerBlock: number,
): { local: Tier[]; remote: RemoteTierConfig | null } {
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
  const local: Tier[] = [];
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
      policy: resolvePolicy(t.policy)(),
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
