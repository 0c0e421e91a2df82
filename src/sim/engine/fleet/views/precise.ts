/**
 * llm-d's precise prefix-cache view: the index llm-d-kv-cache builds from the engines' KV events. vLLM publishes a
 * `BlockStored` event when a full block enters its prefix cache and a `BlockRemoved` when it is evicted
 * (vllm/distributed/kv_events.py, over ZMQ); llm-d-kv-cache's event pool applies them to an index of block hash →
 * pods (llm-d/llm-d-kv-cache pkg/kvevents/pool.go, pkg/kvcache/kvblock/in_memory.go, default 1e8 keys, 10 pods a
 * key), and the scorer walks the prompt's blocks from the first (pkg/kvcache/kvblock_scorer.go
 * `LongestPrefixScorer`). So the router sees evictions, unlike the approximate views, only late by the events'
 * delivery.
 *
 * Config (router.view), names stable:
 *   { "kind": "precise",
 *     "latencyS": 0,        // events applied in batches this often (0: as they happen)
 *     "tiers": "local" }    // "hbm": GPU events only; "local": also the CPU/disk tiers' (llm-d's medium "cpu")
 *
 * Simplifications, and what they cost: with latencyS = 0 the view is the caches as they are at the routing
 * instant (events over ZMQ arrive in milliseconds, far below a prefill). With latencyS > 0 the events are applied
 * in one batch every latencyS seconds (the delayed view's refresh), so the staleness runs from 0 to latencyS
 * rather than being latencyS for every event. llm-d weights a CPU-tier block 0.8 and a GPU block 1 (backend.go
 * `DefaultKVCacheBackendConfig`); the lab counts both as matched blocks.
 */
import type { CacheView, ViewTiers } from '../view';

export interface PreciseViewConfig {
  kind: 'precise';
  /** Seconds between batches of KV events reaching the index. Default 0 (every event at once). */
  latencyS?: number;
  /** Which tiers' events the index hears. Default "local". */
  tiers?: ViewTiers;
}

/** The KV-event index: the exact or the delayed view's matching, under its own name. */
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
