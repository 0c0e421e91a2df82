/**
 * llm-d's precise prefix-cache view: the index llm-d-kv-cache builds from the engines' KV events. vLLM publishes
 * `BlockStored` events naming the full blocks (a list of block hashes) that enter its prefix cache and
 * `BlockRemoved` events naming those evicted (vllm/distributed/kv_events.py, over ZMQ); llm-d-kv-cache's event pool applies them to an index of block hash →
 * pods (llm-d/llm-d-kv-cache pkg/kvevents/pool.go, pkg/kvcache/kvblock/in_memory.go, default 1e8 keys, 10 pods a
 * key), and the scorer walks the prompt's blocks from the first (pkg/kvcache/kvblock_scorer.go
 * `LongestPrefixScorer`). So the router sees evictions, unlike the approximate views, only late by the events'
 * delivery.
 *
 * Config (router.view), names stable:
 *   { "kind": "precise",
 *     "latencyS": 0,        // seconds from a KV event to the index (0: the caches as they are)
 *     "tiers": "local" }    // "hbm": GPU events only; "local": also the CPU/disk tiers' (llm-d's medium "cpu")
 *
 * With latencyS = 0 the view is the caches as they are at the routing instant (events over ZMQ arrive in
 * milliseconds, far below a prefill). With latencyS > 0 and caches that publish KV events (`subscribe`, the
 * engine's event log), each event reaches the index exactly latencyS after it happened: a block stored less than
 * latencyS ago is not found yet, one removed less than latencyS ago is still found. Caches without an event log
 * fall back to applying them in one batch every latencyS (the delayed view's refresh: staleness 0 … latencyS).
 *
 * Simplification, and what it costs: llm-d weights a CPU-tier block 0.8 and a GPU block 1 (llm-d-kv-cache
 * pkg/kvcache/backend.go `DefaultKVCacheBackendConfig`); the lab counts both as matched blocks.
 */
import type { KvCache } from '../../kvcache/cache';
import type { CacheView, ViewTiers } from '../view';

export interface PreciseViewConfig {
  kind: 'precise';
  /** Seconds from a KV event to the index. Default 0 (the caches as they are). */
  latencyS?: number;
  /** Which tiers' events the index hears. Default "local". */
  tiers?: ViewTiers;
}

/** The exact or the delayed view's matching, under the precise view's name. */
export class PreciseView implements CacheView {
  readonly kind = 'precise';
  readonly syncIntervalS: number;
  constructor(private readonly inner: CacheView) {
    this.syncIntervalS = inner.syncIntervalS;
  }
  match(hashes: ArrayLike<number>, count: number): Int32Array {
    return this.inner.match(hashes, count);
  }
  routed(): void {}
  sync(): void {
    this.inner.sync();
  }
}

/** What a cache's KV event log offers (kvcache/events.ts `KvEventLog`): events oldest first, up to a time. */
export interface KvEventSource {
  drain(f: (hash: number, tier: number, stored: boolean) => void, until?: number): number;
}

interface Subscribable {
  subscribe(clock?: () => number): KvEventSource;
}

/** Whether every cache publishes KV events a view can subscribe to. */
export function publishesEvents(caches: readonly KvCache[]): boolean {
  return (
    caches.length > 0 &&
    caches.every((c) => typeof (c as unknown as Partial<Subscribable>).subscribe === 'function')
  );
}

/**
 * The index llm-d-kv-cache keeps, `latencyS` behind the caches: per replica, computed copies per hash in the
 * counted tiers, as of `clock() − latencyS`. Each match first applies the events that have arrived by then.
 */
export class LaggedEventView implements CacheView {
  readonly kind = 'precise';
  readonly syncIntervalS = 0;
  private readonly logs: KvEventSource[];
  private readonly held: Map<number, number>[];
  private readonly out: Int32Array;

  constructor(
    caches: readonly KvCache[],
    private readonly latencyS: number,
    private readonly tiers: ViewTiers,
    private readonly clock: () => number,
  ) {
    this.out = new Int32Array(caches.length);
    this.logs = caches.map((c) => (c as unknown as Subscribable).subscribe(clock));
    // What the caches hold when the view starts (nothing at a fleet's start); the events carry on from there.
    this.held = caches.map((c) => {
      const m = new Map<number, number>();
      for (const b of c.blocks()) {
        if (b.pending) continue;
        const n = tiers === 'hbm' ? (b.tiers[0] === 'hbm' ? 1 : 0) : b.tiers.length;
        if (n > 0) m.set(b.hash, n);
      }
      return m;
    });
  }

  private arrive(): void {
    const until = this.clock() - this.latencyS;
    const hbmOnly = this.tiers === 'hbm';
    for (let r = 0; r < this.logs.length; r++) {
      const m = this.held[r];
      this.logs[r].drain((hash, tier, stored) => {
        if (hbmOnly && tier !== 0) return;
        const n = (m.get(hash) ?? 0) + (stored ? 1 : -1);
        if (n > 0) m.set(hash, n);
        else m.delete(hash);
      }, until);
    }
  }

  match(hashes: ArrayLike<number>, count: number): Int32Array {
    this.arrive();
    for (let r = 0; r < this.held.length; r++) {
      const m = this.held[r];
      let i = 0;
      while (i < count && m.has(hashes[i])) i++;
      this.out[r] = i;
    }
    return this.out;
  }

  routed(): void {}
  sync(): void {}
}
