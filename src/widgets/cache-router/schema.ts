import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { controlRange } from '../kit/controlRange';
import { DEFAULT_POOL_LINK, findLink } from '../../sim/engine/catalog/links';
import { ROUTER_LIMITS } from '../../worker/limits/router';
import { formatDuration, formatNumber } from '../../lib/format';
import { SGLANG_ROUTER_DEFAULTS, SGLANG_V04_ROUTER_DEFAULTS } from '../../sim/engine/fleet/routerDefaults';
import { POLICY_LABELS, ROUTER_POLICIES } from '../../sim/lessons/routing/constants';
import {
  DEFAULT_PER_REPLICA_RATES,
  type CacheViewKind,
  type RouterPolicy,
} from '../../sim/lessons/routing/constants';

/** The pool's link as the help names it: the fleet's default (fleet/scenario.ts). */
const POOL_LINK_NAME = findLink(DEFAULT_POOL_LINK)?.name ?? DEFAULT_POOL_LINK;

export const CACHE_ROUTER_ID = 'cache-router';
export const ROUTER_SWEEP_ID = 'router-sweep';
export const ROUND_ROBIN_SPREAD_ID = 'round-robin-spread';

/** Seconds during which new sessions arrive in the lab's runs (they run on until they finish). */
export const ANIMATION_ARRIVAL_S = 40;
/**
 * Where the animated router's playhead starts: 40 s in, when the last sessions have arrived and HBM is filling
 * (at 6 simulated seconds per second round-robin's is full within five seconds of playing; the lesson test
 * asserts it). Scrub back to see it fill.
 */
export const ANIMATION_START_S = 40;
/** Simulated seconds per wall-clock second at 1× in the animated router. */
export const ANIMATION_PLAY_RATE = 6;
export const SWEEP_ARRIVAL_S = 40;
export const SPREAD_ARRIVAL_S = 40;

const policyOptions = ROUTER_POLICIES.map((p) => ({ value: p, label: POLICY_LABELS[p] }));

const loadThreshold = {
  kind: 'number',
  label: 'Load threshold (cache-aware)',
  default: 8,
  ...controlRange(ROUTER_LIMITS.loadThreshold, { min: 0, max: 64 }),
  integer: true,
  unit: 'requests',
  help: `Cache-aware only: when the busiest and the idlest replica differ by more than this many outstanding requests (and the busiest has over ${formatNumber(SGLANG_ROUTER_DEFAULTS.balanceRelThreshold)}× the idlest’s), route to the idlest. SGLang router’s balance_abs_threshold: ${SGLANG_ROUTER_DEFAULTS.balanceAbsThreshold} by default in sglang-router 0.3.0 and smg 1.9.0, ${SGLANG_V04_ROUTER_DEFAULTS.balanceAbsThreshold} in SGLang v0.4`,
} as const;

export const cacheRouterSchema = {
  policy: { kind: 'select', label: 'Routing policy', default: 'round-robin', options: policyOptions },
  loadThreshold,
  cacheView: {
    kind: 'select',
    label: "Router's view of the caches (cache-aware)",
    default: 'exact',
    options: [
      { value: 'exact', label: 'Exact (KV events from the replicas)' },
      { value: 'approximate', label: 'Approximate (SGLang’s radix tree, blind to evictions)' },
    ],
    help: 'Cache-aware only: exact sees every replica’s cache as it is (what llm-d’s precise prefix-cache scorer learns from KV events); approximate is SGLang’s router’s own radix tree of the prompts it sent each replica, which never learns of an eviction',
  },
  replicas: {
    kind: 'number',
    label: 'Replicas',
    default: 4,
    ...controlRange(ROUTER_LIMITS.replicas, { min: 2, max: 8 }),
    integer: true,
    unit: 'replicas',
  },
  sessionsPerS: {
    kind: 'number',
    label: 'New agent sessions',
    // 1 new session/s on 4 replicas fills HBM within a minute: copies start evicting each other, which is when
    // where a turn lands matters (tests/lesson-07-03.test.ts asserts the fill and the hit-rate gap).
    default: 1,
    ...controlRange(ROUTER_LIMITS.sessionsPerS, { min: 0.1, max: 1.5 }),
    step: 0.05,
    unit: 'sessions/s',
    format: (v) => `${formatNumber(v, 3)} ${v === 1 ? 'session' : 'sessions'}/s`,
  },
  poolGB: {
    kind: 'number',
    label: 'Shared KV pool',
    default: 0,
    ...controlRange(ROUTER_LIMITS.poolGB, { min: 0, max: 2000 }),
    step: 250,
    unit: 'GB',
    format: (v) => (v === 0 ? 'none' : `${formatNumber(v, 4)} GB`),
    help: `A KV store shared by every replica (Mooncake store, LMCache remote backend) behind each replica’s ${POOL_LINK_NAME}: blocks evicted from HBM land there, and a turn whose prefix left its replica reloads it instead of recomputing it. 0 = no pool`,
  },
  seed: {
    kind: 'seed',
    label: 'Seed',
    default: 4,
    help: 'The workload’s random seed: the same seed replays the same sessions',
  },
} satisfies ParamSchema;

export const routerSweepSchema = {
  replicas: {
    kind: 'number',
    label: 'Replicas',
    default: 4,
    ...controlRange(ROUTER_LIMITS.replicas, { min: 2, max: 8 }),
    integer: true,
    unit: 'replicas',
  },
  loadThreshold,
  sloS: {
    kind: 'number',
    label: 'TTFT target (p90)',
    default: 3,
    min: 0.25,
    max: 10,
    step: 0.25,
    unit: 's',
    format: (v) => formatDuration(v),
    help: 'An illustrative service-level objective: the read-outs give the highest offered load at which each policy keeps its p90 TTFT under it',
  },
  seed: { kind: 'seed', label: 'Seed', default: 4 },
} satisfies ParamSchema;

export const spreadSchema = {
  perReplicaRate: {
    kind: 'number',
    label: 'Load per replica',
    default: 0.2,
    ...controlRange(ROUTER_LIMITS.perReplicaRate, { min: 0.05, max: 0.35 }),
    step: 0.05,
    unit: 'sessions/s',
    format: (v) => `${formatNumber(v, 3)} sessions/s per replica`,
    help: 'New sessions per second per replica: the fleet-wide rate grows with R, so each replica stays as busy',
  },
  inspect: {
    kind: 'number',
    label: 'Fleet size to read out',
    default: 8,
    // One of the spread's fleet sizes (SPREAD_REPLICAS), read on the page.
    min: 2,
    max: 8,
    integer: true,
    unit: 'replicas',
  },
  seed: { kind: 'seed', label: 'Seed', default: 4 },
} satisfies ParamSchema;

export const SPREAD_REPLICAS = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/** The animated router's default fleet and workload (the prose's policy table and the lesson test use it). */
export const ANIMATION_DEFAULT_FLEET = {
  replicas: cacheRouterSchema.replicas.default,
  sessionsPerS: cacheRouterSchema.sessionsPerS.default,
  arrivalS: ANIMATION_ARRIVAL_S,
  seed: cacheRouterSchema.seed.default,
  loadThreshold: cacheRouterSchema.loadThreshold.default,
};

/** What the animated router asks the worker (routerAnimation): its policy, compared with the other one. */
export function cacheRouterArgs(v: ParamValues<typeof cacheRouterSchema>) {
  return {
    policy: v.policy as RouterPolicy,
    replicas: v.replicas,
    sessionsPerS: v.sessionsPerS,
    arrivalS: ANIMATION_ARRIVAL_S,
    seed: v.seed,
    loadThreshold: v.loadThreshold,
    cacheView: v.cacheView as CacheViewKind,
    poolGB: v.poolGB,
    frameIntervalS: 0.5,
  };
}

/** The policy the animation's read-outs compare against: cache-aware for round-robin, else round-robin. */
export function comparisonPolicy(v: ParamValues<typeof cacheRouterSchema>): RouterPolicy {
  return v.policy === 'round-robin' ? 'cache-aware' : 'round-robin';
}

/**
 * The comparison's run (routerSummaries), a job of its own so it runs on the other worker and the picture does not
 * wait for it (its read-out fills in when it lands).
 */
export function cacheRouterComparisonArgs(v: ParamValues<typeof cacheRouterSchema>) {
  const a = cacheRouterArgs(v);
  return {
    replicas: a.replicas,
    sessionsPerS: a.sessionsPerS,
    arrivalS: a.arrivalS,
    seed: a.seed,
    loadThreshold: a.loadThreshold,
    poolGB: a.poolGB,
    cacheView: a.cacheView,
    policies: [comparisonPolicy(v)],
  };
}

/** What the sweep asks the worker (routerSweep) for its settings. */
export function routerSweepArgs(v: ParamValues<typeof routerSweepSchema>) {
  return {
    replicas: v.replicas,
    loadThreshold: v.loadThreshold,
    seed: v.seed,
    arrivalS: SWEEP_ARRIVAL_S,
    perReplicaRates: [...DEFAULT_PER_REPLICA_RATES],
  };
}

/** What the spread asks the worker (routerSpread) for its settings. */
export function spreadArgs(v: ParamValues<typeof spreadSchema>) {
  return {
    replicaCounts: [...SPREAD_REPLICAS],
    perReplicaRate: v.perReplicaRate,
    seed: v.seed,
    arrivalS: SPREAD_ARRIVAL_S,
  };
}
