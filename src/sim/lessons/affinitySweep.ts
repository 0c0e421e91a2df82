/**
 * Lesson 07.02's fleet view: R replicas with C agents in flight per replica, one routing policy per run, summed
 * up as the prefix-cache hit rate and TTFT percentiles of every request. Request-level routing sends turn k+1 to
 * the replica of turn k with probability 1/R, so its hit rate falls toward s + (h₁ − s)/R (`oneOverRModel`).
 * Apart from affinity.ts because the two answer different questions with different workloads: that file follows
 * one session turn by turn, this one sums up a closed loop of R · C agents from four apps (sessions interleaved,
 * so the request table is read in arrival order rather than by turn).
 *
 * Pure and deterministic (seeded); no DOM.
 */
import { SWEEP_SHAPE, SWEEP_SHARED_TOKENS } from './affinityModel';
import { affinityFleet, type AffinityPolicy, type HardwareChoice } from './affinity';
import { runScenario, type FleetResult } from '../engine/fleet/run';
import { resolveScenario, type Scenario } from '../engine/fleet/scenario';

export interface SweepWorkload {
  /** Agents in flight per replica (closed loop: a new session starts when one ends). */
  agentsPerReplica: number;
  /** Sessions per agent slot over the run. Default 1. */
  waves?: number;
}

/**
 * A fleet of R replicas running R · C agents: four apps (each with its own 2k-token system prompt and 6k tokens of
 * tool schemas, shared by its sessions), a task of ~2k tokens, 12–32 turns of ~500 output tokens and ~2k-token
 * tool results, shell-like tool latencies (median 0.45 s). Per-replica load is the same at every R.
 */
export function sweepScenario(
  hw: HardwareChoice,
  w: SweepWorkload,
  replicas: number,
  policy: AffinityPolicy,
  seed = 1,
): Scenario {
  const agents = replicas * w.agentsPerReplica;
  return {
    name: `07.02 fleet sweep: ${replicas} replicas, ${policy}`,
    ...affinityFleet(hw, replicas, policy, seed),
    workload: {
      arrival: { kind: 'closed', concurrency: agents, rampS: 10 },
      sessions: agents * Math.max(1, w.waves ?? 1),
      classes: [
        {
          kind: 'agent',
          name: 'agent',
          apps: SWEEP_SHAPE.apps,
          systemTokens: { kind: 'constant', value: 2_000 },
          toolSchemaTokens: { kind: 'constant', value: SWEEP_SHARED_TOKENS - 2_000 },
          taskTokens: { kind: 'lognormal', median: 2_000, sigma: 0.5, max: 8_000 },
          turns: { kind: 'uniform', min: SWEEP_SHAPE.turnsMin, max: SWEEP_SHAPE.turnsMax },
          outputTokens: { kind: 'lognormal', median: 500, sigma: 0.5, min: 16, max: 4_000 },
          toolResultTokens: { kind: 'lognormal', median: 2_000, sigma: 0.6, min: 16, max: 8_000 },
          toolLatency: 'shell',
        },
      ],
    },
    output: { sampleIntervalS: 1e6 },
  };
}

export interface SweepPoint {
  replicas: number;
  policy: AffinityPolicy;
  sessions: number;
  requests: number;
  promptTokens: number;
  reusedTokens: number;
  prefilledTokens: number;
  /** Σ reused / Σ prompt over every request. */
  hitRate: number;
  /** Share of prompt tokens that are the apps' shared head (system + tools, whole blocks): the floor s. */
  sharedShare: number;
  ttftP50S: number;
  ttftP90S: number;
  /** Share of turns after the first that landed on the replica of the session's previous turn. */
  sameReplicaShare: number;
  /** HBM KV capacity per replica, tokens. */
  kvCapacityTokens: number;
  meanPromptTokens: number;
}

/** Summary of one sweep run from its metrics and request table. */
export function sweepPoint(
  res: FleetResult,
  replicas: number,
  policy: AffinityPolicy,
  blockSize: number,
  hbmBlocks: number,
  /** Tokens per page the cache counts hbmBlocks in (default: blockSize). */
  pageTokens: number = blockSize,
): SweepPoint {
  const m = res.metrics;
  const d = res.requests!.data;
  const n = d.turn.length;
  const shared = Math.floor(SWEEP_SHARED_TOKENS / blockSize) * blockSize;
  let promptTokens = 0;
  let sharedTokens = 0;
  // Same replica as the previous turn of the same session.
  const lastReplica = new Map<number, number>();
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => d.arrival[a] - d.arrival[b] || a - b);
  let later = 0;
  let same = 0;
  let reused = 0;
  for (const i of order) {
    promptTokens += d.promptTokens[i];
    // Reuse is summed over admissions: a request preempted and readmitted finds its own blocks again. Count a
    // request's prompt at most once.
    reused += Math.min(
      d.promptTokens[i],
      d.reusedHbm[i] + d.reusedDram[i] + d.reusedNvme[i] + d.reusedRemote[i],
    );
    sharedTokens += Math.min(shared, d.promptTokens[i] - 1);
    const prev = lastReplica.get(d.session[i]);
    if (prev !== undefined) {
      later++;
      if (prev === d.replica[i]) same++;
    }
    lastReplica.set(d.session[i], d.replica[i]);
  }
  return {
    replicas,
    policy,
    sessions: m.sessions.started,
    requests: m.requests.created,
    promptTokens,
    reusedTokens: reused,
    prefilledTokens: m.tokens.prefilled,
    hitRate: promptTokens > 0 ? reused / promptTokens : 0,
    sharedShare: promptTokens > 0 ? sharedTokens / promptTokens : 0,
    ttftP50S: m.requests.ttft.p50,
    ttftP90S: m.requests.ttft.p90,
    sameReplicaShare: later > 0 ? same / later : 1,
    kvCapacityTokens: hbmBlocks * pageTokens,
    meanPromptTokens: n > 0 ? promptTokens / n : 0,
  };
}

/** Run one sweep point (cooperatively: `checkpoint` is awaited every `every` events). */
export async function affinitySweepPoint(
  hw: HardwareChoice,
  w: SweepWorkload,
  replicas: number,
  policy: AffinityPolicy,
  seed = 1,
  checkpoint?: () => Promise<void>,
): Promise<SweepPoint> {
  const scenario = sweepScenario(hw, w, replicas, policy, seed);
  const rs = resolveScenario(scenario);
  const res = await runScenario(scenario, {
    includeRequests: true,
    includeSeries: false,
    checkpoint,
    checkpointEvery: 1_000,
  });
  return sweepPoint(res, replicas, policy, rs.engineBlockSize, rs.hbmBlocks, rs.blockSize);
}
