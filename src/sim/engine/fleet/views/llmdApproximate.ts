/**
 * llm-d's approximate prefix-cache view: what the inference scheduler's `prefix-cache-scorer` (in its default,
 * "estimate" mode) believes each pod holds. It never hears from the pods. After each scheduling decision it
 * records the request's first block hashes against the pod it picked, in an LRU of its own per pod; a lookup walks
 * the prompt's hashes until the first one no pod was sent. Because the pods' evictions never reach it, a pod under
 * HBM pressure keeps "holding" prefixes it dropped long ago, and the scorer keeps sending their prompts there.
 *
 * Config (router.view), names stable:
 *   { "kind": "llm-d-approximate",
 *     "blockTokens": 16,              // the scorer's block: 64 characters at 4 characters a token
 *     "maxPrefixBlocks": 256,         // blocks of a prompt it hashes; the rest is ignored (256 × 16 = 4,096 tokens)
 *     "lruCapacityPerServer": 31250 } // index entries (blocks) per pod, or "auto": the pod's HBM in blocks
 *
 * Source, and where the defaults come from:
 *  - kubernetes-sigs/gateway-api-inference-extension v1.0.0 (the version llm-d-inference-scheduler v0.3 ships and
 *    llm-d's scheduling benchmark ran), pkg/epp/scheduling/framework/plugins/multi/prefix/plugin.go:
 *    DefaultHashBlockSize = 64 (characters; "vLLM default token block size is 16, and a good guess of average
 *    characters per token is 4"), DefaultMaxPrefixBlocks = 256, DefaultLRUCapacityPerServer = 31250; the score is
 *    matched blocks / hashed blocks; a trailing partial block is not hashed. indexer.go: one hashicorp LRU per pod,
 *    filled in PreRequest with the request's hashes, evicting the least recently *added* (lookups do not refresh).
 *  - llm-d/llm-d-inference-scheduler (now llm-d-router) HEAD 520af47 (2026-05),
 *    pkg/epp/framework/plugins/requestcontrol/dataproducer/approximateprefix/types.go: the same defaults in tokens
 *    (defaultBlockSizeTokens = 16, defaultMaxPrefixBlocks = 256, defaultLRUCapacityPerServer = 31250,
 *    averageCharactersPerToken = 4), and `autoTune` (default true) that takes the block size and the LRU capacity
 *    from the pod's metrics (vLLM's block size and number of GPU blocks): `lruCapacityPerServer: "auto"` here.
 *    Since PR #1548 (2026-06-11; types.go and the package README at ebab687) the window defaults to
 *    maxPrefixTokensToMatch = 131072 (maxPrefixBlocksToMatch = 2048 when that is 0), neither auto-tuned, and a
 *    block under 64 tokens is raised to 64; the defaults above stay the September 2025 benchmark's.
 *  - llm-d/llm-d-kv-cache benchmarking/73-capacity/README.md (commit d070ea6, 2025-09): the benchmark's
 *    "estimated-scheduling" sets hashBlockSize 64, maxPrefixBlocksToMatch 256, lruCapacityPerServer 31250.
 *
 * Simplifications, and what they cost: the fleet hashes tokens in pages of `pageTokens` (the cache's block), so
 * the index works at max(blockTokens, pageTokens): with 256-token pages and 16-token blocks a page stands for 16
 * index entries (the capacity is divided by 16) and a match is counted in whole pages. llm-d hashes characters of
 * the request body (the JSON of chat messages) with an estimated 4 characters a token; the lab hashes tokens, so
 * the window is exactly maxPrefixBlocks × blockTokens tokens. The index is updated synchronously (llm-d updates it
 * in a goroutine right after scheduling), and the pods are never removed (llm-d drops a pod that leaves the pool).
 */
import type { CacheView } from '../view';
import { LLMD_APPROX_DEFAULTS } from '../routerDefaults';
import type { WindowedView } from './capabilities';

export interface LlmdApproximateViewConfig {
  kind: 'llm-d-approximate';
  /** The scorer's block, tokens. Default 16 (64 characters at 4 characters a token). */
  blockTokens?: number;
  /** Blocks of a prompt it hashes and matches. Default 256. */
  maxPrefixBlocks?: number;
  /** Index entries (blocks of blockTokens) per pod, or "auto" (the pod's HBM capacity in blocks). Default 31,250. */
  lruCapacityPerServer?: number | 'auto';
}

export class LlmdApproximateView implements CacheView, WindowedView {
  readonly kind = 'llm-d-approximate';
  readonly syncIntervalS = 0;
  /** Pages per index entry (≥ 1: the scorer's block spans whole pages) … */
  private readonly pagesPerEntry: number;
  /** … or index entries per page (≥ 1: one page stands for several of the scorer's blocks). */
  private readonly entriesPerPage: number;
  /** Pages of a prompt the scorer hashes. */
  private readonly windowPages: number;
  /** Entries each pod's LRU holds (each entry one key of `lru`). */
  readonly capacityEntries: number;
  /** Per pod: insertion-ordered map used as an LRU (delete + set moves a key to the newest end). */
  private readonly lru: Map<number, true>[];
  private readonly out: Int32Array;

  /**
   * @param pageTokens tokens per hash the fleet gives (the cache's page)
   * @param hbmTokens one replica's HBM KV capacity in tokens (for `lruCapacityPerServer: "auto"`)
   */
  constructor(replicas: number, c: LlmdApproximateViewConfig, pageTokens: number, hbmTokens: number) {
    const blockTokens = c.blockTokens ?? LLMD_APPROX_DEFAULTS.blockTokens;
    const maxBlocks = c.maxPrefixBlocks ?? LLMD_APPROX_DEFAULTS.maxPrefixBlocks;
    const cap = c.lruCapacityPerServer ?? LLMD_APPROX_DEFAULTS.lruCapacityPerServer;
    const capBlocks = cap === 'auto' ? Math.floor(hbmTokens / blockTokens) : cap;
    this.pagesPerEntry = Math.max(1, Math.round(blockTokens / pageTokens));
    this.entriesPerPage = Math.max(1, Math.round(pageTokens / blockTokens));
    const windowTokens = maxBlocks * blockTokens;
    this.windowPages = Math.floor(windowTokens / pageTokens);
    this.capacityEntries = Math.max(1, Math.floor(capBlocks / this.entriesPerPage));
    this.lru = Array.from({ length: replicas }, () => new Map<number, true>());
    this.out = new Int32Array(replicas);
  }

  /** Entries of a `count`-page prompt the scorer hashes: whole entries inside the window. */
  private entries(count: number): number {
    return Math.floor(Math.min(count, this.windowPages) / this.pagesPerEntry);
  }

  window(count: number): number {
    return this.entries(count) * this.pagesPerEntry;
  }

  /** The hash naming entry j (the chained hash of its last page, which fixes the whole prefix before it). */
  private key(hashes: ArrayLike<number>, j: number): number {
    return hashes[(j + 1) * this.pagesPerEntry - 1];
  }

  match(hashes: ArrayLike<number>, count: number): Int32Array {
    const n = this.entries(count);
    for (let r = 0; r < this.lru.length; r++) {
      const m = this.lru[r];
      let j = 0;
      while (j < n && m.has(this.key(hashes, j))) j++;
      this.out[r] = j * this.pagesPerEntry;
    }
    return this.out;
  }

  routed(replica: number, hashes: ArrayLike<number>, count: number): void {
    const m = this.lru[replica];
    const n = this.entries(count);
    for (let j = 0; j < n; j++) {
      const h = this.key(hashes, j);
      m.delete(h);
      m.set(h, true);
    }
    if (m.size > this.capacityEntries) {
      const it = m.keys();
      for (let excess = m.size - this.capacityEntries; excess > 0; excess--)
        m.delete(it.next().value as number);
    }
  }

  sync(): void {}

  /** Entries the index holds for a pod (for tests and read-outs). */
  entriesOf(replica: number): number {
    return this.lru[replica].size;
  }
}
