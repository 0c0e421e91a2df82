/**
 * Paged, tiered, prefix-reusing KV cache: one `KvCache` per replica, optionally sharing one `KvPool`.
 *
 * ## Model
 * - **Blocks.** KV is paged in blocks of `blockSize` tokens, each `bytesPerBlock` bytes (`kvBlockBytes(model,
 *   dtype, blockSize)`). A block is named by a *chained* hash (hash.ts): block k's hash covers every token up to
 *   and including block k, as in vLLM and Mooncake, so equal hashes mean equal prefixes and a lookup walks a
 *   request's hash list until the first miss. Mooncake `hash_ids` are already chained and can be used as they
 *   are; `segmentBlockHashes` turns a prompt made of content segments into hashes; `chainHashes` chains one
 *   content id per block. Only the last block of a sequence may be partial (`tokens` option).
 * - **Tiers**, fastest first: `hbm` (required), then any of `dram`, `nvme`, `remote`. Each local tier has a
 *   capacity (blocks or bytes), an eviction policy (LRU by default, FIFO built in, or any `EvictionPolicy`), a
 *   write policy (cacheTypes.ts `WritePolicy`: write-through as computed, write-back on eviction, or none) and a
 *   link to the tier above (`{bandwidthGBps, latencyS}`, plain numbers). The `remote` tier is a `KvPool` object
 *   that several replica caches may reference (Mooncake Store style).
 * - **Inclusive tiers.** A block may have a copy in several tiers at once (as LMCache, vLLM's OffloadingConnector
 *   and SGLang HiCache keep them); a hit is served from the fastest tier holding it and *read up* to HBM, the
 *   lower copy staying (a computed block never changes). A tier that needs room evicts its policy's victim copy;
 *   only when that was the block's last copy does anything move: it is written back to the next tier if that tier
 *   is write-back (a tier of capacity 0 is passed through), past the last local tier into the pool if there is
 *   one, else dropped. A write-through tier receives every full block once, as it is computed above. Bytes per
 *   link are counted once per copy sent (tierStore.ts). With `promoteOnHit: false`, the HBM copy of a block read
 *   up for a sequence is freed when it releases it.
 * - **Load time** of the blocks found in tier t = a transfer up every link from t to HBM: Σ latency +
 *   bytes / min bandwidth (`transferModel: 'pipelined'`, default) or Σ (latency + bytes / bandwidth)
 *   (`'store-and-forward'`). One transfer per tier per lookup (blocks are batched); tiers are loaded one after
 *   the other, so `loadTimeS` is the sum over tiers.
 * - **Sequences** (running requests) *pin* their blocks in HBM (a count per block: shared prefixes are pinned by
 *   every sequence using them); pinned blocks are never evicted, demoted, offloaded or dropped. Blocks allocated
 *   for tokens still to be computed are *pending*: they occupy HBM but lookups do not find them until
 *   `commit()`. When HBM is full of pinned blocks an acquire fails cleanly (`{ok: false, reason}`) and changes
 *   nothing.
 * - **Cost** is O(blocks touched) per call, with Maps and intrusive linked lists; never per token. A released
 *   context is kept as one *run* in DRAM's order (runs.ts: HBM + DRAM caches), so an agent's tool-call offload
 *   and its next turn's read-back cost O(blocks the turn added); results are those of keeping every block on its
 *   own (`contextRuns: false`), which a property test checks. A head many sequences hold at once (an app's system
 *   prompt and tools: `sharedBlocks`) is checked once and joined by the others (shares.ts), with the same results.
 *
 * ## API (for the fleet simulator)
 * ```ts
 * const bpb = kvBlockBytes(findModel('llama-3.1-70b')!, 'bf16', 16);
 * const pool = new KvPool({ bytesPerBlock: bpb, capacityBytes: 2e12 });            // shared by all replicas
 * const replicas = [0, 1, 2, 3].map((id) => new KvCache({
 *   id, blockSize: 16, bytesPerBlock: bpb,
 *   tiers: [
 *     { name: 'hbm', capacityBytes: 8 * 80e9 * 0.9 - 141e9 },
 *     { name: 'dram', capacityBytes: 1e12, link: { bandwidthGBps: 50, latencyS: 10e-6 },     // PCIe Gen5, measured
 *       write: 'write-through' },                                                        // copy blocks as computed
 *     { name: 'remote', pool, link: { bandwidthGBps: 50, latencyS: 20e-6 } },             // 400 Gb/s RDMA
 *   ],
 * }));
 * const { hashes, tokens } = segmentBlockHashes(request.segments, 16);
 * const found = replicas.map((r) => r.lookup(hashes));          // router: no side effects
 * const cache = replicas[chosen];
 * const a = cache.acquire(request.id, hashes, { tokens, tag: request.sessionId });
 * if (!a.ok) queueOrPreempt(a.reason);                          // nothing changed
 * else {
 *   // TTFT: a.hit.loadTimeS to bring the prefix up + prefill of a.computeTokens on top of a.hit.tokens
 *   cache.commit(request.id);                                   // after prefill (or commit(id, n) per chunk)
 *   cache.extend(request.id, [nextBlockHash], { tokens: tokens + generated }); // decode crosses a block boundary
 *   cache.release(request.id, 'cache' | 'drop' | 'dram' | 'remote'); // tool pause: hold, evict or offload
 * }
 * cache.occupancy();        // per tier: capacity, used, pinned, pending blocks, tokens, bytes
 * cache.snapshot();         // typed arrays: hash, tier, tokens, owner tag, pins, pending — one frame
 * cache.counters();         // hits per tier, evictions, demotions, promotions, bytes per link, …
 * pool.counters();          // puts, dedup, fetches, evictions, bytes
 * ```
 * Other operations: `insert(hashes)` (computed blocks, unpinned), `offload(hashes, tier)`, `drop(hashes)`,
 * `where(hash)` (fastest tier), `copiesOf(hash)` (every tier), `held(seq)`, `heldCount(seq)`, `blocks()`,
 * `loadTimeS(tier, blocks)`, `checkInvariants()` (for tests, invariants.ts), `subscribe(clock?)`: a KV event log
 * (events.ts) of computed copies stored in and removed from each local tier, as vLLM publishes them, for router
 * views that keep their own copy of the cache (fleet/view.ts `delayed`).
 *
 * Speed: a replica's blocks are parallel typed arrays indexed by a block id (blockStore.ts; a copy is named by
 * `id × 3 + tier`, and each tier's eviction order links copy ids, copyOrder.ts), so a walk over a context reads a
 * few dense arrays and the collector sees no block records; the index from hash to id is an open-addressing
 * table (hashMap.ts). The fleet hashes a session's prompt incrementally (hash.ts `PromptHasher`). A sequence
 * acquired again reads the ids it held when released (`lookupHints`), and a release to a lower tier parks its
 * HBM copies for the offload instead of passing them through HBM's LRU list (sequences.ts). See
 * docs/performance.md for what a block operation costs and where the bench fleet's time goes.
 *
 * Accounting (checked by checkInvariants): blocks that entered a replica (`created` + `fetched`) = resident +
 * `freed` (pending, released uncomputed) + `dropped` + `toPool`; the same holds in tokens, and for the pool
 * (`puts` = resident + evicted + dropped).
 */
import { kvBytesPerToken, type Dtype, type ModelSpec } from '../catalog/models';

export * from './types';
export * from './policy';
export * from './hash';
export * from './pool';
export * from './cache';
export * from './events';

/** Bytes of one KV block: kvBytesPerToken(model, dtype) × blockSize. */
export function kvBlockBytes(model: ModelSpec, dtype: Dtype, blockSize: number): number {
  return kvBytesPerToken(model, dtype) * blockSize;
}
