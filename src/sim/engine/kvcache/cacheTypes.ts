/**
 * The public shapes of one replica's KV cache (cache.ts): its configuration, what its operations return, and
 * its counters. Kept apart from the class so callers (the fleet, the lesson models, the worker) can name them
 * without reading the implementation.
 */
import type { KvPool } from './pool';
import type { PolicyFactory, PolicyName } from './policy';
import type { BlockHash, LinkSpec, TierName, TransferModel } from './types';

/**
 * How a lower tier is filled from the tier above it (the tiers are *inclusive*: a block may have a copy in HBM
 * and in DRAM at once, and a computed block never changes, so a lower copy stays valid while the upper one lives):
 * - `write-through`: every full block is copied down as soon as it is computed above, once; an eviction above
 *   then moves nothing. vLLM's OffloadingConnector stores each request's new full blocks after every scheduler
 *   step and skips hashes it already holds (vllm-project/vllm, distributed/kv_transfer/kv_connector/v1/offloading/
 *   scheduler.py `_get_reqs_to_store`, v1/kv_offload/lru_manager.py `prepare_store`); LMCache's local CPU backend
 *   stores every chunk it is handed (LMCache/LMCache, lmcache/v1/storage_backend/local_cpu_backend.py); SGLang
 *   HiCache `--hicache-write-policy write_through` backs a radix node up to host memory on its first insertion
 *   (sgl-project/sglang, python/sglang/srt/mem_cache/hiradix_cache.py, `write_through_threshold = 1`).
 * - `write-back` (default): a block is copied down only when it is evicted above and has no valid copy elsewhere
 *   (HiCache `write_back`: `evict()` writes an un-backed-up node to host before freeing it).
 * - `none`: nothing is copied down automatically; only an explicit offload() puts blocks here. An eviction above
 *   drops a block whose only copy it was (HiCache `_evict_regular`, vLLM freeing a GPU block).
 * Simplification: a block evicted above whose next tier is not write-back is dropped even if a deeper tier is
 * write-back; write-through copies only blocks computed on this replica (commit, insert), not blocks fetched from
 * the pool or promoted from a deeper tier; only full blocks are written through (as vLLM offloads full blocks).
 */
export type WritePolicy = 'write-through' | 'write-back' | 'none';

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
  /** How this tier is filled from the tier above (every tier but `hbm`). Default `write-back`. */
  write?: WritePolicy;
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
  /**
   * Bytes of KV one block occupies across the replica's GPUs, every copy counted (the fleet passes
   * replicaKvBytesPerToken × blockSize): what a block takes in each tier and on each link.
   */
  bytesPerBlock: number;
  /** Tiers fastest first: `hbm`, then any of `dram`, `nvme`, `remote`, in that order. */
  tiers: readonly TierConfig[];
  /**
   * true (default): a block brought up from a lower tier for a sequence keeps its HBM copy when the sequence
   * releases it. false: the HBM copy is freed on release (HBM keeps only blocks computed here); the lower copy
   * stays, so nothing moves, unless the lower copy was evicted meanwhile (then it is written back down).
   */
  promoteOnHit?: boolean;
  transferModel?: TransferModel;
  /**
   * How many released sequences' block lists to keep, so that a sequence acquired again (a session's next turn)
   * reads the records it held instead of probing the index for each (sequences.ts). Changes no result, only
   * speed; memory is one array per kept sequence. Default 256; 0 keeps none.
   */
  lookupHints?: number;
  /**
   * true (default): a released sequence's context is kept as one run in DRAM's order (runs.ts) where the tiers
   * allow it (HBM and DRAM only, DRAM and HBM ordered by LRU or FIFO lists, no pool, promoteOnHit). Changes no
   * result, only speed (a tool call's offload and read-back cost O(new blocks)); false keeps every block on its own.
   */
  contextRuns?: boolean;
}

/** What a lookup (or an acquire) found, for one tier: blocks served from it (the fastest tier holding them). */
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
  /** Owner tag for snapshots (e.g. a session id): a 32-bit integer. Default −1. */
  tag?: number;
  /** acquire(): use only the first `blocks` hashes (default all), so a caller need not copy a prefix out. */
  blocks?: number;
  /**
   * The first `sharedBlocks` blocks are a head many sequences hold at once (an app's system prompt and tools):
   * the cache checks them once and lets later acquires join (kvcache/shares.ts). Only a shortcut: every result is
   * the same whatever its value (a non-negative integer; default 0, none).
   */
  sharedBlocks?: number;
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
  /** Blocks whose copies above the target tier were freed (they now live at the target or below). */
  moved: number;
  /** Of those, blocks that had no copy in the target and were written to it (the rest moved no bytes). */
  written: number;
  skippedPinned: number;
  /** Not in this replica's local tiers. */
  missing: number;
  /** Already at the target tier or below, with nothing above it. */
  alreadyLower: number;
  /** Bytes sent down, over every link crossed (per copy made). */
  bytes: number;
  timeS: number;
}

export interface InsertResult {
  /** New blocks placed in HBM. */
  inserted: number;
  /** Blocks already in this replica (refreshed; given an HBM copy without a transfer if only lower). */
  refreshed: number;
  /** Blocks that could not be placed because HBM is full of pinned blocks. */
  failed: number;
}

export interface BlockInfo {
  hash: BlockHash;
  /** The fastest tier holding a copy (where a hit is served from). */
  tier: TierName;
  /** Every local tier holding a copy, fastest first. */
  tiers: TierName[];
  tokens: number;
  tag: number;
  /** Number of sequences (positions) pinning it; > 0 only with an HBM copy. */
  pins: number;
  /** Allocated for a sequence but not yet computed (not findable by lookups). */
  pending: boolean;
}

export interface TierOccupancy {
  tier: TierName;
  capacityBlocks: number;
  /** Copies held in this tier (a block in HBM and DRAM counts in both). */
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
  /** The fastest local tier holding the block. */
  tier: Uint8Array;
  /** Bit i set: local tier i holds a copy. */
  resident: Uint8Array;
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
  /** Blocks / tokens found cached by acquire(), per tier they were served from. */
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
  /** Blocks that left this replica (their last local copy went): pending ones released uncomputed (freed), removed (dropped), moved into the pool (toPool). */
  freed: number;
  freedTokens: number;
  dropped: number;
  droppedTokens: number;
  toPool: number;
  toPoolTokens: number;
  /** Per tier: copies its policy evicted; copies written into it on an eviction above (write-back, and promoted blocks sent back with promoteOnHit: false); copies written into it as computed (write-through); hits served from it and copied to HBM. */
  evictions: number[];
  demotions: number[];
  writeThroughs: number[];
  promotions: number[];
  /** Lower copies dropped because the block changed (a partial last block filled in place). */
  invalidated: number;
  /** Blocks offload() freed from the tiers above its target. */
  offloads: number;
  /** Per link, indexed by the tier below the link (index 0, HBM, has no link and stays 0): block copies sent, and their bytes. */
  copiesUp: number[];
  copiesDown: number[];
  bytesUp: number[];
  bytesDown: number[];
}

export function newCounters(tiers: TierName[]): KvCacheCounters {
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
    writeThroughs: z(),
    promotions: z(),
    invalidated: 0,
    offloads: 0,
    copiesUp: z(),
    copiesDown: z(),
    bytesUp: z(),
    bytesDown: z(),
  };
}

/** A deep copy (the arrays too), so a caller's copy never changes under it. */
export function copyCounters(c: KvCacheCounters): KvCacheCounters {
  const out = { ...c };
  for (const k of Object.keys(c) as (keyof KvCacheCounters)[]) {
    const v = c[k];
    if (Array.isArray(v)) (out as Record<string, unknown>)[k] = [...v];
  }
  return out;
}
