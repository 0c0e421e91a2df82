/**
 * What a cache-aware router knows of the replicas' KV caches.
 *
 *  - `exact`: the caches as they are now (llm-d's precise prefix-cache scorer, fed by KV events).
 *  - `delayed`: a copy refreshed every `intervalS` seconds (KV events or metrics that arrive late).
 *  - `approximate`: the router's own guess: every prompt it routes is assumed cached on the chosen replica,
 *    evictions are never seen, and the guess is an LRU of `capacityBlocks` per replica (SGLang's router keeps
 *    such an approximate radix tree per worker).
 * Matching is longest-prefix: walk the request's block hashes until the first block the replica lacks.
 * Cost O(Σ matched + replicas) per route.
 */
import type { KvCache } from '../kvcache/cache';
import type { TierName } from '../kvcache/types';
import { LlmdApproximateView, type LlmdApproximateViewConfig } from './views/llmdApproximate';
import { SglangRadixView, type SglangRadixViewConfig } from './views/sglangRadix';
import { LaggedEventView, PreciseView, publishesEvents, type PreciseViewConfig } from './views/precise';

export type ViewTiers = 'hbm' | 'local';

export type CacheViewConfig =
  | { kind: 'exact'; tiers?: ViewTiers }
  | { kind: 'delayed'; intervalS: number; tiers?: ViewTiers }
  | { kind: 'approximate'; capacityBlocks?: number }
  | LlmdApproximateViewConfig
  | SglangRadixViewConfig
  | PreciseViewConfig;

export type CacheViewKind = CacheViewConfig['kind'];
/** Every view kind (a record, so a kind added to the union and not here fails to compile). */
const VIEW_KINDS: Record<CacheViewKind, true> = {
  exact: true,
  delayed: true,
  approximate: true,
  'llm-d-approximate': true,
  'sglang-radix': true,
  precise: true,
};
export const CACHE_VIEW_KINDS = Object.keys(VIEW_KINDS) as CacheViewKind[];

export interface CacheView {
  readonly kind: CacheViewConfig['kind'];
  /** Seconds between refreshes (delayed views), else 0. */
  readonly syncIntervalS: number;
  /** Matched prefix of hashes[0..count) in blocks, per replica. The array is reused by the next call. */
  match(hashes: ArrayLike<number>, count: number): Int32Array;
  /** The router sent a prompt (hashes[0..count)) to `replica`. */
  routed(replica: number, hashes: ArrayLike<number>, count: number): void;
  /** Refresh (delayed views). */
  sync(): void;
}

function inTiers(t: TierName | undefined, tiers: ViewTiers): boolean {
  if (t === undefined) return false;
  return tiers === 'hbm' ? t === 'hbm' : t !== 'remote';
}

class ExactView implements CacheView {
  readonly kind = 'exact';
  readonly syncIntervalS = 0;
  private readonly out: Int32Array;
  constructor(
    private readonly caches: readonly KvCache[],
    private readonly tiers: ViewTiers,
  ) {
    this.out = new Int32Array(caches.length);
  }
  match(hashes: ArrayLike<number>, count: number): Int32Array {
    for (let r = 0; r < this.caches.length; r++) {
      const c = this.caches[r];
      let i = 0;
      while (i < count && inTiers(c.where(hashes[i]), this.tiers)) i++;
      this.out[r] = i;
    }
    return this.out;
  }
  routed(): void {}
  sync(): void {}
}

/** Binary search in a sorted Float64Array. */
function sortedHas(a: Float64Array, x: number): boolean {
  let lo = 0;
  let hi = a.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = a[mid];
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

class DelayedView implements CacheView {
  readonly kind = 'delayed';
  /** Per replica: the hashes it had at the last refresh, sorted (a typed-array sort is native and fast). */
  private readonly copies: Float64Array[];
  private readonly out: Int32Array;
  constructor(
    private readonly caches: readonly KvCache[],
    readonly syncIntervalS: number,
    private readonly tiers: ViewTiers,
  ) {
    this.copies = caches.map(() => new Float64Array(0));
    this.out = new Int32Array(caches.length);
    this.sync();
  }
  sync(): void {
    const hbmOnly = this.tiers === 'hbm';
    for (let r = 0; r < this.caches.length; r++) {
      const snap = this.caches[r].snapshot();
      const keep = new Float64Array(snap.count);
      let n = 0;
      for (let i = 0; i < snap.count; i++) {
        if (snap.flags[i] & 1) continue; // pending: not computed yet
        if (hbmOnly && snap.tier[i] !== 0) continue;
        keep[n++] = snap.hashes[i];
      }
      this.copies[r] = keep.subarray(0, n).sort();
    }
  }
  match(hashes: ArrayLike<number>, count: number): Int32Array {
    for (let r = 0; r < this.copies.length; r++) {
      const a = this.copies[r];
      let i = 0;
      while (i < count && sortedHas(a, hashes[i])) i++;
      this.out[r] = i;
    }
    return this.out;
  }
  routed(): void {}
}

class ApproximateView implements CacheView {
  readonly kind = 'approximate';
  readonly syncIntervalS = 0;
  /** Insertion-ordered maps used as LRUs (delete + set moves a key to the newest end). */
  private readonly lru: Map<number, true>[];
  private readonly out: Int32Array;
  constructor(
    replicas: number,
    private readonly capacity: number,
  ) {
    this.lru = Array.from({ length: replicas }, () => new Map<number, true>());
    this.out = new Int32Array(replicas);
  }
  match(hashes: ArrayLike<number>, count: number): Int32Array {
    for (let r = 0; r < this.lru.length; r++) {
      const m = this.lru[r];
      let i = 0;
      while (i < count && m.has(hashes[i])) i++;
      this.out[r] = i;
    }
    return this.out;
  }
  routed(replica: number, hashes: ArrayLike<number>, count: number): void {
    const m = this.lru[replica];
    for (let i = 0; i < count; i++) {
      m.delete(hashes[i]);
      m.set(hashes[i], true);
    }
    if (m.size > this.capacity) {
      const it = m.keys();
      for (let excess = m.size - this.capacity; excess > 0; excess--) m.delete(it.next().value as number);
    }
  }
  sync(): void {}
}

/**
 * A view over the given caches. `defaultCapacity` (blocks) sizes an approximate view when not given; `clock` (the
 * fleet's simulated time) lets a precise view with a latency apply each KV event that late.
 */
export function createCacheView(
  c: CacheViewConfig,
  caches: readonly KvCache[],
  defaultCapacity: number,
  clock?: () => number,
): CacheView {
  switch (c.kind) {
    case 'exact':
      return new ExactView(caches, c.tiers ?? 'local');
    case 'delayed':
      return new DelayedView(caches, c.intervalS, c.tiers ?? 'local');
    case 'approximate':
      return new ApproximateView(caches.length, Math.max(1, Math.floor(c.capacityBlocks ?? defaultCapacity)));
    case 'llm-d-approximate': {
      const pageTokens = caches[0]?.blockSize ?? 1;
      return new LlmdApproximateView(caches.length, c, pageTokens, defaultCapacity * pageTokens);
    }
    case 'sglang-radix':
      return new SglangRadixView(caches.length, c, caches[0]?.blockSize ?? 1);
    case 'precise': {
      const tiers = c.tiers ?? 'local';
      const lag = c.latencyS ?? 0;
      if (lag > 0 && clock && publishesEvents(caches)) return new LaggedEventView(caches, lag, tiers, clock);
      return new PreciseView(lag > 0 ? new DelayedView(caches, lag, tiers) : new ExactView(caches, tiers));
    }
  }
}
