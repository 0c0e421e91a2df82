/**
 * The links between one replica's HBM and each lower tier of its cache. Each link serves one transfer at a time
 * per direction (FIFO): reloads queue towards HBM, stores (offloads, write-through and write-back copies) towards
 * the tier. A PCIe link is full duplex, so the two directions queue apart (the vLLM offloading-connector blog
 * measures about 50 GB/s per direction between an H100 and host memory). Simplification: each direction runs at
 * that one-way figure even while the other is busy; the same blog measured 83.4 GB/s in all with both directions
 * copying (about 42 each), so a busy link's reloads here are up to a fifth faster (lesson 07.04 says so). A transfer to or from the shared pool
 * also takes its turn on the pool's own bandwidth, which every replica shares in both directions.
 */
import type { KvCache, ReleaseThen } from '../kvcache/cache';
import type { TierName } from '../kvcache/types';

/** A resource shared by all replicas: transfers take turns on it (FIFO). */
export interface SharedLink {
  bytesPerS: number;
  freeAt: number;
}

export class TierLinks {
  /** Per tier index: when its link is free towards HBM. */
  private readonly up: number[];
  /** Per tier index: when its link is free towards the tier. */
  private readonly down: number[];
  /** Per tier index: copies written through / back that are already booked on its link. */
  private readonly throughBooked: number[];
  private readonly backBooked: number[];

  constructor(
    private readonly tiers: readonly string[],
    private readonly pool: SharedLink | null,
  ) {
    this.up = tiers.map(() => 0);
    this.down = tiers.map(() => 0);
    this.throughBooked = tiers.map(() => 0);
    this.backBooked = tiers.map(() => 0);
  }

  /** Queue a reload of `bytes` from tier t, taking `timeS` on its link, no earlier than `earliest`. Returns its end. */
  reload(t: number, earliest: number, timeS: number, bytes: number): number {
    return this.queue(this.up, t, earliest, timeS, bytes);
  }

  /** Queue a store of `bytes` to tier t, taking `timeS` on its link, no earlier than `earliest`. Returns its end. */
  store(t: number, earliest: number, timeS: number, bytes: number): number {
    return this.queue(this.down, t, earliest, timeS, bytes);
  }

  /** Release a sequence's blocks to a lower tier: the copies its release makes queue on that tier's link down. */
  releaseDown(cache: KvCache, seq: number, tier: 'dram' | 'nvme' | 'remote', now: number): void {
    const res = cache.release(seq, tier as ReleaseThen);
    const t = this.tiers.indexOf(tier);
    if (res.offload && res.offload.timeS > 0 && t > 0)
      this.store(t, now, res.offload.timeS, res.offload.bytes);
  }

  private queue(free: number[], t: number, earliest: number, timeS: number, bytes: number): number {
    let start = Math.max(earliest, free[t]);
    let dur = timeS;
    const pool = this.pool;
    if (pool && this.tiers[t] === 'remote') {
      // The pool serves every replica: the transfer also waits for, and is limited by, its bandwidth.
      start = Math.max(start, pool.freeAt);
      dur = Math.max(dur, bytes / pool.bytesPerS);
      pool.freeAt = start + bytes / pool.bytesPerS;
    }
    free[t] = start + dur;
    return start + dur;
  }

  /**
   * Blocks the cache copied down into a local lower tier since the last call (written through as computed, or
   * written back when evicted) take their turn on that tier's link downwards, like offloads. Time over the tier's
   * path up to HBM. Returns when the write-backs are done: an eviction that must write its victim first waits for
   * it (SGLang HiCache `write_back` blocks in `evict()` until the host copies are acknowledged,
   * python/sglang/srt/mem_cache/hiradix_cache.py), while write-through copies run behind the compute and nobody
   * waits for them.
   */
  bookStores(cache: KvCache, now: number): number {
    let backDone = now;
    const tiers = this.tiers;
    for (let t = 1; t < tiers.length && tiers[t] !== 'remote'; t++) {
      const wThrough = cache.writtenThrough(t);
      const wBack = cache.writtenBack(t);
      const through = wThrough - this.throughBooked[t];
      const back = wBack - this.backBooked[t];
      if (through + back <= 0) continue;
      this.throughBooked[t] = wThrough;
      this.backBooked[t] = wBack;
      const name = tiers[t] as TierName;
      let free = Math.max(now, this.down[t]);
      if (back > 0) {
        free += cache.loadTimeS(name, back);
        backDone = Math.max(backDone, free);
      }
      if (through > 0) free += cache.loadTimeS(name, through);
      this.down[t] = free;
    }
    return backDone;
  }
}
