/**
 * Disaggregated prefill: a pool of prefill workers computes prompts' KV and ships it to a pool of decode workers,
 * so a long prefill never shares an iteration with anyone's decodes (DistServe, OSDI 2024; Splitwise, ISCA 2024;
 * Mooncake, FAST 2025; NVIDIA Dynamo; llm-d's P/D). The scenario option `disaggregation` (docs/scenarios.md).
 *
 * The request's path, as llm-d runs it (decode worker first; current Dynamo routes to the prefill worker first and
 * then hands the KV's NIXL metadata on to the decode worker: docs/components/router/router-disaggregated-serving.md):
 *  1. Routing, both phases at arrival. The decode worker is chosen first, by the scenario's router over the decode
 *     pool; then the decision whether to prefill remotely: only when the prompt's part the decode worker does not
 *     hold (in the router's view) is at least `localPrefillBelow` tokens — the conditional disaggregation of
 *     Dynamo's 2025 router (`prefill_length − prefix_hit_length > max_local_prefill_length`, default 1000:
 *     ai-dynamo/dynamo lib/llm/src/disagg_router.rs DisaggRouterConf at 3454aa8b; removed from the design docs in
 *     PR #5993; today's rule, experimental and off by default, keeps a prompt local under 2,048 uncached tokens
 *     and 0.7 of the prompt, PR #11723), llm-d's `prefix-based-pd-decider`
 *     (`nonCachedTokens`, llm-d/llm-d-router, llm-d-inference-scheduler until PR #1164,
 *     pkg/epp/framework/plugins/scheduling/profilehandler/disagg/prefix_based_pd_decider.go, earlier
 *     pkg/plugins/profile/prefix_based_pd_decider.go, which inspects the decode pod's prefix match). Short or
 *     well-cached prompts prefill on the decode worker like any request. Otherwise the prefill worker is chosen by the same router kind over the prefill pool (llm-d's
 *     prefill profile composes the prefix scorer with load). Optionally a prompt stays local when every prefill worker
 *     already has `maxPrefillQueue` requests outstanding, the prefill-queue bound of Dynamo 0.2.0's disaggregation
 *     design (docs.nvidia.com/dynamo/archive/0.2.0/architecture/disagg_serving.html; the prefill queue left the
 *     design docs with PR #5993); llm-d has none, the default.
 *     The threshold is compared as llm-d does (remote when uncached ≥ threshold; Dynamo's is uncached > it).
 *  2. Prefill on the prefill worker: the request runs there with one output token (vLLM's disaggregation proxy
 *     sends the prefill with `max_tokens = 1`, tests/v1/kv_connector/nixl_integration/toy_proxy_server.py; the
 *     token is discarded, the decode worker samples the first one).
 *  3. Transfer: the KV of the prompt's tokens the decode worker does not already hold (in any tier), in engine blocks,
 *     over each worker's NICs (one transfer at a time per worker and direction, FIFO). `after-prefill` (default):
 *     the decode worker pulls every block once the prefill has returned (vLLM's NixlConnector: "does not do
 *     layerwise saving", get_num_new_matched_tokens pulls `len(prompt) − num_computed_tokens`,
 *     vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py; llm-d's decode sidecar then pulls over NIXL;
 *     Dynamo's NIXL transfer VRAM to VRAM). `layerwise`: each layer's KV is sent as soon as it is computed
 *     (vLLM's former P2pNcclConnector.save_kv_layer sent every layer during the forward pass,
 *     vllm/distributed/kv_transfer/kv_connector/v1/p2p/p2p_nccl_connector.py at 02dc4a14, removed in June 2026 by
 *     vLLM PR #44854; Mooncake's layer-wise prefill;
 *     Splitwise's layer-wise KV-cache transfer overlapped with the prompt phase), so the transfer overlaps the
 *     prefill and only the last layer's share is left after it:
 *       done = max(prefillStart + bytes / bw, prefillEnd + bytes / (L·bw)) + latency.
 *  4. Decode: the request joins the decode worker's queue with its prompt's KV in place; on admission it computes
 *     only the last prompt token, which samples the first output token (vLLM's former P2pNcclConnector loaded
 *     `len(prompt) − 1 − num_computed_tokens` and the engine computed the last), and decodes.
 *
 * Simplified, and what it costs: the decode worker allocates the KV blocks when it admits the request, after the
 * transfer (vLLM allocates them before pulling): under HBM pressure on the decode pool the transfer is not
 * delayed by the wait for room, so TTFT there is slightly optimistic. The prefill worker releases its copy (to its
 * prefix cache) when the transfer ends. KV heads replicated across tensor-parallel ranks (tp above the KV heads) are
 * counted once: bytes are the model's KV bytes per token, so such a transfer is undercounted. With chunked prefill on the prefill worker, layerwise
 * streaming leaves the last layer of the whole prompt (not of its last chunk) after the prefill: conservative.
 *
 * Replicas 0..prefillReplicas−1 are the prefill pool, the rest the decode pool.
 */
import { replicaKvBytesPerToken } from '../flopsAndBytes';
import type { Rng } from '../rng';
import type { Replica } from './replica';
import type { Req } from './request';
import { createRouter, defaultViewFor, type ReplicaLoad, type RouteDecision, type Router } from './router';
import type { ResolvedDisaggregation } from './disaggSpec';
import type { ResolvedScenario, Scenario } from './scenario';
import { createCacheView, type CacheView } from './view';
import { readLoads, type ScrapedMetrics } from './loads';

export {
  DISAGG_DEFAULTS,
  TRANSFER_MODES,
  resolveDisaggregation,
  validateDisaggregation,
  type DisaggregationSpec,
  type ResolvedDisaggregation,
  type TransferMode,
} from './disaggSpec';

/** Per-request columns of the disaggregated path (NaN for requests prefilled on their decode worker). */
export interface DisaggColumns {
  /** 1: prefilled on a prefill worker; 0: on its decode worker. */
  remote: number[];
  prefillReplica: number[];
  decodeReplica: number[];
  /** Arrival → admission on the prefill worker. */
  prefillQueueS: number[];
  /** Admission → prefill done on the prefill worker. */
  prefillS: number[];
  /** Prefill done → KV in place on the decode worker (what the transfer adds to TTFT). */
  transferS: number[];
  /** Of which waiting for a busy NIC. */
  transferWaitS: number[];
  transferBytes: number[];
  /** Engine blocks transferred. */
  transferBlocks: number[];
  /** When the KV was in place on the decode worker (s). */
  handoffAt: number[];
}

interface Pending {
  r: Req;
  prefill: number;
  decode: number;
}

/** What disaggregation asks of the engine. */
export interface DisaggHost {
  readonly now: number;
  schedule(time: number, kind: 'kv-handoff', a: number, b: number): void;
}

export interface DisaggRoute {
  /** Replica that runs the request next (the prefill worker, or the decode worker for a local prefill). */
  runOn: number;
  /** Its decode worker. */
  decodeOn: number;
  decision: RouteDecision;
}

export class Disaggregation {
  readonly cfg: ResolvedDisaggregation;
  readonly cols: DisaggColumns = {
    remote: [],
    prefillReplica: [],
    decodeReplica: [],
    prefillQueueS: [],
    prefillS: [],
    transferS: [],
    transferWaitS: [],
    transferBytes: [],
    transferBlocks: [],
    handoffAt: [],
  };
  transfers = 0;
  bytesTransferred = 0;
  localPrefills = 0;
  private readonly prefillRouter: Router;
  private readonly decodeRouter: Router;
  private readonly prefillView: CacheView;
  private readonly decodeView: CacheView;
  private readonly prefillLoads: ReplicaLoad[];
  private readonly decodeLoads: ReplicaLoad[];
  /** When each replica's NICs are next free: sending (prefill pool) or receiving (decode pool). */
  private readonly nicFree: number[];
  /** Requests in their prefill phase on a prefill worker, or in transfer, by id. */
  private readonly pending = new Map<number, Pending>();
  private readonly bytesPerToken: number;
  private readonly layers: number;

  constructor(
    readonly rs: ResolvedScenario,
    private readonly replicas: readonly Replica[],
    private readonly host: DisaggHost,
    /** The replicas' metrics as the router last scraped them (null: read live). */
    private readonly scraped: ScrapedMetrics | null = null,
  ) {
    this.cfg = rs.disaggregation!;
    const np = this.cfg.prefillReplicas;
    const { view, ...routerCfg } = rs.scenario.router;
    const cfg = routerCfg as Scenario['router'];
    this.prefillRouter = createRouter(cfg);
    this.decodeRouter = createRouter(cfg);
    const caches = replicas.map((r) => r.cache);
    // Each pool's router sees its own pool's caches, through the view the scenario's router kind defaults to.
    const viewCfg = view ?? defaultViewFor(rs.scenario.router);
    this.prefillView = createCacheView(viewCfg, caches.slice(0, np), rs.hbmBlocks, () => host.now);
    this.decodeView = createCacheView(viewCfg, caches.slice(np), rs.hbmBlocks, () => host.now);
    const load = (): ReplicaLoad => ({
      outstandingTokens: 0,
      outstandingRequests: 0,
      kvUsage: 0,
      waitingRequests: 0,
      kvInUse: 0,
    });
    this.prefillLoads = Array.from({ length: np }, load);
    this.decodeLoads = Array.from({ length: this.cfg.decodeReplicas }, load);
    this.nicFree = replicas.map(() => 0);
    // Each tensor-parallel rank sends what it holds: every copy of a replicated head or latent (replicaKvBytesPerToken).
    this.bytesPerToken = replicaKvBytesPerToken(rs.model, rs.hw.kvDtype, rs.hw.tp);
    this.layers = rs.model.layers;
  }

  get usesCache(): boolean {
    return this.prefillRouter.usesCache || this.decodeRouter.usesCache;
  }

  /** A delayed view's refresh (the engine's view-sync event). */
  sync(): void {
    this.prefillView.sync();
    this.decodeView.sync();
  }

  isPrefillWorker(replica: number): boolean {
    return replica < this.cfg.prefillReplicas;
  }

  private loadsOf(first: number, out: ReplicaLoad[]): ReplicaLoad[] {
    return readLoads(this.replicas, first, out, this.scraped, true);
  }

  private row(id: number): void {
    const c = this.cols;
    while (c.remote.length <= id) for (const k of Object.keys(c) as (keyof DisaggColumns)[]) c[k].push(NaN);
  }

  /** Both phases' workers for a new request (replica indices are the fleet's). */
  route(r: Req, rng: Rng): DisaggRoute {
    const np = this.cfg.prefillReplicas;
    const bs = this.rs.blockSize;
    const promptBlocks = Math.floor(r.promptTokens / bs);
    const input = {
      session: r.session >= 0 ? r.session : r.id + 2 ** 30,
      request: r.id,
      hashes: r.hashes,
      promptBlocks,
      promptTokens: r.promptTokens,
      blockSize: bs,
    };
    const now = this.host.now;
    const dd = this.decodeRouter.route(input, {
      now,
      loads: this.loadsOf(np, this.decodeLoads),
      view: this.decodeView,
      rng,
    });
    const decodeOn = np + dd.replica;
    // The uncached part on that decode worker as the router sees it, or, for a router that does not look, as the
    // decode engine's own prefix cache finds it (its HBM).
    const believed =
      dd.matchedBlocks >= 0 ? dd.matchedBlocks * bs : this.hbmPrefixTokens(decodeOn, r.hashes, promptBlocks);
    const uncached = r.promptTokens - Math.min(believed, r.promptTokens);
    const prefillLoads = this.loadsOf(0, this.prefillLoads);
    const queueFull = prefillLoads.every((l) => l.outstandingRequests >= this.cfg.maxPrefillQueue);
    this.row(r.id);
    this.cols.decodeReplica[r.id] = decodeOn;
    if (uncached < this.cfg.localPrefillBelow || queueFull) {
      this.localPrefills++;
      this.cols.remote[r.id] = 0;
      if (this.decodeRouter.usesCache) this.decodeView.routed(dd.replica, r.hashes, promptBlocks);
      return { runOn: decodeOn, decodeOn, decision: { ...dd, replica: decodeOn } };
    }
    const pd = this.prefillRouter.route(input, { now, loads: prefillLoads, view: this.prefillView, rng });
    if (this.prefillRouter.usesCache) this.prefillView.routed(pd.replica, r.hashes, promptBlocks);
    // The decode worker will hold the whole prompt once the KV lands.
    if (this.decodeRouter.usesCache) this.decodeView.routed(dd.replica, r.hashes, promptBlocks);
    this.cols.remote[r.id] = 1;
    this.cols.prefillReplica[r.id] = pd.replica;
    this.pending.set(r.id, { r, prefill: pd.replica, decode: decodeOn });
    // The prefill worker produces one token (vLLM's disaggregation proxy sends max_tokens = 1).
    r.outputTokens = 1;
    return { runOn: pd.replica, decodeOn, decision: pd };
  }

  /** Tokens of the longest prefix of the first `blocks` pages replica i holds: in HBM, or in any of its tiers. */
  private hbmPrefixTokens(i: number, hashes: ArrayLike<number>, blocks: number): number {
    return this.prefixLookup(i, hashes, blocks)?.tiers[0].tokens ?? 0;
  }

  private localPrefixTokens(i: number, hashes: ArrayLike<number>, blocks: number): number {
    return this.prefixLookup(i, hashes, blocks)?.tokens ?? 0;
  }

  private prefixLookup(i: number, hashes: ArrayLike<number>, blocks: number) {
    if (blocks <= 0) return null;
    return this.replicas[i].cache.lookup(Array.prototype.slice.call(hashes, 0, blocks) as number[]);
  }

  /**
   * A request finished on a replica: if it was a prefill phase, book its KV transfer and return true (the engine
   * then neither records nor continues it).
   */
  prefillDone(r: Req): boolean {
    const p = this.pending.get(r.id);
    if (!p || r.replica !== p.prefill) return false; // a decode phase, or a request prefilled where it decodes
    if (r.spec.outputTokens <= 1) {
      // A one-token request is complete once prefilled: nothing to hand over.
      this.pending.delete(r.id);
      return false;
    }
    const now = this.host.now;
    const c = this.cols;
    c.prefillQueueS[r.id] = r.admitted - r.arrival;
    c.prefillS[r.id] = now - r.admitted;
    // The prefix the decode worker already holds is not pulled (vLLM NixlConnector counts it computed); what it
    // holds below HBM it loads itself when it admits the request, as any cache hit. (Were that prefix evicted
    // before the admission, the simulator would still count it in place: a small optimism under pressure.)
    const bs = this.rs.blockSize;
    const local = this.localPrefixTokens(p.decode, r.hashes, Math.floor(r.promptTokens / bs));
    const ebs = this.rs.engineBlockSize;
    const blocks = Math.ceil(Math.max(0, r.promptTokens - local) / ebs);
    const bytes = blocks * ebs * this.bytesPerToken;
    const bw = this.cfg.bytesPerS;
    const wireS = bytes / bw;
    const free = Math.max(this.nicFree[p.prefill], this.nicFree[p.decode]);
    let end: number;
    let waitS: number;
    if (this.cfg.mode === 'layerwise') {
      // Layer ℓ's KV leaves as soon as it is computed: the stream starts with the prefill, and what is left after
      // it is at least the last layer's share.
      const start = Math.max(r.admitted, free);
      end = Math.max(start + wireS, now + wireS / this.layers);
      waitS = Math.max(0, start - r.admitted);
    } else {
      const start = Math.max(now, free);
      end = start + wireS;
      waitS = start - now;
    }
    if (blocks > 0) {
      this.nicFree[p.prefill] = end;
      this.nicFree[p.decode] = end;
      end += this.cfg.latencyS;
    } else end = now;
    c.transferWaitS[r.id] = waitS;
    c.transferBytes[r.id] = bytes;
    c.transferBlocks[r.id] = blocks;
    this.transfers++;
    this.bytesTransferred += bytes;
    this.host.schedule(end, 'kv-handoff', p.decode, r.id);
    return true;
  }

  /** The KV is in place: release the prefill worker's copy and queue the request on its decode worker. */
  handoff(id: number): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    const r = p.r;
    const now = this.host.now;
    this.cols.transferS[id] = now - (r.arrival + this.cols.prefillQueueS[id] + this.cols.prefillS[id]);
    this.cols.handoffAt[id] = now;
    // The prefill worker keeps the blocks in its prefix cache, unpinned (vLLM frees them once the decode pulled).
    this.replicas[p.prefill].pauses.pause(r, false);
    r.outputTokens = r.spec.outputTokens;
    r.generated = 0;
    r.ctx = 0;
    r.target = r.promptTokens;
    r.heldBlocks = 0;
    r.firstToken = -1;
    r.lastToken = -1;
    r.maxGap = 0;
    r.kvReceived = r.promptTokens;
    this.replicas[p.decode].enqueue(r);
  }

  /** Requests whose KV is in flight or whose prefill is still running. */
  get inPrefillOrTransfer(): number {
    return this.pending.size;
  }
}
