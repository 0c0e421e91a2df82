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
import { resolveModel } from '../../engine/catalog';
import { kvBytesPerToken } from '../../engine/catalog/models';
import { segmentBlockHashes } from '../../engine/kvcache/hash';
import { ENGINE_BLOCK_SIZE } from '../../engine/blocks';
import type { FleetSim } from '../../engine/fleet/engine';
import type { FleetFrame } from '../../engine/fleet/frames';
import { ROUTE_REASONS } from '../../engine/fleet/router';
import { runScenario, type FleetResult } from '../../engine/fleet/run';
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
  ROUTER_POLICIES,
  SPREAD_POLICIES,
  type CacheViewKind,
  type RouterPolicy,
} from './constants';
import { routerConfig } from './routers';
import { requestRows, summarizeRows, type PolicySummary, type RequestRows } from './summary';
import { residency, ResidencyTracker } from './residency';

export { cacheViewConfig, routerConfig } from './routers';

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
   * (Mooncake's store, LMCache's remote backend; fleet/scenario.ts `kv.pool`, docs/scenarios.md).
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

/** KV bytes of one block of the lab's model (BF16 cache). */
export function labBytesPerBlock(): number {
  return kvBytesPerToken(resolveModel(LAB_MODEL), 'bf16') * LAB_BLOCK_SIZE;
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

export interface RouterAnimationArgs extends LabFleet {
  policy: RouterPolicy;
  /** Simulated seconds between frames. Default 0.5. */
  frameIntervalS?: number;
}

export interface AnimationFrames {
  count: number;
  t: Float64Array;
  /** Per frame and replica (row-major F × R): requests waiting, and running (loading, prefill or decode). */
  waiting: Uint16Array;
  running: Uint16Array;
  /** HBM blocks by session: entries kvOffsets[f·R + r] … kvOffsets[f·R + r + 1] (session −1 = shared head). */
  kvOffsets: Uint32Array;
  kvSession: Int32Array;
  kvBlocks: Uint32Array;
  /** Queue and batch: entries memOffsets[f·R + r] … of request ids and phases (0 waiting, 1 loading, 2 prefill, 3 decode). */
  memOffsets: Uint32Array;
  memRequest: Int32Array;
  memPhase: Uint8Array;
  /** Session-private HBM blocks held in duplicate, per frame. */
  duplicateBlocks: Uint32Array;
}

export interface RouterAnimationResult {
  policy: RouterPolicy;
  replicas: number;
  sessions: number;
  /** Simulated seconds until the last event. */
  endS: number;
  frameIntervalS: number;
  hbmBlocks: number;
  blockSize: number;
  bytesPerBlock: number;
  sharedBlocks: number;
  frames: AnimationFrames;
  requests: RequestRows;
  /** Why each request went where it went (index into ROUTE_REASONS), and the prefix the router saw (blocks, −1 if it did not look). */
  reason: Uint8Array;
  matched: Int32Array;
  /** The shared pool's capacity (0: none). */
  poolGB: number;
  reasonNames: readonly string[];
  summary: PolicySummary;
}

class U32 {
  buf = new Uint32Array(1024);
  n = 0;
  push(x: number): void {
    if (this.n === this.buf.length) {
      const b = new Uint32Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
    this.buf[this.n++] = x;
  }
  out(): Uint32Array {
    return this.buf.slice(0, this.n);
  }
}

export interface RunHooks<F> {
  checkpoint?: () => Promise<void>;
  emit?: (frame: F) => Promise<void> | void;
}

export async function runRouterAnimation(
  a: RouterAnimationArgs,
  hooks: RunHooks<never> = {},
): Promise<RouterAnimationResult> {
  const interval = a.frameIntervalS ?? 0.5;
  const shared = sharedPrefixHashes();
  const R = a.replicas;
  const t: number[] = [];
  const waiting: number[] = [];
  const running: number[] = [];
  const dup: number[] = [];
  const kvOff = new U32();
  const kvSes: number[] = [];
  const kvBlk = new U32();
  const memOff = new U32();
  const memReq: number[] = [];
  const memPh: number[] = [];
  kvOff.push(0);
  memOff.push(0);
  let hbmBlocks = 0;
  let tracker: ResidencyTracker | null = null;
  const onFrame = (f: FleetFrame) => {
    for (let r = 0; r < R; r++) {
      for (let j = f.members.offsets[r]; j < f.members.offsets[r + 1]; j++) {
        memReq.push(f.members.request[j]);
        memPh.push(f.members.phase[j]);
      }
      memOff.push(memReq.length);
    }
  };
  const afterEvent = (sim: FleetSim) => {
    // Residency follows the caches from the first event on (it starts from one snapshot), not per frame.
    tracker ??= new ResidencyTracker(sim.caches, shared);
    const f = sim.pendingFrame;
    if (!f) return;
    t.push(f.t);
    hbmBlocks = f.replicas.kvCapacity[0];
    for (let r = 0; r < R; r++) {
      waiting.push(f.replicas.waiting[r]);
      running.push(f.replicas.loading[r] + f.replicas.prefilling[r] + f.replicas.decoding[r]);
      const by = tracker.sessionsOn(r);
      for (const s of [...by.keys()].sort((x, y) => x - y)) {
        kvSes.push(s);
        kvBlk.push(by.get(s)!);
      }
      kvOff.push(kvSes.length);
    }
    dup.push(tracker.duplicateBlocks);
  };
  const res: FleetResult = await runScenario(labScenario(a.policy, a, interval), {
    onFrame,
    afterEvent,
    checkpoint: hooks.checkpoint,
    checkpointEvery: 2000,
    includeRequests: true,
    includeSeries: false,
  });
  // Each request's routing decision comes with its row of the request table (reason, matched, queued).
  const rows = requestRows(res.requests!);
  const F = t.length;
  return {
    policy: a.policy,
    replicas: R,
    sessions: res.metrics.sessions.started,
    endS: res.metrics.simulatedS,
    frameIntervalS: interval,
    hbmBlocks: hbmBlocks || res.metrics.config.hbmBlocksPerReplica,
    blockSize: LAB_BLOCK_SIZE,
    bytesPerBlock: labBytesPerBlock(),
    sharedBlocks: shared.size,
    frames: {
      count: F,
      t: Float64Array.from(t),
      waiting: Uint16Array.from(waiting),
      running: Uint16Array.from(running),
      kvOffsets: kvOff.out(),
      kvSession: Int32Array.from(kvSes),
      kvBlocks: kvBlk.out(),
      memOffsets: memOff.out(),
      memRequest: Int32Array.from(memReq),
      memPhase: Uint8Array.from(memPh),
      duplicateBlocks: Uint32Array.from(dup),
    },
    requests: rows,
    reason: rows.reason,
    matched: rows.matched,
    poolGB: a.poolGB ?? 0,
    reasonNames: ROUTE_REASONS,
    summary: summarizeRows(rows, R),
  };
}

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
