/**
 * What a cache-aware router knows of the replicas' KV caches.
 *
 *  - `exact`: the caches as they are now (llm-d's precise prefix-cache scorer, fed by KV events).
 *  - `delayed`: the caches as of the last refresh, every `intervalS` seconds (KV events or metrics that arrive
 *    late), kept from the caches' KV event logs.
 *  - `approximate`: the router's own guess: every prompt it routes is assumed cached on the chosen replica,
 *    evictions are never seen, and the guess is an LRU of `capacityBlocks` per replica (SGLang's router keeps
 *    such an approximate radix tree per worker).
 * Matching is longest-prefix: walk the request's block hashes until the first block the replica lacks.
 * Cost O(Σ matched + replicas) per route.
 */
import type { KvCache } from '../kvcache/cache';
import type { Segment } from '../kvcache/hash';
import { HashCounts, HashDeltas } from '../kvcache/events';
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
  /**
   * The hashes a view keys a prompt by when they are not the fleet's (llm-d's index of the chat messages alone),
   * else null or absent: the router then matches and records these instead.
   */
  promptKeys?(segs: readonly Segment[] | null, promptTokens: number): PromptKeys | null;
}

/** A prompt as a view keys it: chained page hashes and the prompt's length in pages. */
export interface PromptKeys {
  hashes: ArrayLike<number>;
  count: number;
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

/**
 * The caches as they were at the last refresh. Kept current from each cache's KV events (kvcache/events.ts),
 * as llm-d's precise scorer is fed from vLLM's: the events since the previous refresh are summed per hash as
 * they arrive and a refresh applies the sums, so it costs O(blocks that changed), where copying every cache
 * cost O(blocks held) (a 1 s view cost 3.1× the exact one on the bench fleet), and memory stays O(blocks) even
 * when the router never refreshes it. The result is the same set a snapshot taken at the refresh gives:
 * the computed blocks in the counted tiers (pending blocks are neither reported nor found).
 */
class DelayedView implements CacheView {
  readonly kind = 'delayed';
  /** Per replica: computed copies per hash in the tiers the view counts, as of the last refresh. */
  private readonly held: HashCounts[];
  private readonly deltas: HashDeltas[];
  private readonly out: Int32Array;
  constructor(
    caches: readonly KvCache[],
    readonly syncIntervalS: number,
    tiers: ViewTiers,
  ) {
    this.out = new Int32Array(caches.length);
    const counts = tiers === 'hbm' ? (t: number) => t === 0 : () => true;
    this.deltas = caches.map((c) => {
      const d = new HashDeltas(counts);
      c.attach(d);
      return d;
    });
    // What the caches hold when the view starts (nothing, at a fleet's start); events carry on from there.
    this.held = caches.map((c) => {
      const h = new HashCounts();
      for (const b of c.blocks()) {
        if (b.pending) continue;
        const n = tiers === 'hbm' ? (b.tiers[0] === 'hbm' ? 1 : 0) : b.tiers.length;
        if (n > 0) h.add(b.hash, n);
      }
      return h;
    });
  }
  sync(): void {
    for (let r = 0; r < this.deltas.length; r++) this.deltas[r].apply(this.held[r]);
  }
  match(hashes: ArrayLike<number>, count: number): Int32Array {
    for (let r = 0; r < this.held.length; r++) {
      const h = this.held[r];
      let i = 0;
      while (i < count && h.has(hashes[i])) i++;
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
