/**
 * Lesson 07.03 (cache-aware routing): the fleet runs behind its widgets. Each builds a scenario for the fleet
 * simulator (src/sim/engine/fleet), runs it, and reduces the result to what a widget draws:
 *
 *  - `runRouterAnimation`: one run with frames, reduced to typed arrays per frame (KV blocks in HBM per replica
 *    and session, queue and batch members) and a per-request table, so the picture is a function of
 *    (result, t);
 *  - `runRouterSweep`: every policy at several offered loads (p90 TTFT, hit rate), streamed point by point;
 *  - `runRouterSpread`: round-robin, random and session affinity on 1…R replicas at a constant load per
 *    replica: the share of turns that land warm, the hit rate, and the KV held in duplicate.
 *
 * The workload is one illustrative agent app (shared system prompt and tool schemas, then per-session task and
 * history, tool calls between turns), served by Qwen3-32B on 2 × H100 per replica (the setup of llm-d's
 * prefix-cache scheduling benchmark). Everything is seeded: the same arguments give the same result.
 */
import { segmentBlockHashes } from '../../engine/kvcache/hash';
import { ENGINE_BLOCK_SIZE } from '../../engine/blocks';
import type { Checkpoint } from '../../engine/cooperative';
import type { FleetSim } from '../../engine/fleet/engine';
import { runScenario } from '../../engine/fleet/run';
import type { Scenario } from '../../engine/fleet/scenario';
import { SEG, segId } from '../../engine/fleet/workload';
import {
  LAB_ACCELERATOR,
  LAB_AGENT,
  LAB_BLOCK_SIZE,
  LAB_MODEL,
  LAB_SYSTEM_TOKENS,
  LAB_TOOL_TOKENS,
  LAB_TP,
  labBytesPerBlock,
  ROUTER_POLICIES,
  SPREAD_POLICIES,
  type CacheViewKind,
  type RouterPolicy,
} from './constants';
import { routerConfig } from './routers';
import { requestRows, summarizeRows, type PolicySummary } from './summary';
import { residency } from './residency';

export { cacheViewConfig, routerConfig } from './routers';
export { labBytesPerBlock } from './constants';

export { frameAt, requestRows, summarizeRows, type PolicySummary, type RequestRows } from './summary';

// ───────────────────────────── the lab's fleet ─────────────────────────────

export {
  DEFAULT_PER_REPLICA_RATES,
  LAB_ACCELERATOR,
  LAB_AGENT,
  LAB_BLOCK_SIZE,
  LAB_MODEL,
  LAB_SHARED_TOKENS,
  LAB_SYSTEM_TOKENS,
  LAB_TOOL_TOKENS,
  LAB_TP,
  LLMD_POLICIES,
  POLICY_LABELS,
  ROUTER_POLICIES,
  SPREAD_POLICIES,
  type CacheViewKind,
  type RouterPolicy,
} from './constants';

export interface LabFleet {
  replicas: number;
  /** New sessions per second (Poisson). */
  sessionsPerS: number;
  /** Seconds during which sessions arrive (the run goes on until they finish). */
  arrivalS: number;
  seed: number;
  /**
   * Cache-aware only: route to the least-loaded replica when the outstanding requests of the busiest and the
   * idlest replica differ by more than this (SGLang router's balance_abs_threshold).
   */
  loadThreshold: number;
  /** Cache-aware only: what the router knows of the caches. Default exact. */
  cacheView?: CacheViewKind;
  /**
   * A KV pool shared by all replicas, in GB (0 or absent: none). Blocks evicted from HBM are kept there, and a
   * turn whose prefix left its replica reloads it over the replica's RDMA NIC instead of recomputing it
   * (Mooncake's store, LMCache's remote backend; fleet/scenarioFormat.ts `kv.pool`, docs/scenarios.md).
   */
  poolGB?: number;
}

export function labScenario(policy: RouterPolicy, f: LabFleet, frameIntervalS = 0): Scenario {
  return {
    name: `07.03 ${policy}`,
    seed: f.seed,
    durationS: f.arrivalS,
    model: LAB_MODEL,
    hardware: { accelerator: LAB_ACCELERATOR, tp: LAB_TP },
    replicas: f.replicas,
    // Reuse at vLLM's 16-token blocks; the fleet tracks LAB_BLOCK_SIZE-token pages (fleet/tails.ts).
    kv: {
      blockSize: ENGINE_BLOCK_SIZE,
      pageTokens: LAB_BLOCK_SIZE,
      ...(f.poolGB ? { pool: { capacityGB: f.poolGB } } : {}),
    },
    router: routerConfig(policy, f.loadThreshold, f.cacheView),
    workload: {
      arrival: { kind: 'poisson', sessionsPerS: f.sessionsPerS },
      sessions: 100_000,
      classes: [LAB_AGENT],
    },
    slo: { ttftP90S: 2 },
    output: frameIntervalS > 0 ? { frameIntervalS } : undefined,
  };
}

/** Hashes of the full blocks of the app's shared head (system prompt + tool schemas): the same in every session. */
export function sharedPrefixHashes(): Set<number> {
  // The workload's segment ids for app 0 of class 0 (see fleet/workload.ts createSession).
  const segs = [
    { id: segId(SEG.system, 0, 0), tokens: LAB_SYSTEM_TOKENS },
    { id: segId(SEG.tools, 0, 0), tokens: LAB_TOOL_TOKENS },
  ];
  return new Set(segmentBlockHashes(segs, LAB_BLOCK_SIZE, { fullBlocksOnly: true }).hashes);
}

// ───────────────────────────── KV residency ─────────────────────────────

export { residency, ResidencyTracker, type Residency } from './residency';

// ───────────────────────────── the animated router ─────────────────────────────

export interface RunHooks<F> {
  /** The fleet run's checkpoint (engine/fleet/run.ts): passed its progress in simulated seconds. */
  checkpoint?: Checkpoint;
  emit?: (frame: F) => Promise<void> | void;
}

export {
  CHUNK_FRAMES,
  chunkTransferables,
  runRouterAnimation,
  type AnimationFrames,
  type RouterAnimationArgs,
  type RouterAnimationResult,
  type RouterChunk,
  type RouterRunSetup,
} from './animation';

// ───────────────────────────── one summary run ─────────────────────────────

export interface PolicyRun {
  policy: RouterPolicy;
  summary: PolicySummary;
  /** Session-private HBM blocks held in duplicate, time-mean over the second half of the arrival window. */
  duplicateBlocksMean: number;
  /** Mean number of replicas holding part of a live session's private prefix, same window. */
  copiesPerSession: number;
  sessions: number;
  /** HBM KV capacity of one replica, blocks. */
  hbmBlocks: number;
}

/** Run one policy without frames and summarise it (sampling duplication every `sampleS` seconds). */
export async function runPolicy(
  policy: RouterPolicy,
  f: LabFleet,
  hooks: RunHooks<never> = {},
  sampleS = 2,
): Promise<PolicyRun> {
  const shared = sharedPrefixHashes();
  let next = f.arrivalS / 2;
  let dupSum = 0;
  let copiesSum = 0;
  let samples = 0;
  const sampling = sampleS > 0 && Number.isFinite(sampleS);
  const afterEvent = (sim: FleetSim) => {
    if (!sampling || sim.now < next || next > f.arrivalS) return;
    while (next <= sim.now) next += sampleS;
    const d = residency(sim, shared);
    dupSum += d.duplicateBlocks;
    copiesSum += d.copiesPerSession;
    samples++;
  };
  const res = await runScenario(labScenario(policy, f), {
    afterEvent,
    checkpoint: hooks.checkpoint,
    checkpointEvery: 2000,
    includeRequests: true,
    includeSeries: false,
  });
  const rows = requestRows(res.requests!);
  return {
    policy,
    summary: summarizeRows(rows, f.replicas),
    duplicateBlocksMean: samples ? dupSum / samples : 0,
    copiesPerSession: samples ? copiesSum / samples : 0,
    sessions: res.metrics.sessions.started,
    hbmBlocks: res.metrics.config.hbmBlocksPerReplica,
  };
}

// ───────────────────────────── the policy sweep ─────────────────────────────

export interface RouterSweepArgs {
  replicas: number;
  loadThreshold: number;
  seed: number;
  arrivalS: number;
  /** Offered loads, new sessions per second per replica. */
  perReplicaRates: readonly number[];
  policies?: readonly RouterPolicy[];
}

export interface SweepPoint {
  policy: RouterPolicy;
  /** New sessions per second, fleet-wide. */
  sessionsPerS: number;
  hitRate: number;
  ttftP50: number;
  ttftP90: number;
  imbalance: number;
  requests: number;
}

/** One point of the policy sweep: `policy` at `perReplicaRate` new sessions/s per replica. */
export async function routerSweepPoint(
  a: Omit<RouterSweepArgs, 'perReplicaRates' | 'policies'>,
  perReplicaRate: number,
  policy: RouterPolicy,
  hooks: RunHooks<never> = {},
): Promise<SweepPoint> {
  const sessionsPerS = perReplicaRate * a.replicas;
  const run = await runPolicy(
    policy,
    {
      replicas: a.replicas,
      sessionsPerS,
      arrivalS: a.arrivalS,
      seed: a.seed,
      loadThreshold: a.loadThreshold,
    },
    hooks,
    0,
  );
  const s = run.summary;
  return {
    policy,
    sessionsPerS,
    hitRate: s.hitRate,
    ttftP50: s.ttftP50,
    ttftP90: s.ttftP90,
    imbalance: s.imbalance,
    requests: s.requests,
  };
}

export async function runRouterSweep(
  a: RouterSweepArgs,
  hooks: RunHooks<SweepPoint> = {},
): Promise<{ points: SweepPoint[] }> {
  const points: SweepPoint[] = [];
  const policies = a.policies ?? ROUTER_POLICIES;
  for (const per of a.perReplicaRates) {
    for (const policy of policies) {
      await hooks.checkpoint?.();
      const p = await routerSweepPoint(a, per, policy, hooks);
      points.push(p);
      await hooks.emit?.(p);
    }
  }
  return { points };
}

// ───────────────────────────── spreading over R replicas ─────────────────────────────

export interface RouterSpreadArgs {
  /** Fleet sizes to run. */
  replicaCounts: readonly number[];
  /** New sessions per second per replica (the load per replica stays the same as R grows). */
  perReplicaRate: number;
  seed: number;
  arrivalS: number;
  policies?: readonly RouterPolicy[];
}

export interface SpreadPoint {
  policy: RouterPolicy;
  replicas: number;
  warmTurnShare: number;
  hitRate: number;
  privateHitRate: number;
  /** theory.ts's prediction for the same turns when nothing of a session survives on a cold replica. */
  spreadBoundHitRate: number;
  /** Session-private KV held in duplicate across the fleet (bytes, time-mean in steady state). */
  duplicateBytes: number;
  copiesPerSession: number;
  ttftP90: number;
}

/** One point of the spread: `policy` on `replicas` replicas at the load per replica. */
export async function routerSpreadPoint(
  a: Omit<RouterSpreadArgs, 'replicaCounts' | 'policies'>,
  replicas: number,
  policy: RouterPolicy,
  hooks: RunHooks<never> = {},
): Promise<SpreadPoint & { hbmBlocks: number }> {
  const run = await runPolicy(
    policy,
    {
      replicas,
      sessionsPerS: a.perReplicaRate * replicas,
      arrivalS: a.arrivalS,
      seed: a.seed,
      loadThreshold: 8,
    },
    hooks,
  );
  const s = run.summary;
  return {
    policy,
    replicas,
    warmTurnShare: s.warmTurnShare,
    hitRate: s.hitRate,
    privateHitRate: s.privateHitRate,
    spreadBoundHitRate: s.spreadBoundHitRate,
    duplicateBytes: run.duplicateBlocksMean * labBytesPerBlock(),
    copiesPerSession: run.copiesPerSession,
    ttftP90: s.ttftP90,
    hbmBlocks: run.hbmBlocks,
  };
}

export async function runRouterSpread(
  a: RouterSpreadArgs,
  hooks: RunHooks<SpreadPoint> = {},
): Promise<{ points: SpreadPoint[]; bytesPerBlock: number; hbmBlocks: number }> {
  const points: SpreadPoint[] = [];
  let hbmBlocks = 0;
  for (const R of a.replicaCounts) {
    for (const policy of a.policies ?? SPREAD_POLICIES) {
      await hooks.checkpoint?.();
      const { hbmBlocks: blocks, ...p } = await routerSpreadPoint(a, R, policy, hooks);
      hbmBlocks = blocks;
      points.push(p);
      await hooks.emit?.(p);
    }
  }
  return { points, bytesPerBlock: labBytesPerBlock(), hbmBlocks };
}
