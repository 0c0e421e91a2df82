/**
 * Lesson 07.12 (agents per megawatt): the fleet runs behind its widgets. Each builds a scenario for the fleet
 * simulator (src/sim/engine/fleet): one node of the catalog (src/sim/engine/catalog/nodes.ts) split into replicas of
 * Qwen3-32B on 2 GPUs, a closed loop of lesson 07.06's agents, a router and a tool-pause policy; runs it and
 * reduces the metrics to what the cost model needs (src/sim/lessons/economics.ts): TTFT and TPOT p90, GPU-seconds per
 * session split into prefill and decode, and the share of the KV budget idle sessions pin.
 *
 *  - `runEconPoint`: one concurrency on one replica (the SLO sweep) or on a whole node (the lever grid);
 *  - `sweepConcurrency`: the concurrency sweep, point by point, stopping a little past the first SLO failure;
 *  - `searchCapacity`: the largest concurrency per replica meeting the SLOs, by bisection over a grid.
 *
 * Seeded: the same arguments give the same result.
 */
import { LLMD_DEFAULT_SCORERS } from '../engine/fleet/llmd';
import { LLMD_APPROX_CURRENT, LLMD_APPROX_DEFAULTS } from '../engine/fleet/routerDefaults';
import type { LlmdApproximateViewConfig } from '../engine/fleet/views/llmdApproximate';
import { ENGINE_BLOCK_SIZE } from '../engine/blocks';
import { findNode } from '../engine/catalog/nodes';
import type { ToolLatencyPreset } from '../engine/fleet/dist';
import { runScenario } from '../engine/fleet/run';
import { refuseOutside, refuseOutsideEach } from '../engine/limits';
import { SEED_LIMIT } from '../engine/rng';
import type { FleetSim } from '../engine/fleet/engine';
import type { Scenario, ToolPausePolicy } from '../engine/fleet/scenario';
import { pauseAgent } from './pauseLabSetup';
import { maxFeasible, meetsSlo, type Slo, type SloPoint } from './economics';
import {
  ECON_BLOCK_SIZE,
  ECON_DRAM_GB,
  ECON_ALL_ROUTERS,
  ECON_DURATION_S,
  ECON_LIMITS,
  ECON_MODEL,
  ECON_RAMP_S,
  ECON_TP,
  econReplicasPerNode,
  ECON_TTL_S,
  LEVER_GRID,
  SWEEP_GRID,
  SWEEP_PAST_FAILURE,
  type EconNodeId,
  type EconPolicyId,
  type EconRouterId,
} from './economicsLabSetup';

export interface EconRunArgs {
  node: EconNodeId;
  /** Agents in flight per replica (closed loop). */
  concurrency: number;
  /** 'replica': one replica (routing does not matter); 'node': every replica of the node behind the router. */
  scope: 'replica' | 'node';
  router: EconRouterId;
  policy: EconPolicyId;
  tool: ToolLatencyPreset;
  slo: Slo;
  seed: number;
}

export interface EconPoint extends SloPoint {
  replicas: number;
  meetsSlo: boolean;
  /** Mean over finished sessions of the simulator's GPU-seconds per session (iteration time × tp by tokens). */
  gpuSecondsPerSession: number;
  sessionWallS: number;
  sessionsFinished: number;
  /** Share of busy GPU-seconds spent on prefill tokens (the rest on decode). */
  prefillShare: number;
  /** Time-mean share of the KV budget pinned by idle (paused) sessions. */
  heldShare: number;
  /** Reused / (reused + prefilled) prompt tokens. */
  reuseRatio: number;
  /** Mean busy share of the replicas. */
  utilisation: number;
  /** Replicas that ran no iteration: the router never sent them a turn. */
  idleReplicas: number;
  outputTokensPerS: number;
  goodputShare: number;
  /** Disaggregated runs (economicsDisagg.ts): the prefill pool's busy share and the share of turns prefilled there. */
  prefillPoolUtilisation?: number;
  remotePrefillShare?: number;
}

export function econPausePolicy(policy: EconPolicyId): ToolPausePolicy {
  switch (policy) {
    case 'hold':
      return { kind: 'hold' };
    case 'ttl-offload':
      return { kind: 'ttl', ttlS: ECON_TTL_S, then: 'offload', tier: 'dram' };
    case 'write-through':
      return { kind: 'write-through' };
    case 'evict':
      return { kind: 'evict' };
  }
}

/**
 * The cache-aware router: llm-d's scheduler (fleet/llmd.ts) with its default weights (llm-d-router
 * pkg/epp/config/loader/defaults.go: queue 2, KV-cache utilisation 2, prefix 3) and its precise prefix scorer, which
 * reads the replicas' KV events (llm-d's "precise prefix-cache aware" path), rather than the default approximate
 * index of what it routed: that index never sees an eviction, and with paused agents' KV moving out of HBM it
 * keeps sending turns to replicas that no longer hold them (lesson 07.03; the llm-d rows of `npm run validate`).
 */
export const ECON_CACHE_AWARE: Scenario['router'] = {
  kind: 'llm-d',
  scorers: LLMD_DEFAULT_SCORERS.map((s) =>
    s.type === 'prefix-cache' ? { type: 'precise-prefix-cache', weight: s.weight } : s,
  ),
};

/**
 * llm-d's scheduler with its default weights over its own approximate index of what it routed
 * (fleet/views/llmdApproximate.ts): with today's window of 131,072 tokens, or with the 4,096 tokens (256 blocks of
 * 16) of GAIE v1.0.0 that llm-d benchmarked in September 2025 (lesson 07.03).
 */
export const ECON_LLMD_APPROXIMATE: Scenario['router'] & { view: LlmdApproximateViewConfig } = {
  kind: 'llm-d',
  view: { kind: 'llm-d-approximate', ...LLMD_APPROX_CURRENT },
};
export const ECON_LLMD_APPROXIMATE_2025: Scenario['router'] & { view: LlmdApproximateViewConfig } = {
  kind: 'llm-d',
  view: { kind: 'llm-d-approximate', ...LLMD_APPROX_DEFAULTS },
};
/** The same, for an agent whose tool schemas go in the request's `tools` field: the index hashes the messages only. */
export const ECON_LLMD_APPROXIMATE_2025_MESSAGES: Scenario['router'] & { view: LlmdApproximateViewConfig } = {
  kind: 'llm-d',
  view: { ...ECON_LLMD_APPROXIMATE_2025.view, hashes: 'messages' },
};

export function econRouter(router: EconRouterId): Scenario['router'] {
  switch (router) {
    case 'cache-aware':
      return ECON_CACHE_AWARE;
    case 'llm-d-approximate':
      return ECON_LLMD_APPROXIMATE;
    case 'llm-d-approximate-2025':
      return ECON_LLMD_APPROXIMATE_2025;
    case 'llm-d-approximate-2025-messages':
      return ECON_LLMD_APPROXIMATE_2025_MESSAGES;
    case 'round-robin':
      return { kind: 'round-robin' };
  }
}

export function econNode(node: EconNodeId) {
  const n = findNode(node);
  if (!n) throw new RangeError(`unknown node "${node}"`);
  return n;
}

export function econScenario(a: EconRunArgs): Scenario {
  const node = econNode(a.node);
  const replicas = a.scope === 'node' ? econReplicasPerNode(node) : 1;
  return {
    name: `07.12 ${a.node} ${a.router} ${a.policy} ×${a.concurrency}`,
    seed: a.seed,
    durationS: ECON_DURATION_S,
    drainS: 0,
    model: ECON_MODEL,
    hardware: { accelerator: node.accelerator, tp: ECON_TP },
    replicas,
    router: econRouter(a.router),
    scheduler: { tokenBudget: 8192, chunkedPrefill: 2048 },
    // Reuse at vLLM's 16-token blocks over ECON_BLOCK_SIZE-token pages (fleet/tails.ts).
    kv: { blockSize: ENGINE_BLOCK_SIZE, pageTokens: ECON_BLOCK_SIZE, dram: { capacityGB: ECON_DRAM_GB } },
    policies: { toolPause: econPausePolicy(a.policy) },
    slo: { ...a.slo },
    workload: {
      arrival: { kind: 'closed', concurrency: a.concurrency * replicas, rampS: ECON_RAMP_S },
      sessions: 100_000,
      classes: [pauseAgent(a.tool)],
    },
  } as Scenario;
}

export function checkEconArgs(a: Omit<EconRunArgs, 'concurrency' | 'scope'>): void {
  econNode(a.node);
  if (!ECON_ALL_ROUTERS.includes(a.router)) throw new RangeError(`unknown router "${String(a.router)}"`);
  refuseOutsideEach(ECON_LIMITS, a.slo, ['ttftP90S', 'tpotP90S']);
  refuseOutside(SEED_LIMIT, a.seed);
}

export interface RunHooks {
  checkpoint?: () => Promise<void>;
}

/** Busy GPU-seconds by phase, reproducing the replica's attribution by tokens of each iteration. */
class PhaseMeter {
  private last: { busy: number; pre: number; dec: number }[] = [];
  prefill = 0;
  decode = 0;
  observe(sim: FleetSim): void {
    sim.replicas.forEach((r, i) => {
      const s = r.stats;
      const prev = this.last[i] ?? { busy: 0, pre: 0, dec: 0 };
      const dBusy = s.busyS - prev.busy;
      if (dBusy > 0) {
        const dPre = s.tokensPrefilled - prev.pre;
        const dDec = s.tokensDecoded - prev.dec;
        const tok = dPre + dDec;
        if (tok > 0) {
          this.prefill += (dBusy * dPre) / tok;
          this.decode += (dBusy * dDec) / tok;
        }
      }
      this.last[i] = { busy: s.busyS, pre: s.tokensPrefilled, dec: s.tokensDecoded };
    });
  }
}

/** One run; `build` turns the arguments into the scenario (the disaggregated lever builds its own). */
export async function runEconPoint(
  a: EconRunArgs,
  hooks: RunHooks = {},
  build: (a: EconRunArgs) => Scenario = econScenario,
): Promise<EconPoint> {
  const meter = new PhaseMeter();
  const res = await runScenario(build(a), {
    afterEvent: (sim) => meter.observe(sim),
    checkpoint: hooks.checkpoint,
    checkpointEvery: 2000,
    includeSeries: false,
  });
  const m = res.metrics;
  const cls = m.sessions.perClass[0];
  let held = 0;
  let cap = 0;
  let util = 0;
  let idle = 0;
  for (const r of m.replicas) {
    held += r.heldBlocks.mean;
    cap += r.kv.hbm?.capacityBlocks ?? 0;
    util += r.utilisation;
    if (r.iterations === 0) idle++;
  }
  const busy = meter.prefill + meter.decode;
  const p: SloPoint = {
    concurrency: a.concurrency,
    ttftP90S: m.requests.ttft.p90,
    tpotP90S: m.requests.tpot.p90,
  };
  return {
    ...p,
    replicas: m.config.replicas,
    meetsSlo: meetsSlo(p, a.slo),
    gpuSecondsPerSession: cls?.gpuSecondsPerSession.mean ?? 0,
    sessionWallS: cls?.sessionWallS.mean ?? 0,
    sessionsFinished: m.sessions.finished,
    prefillShare: busy > 0 ? meter.prefill / busy : 0,
    heldShare: cap > 0 ? held / cap : 0,
    reuseRatio: m.tokens.reuseRatio,
    utilisation: m.replicas.length ? util / m.replicas.length : 0,
    idleReplicas: idle,
    outputTokensPerS: m.fleet.outputTokensPerS,
    goodputShare: m.fleet.goodput.share,
    ...(m.disaggregation
      ? {
          prefillPoolUtilisation: m.disaggregation.utilisation.prefill,
          remotePrefillShare:
            m.disaggregation.remotePrefills /
            Math.max(1, m.disaggregation.remotePrefills + m.disaggregation.localPrefills),
        }
      : {}),
  };
}

export type SweepArgs = Omit<EconRunArgs, 'concurrency' | 'scope' | 'router'>;

/**
 * The SLO sweep on one replica: concurrencies of SWEEP_GRID in order, each run handed to `onPoint` as it
 * finishes; stops SWEEP_PAST_FAILURE points after the first that misses an SLO.
 */
export async function sweepConcurrency(
  a: SweepArgs,
  onPoint: (p: EconPoint) => Promise<void> | void = () => {},
  hooks: RunHooks = {},
): Promise<EconPoint[]> {
  checkEconArgs({ ...a, router: 'round-robin' });
  const out: EconPoint[] = [];
  let past = -1;
  for (const c of SWEEP_GRID) {
    const p = await runEconPoint({ ...a, concurrency: c, scope: 'replica', router: 'round-robin' }, hooks);
    out.push(p);
    await onPoint(p);
    if (past < 0 && !p.meetsSlo) past = 0;
    else if (past >= 0) past++;
    if (past >= SWEEP_PAST_FAILURE) break;
  }
  return out;
}

export interface CapacityResult {
  router: EconRouterId;
  policy: EconPolicyId;
  /** Largest concurrency per replica meeting both SLOs (0: not even the smallest). */
  agentsPerReplica: number;
  /**
   * The search's largest concurrency met the SLOs too, so the capacity is at least agentsPerReplica, not equal to
   * it: loose SLOs would otherwise show every lever tied at the top of the grid.
   */
  atLeast: boolean;
  /** The run at that concurrency (or at the smallest, if none meets the SLOs). */
  point: EconPoint;
  /** Every run of the search. */
  tried: EconPoint[];
}

/**
 * The largest concurrency per replica of LEVER_GRID at which a whole node meets both SLOs, by bisection (latency
 * grows with load). `run` lets callers share runs between searches.
 */
export async function searchCapacity(
  a: Omit<EconRunArgs, 'concurrency' | 'scope'>,
  run: (c: number) => Promise<EconPoint> = (c) => runEconPoint({ ...a, concurrency: c, scope: 'node' }),
): Promise<CapacityResult> {
  checkEconArgs(a);
  const tried: EconPoint[] = [];
  const at = async (i: number) => {
    const p = await run(LEVER_GRID[i]);
    tried.push(p);
    return p;
  };
  let lo = -1; // largest index known to meet
  let hi = LEVER_GRID.length; // smallest index known to fail
  const first = await at(0);
  if (!first.meetsSlo) hi = 0;
  else lo = 0;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const p = await at(mid);
    if (p.meetsSlo) lo = mid;
    else hi = mid;
  }
  const best = lo >= 0 ? LEVER_GRID[lo] : 0;
  const point = tried.find((p) => p.concurrency === (lo >= 0 ? LEVER_GRID[lo] : LEVER_GRID[0]))!;
  tried.sort((x, y) => x.concurrency - y.concurrency);
  const atLeast = lo === LEVER_GRID.length - 1;
  return { router: a.router, policy: a.policy, agentsPerReplica: best, atLeast, point, tried };
}

export { maxFeasible };
