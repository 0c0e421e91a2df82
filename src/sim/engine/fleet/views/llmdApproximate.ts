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
import { BlockChain, type Segment } from '../../kvcache/hash';
import type { CacheView, PromptKeys } from '../view';
import { isToolSchema } from '../workload';
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
  /**
   * What it hashes: "prompt", the prompt as the engine renders it, tool schemas included (the default), or
   * "messages", the prompt without its tool-schema segments: GAIE v1.0.0 hashes the chat messages' roles and text
   * (pkg/epp/util/request/body.go), so an agent that sends its schemas in the request's `tools` field leaves them
   * out of the index.
   */
  hashes?: 'prompt' | 'messages';
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
  /** hashes: "messages": the page size and the window in tokens, for promptKeys. */
  private readonly messagesOnly: boolean;
  private readonly pageTokens: number;
  private readonly windowTokens: number;

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
    this.messagesOnly = c.hashes === 'messages';
    this.pageTokens = pageTokens;
    this.windowTokens = windowTokens;
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

  /**
   * hashes: "messages": the chained page hashes of the prompt without its tool schemas, as far as the window
   * reaches, and how many pages the prompt has without them; the route's match, score and record then read these
   * (routeRequest.ts). Null when the index hashes the prompt the fleet hashed.
   */
  promptKeys(segs: readonly Segment[] | null, promptTokens: number): PromptKeys | null {
    if (!this.messagesOnly || !segs) return null;
    const chain = new BlockChain(this.pageTokens);
    let seen = 0;
    let kept = 0;
    for (const seg of segs) {
      if (seen >= promptTokens) break;
      const tokens = Math.min(seg.tokens, promptTokens - seen);
      seen += tokens;
      if (isToolSchema(seg.id)) continue;
      kept += tokens;
      // Hashed up to the window only (a segment's first pages hash the same whether or not it is cut after them).
      const take = Math.min(tokens, this.windowTokens - chain.tokens);
      if (take > 0) chain.push(take === seg.tokens ? seg : { id: seg.id, tokens: take });
    }
    return { hashes: chain.full, count: Math.floor(kept / this.pageTokens) };
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
