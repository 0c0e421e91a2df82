/**
 * One replica's tiered, paged, prefix-reusing KV cache. See index.ts for the model and a usage example.
 *
 * Data structures: one Map from block hash to a block record for the whole replica (so a block is in at most
 * one local tier by construction), per-tier counters, and per-tier eviction policies that hold only the
 * evictable (unpinned, computed) blocks through intrusive list pointers. Every operation costs O(blocks it
 * touches); nothing loops over tokens or over the whole cache (except blocks(), snapshot(), checkInvariants()).
 */
import { capacityInBlocks, type KvPool } from './pool';
import {
  resolvePolicy,
  type EvictionPolicy,
  type PolicyFactory,
  type PolicyName,
  type PolicyNode,
} from './policy';
import {
  transferTimeS,
  type BlockHash,
  type LinkSpec,
  type SeqId,
  type TierName,
  type TransferModel,
  TIER_ORDER,
} from './types';

export interface LocalTierConfig {
  name: 'hbm' | 'dram' | 'nvme';
  /** Capacity in blocks, or … */
  capacityBlocks?: number;
  /** … in bytes (rounded down to whole blocks of the cache's bytesPerBlock). Give exactly one. */
  capacityBytes?: number;
  /** Eviction policy, LRU by default. */
  policy?: PolicyName | PolicyFactory;
  /** Link to the tier above. Required for every tier but `hbm`. */
  link?: LinkSpec;
}

export interface RemoteTierConfig {
  name: 'remote';
  /** The shared pool (one object referenced by every replica that uses it). */
  pool: KvPool;
  /** This replica's link to the pool (its NIC), towards the tier above `remote` in this cache. */
  link: LinkSpec;
}

export type TierConfig = LocalTierConfig | RemoteTierConfig;

export interface KvCacheConfig {
  /** Replica id, carried into snapshots and pool records. */
  id?: string | number;
  /** Tokens per block. */
  blockSize: number;
  /** Bytes of KV one block occupies (kvBytesPerToken × blockSize; see kvBlockBytes). */
  bytesPerBlock: number;
  /** Tiers fastest first: `hbm`, then any of `dram`, `nvme`, `remote`, in that order. */
  tiers: readonly TierConfig[];
  /**
   * true (default): a block brought up from a lower tier for a sequence stays in HBM when the sequence releases
   * it. false: it goes back down to the tier below HBM on release (HBM keeps only blocks computed here).
   */
  promoteOnHit?: boolean;
  transferModel?: TransferModel;
}

/** What a lookup (or an acquire) found, for one tier. */
export interface TierHit {
  tier: TierName;
  blocks: number;
  tokens: number;
  bytes: number;
  /** Time to bring these blocks to HBM over the links up the chain (0 for `hbm`). */
  timeS: number;
}

export interface LookupResult {
  /** Length of the longest cached prefix, in blocks and tokens. */
  blocks: number;
  tokens: number;
  /** One entry per tier of this cache, in order. */
  tiers: TierHit[];
  /** Sum of the tiers' times (tiers are loaded one after the other). */
  loadTimeS: number;
}

export interface AcquireOptions {
  /** Total tokens of the sequence; sets the size of the last block (default: every block full). */
  tokens?: number;
  /** Owner tag for snapshots (e.g. a session id). Default −1. */
  tag?: number;
}

export interface AcquireOk {
  ok: true;
  /** The cached prefix found among the newly acquired positions, where it came from, and its load time. */
  hit: LookupResult;
  /** Blocks (tokens) past that prefix: the caller must compute them (prefill). */
  computeBlocks: number;
  computeTokens: number;
  /** Of those, blocks that needed a fresh HBM slot (now pending until commit). */
  newBlocks: number;
  /** Blocks the sequence now holds. */
  heldBlocks: number;
}

export interface AcquireFail {
  ok: false;
  /** `hbm-full`: pinned blocks leave too little room now; `exceeds-hbm`: the sequence can never fit. */
  reason: 'hbm-full' | 'exceeds-hbm';
  neededBlocks: number;
  availableBlocks: number;
  message: string;
}

export type AcquireResult = AcquireOk | AcquireFail;

export type ReleaseThen = 'cache' | 'drop' | 'dram' | 'nvme' | 'remote';

export interface OffloadResult {
  moved: number;
  skippedPinned: number;
  /** Not in this replica's local tiers. */
  missing: number;
  /** Already in the target tier or below. */
  alreadyLower: number;
  bytes: number;
  timeS: number;
}

export interface InsertResult {
  /** New blocks placed in HBM. */
  inserted: number;
  /** Blocks already in this replica (refreshed, moved up to HBM without a transfer if lower). */
  refreshed: number;
  /** Blocks that could not be placed because HBM is full of pinned blocks. */
  failed: number;
}

export interface BlockInfo {
  hash: BlockHash;
  tier: TierName;
  tokens: number;
  tag: number;
  /** Number of sequences (positions) pinning it; > 0 only in HBM. */
  pins: number;
  /** Allocated for a sequence but not yet computed (not findable by lookups). */
  pending: boolean;
}

export interface TierOccupancy {
  tier: TierName;
  capacityBlocks: number;
  usedBlocks: number;
  pinnedBlocks: number;
  pendingBlocks: number;
  usedTokens: number;
  usedBytes: number;
  /** True for the remote pool: the figures are the whole pool's, shared with other replicas. */
  shared: boolean;
}

/** Where every block is, as typed arrays (transferable), for animation frames. `tier` indexes `tiers`. */
export interface KvSnapshot {
  replica: string | number;
  tiers: TierName[];
  count: number;
  hashes: Float64Array;
  tier: Uint8Array;
  tokens: Uint32Array;
  tag: Int32Array;
  pins: Uint32Array;
  /** Bit 0: pending. */
  flags: Uint8Array;
}

export interface KvCacheCounters {
  /** Tier names, labelling the per-tier arrays below (remote last if configured). */
  tiers: TierName[];
  acquires: number;
  acquireFailures: number;
  /** Blocks / tokens found cached by acquire(), per tier. */
  hitBlocks: number[];
  hitTokens: number[];
  /** Blocks / tokens acquire() reported for computing (past the cached prefix). */
  computeBlocks: number;
  computeTokens: number;
  /** Blocks that entered this replica: fresh pending slots and direct inserts (created), copies from the pool (fetched). */
  created: number;
  createdTokens: number;
  fetched: number;
  fetchedTokens: number;
  /** Pending blocks marked computed. */
  committed: number;
  /** Blocks that left this replica: pending ones released uncomputed (freed), removed (dropped), moved into the pool (toPool). */
  freed: number;
  freedTokens: number;
  dropped: number;
  droppedTokens: number;
  toPool: number;
  toPoolTokens: number;
  /** Per tier: victims chosen by its policy; blocks demoted into it; blocks promoted out of it to HBM. */
  evictions: number[];
  demotions: number[];
  promotions: number[];
  /** Blocks moved down by offload(). */
  offloads: number;
  /** Per link, indexed by the tier below the link (index 0, HBM, has no link and stays 0). */
  bytesUp: number[];
  bytesDown: number[];
}

interface Block extends PolicyNode {
  hash: BlockHash;
  tokens: number;
  /** Local tier index, or −1 while detached during an operation. */
  tier: number;
  pins: number;
  pending: boolean;
  tag: number;
  /** Arrived in HBM from below (for promoteOnHit: false). */
  loaded: boolean;
  /** Scratch marks for one operation (epoch-stamped so they never need clearing). */
  mark: number;
  scratch: number;
  xmark: number;
  /** Tier it was detached from. */
  tierBefore: number;
}

interface Tier {
  name: TierName;
  capacity: number;
  used: number;
  usedTokens: number;
  pinned: number;
  pending: number;
  policy: EvictionPolicy;
  /** Links from this tier up to HBM, this tier's own first. */
  pathUp: LinkSpec[];
}

interface Seq {
  blocks: Block[];
  committed: number;
  tag: number;
}

function newCounters(tiers: TierName[]): KvCacheCounters {
  const z = () => tiers.map(() => 0);
  return {
    tiers,
    acquires: 0,
    acquireFailures: 0,
    hitBlocks: z(),
    hitTokens: z(),
    computeBlocks: 0,
    computeTokens: 0,
    created: 0,
    createdTokens: 0,
    fetched: 0,
    fetchedTokens: 0,
    committed: 0,
    freed: 0,
    freedTokens: 0,
    dropped: 0,
    droppedTokens: 0,
    toPool: 0,
    toPoolTokens: 0,
    evictions: z(),
    demotions: z(),
    promotions: z(),
    offloads: 0,
    bytesUp: z(),
    bytesDown: z(),
  };
}

export class KvCache {
  readonly id: string | number;
  readonly blockSize: number;
  readonly bytesPerBlock: number;
  readonly promoteOnHit: boolean;
  readonly transferModel: TransferModel;
  /** Tier names in order, remote last if configured. */
  readonly tierNames: TierName[];
  readonly pool: KvPool | null;

  private readonly local: Tier[];
  /** Index of the remote tier in tierNames (= local.length) when there is a pool. */
  private readonly remoteIndex: number;
  private readonly remotePath: LinkSpec[];
  private readonly map = new Map<BlockHash, Block>();
  private readonly seqs = new Map<SeqId, Seq>();
  private readonly c: KvCacheCounters;
  private epoch = 0;

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
    const tiers = config.tiers;
    if (!tiers.length || tiers[0].name !== 'hbm') throw new RangeError('the first tier must be "hbm"');
    let lastOrder = -1;
    for (const t of tiers) {
      const o = TIER_ORDER.indexOf(t.name);
      if (o < 0) throw new RangeError(`unknown tier "${String(t.name)}"`);
      if (o <= lastOrder)
        throw new RangeError(`tiers must be distinct and in the order ${TIER_ORDER.join(', ')}`);
      lastOrder = o;
      if (t.name !== 'hbm') checkLink(t.link, t.name);
    }
    this.local = [];
    let remote: RemoteTierConfig | null = null;
    for (const t of tiers) {
      if (t.name === 'remote') {
        remote = t;
        continue;
      }
      const above = this.local.length ? this.local[this.local.length - 1].pathUp : [];
      this.local.push({
        name: t.name,
        capacity: capacityInBlocks(t.capacityBlocks, t.capacityBytes, this.bytesPerBlock, `tier ${t.name}`),
        used: 0,
        usedTokens: 0,
        pinned: 0,
        pending: 0,
        policy: resolvePolicy(t.policy)(),
        pathUp: t.name === 'hbm' ? [] : [t.link as LinkSpec, ...above],
      });
    }
    this.pool = remote ? remote.pool : null;
    if (this.pool && this.pool.bytesPerBlock !== this.bytesPerBlock)
      throw new RangeError(
        `pool bytesPerBlock ${this.pool.bytesPerBlock} differs from the cache's ${this.bytesPerBlock}`,
      );
    this.remoteIndex = this.local.length;
    this.remotePath = remote ? [remote.link, ...this.local[this.local.length - 1].pathUp] : [];
    this.tierNames = this.local.map((t) => t.name);
    if (remote) this.tierNames.push('remote');
    this.c = newCounters([...this.tierNames]);
  }

  // ───────────────────────────── queries (no side effects) ─────────────────────────────

  /** Number of blocks resident in this replica's local tiers. */
  get size(): number {
    return this.map.size;
  }

  /** Where a block is: a tier name (`remote` if only in the pool), or undefined. Pending blocks count. */
  where(hash: BlockHash): TierName | undefined {
    const b = this.map.get(hash);
    if (b) return this.local[b.tier].name;
    return this.pool?.has(hash) ? 'remote' : undefined;
  }

  /** Hashes a sequence holds, in order (empty if unknown). */
  held(seq: SeqId): BlockHash[] {
    return this.seqs.get(seq)?.blocks.map((b) => b.hash) ?? [];
  }

  /** Number of blocks a sequence holds (0 if unknown); O(1). */
  heldCount(seq: SeqId): number {
    return this.seqs.get(seq)?.blocks.length ?? 0;
  }

  /** Sequences currently holding blocks. */
  get sequences(): number {
    return this.seqs.size;
  }

  /** Longest cached (computed) prefix of `hashes`, per tier, with load times. Changes nothing. */
  lookup(hashes: ArrayLike<BlockHash>): LookupResult {
    const nT = this.tierNames.length;
    const blocks = new Array<number>(nT).fill(0);
    const tokens = new Array<number>(nT).fill(0);
    for (let i = 0; i < hashes.length; i++) {
      const b = this.map.get(hashes[i]);
      if (b) {
        if (b.pending) break;
        blocks[b.tier]++;
        tokens[b.tier] += b.tokens;
        continue;
      }
      const p = this.pool?.peek(hashes[i]);
      if (!p) break;
      blocks[this.remoteIndex]++;
      tokens[this.remoteIndex] += p.tokens;
    }
    return this.hitResult(blocks, tokens);
  }

  /** Time to bring `blocks` blocks from `tier` up to HBM. */
  loadTimeS(tier: TierName, blocks: number): number {
    const i = this.tierNames.indexOf(tier);
    if (i < 0) throw new RangeError(`this cache has no tier "${tier}"`);
    return transferTimeS(blocks * this.bytesPerBlock, this.pathOf(i), this.transferModel);
  }

  occupancy(): TierOccupancy[] {
    const out: TierOccupancy[] = this.local.map((t) => ({
      tier: t.name,
      capacityBlocks: t.capacity,
      usedBlocks: t.used,
      pinnedBlocks: t.pinned,
      pendingBlocks: t.pending,
      usedTokens: t.usedTokens,
      usedBytes: t.used * this.bytesPerBlock,
      shared: false,
    }));
    if (this.pool) {
      const o = this.pool.occupancy();
      out.push({
        tier: 'remote',
        capacityBlocks: o.capacityBlocks,
        usedBlocks: o.usedBlocks,
        pinnedBlocks: 0,
        pendingBlocks: 0,
        usedTokens: o.usedTokens,
        usedBytes: o.usedBytes,
        shared: true,
      });
    }
    return out;
  }

  /** A copy of the event counters. */
  counters(): KvCacheCounters {
    const c = this.c;
    return {
      ...c,
      tiers: [...c.tiers],
      hitBlocks: [...c.hitBlocks],
      hitTokens: [...c.hitTokens],
      evictions: [...c.evictions],
      demotions: [...c.demotions],
      promotions: [...c.promotions],
      bytesUp: [...c.bytesUp],
      bytesDown: [...c.bytesDown],
    };
  }

  /** Every block in this replica's local tiers (the pool has its own blocks()). */
  *blocks(): IterableIterator<BlockInfo> {
    for (const b of this.map.values())
      yield {
        hash: b.hash,
        tier: this.local[b.tier].name,
        tokens: b.tokens,
        tag: b.tag,
        pins: b.pins,
        pending: b.pending,
      };
  }

  snapshot(): KvSnapshot {
    const n = this.map.size;
    const s: KvSnapshot = {
      replica: this.id,
      tiers: [...this.tierNames],
      count: n,
      hashes: new Float64Array(n),
      tier: new Uint8Array(n),
      tokens: new Uint32Array(n),
      tag: new Int32Array(n),
      pins: new Uint32Array(n),
      flags: new Uint8Array(n),
    };
    let i = 0;
    for (const b of this.map.values()) {
      s.hashes[i] = b.hash;
      s.tier[i] = b.tier;
      s.tokens[i] = b.tokens;
      s.tag[i] = b.tag;
      s.pins[i] = b.pins;
      s.flags[i] = b.pending ? 1 : 0;
      i++;
    }
    return s;
  }

  // ───────────────────────────── sequences ─────────────────────────────

  /**
   * Make `seq` hold exactly `hashes`, pinned in HBM. Positions it already holds (the common prefix with what it
   * held) are kept; blocks it held past that are released. For the new positions: the longest cached prefix
   * is brought up to HBM (promoted from a local tier or copied from the pool; reported with its load time),
   * and every later position gets a pending slot, to be computed and then commit()ed (a local copy of such a
   * block, if any, is reused in place). All or nothing: when HBM cannot hold the pinned blocks, nothing
   * changes and the result says why.
   */
  acquire(seq: SeqId, hashes: ArrayLike<BlockHash>, opts: AcquireOptions = {}): AcquireResult {
    const s = this.seqs.get(seq);
    const held = s ? s.blocks : [];
    let c = 0;
    const m = Math.min(held.length, hashes.length);
    while (c < m && held[c].hash === hashes[c]) c++;
    return this.acquireFrom(seq, s, c, hashes, c, hashes.length - c, opts);
  }

  /** Append blocks to what `seq` holds (decode growth, the next prefill chunk): O(new blocks). */
  extend(seq: SeqId, more: ArrayLike<BlockHash>, opts: AcquireOptions = {}): AcquireResult {
    const s = this.seqs.get(seq);
    const c = s ? s.blocks.length : 0;
    return this.acquireFrom(seq, s, c, more, 0, more.length, opts);
  }

  /** Mark the first `upTo` blocks of `seq` (default all) as computed: they become findable and cacheable. */
  commit(seq: SeqId, upTo?: number): number {
    const s = this.seqs.get(seq);
    if (!s) return 0;
    const end = Math.min(upTo ?? s.blocks.length, s.blocks.length);
    let n = 0;
    for (let i = s.committed; i < end; i++) {
      const b = s.blocks[i];
      if (b.pending) {
        b.pending = false;
        this.local[b.tier].pending--;
        this.c.committed++;
        n++;
      }
    }
    if (end > s.committed) s.committed = end;
    return n;
  }

  /**
   * Unpin everything `seq` holds. Computed blocks nobody else pins stay cached in HBM (the prefix most recently
   * used), pending ones are freed. `then` applies a tool-pause policy to the sequence's blocks right away:
   * `cache` (default, hold), `drop` (evict; recompute later), or a tier to offload them to.
   */
  release(
    seq: SeqId,
    then: ReleaseThen = 'cache',
  ): { unpinned: number; freed: number; offload?: OffloadResult; dropped?: number } {
    const s = this.seqs.get(seq);
    if (!s) return { unpinned: 0, freed: 0 };
    this.seqs.delete(seq);
    const r = this.unpinAll(s.blocks, 0);
    if (then === 'cache') return r;
    const hashes = s.blocks.map((b) => b.hash);
    if (then === 'drop') return { ...r, dropped: this.drop(hashes).dropped };
    return { ...r, offload: this.offload(hashes, then) };
  }

  // ───────────────────────────── blocks ─────────────────────────────

  /**
   * Put computed blocks in HBM, unpinned (as a finished request leaves them). Blocks already in this replica
   * are refreshed (moved up to HBM without a transfer if lower; a pending one becomes computed). Processed
   * last to first, so the prefix ends most recently used. Stops when HBM is full of pinned blocks.
   */
  insert(hashes: ArrayLike<BlockHash>, opts: AcquireOptions = {}): InsertResult {
    const n = hashes.length;
    const last = this.lastTokens(n, opts.tokens);
    const tag = opts.tag ?? -1;
    const hbm = this.local[0];
    const r: InsertResult = { inserted: 0, refreshed: 0, failed: 0 };
    for (let i = n - 1; i >= 0; i--) {
      const h = hashes[i];
      const b = this.map.get(h);
      if (b) {
        if (b.pending) {
          b.pending = false;
          this.local[b.tier].pending--;
          this.c.committed++;
        }
        if (b.tier === 0) {
          if (b.pins === 0) hbm.policy.touch(b);
        } else {
          this.detach(b);
          if (!this.makeRoom(0)) {
            this.attach(b, b.tierBefore);
            r.failed += i + 1;
            break;
          }
          this.attach(b, 0);
        }
        b.tag = tag;
        r.refreshed++;
        continue;
      }
      if (!this.makeRoom(0)) {
        r.failed += i + 1;
        break;
      }
      const nb = this.newBlock(h, i === n - 1 ? last : this.blockSize, tag, false);
      this.attach(nb, 0);
      r.inserted++;
    }
    return r;
  }

  /**
   * Move unpinned computed blocks down to `to` (a tool-pause offload): each goes from its tier to `to` over
   * every link in between; room is made in `to` by its policy (victims move further down).
   */
  offload(hashes: ArrayLike<BlockHash>, to: Exclude<TierName, 'hbm'>): OffloadResult {
    const t = this.tierNames.indexOf(to);
    if (t <= 0)
      throw new RangeError(`cannot offload to "${to}": this cache's tiers are ${this.tierNames.join(', ')}`);
    const r: OffloadResult = { moved: 0, skippedPinned: 0, missing: 0, alreadyLower: 0, bytes: 0, timeS: 0 };
    const perSource = new Array<number>(this.tierNames.length).fill(0);
    for (let i = hashes.length - 1; i >= 0; i--) {
      const b = this.map.get(hashes[i]);
      if (!b) r.missing++;
      else if (b.pins > 0 || b.pending) r.skippedPinned++;
      else if (b.tier >= t) r.alreadyLower++;
      else {
        const from = b.tier;
        const dedup = t === this.remoteIndex && this.pool !== null && this.pool.has(b.hash);
        this.detach(b);
        for (let k = from + 1; k <= t; k++) this.c.bytesDown[k] += this.bytesPerBlock; // placeBelow takes back a dedup
        perSource[from]++;
        this.c.offloads++;
        r.moved++;
        r.bytes += this.bytesPerBlock * (t - from - (dedup ? 1 : 0));
        this.placeBelow(b, t);
      }
    }
    for (let s = 0; s < t; s++)
      if (perSource[s])
        r.timeS += transferTimeS(
          perSource[s] * this.bytesPerBlock,
          this.linksBetween(s, t),
          this.transferModel,
        );
    return r;
  }

  /** Remove unpinned blocks from this replica's local tiers (the pool keeps its copies). */
  drop(hashes: ArrayLike<BlockHash>): { dropped: number; skippedPinned: number; missing: number } {
    const r = { dropped: 0, skippedPinned: 0, missing: 0 };
    for (let i = 0; i < hashes.length; i++) {
      const b = this.map.get(hashes[i]);
      if (!b) r.missing++;
      else if (b.pins > 0) r.skippedPinned++;
      else {
        this.detach(b);
        this.discard(b);
        r.dropped++;
      }
    }
    return r;
  }

  /** Consistency checks for tests: the violations found (empty when all invariants hold). O(blocks). */
  checkInvariants(): string[] {
    const out: string[] = [];
    const used = this.local.map(() => 0);
    const toks = this.local.map(() => 0);
    const pinned = this.local.map(() => 0);
    const pending = this.local.map(() => 0);
    let residentTokens = 0;
    const pinsFromSeqs = new Map<Block, number>();
    for (const s of this.seqs.values())
      for (const b of s.blocks) pinsFromSeqs.set(b, (pinsFromSeqs.get(b) ?? 0) + 1);
    for (const [h, b] of this.map) {
      if (b.hash !== h) out.push(`block ${h} filed under the wrong hash`);
      if (b.tier < 0 || b.tier >= this.local.length) {
        out.push(`block ${h} has no tier`);
        continue;
      }
      used[b.tier]++;
      toks[b.tier] += b.tokens;
      residentTokens += b.tokens;
      if (b.pins > 0) pinned[b.tier]++;
      if (b.pending) pending[b.tier]++;
      if ((b.pins > 0 || b.pending) && b.tier !== 0) out.push(`block ${h} is pinned or pending outside HBM`);
      if (b.pending && b.pins === 0) out.push(`block ${h} is pending but unpinned`);
      if ((pinsFromSeqs.get(b) ?? 0) !== b.pins)
        out.push(`block ${h} has ${b.pins} pins, sequences hold ${pinsFromSeqs.get(b) ?? 0}`);
      if (b.tokens < 1 || b.tokens > this.blockSize) out.push(`block ${h} has ${b.tokens} tokens`);
    }
    for (const b of pinsFromSeqs.keys())
      if (this.map.get(b.hash) !== b) out.push(`a sequence holds block ${b.hash}, which is not resident`);
    this.local.forEach((t, i) => {
      if (t.used > t.capacity) out.push(`${t.name} over capacity: ${t.used} > ${t.capacity}`);
      if (t.used !== used[i]) out.push(`${t.name} used ${t.used} != recount ${used[i]}`);
      if (t.usedTokens !== toks[i]) out.push(`${t.name} tokens ${t.usedTokens} != recount ${toks[i]}`);
      if (t.pinned !== pinned[i]) out.push(`${t.name} pinned ${t.pinned} != recount ${pinned[i]}`);
      if (t.pending !== pending[i]) out.push(`${t.name} pending ${t.pending} != recount ${pending[i]}`);
      if (t.policy.size !== used[i] - pinned[i])
        out.push(`${t.name} policy holds ${t.policy.size}, evictable ${used[i] - pinned[i]}`);
    });
    const c = this.c;
    const inB = c.created + c.fetched;
    const outB = c.freed + c.dropped + c.toPool;
    if (inB - outB !== this.map.size)
      out.push(
        `blocks not conserved: created ${c.created} + fetched ${c.fetched} − freed ${c.freed} − dropped ${c.dropped} − toPool ${c.toPool} != resident ${this.map.size}`,
      );
    const inT = c.createdTokens + c.fetchedTokens;
    const outT = c.freedTokens + c.droppedTokens + c.toPoolTokens;
    if (inT - outT !== residentTokens)
      out.push(`tokens not conserved: in ${inT} − out ${outT} != resident ${residentTokens}`);
    return out;
  }

  // ───────────────────────────── internals ─────────────────────────────

  private pathOf(i: number): LinkSpec[] {
    return i === this.remoteIndex && this.pool ? this.remotePath : this.local[i].pathUp;
  }

  /** Links crossed going down from tier `from` to tier `to` (> from). */
  private linksBetween(from: number, to: number): LinkSpec[] {
    const p = this.pathOf(to);
    return p.slice(0, to - from);
  }

  private hitResult(blocks: number[], tokens: number[]): LookupResult {
    let B = 0;
    let T = 0;
    let time = 0;
    const tiers: TierHit[] = this.tierNames.map((tier, i) => {
      const bytes = blocks[i] * this.bytesPerBlock;
      const timeS = i === 0 ? 0 : transferTimeS(bytes, this.pathOf(i), this.transferModel);
      B += blocks[i];
      T += tokens[i];
      time += timeS;
      return { tier, blocks: blocks[i], tokens: tokens[i], bytes, timeS };
    });
    return { blocks: B, tokens: T, tiers, loadTimeS: time };
  }

  private lastTokens(n: number, tokens: number | undefined): number {
    if (tokens === undefined || n === 0) return this.blockSize;
    const last = tokens - this.blockSize * (n - 1);
    if (!Number.isInteger(tokens) || last < 1 || last > this.blockSize)
      throw new RangeError(
        `${tokens} tokens do not fill ${n} blocks of ${this.blockSize} (the last block must hold 1..${this.blockSize})`,
      );
    return last;
  }

  private newBlock(hash: BlockHash, tokens: number, tag: number, pending: boolean): Block {
    const b: Block = {
      hash,
      tokens,
      tier: -1,
      pins: 0,
      pending,
      tag,
      loaded: false,
      mark: 0,
      scratch: 0,
      xmark: 0,
      prev: null,
      next: null,
      tierBefore: 0,
    };
    this.map.set(hash, b);
    this.c.created++;
    this.c.createdTokens += tokens;
    return b;
  }

  /** Put a detached block into local tier i (room must have been made). Pinned blocks stay out of the policy. */
  private attach(b: Block, i: number): void {
    const t = this.local[i];
    b.tier = i;
    t.used++;
    t.usedTokens += b.tokens;
    if (b.pins > 0) t.pinned++;
    else t.policy.add(b);
    if (b.pending) t.pending++;
  }

  private detach(b: Block): void {
    const t = this.local[b.tier];
    t.used--;
    t.usedTokens -= b.tokens;
    if (b.pins > 0) t.pinned--;
    else t.policy.remove(b);
    if (b.pending) t.pending--;
    b.tierBefore = b.tier;
    b.tier = -1;
  }

  /** Remove a detached block from the replica (counted as dropped). */
  private discard(b: Block): void {
    this.map.delete(b.hash);
    this.c.dropped++;
    this.c.droppedTokens += b.tokens;
  }

  /** Evict from tier i until it has a free slot. False if it cannot (everything left is pinned). */
  private makeRoom(i: number): boolean {
    const t = this.local[i];
    while (t.used >= t.capacity) {
      const v = t.policy.peekVictim() as Block | undefined;
      if (!v) return false;
      this.detach(v);
      this.c.evictions[i]++;
      if (i + 1 < this.tierNames.length) this.c.bytesDown[i + 1] += this.bytesPerBlock;
      this.placeBelow(v, i + 1);
    }
    return true;
  }

  /**
   * Place a detached, unpinned block in tier i or, if i has no capacity at all, further down; past the last
   * local tier it goes to the pool (or is dropped). The caller has counted the bytes into tier i.
   */
  private placeBelow(b: Block, i: number): void {
    b.loaded = false;
    while (i < this.local.length && this.local[i].capacity === 0) {
      i++;
      if (i < this.tierNames.length) this.c.bytesDown[i] += this.bytesPerBlock;
    }
    if (i < this.local.length) {
      this.makeRoom(i); // lower tiers hold no pinned blocks, so this succeeds
      this.attach(b, i);
      this.c.demotions[i]++;
      return;
    }
    if (this.pool) {
      const r = this.pool.put(b.hash, b.tokens, b.tag, this.id);
      if (r !== 'rejected') {
        if (r === 'present') this.c.bytesDown[this.remoteIndex] -= this.bytesPerBlock; // dedup: nothing sent
        this.map.delete(b.hash);
        this.c.toPool++;
        this.c.toPoolTokens += b.tokens;
        this.c.demotions[this.remoteIndex]++;
        return;
      }
      this.c.bytesDown[this.remoteIndex] -= this.bytesPerBlock;
    }
    this.discard(b);
  }

  private pin(b: Block): void {
    if (b.pins === 0) {
      const t = this.local[b.tier];
      t.policy.remove(b);
      t.pinned++;
    }
    b.pins++;
  }

  /** Unpin blocks[from..], last first (so the prefix ends most recently used). */
  private unpinAll(blocks: Block[], from: number): { unpinned: number; freed: number } {
    let unpinned = 0;
    let freed = 0;
    for (let i = blocks.length - 1; i >= from; i--) {
      const b = blocks[i];
      b.pins--;
      unpinned++;
      if (b.pins > 0) continue;
      const t = this.local[b.tier];
      t.pinned--;
      if (b.pending) {
        t.pending--;
        t.used--;
        t.usedTokens -= b.tokens;
        b.tier = -1;
        this.map.delete(b.hash);
        this.c.freed++;
        this.c.freedTokens += b.tokens;
        freed++;
        continue;
      }
      if (b.loaded && !this.promoteOnHit && this.local.length + (this.pool ? 1 : 0) > 1) {
        t.used--;
        t.usedTokens -= b.tokens;
        b.tier = -1;
        this.c.bytesDown[1] += this.bytesPerBlock;
        this.placeBelow(b, 1);
        continue;
      }
      t.policy.add(b);
    }
    return { unpinned, freed };
  }

  private acquireFrom(
    seq: SeqId,
    s: Seq | undefined,
    c: number,
    hashes: ArrayLike<BlockHash>,
    off: number,
    count: number,
    opts: AcquireOptions,
  ): AcquireResult {
    this.c.acquires++;
    const held = s ? s.blocks : [];
    const n = c + count; // positions after the operation
    const lastTok = this.lastTokens(n, opts.tokens);
    const tag = opts.tag ?? (s ? s.tag : -1);
    const hbm = this.local[0];
    const ep = ++this.epoch;

    // Plan (no mutation). Tail = held[c..], to be released.
    for (let i = c; i < held.length; i++) {
      const b = held[i];
      if (b.mark !== ep) {
        b.mark = ep;
        b.scratch = 0;
      }
      b.scratch++;
    }
    let X = 0; // new positions whose block is not pinned after the tail is released: each takes a pinned slot
    let run = 0; // cached prefix among new positions
    let inRun = true;
    const nT = this.tierNames.length;
    const hitB = new Array<number>(nT).fill(0);
    const hitT = new Array<number>(nT).fill(0);
    for (let k = 0; k < count; k++) {
      const h = hashes[off + k];
      const b = this.map.get(h);
      if (inRun) {
        if (b && !b.pending) {
          hitB[b.tier]++;
          hitT[b.tier] += b.tokens;
          run++;
        } else if (!b && this.pool?.has(h)) {
          const p = this.pool.peek(h) as { tokens: number };
          hitB[this.remoteIndex]++;
          hitT[this.remoteIndex] += p.tokens;
          run++;
        } else inRun = false;
      }
      if (!b) X++;
      else if (b.xmark !== ep) {
        b.xmark = ep;
        const eff = b.pins - (b.mark === ep ? b.scratch : 0);
        if (eff === 0) X++;
      }
    }
    let Y = 0; // tail blocks that end up unpinned
    for (let i = c; i < held.length; i++) {
      const b = held[i];
      if (b.scratch > 0) {
        if (b.pins === b.scratch) Y++;
        b.scratch = 0;
      }
    }
    const pinnedOthers = hbm.pinned - Y;
    if (pinnedOthers + X > hbm.capacity) {
      this.c.acquireFailures++;
      const available = hbm.capacity - pinnedOthers;
      const reason = n > hbm.capacity ? 'exceeds-hbm' : 'hbm-full';
      return {
        ok: false,
        reason,
        neededBlocks: X,
        availableBlocks: available,
        message:
          reason === 'exceeds-hbm'
            ? `the sequence needs ${n} blocks; HBM holds ${hbm.capacity}`
            : `HBM is full of pinned blocks: ${X} more needed, ${available} of ${hbm.capacity} not pinned by other sequences`,
      };
    }

    // Mutate. 1) Pin new positions already in HBM; detach lower-tier ones (they move up).
    const slot: (Block | null)[] = new Array(count);
    for (let k = 0; k < count; k++) {
      const b = this.map.get(hashes[off + k]);
      if (b && b.tier === 0) {
        this.pin(b);
        b.tag = tag;
        slot[k] = b;
      } else if (b && b.tier > 0) {
        const from = b.tier;
        this.detach(b);
        if (k < run) {
          this.c.promotions[from]++;
          for (let j = 1; j <= from; j++) this.c.bytesUp[j] += this.bytesPerBlock;
          b.loaded = true;
        }
        slot[k] = b;
      } else slot[k] = null;
    }
    // 2) Copy pool hits (before anything below can push blocks into the pool and evict them).
    if (this.pool) {
      for (let k = 0; k < run; k++) {
        if (slot[k]) continue;
        const h = hashes[off + k];
        if (this.map.has(h)) continue; // duplicate position
        const p = this.pool.fetch(h) as { tokens: number };
        const b: Block = {
          hash: h,
          tokens: p.tokens,
          tier: -1,
          pins: 0,
          pending: false,
          tag,
          loaded: true,
          mark: 0,
          scratch: 0,
          xmark: 0,
          prev: null,
          next: null,
          tierBefore: 0,
        };
        this.map.set(h, b);
        this.c.fetched++;
        this.c.fetchedTokens += p.tokens;
        this.c.promotions[this.remoteIndex]++;
        for (let j = 1; j <= this.remoteIndex; j++) this.c.bytesUp[j] += this.bytesPerBlock;
        slot[k] = b;
      }
    }
    // 3) Release the tail.
    if (held.length > c) {
      this.unpinAll(held, c);
      held.length = c;
    }
    // The sequence now runs past what was its last block, so that block is full: it may have been created
    // partial (the last block of a prompt, its hash covering the output too) and filled in place by decoding.
    if (c > 0 && count > 0 && held[c - 1].tokens < this.blockSize) {
      const b = held[c - 1];
      const grown = this.blockSize - b.tokens;
      if (b.tier >= 0) this.local[b.tier].usedTokens += grown;
      this.c.createdTokens += grown; // computed in place
      b.tokens = this.blockSize;
    }
    // 4) Give every new position a pinned HBM slot.
    let newBlocks = 0;
    let computeTokens = 0;
    for (let k = 0; k < count; k++) {
      let b = slot[k];
      const tokens = c + k === n - 1 ? lastTok : this.blockSize;
      if (k >= run) computeTokens += b ? b.tokens : tokens;
      if (b && b.tier === 0) continue; // pinned in step 1
      if (!b) {
        const again = this.map.get(hashes[off + k]); // a duplicate position created it already
        if (again && again.tier === 0) {
          this.pin(again);
          slot[k] = again;
          continue;
        }
      }
      if (!this.makeRoom(0)) throw new Error('KvCache: internal error, HBM room was checked'); // unreachable
      if (!b) {
        b = this.newBlock(hashes[off + k], tokens, tag, true);
        newBlocks++;
      }
      b.tag = tag;
      b.pins++;
      this.attach(b, 0);
      slot[k] = b;
    }
    const seqRec: Seq = s ?? { blocks: held, committed: 0, tag };
    seqRec.tag = tag;
    for (let k = 0; k < count; k++) seqRec.blocks.push(slot[k] as Block);
    if (seqRec.committed > c) seqRec.committed = c;
    this.seqs.set(seq, seqRec);

    for (let i = 0; i < nT; i++) {
      this.c.hitBlocks[i] += hitB[i];
      this.c.hitTokens[i] += hitT[i];
    }
    this.c.computeBlocks += count - run;
    this.c.computeTokens += computeTokens;
    return {
      ok: true,
      hit: this.hitResult(hitB, hitT),
      computeBlocks: count - run,
      computeTokens,
      newBlocks,
      heldBlocks: n,
    };
  }
}

function checkLink(link: LinkSpec | undefined, name: string): void {
  if (!link) throw new RangeError(`tier ${name} needs a link to the tier above`);
  if (!(link.bandwidthGBps > 0) || !(link.latencyS >= 0))
    throw new RangeError(`tier ${name}: link bandwidth must be > 0 and latency >= 0`);
}
