/**
 * Routers: which replica serves a request. All share one interface; the cache-aware ones see the replicas'
 * KV caches through a `CacheView`, which may be exact, delayed, or the router's own approximation (view.ts).
 *
 * Load figures come from the replicas at routing time (what a gateway gets from its workers' metrics).
 */
import type { Rng } from '../rng';
import { LlmdRouter, type LlmdRouterConfig } from './llmd';
import type { CacheView, CacheViewConfig } from './view';
import { LAB_AFFINITY_ESCAPE, SGLANG_ROUTER_DEFAULTS } from './routerDefaults';
import { hasTenantOrder, isSized } from './views/capabilities';

export { SGLANG_ROUTER_DEFAULTS, SGLANG_V04_ROUTER_DEFAULTS } from './routerDefaults';

export interface ReplicaLoad {
  /** Prefill tokens still to compute + output tokens still to generate, over requests routed here and unfinished. */
  outstandingTokens: number;
  /** Requests routed here and unfinished (waiting + running). */
  outstandingRequests: number;
  /** Share of HBM KV blocks in use, 0..1. */
  kvUsage: number;
  /** Requests waiting to be admitted (vLLM's num_requests_waiting, what llm-d's queue scorer reads). */
  waitingRequests: number;
  /**
   * Share of HBM KV blocks that running requests hold, 0..1: vLLM's KV-cache usage, which counts a cached block
   * nobody holds as free (vllm/v1/core/block_pool.py `get_usage`), read by llm-d's kv-cache-utilization scorer.
   */
  kvInUse: number;
}

export interface RouteInput {
  session: number;
  request: number;
  /** Block hashes; the prompt's full blocks are hashes[0..promptBlocks). */
  hashes: ArrayLike<number>;
  promptBlocks: number;
  promptTokens: number;
  blockSize: number;
}

export interface RouterEnv {
  now: number;
  loads: readonly ReplicaLoad[];
  view: CacheView;
  rng: Rng;
}

/** The weighted cache-aware blend's default weights (the lab's own; lesson 07.12 says "counted double"). */
export const WEIGHTED_DEFAULTS = { prefix: 2, load: 1, kv: 1 } as const;

/** Why a router chose a replica (frames carry it as a byte). */
export const ROUTE_REASON = {
  'round-robin': 0,
  random: 1,
  'least-load': 2,
  sticky: 3,
  'sticky-overflow': 4,
  'cache-hit': 5,
  'cache-balance': 6,
  'cache-miss': 7,
  'power-of-two': 8,
  'weighted-score': 9,
} as const;
export type RouteReason = keyof typeof ROUTE_REASON;
export const ROUTE_REASONS = Object.keys(ROUTE_REASON) as RouteReason[];

export interface RouteDecision {
  replica: number;
  reason: RouteReason;
  /** Prefix the router believed the chosen replica had, in blocks (−1 when it did not look). */
  matchedBlocks: number;
}

export interface Router {
  readonly name: string;
  /** Whether it reads the cache view (the engine skips the view's work otherwise). */
  readonly usesCache: boolean;
  /** Whether it reads kvUsage / kvInUse without reading the cache view (the engine skips them otherwise). */
  readonly needsKvUsage?: boolean;
  /**
   * Seconds between its scrapes of the replicas' metrics endpoints: it then reads waitingRequests and kvInUse as
   * of the last scrape, each as the engine reported it after its last step (Replica.reported). Absent or 0: the
   * live values at the routing instant.
   */
  readonly metricsRefreshS?: number;
  route(req: RouteInput, env: RouterEnv): RouteDecision;
  /** A session ended (routers with per-session state forget it). */
  sessionEnded?(session: number): void;
}

export type RouterConfig =
  | { kind: 'round-robin' }
  | { kind: 'random' }
  | { kind: 'least-outstanding' }
  | { kind: 'power-of-two' }
  | {
      kind: 'session-affinity';
      /**
       * Overload fallback: the sticky replica is skipped when its outstanding tokens exceed
       * max(overloadMinTokens, overloadRatio × fleet mean). Defaults: LAB_AFFINITY_ESCAPE.
       */
      overloadRatio?: number;
      overloadMinTokens?: number;
    }
  | {
      kind: 'cache-aware';
      /**
       * 'threshold' (SGLang's router, `cache_aware` policy): if the load is imbalanced (max − min outstanding
       * requests > balanceAbsThreshold and max > balanceRelThreshold × min) route to the least loaded; else if
       * the longest cached prefix covers more than cacheThreshold of the prompt route there; else `onMiss`.
       * 'weighted' (the lab's earlier llm-d-like blend, kept for old scenarios; kind "llm-d" is llm-d's own):
       * maximise prefixWeight · matched share + loadWeight · (1 − load / max load) + kvWeight · (1 − kv usage).
       */
      scoring?: 'threshold' | 'weighted';
      cacheThreshold?: number;
      balanceAbsThreshold?: number;
      balanceRelThreshold?: number;
      /**
       * Where a request with no good match goes: 'least-load' (the current router: the worker with the fewest
       * outstanding requests) or 'smallest-tree' (sgl-router as of SGLang v0.4: the worker whose approximate tree
       * is smallest; with a view that keeps no tree, the replica with the most free KV).
       */
      onMiss?: 'least-load' | 'smallest-tree';
      prefixWeight?: number;
      loadWeight?: number;
      kvWeight?: number;
    }
  | LlmdRouterConfig;

export type RouterKind = RouterConfig['kind'];
export const ROUTER_KINDS: readonly RouterKind[] = [
  'round-robin',
  'random',
  'least-outstanding',
  'power-of-two',
  'session-affinity',
  'cache-aware',
  'llm-d',
];

/** The view a router reads when the scenario names none: llm-d's approximate scorer's own, else the exact one. */
export function defaultViewFor(c: RouterConfig): CacheViewConfig {
  if (c.kind === 'llm-d' && !(c.scorers ?? []).some((s) => s.type === 'precise-prefix-cache'))
    return { kind: 'llm-d-approximate' };
  return { kind: 'exact' };
}

function leastLoaded(loads: readonly ReplicaLoad[]): number {
  let best = 0;
  for (let i = 1; i < loads.length; i++)
    if (loads[i].outstandingTokens < loads[best].outstandingTokens) best = i;
  return best;
}

class RoundRobin implements Router {
  readonly name = 'round-robin';
  readonly usesCache = false;
  private next = 0;
  route(_req: RouteInput, env: RouterEnv): RouteDecision {
    const r = this.next % env.loads.length;
    this.next = r + 1;
    return { replica: r, reason: 'round-robin', matchedBlocks: -1 };
  }
}

class RandomRouter implements Router {
  readonly name = 'random';
  readonly usesCache = false;
  route(_req: RouteInput, env: RouterEnv): RouteDecision {
    return { replica: env.rng.int(env.loads.length), reason: 'random', matchedBlocks: -1 };
  }
}

class LeastOutstanding implements Router {
  readonly name = 'least-outstanding';
  readonly usesCache = false;
  route(_req: RouteInput, env: RouterEnv): RouteDecision {
    return { replica: leastLoaded(env.loads), reason: 'least-load', matchedBlocks: -1 };
  }
}

class PowerOfTwo implements Router {
  readonly name = 'power-of-two';
  readonly usesCache = false;
  route(_req: RouteInput, env: RouterEnv): RouteDecision {
    const n = env.loads.length;
    if (n === 1) return { replica: 0, reason: 'power-of-two', matchedBlocks: -1 };
    const a = env.rng.int(n);
    let b = env.rng.int(n - 1);
    if (b >= a) b++;
    const pick = env.loads[b].outstandingTokens < env.loads[a].outstandingTokens ? b : a;
    return { replica: pick, reason: 'power-of-two', matchedBlocks: -1 };
  }
}

class SessionAffinity implements Router {
  readonly name = 'session-affinity';
  readonly usesCache = false;
  private readonly sticky = new Map<number, number>();
  constructor(
    private readonly ratio: number,
    private readonly minTokens: number,
  ) {}
  route(req: RouteInput, env: RouterEnv): RouteDecision {
    const loads = env.loads;
    const s = this.sticky.get(req.session);
    if (s !== undefined) {
      let mean = 0;
      for (const l of loads) mean += l.outstandingTokens;
      mean /= loads.length;
      if (loads[s].outstandingTokens <= Math.max(this.minTokens, this.ratio * mean)) {
        return { replica: s, reason: 'sticky', matchedBlocks: -1 };
      }
      const r = leastLoaded(loads);
      this.sticky.set(req.session, r);
      return { replica: r, reason: 'sticky-overflow', matchedBlocks: -1 };
    }
    const r = leastLoaded(loads);
    this.sticky.set(req.session, r);
    return { replica: r, reason: 'least-load', matchedBlocks: -1 };
  }
  sessionEnded(session: number): void {
    this.sticky.delete(session);
  }
}

class CacheAware implements Router {
  readonly name = 'cache-aware';
  readonly usesCache = true;
  constructor(private readonly c: Extract<RouterConfig, { kind: 'cache-aware' }>) {}
  route(req: RouteInput, env: RouterEnv): RouteDecision {
    const loads = env.loads;
    const n = loads.length;
    const view = env.view;
    const matched = view.match(req.hashes, req.promptBlocks);
    const total = Math.max(1, req.promptBlocks);
    if ((this.c.scoring ?? 'threshold') === 'weighted') {
      let maxLoad = 0;
      for (const l of loads) if (l.outstandingTokens > maxLoad) maxLoad = l.outstandingTokens;
      const wp = this.c.prefixWeight ?? WEIGHTED_DEFAULTS.prefix;
      const wl = this.c.loadWeight ?? WEIGHTED_DEFAULTS.load;
      const wk = this.c.kvWeight ?? WEIGHTED_DEFAULTS.kv;
      let best = 0;
      let bestScore = -Infinity;
      for (let i = 0; i < n; i++) {
        const score =
          (wp * matched[i]) / total +
          wl * (maxLoad > 0 ? 1 - loads[i].outstandingTokens / maxLoad : 1) +
          wk * (1 - loads[i].kvUsage);
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      }
      return { replica: best, reason: 'weighted-score', matchedBlocks: matched[best] };
    }
    // SGLang's cache_aware policy (sgl-model-gateway/src/policies/cache_aware.rs `select_worker`): the balance
    // check on outstanding requests first.
    let minL = Infinity;
    let maxL = -Infinity;
    let minI = 0;
    for (let i = 0; i < n; i++) {
      const q = loads[i].outstandingRequests;
      if (q < minL) {
        minL = q;
        minI = i;
      }
      if (q > maxL) maxL = q;
    }
    const abs = this.c.balanceAbsThreshold ?? SGLANG_ROUTER_DEFAULTS.balanceAbsThreshold;
    const rel = this.c.balanceRelThreshold ?? SGLANG_ROUTER_DEFAULTS.balanceRelThreshold;
    if (maxL - minL > abs && maxL > minL * rel)
      return { replica: minI, reason: 'cache-balance', matchedBlocks: matched[minI] };
    let best = 0;
    for (let i = 1; i < n; i++) {
      if (
        matched[i] > matched[best] ||
        (matched[i] === matched[best] && loads[i].outstandingTokens < loads[best].outstandingTokens)
      )
        best = i;
    }
    // SGLang's tree names one worker for the longest match, the one it cached for that node, not the least
    // loaded. Asked even with one candidate: a stale cache is replaced at every match, as smg's is.
    if (matched[best] > 0 && hasTenantOrder(view)) {
      const tied: number[] = [];
      for (let i = 0; i < n; i++) if (matched[i] === matched[best]) tied.push(i);
      best = view.firstAt(req.hashes, matched[best], tied);
    }
    // The match rate is matched characters over the prompt's characters (the lab: tokens over prompt tokens).
    const rate = (matched[best] * req.blockSize) / Math.max(1, req.promptTokens);
    if (matched[best] > 0 && rate > (this.c.cacheThreshold ?? SGLANG_ROUTER_DEFAULTS.cacheThreshold)) {
      return { replica: best, reason: 'cache-hit', matchedBlocks: matched[best] };
    }
    const miss =
      (this.c.onMiss ?? SGLANG_ROUTER_DEFAULTS.onMiss) === 'least-load' ? minI : this.smallest(env);
    return { replica: miss, reason: 'cache-miss', matchedBlocks: matched[miss] };
  }

  /** sgl-router (v0.4) `get_smallest_tenant`: the smallest tree; without a tree, the most free KV. */
  private smallest(env: RouterEnv): number {
    const loads = env.loads;
    const view = env.view;
    let most = 0;
    if (isSized(view)) {
      for (let i = 1; i < loads.length; i++) if (view.sizeOf(i) < view.sizeOf(most)) most = i;
      return most;
    }
    for (let i = 1; i < loads.length; i++) {
      if (
        loads[i].kvUsage < loads[most].kvUsage ||
        (loads[i].kvUsage === loads[most].kvUsage &&
          loads[i].outstandingTokens < loads[most].outstandingTokens)
      )
        most = i;
    }
    return most;
  }
}

export function createRouter(c: RouterConfig): Router {
  switch (c.kind) {
    case 'round-robin':
      return new RoundRobin();
    case 'random':
      return new RandomRouter();
    case 'least-outstanding':
      return new LeastOutstanding();
    case 'power-of-two':
      return new PowerOfTwo();
    case 'session-affinity':
      return new SessionAffinity(
        c.overloadRatio ?? LAB_AFFINITY_ESCAPE.overloadRatio,
        c.overloadMinTokens ?? LAB_AFFINITY_ESCAPE.overloadMinTokens,
      );
    case 'cache-aware':
      return new CacheAware(c);
    case 'llm-d':
      return new LlmdRouter(c);
  }
}
