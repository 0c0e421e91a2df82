/**
 * A remote pooled KV store (Mooncake Store, LMCache server, Dynamo's G4): one content-addressed set of blocks
 * shared by the caches of several replicas. A replica puts blocks into it when they fall off its last local
 * tier (or when it offloads them) and copies them back on a hit; a read leaves the pool's copy in place (the
 * pool keeps its copy: another replica may read the same block).
 * A hash is stored at most once; putting a block that is already there only refreshes it and moves no bytes
 * (the writer checks the pool's index first, as Mooncake Store's put does).
 */
import {
  resolvePolicy,
  type EvictionPolicy,
  type PolicyFactory,
  type PolicyName,
  type PolicyNode,
} from './policy';
import type { BlockHash } from './types';

export interface KvPoolConfig {
  /** Bytes one block occupies (kvBytesPerToken × blockSize). */
  bytesPerBlock: number;
  /** Capacity in blocks, or … */
  capacityBlocks?: number;
  /** … in bytes (rounded down to whole blocks). Give exactly one. */
  capacityBytes?: number;
  policy?: PolicyName | PolicyFactory;
  /** A name for snapshots and messages. */
  name?: string;
}

export interface PoolBlockInfo {
  hash: BlockHash;
  tokens: number;
  /** Owner tag of the block when it was put (e.g. a session id), −1 if none. */
  tag: number;
  /** Replica that put it. */
  from: string | number;
}

export interface PoolCounters {
  /** Blocks stored (new hashes), and their tokens. */
  puts: number;
  putTokens: number;
  /** Puts of a hash already present (refreshed, no bytes moved). */
  dedupPuts: number;
  /** Puts refused because the pool has no capacity. */
  rejectedPuts: number;
  /** Reads of a block by a replica, and their tokens. */
  fetches: number;
  fetchTokens: number;
  /** Blocks evicted by the policy to make room, and their tokens. */
  evictions: number;
  evictedTokens: number;
  /** Blocks removed by drop(), and their tokens. */
  dropped: number;
  droppedTokens: number;
  bytesIn: number;
  bytesOut: number;
}

interface PoolBlock extends PolicyNode, PoolBlockInfo {}

export interface PoolSnapshot {
  count: number;
  hashes: Float64Array;
  tokens: Uint32Array;
  tags: Int32Array;
}

export class KvPool {
  readonly name: string;
  readonly bytesPerBlock: number;
  readonly capacityBlocks: number;
  readonly policyName: string;
  private readonly map = new Map<BlockHash, PoolBlock>();
  private readonly policy: EvictionPolicy;
  private usedTokens = 0;
  private readonly c: PoolCounters = {
    puts: 0,
    putTokens: 0,
    dedupPuts: 0,
    rejectedPuts: 0,
    fetches: 0,
    fetchTokens: 0,
    evictions: 0,
    evictedTokens: 0,
    dropped: 0,
    droppedTokens: 0,
    bytesIn: 0,
    bytesOut: 0,
  };

  constructor(config: KvPoolConfig) {
    if (!(config.bytesPerBlock > 0))
      throw new RangeError(`pool bytesPerBlock must be > 0, got ${config.bytesPerBlock}`);
    this.bytesPerBlock = config.bytesPerBlock;
    this.name = config.name ?? 'pool';
    this.capacityBlocks = capacityInBlocks(
      config.capacityBlocks,
      config.capacityBytes,
      config.bytesPerBlock,
      this.name,
    );
    this.policy = resolvePolicy(config.policy)();
    this.policyName = this.policy.name;
  }

  get size(): number {
    return this.map.size;
  }
  get tokens(): number {
    return this.usedTokens;
  }
  has(hash: BlockHash): boolean {
    return this.map.has(hash);
  }
  /** Tokens of a stored block, without touching it; undefined if absent. */
  peek(hash: BlockHash): PoolBlockInfo | undefined {
    const b = this.map.get(hash);
    return b && { hash: b.hash, tokens: b.tokens, tag: b.tag, from: b.from };
  }

  /** Store a block (a copy). `stored`: new; `present`: already there (refreshed); `rejected`: no capacity. */
  put(
    hash: BlockHash,
    tokens: number,
    tag = -1,
    from: string | number = '',
  ): 'stored' | 'present' | 'rejected' {
    const old = this.map.get(hash);
    if (old) {
      this.policy.touch(old);
      this.c.dedupPuts++;
      return 'present';
    }
    if (this.capacityBlocks === 0) {
      this.c.rejectedPuts++;
      return 'rejected';
    }
    while (this.map.size >= this.capacityBlocks) {
      const v = this.policy.peekVictim() as PoolBlock | undefined;
      if (!v) break;
      this.remove(v);
      this.c.evictions++;
      this.c.evictedTokens += v.tokens;
    }
    if (this.map.size >= this.capacityBlocks) {
      this.c.rejectedPuts++;
      return 'rejected';
    }
    const b: PoolBlock = { hash, tokens, tag, from, prev: null, next: null };
    this.map.set(hash, b);
    this.policy.add(b);
    this.usedTokens += tokens;
    this.c.puts++;
    this.c.putTokens += tokens;
    this.c.bytesIn += this.bytesPerBlock;
    return 'stored';
  }

  /** Read a block for a replica (the pool keeps it; the read refreshes it). Undefined if absent. */
  fetch(hash: BlockHash): PoolBlockInfo | undefined {
    const b = this.map.get(hash);
    if (!b) return undefined;
    this.policy.touch(b);
    this.c.fetches++;
    this.c.fetchTokens += b.tokens;
    this.c.bytesOut += this.bytesPerBlock;
    return { hash: b.hash, tokens: b.tokens, tag: b.tag, from: b.from };
  }

  /** Remove blocks; returns how many were present. */
  drop(hashes: Iterable<BlockHash>): number {
    let n = 0;
    for (const h of hashes) {
      const b = this.map.get(h);
      if (!b) continue;
      this.remove(b);
      this.c.dropped++;
      this.c.droppedTokens += b.tokens;
      n++;
    }
    return n;
  }

  private remove(b: PoolBlock): void {
    this.policy.remove(b);
    this.map.delete(b.hash);
    this.usedTokens -= b.tokens;
  }

  counters(): PoolCounters {
    return { ...this.c };
  }

  occupancy(): { capacityBlocks: number; usedBlocks: number; usedTokens: number; usedBytes: number } {
    return {
      capacityBlocks: this.capacityBlocks,
      usedBlocks: this.map.size,
      usedTokens: this.usedTokens,
      usedBytes: this.map.size * this.bytesPerBlock,
    };
  }

  *blocks(): IterableIterator<PoolBlockInfo> {
    for (const b of this.map.values()) yield { hash: b.hash, tokens: b.tokens, tag: b.tag, from: b.from };
  }

  snapshot(): PoolSnapshot {
    const n = this.map.size;
    const s: PoolSnapshot = {
      count: n,
      hashes: new Float64Array(n),
      tokens: new Uint32Array(n),
      tags: new Int32Array(n),
    };
    let i = 0;
    for (const b of this.map.values()) {
      s.hashes[i] = b.hash;
      s.tokens[i] = b.tokens;
      s.tags[i] = b.tag;
      i++;
    }
    return s;
  }

  /** Consistency checks for tests: returns the violations found (empty when all hold). O(blocks). */
  checkInvariants(): string[] {
    const out: string[] = [];
    if (this.map.size > this.capacityBlocks)
      out.push(`pool over capacity: ${this.map.size} > ${this.capacityBlocks}`);
    if (this.policy.size !== this.map.size)
      out.push(`pool policy holds ${this.policy.size} of ${this.map.size} blocks`);
    let tok = 0;
    for (const b of this.map.values()) tok += b.tokens;
    if (tok !== this.usedTokens) out.push(`pool tokens ${this.usedTokens} != recount ${tok}`);
    if (this.c.puts !== this.map.size + this.c.evictions + this.c.dropped)
      out.push(
        `pool blocks: puts ${this.c.puts} != resident ${this.map.size} + evicted ${this.c.evictions} + dropped ${this.c.dropped}`,
      );
    if (this.c.putTokens !== tok + this.c.evictedTokens + this.c.droppedTokens)
      out.push(`pool tokens not conserved`);
    return out;
  }
}

export function capacityInBlocks(
  blocks: number | undefined,
  bytes: number | undefined,
  bytesPerBlock: number,
  what: string,
): number {
  if ((blocks === undefined) === (bytes === undefined))
    throw new RangeError(`${what}: give exactly one of capacityBlocks and capacityBytes`);
  const n = blocks !== undefined ? blocks : Math.floor((bytes as number) / bytesPerBlock);
  if (!Number.isInteger(n) || n < 0)
    throw new RangeError(`${what}: capacity must be a non-negative whole number of blocks, got ${n}`);
  return n;
}
