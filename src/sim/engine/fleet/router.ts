/**
 * Routers: which replica serves a request. All share one interface; the cache-aware ones see the replicas'
 * KV caches through a `CacheView`, which may be exact, delayed, or the router's own approximation (view.ts).
 *
 * Load figures come from the replicas at routing time (what a gateway gets from its workers' metrics).
 */
import type { Rng } from '../rng';
import type { CacheView } from './view';

export interface ReplicaLoad {
  /** Prefill tokens still to compute + output tokens still to generate, over requests routed here and unfinished. */
  outstandingTokens: number;
  /** Requests routed here and unfinished (waiting + running). */
  outstandingRequests: number;
  /** Share of HBM KV blocks in use, 0..1. */
  kvUsage: number;
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
       * max(overloadMinTokens, overloadRatio × fleet mean). Defaults 2 and 16,384.
       */
      overloadRatio?: number;
      overloadMinTokens?: number;
    }
  | {
      kind: 'cache-aware';
      /**
       * 'threshold' (SGLang router, sgl-router cache_aware policy): if the load is imbalanced
       * (max − min outstanding requests > balanceAbsThreshold and max > balanceRelThreshold × min) route to the
       * least loaded; else if the best cached-prefix share ≥ cacheThreshold route there; else to the replica with
       * the most free KV. 'weighted' (llm-d style scorers): maximise
       * prefixWeight · matched share + loadWeight · (1 − load / max load) + kvWeight · (1 − kv usage).
       */
      scoring?: 'threshold' | 'weighted';
      cacheThreshold?: number;
      balanceAbsThreshold?: number;
      balanceRelThreshold?: number;
      prefixWeight?: number;
      loadWeight?: number;
      kvWeight?: number;
    };

export type RouterKind = RouterConfig['kind'];
export const ROUTER_KINDS: readonly RouterKind[] = [
  'round-robin',
  'random',
  'least-outstanding',
  'power-of-two',
  'session-affinity',
  'cache-aware',
];

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
    const matched = env.view.match(req.hashes, req.promptBlocks);
    const total = Math.max(1, req.promptBlocks);
    if ((this.c.scoring ?? 'threshold') === 'weighted') {
      let maxLoad = 0;
      for (const l of loads) if (l.outstandingTokens > maxLoad) maxLoad = l.outstandingTokens;
      const wp = this.c.prefixWeight ?? 2;
      const wl = this.c.loadWeight ?? 1;
      const wk = this.c.kvWeight ?? 1;
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
    // SGLang's cache_aware policy (sgl-router): balance check on outstanding requests first.
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
    const abs = this.c.balanceAbsThreshold ?? 32;
    const rel = this.c.balanceRelThreshold ?? 1.0001;
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
    if (matched[best] > 0 && matched[best] / total >= (this.c.cacheThreshold ?? 0.5)) {
      return { replica: best, reason: 'cache-hit', matchedBlocks: matched[best] };
    }
    let most = 0;
    for (let i = 1; i < n; i++) {
      if (
        loads[i].kvUsage < loads[most].kvUsage ||
        (loads[i].kvUsage === loads[most].kvUsage &&
          loads[i].outstandingTokens < loads[most].outstandingTokens)
      )
        most = i;
    }
    return { replica: most, reason: 'cache-miss', matchedBlocks: matched[most] };
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
      return new SessionAffinity(c.overloadRatio ?? 2, c.overloadMinTokens ?? 16_384);
    case 'cache-aware':
      return new CacheAware(c);
  }
}
