/**
 * Lesson 07.06 (tool calls in the loop): the fleet runs behind the pause-policy arena. Each builds a scenario
 * for the fleet simulator (src/sim/engine/fleet), runs it, and reduces the result to what the widget draws:
 *
 *  - where the KV of every session sits over time: HBM blocks of running or queued sessions, of idle sessions
 *    (waiting for a tool) pinned or merely cached, of finished sessions; DRAM blocks of idle sessions and others
 *    (sampled at the simulator's frame events, from the caches themselves);
 *  - the resume after each tool call: its TTFT, and where the previous turn's context came from (HBM, DRAM or
 *    recomputed), from the per-request table;
 *  - the run's throughput, goodput and the bytes moved over PCIe.
 *
 * One replica (Qwen3-32B on 2 × H100, 500 GB of host DRAM) serves a closed loop of agent sessions whose tool
 * calls follow one of the presets of src/sim/engine/fleet/dist.ts. Seeded: the same arguments give the same result.
 */
import { resolveModel } from '../engine/catalog';
import { kvBytesPerToken } from '../engine/catalog/models';
import { segmentBlockHashes } from '../engine/kvcache/hash';
import type { ToolLatencyPreset } from '../engine/fleet/dist';
import { TOOL_LATENCY_PRESETS } from '../engine/fleet/dist';
import { refuseOutside } from '../engine/limits';
import { SEED_LIMIT } from '../engine/rng';
import type { FleetSim } from '../engine/fleet/engine';
import { percentileSorted } from '../engine/fleet/metrics';
import { runScenario, type FleetMetrics, type RequestTable } from '../engine/fleet/run';
import type { Scenario, ToolPausePolicy } from '../engine/fleet/scenario';
import { SEG, segId } from '../engine/fleet/workload';
import {
  PAUSE_ACCELERATOR,
  PAUSE_ARENA_LIMITS,
  PAUSE_BLOCK_SIZE,
  PAUSE_DRAM_GB,
  PAUSE_DURATION_S,
  PAUSE_MODEL,
  PAUSE_POLICIES,
  PAUSE_SLO,
  PAUSE_SYSTEM_TOKENS,
  PAUSE_TOOL_TOKENS,
  PAUSE_TP,
  pauseAgent,
  type PausePolicyId,
} from './pauseLabSetup';

export interface PauseArenaArgs {
  /** TTL of the ttl-* policies, s. */
  ttlS: number;
  tool: ToolLatencyPreset;
  /** Agent sessions in flight (closed loop). */
  agents: number;
  seed: number;
}

export function toolPausePolicy(policy: PausePolicyId, ttlS: number): ToolPausePolicy {
  switch (policy) {
    case 'hold':
      return { kind: 'hold' };
    case 'lru':
      return { kind: 'lru' };
    case 'write-through':
      return { kind: 'write-through' };
    case 'offload':
      return { kind: 'offload', tier: 'dram' };
    case 'evict':
      return { kind: 'evict' };
    case 'ttl-offload':
      return { kind: 'ttl', ttlS, then: 'offload', tier: 'dram' };
    case 'ttl-evict':
      return { kind: 'ttl', ttlS, then: 'evict' };
  }
}

export function checkArenaArgs(a: PauseArenaArgs): void {
  refuseOutside(PAUSE_ARENA_LIMITS.ttlS, a.ttlS);
  if (!(a.tool in TOOL_LATENCY_PRESETS)) throw new RangeError(`unknown tool preset "${String(a.tool)}"`);
  refuseOutside(PAUSE_ARENA_LIMITS.agents, a.agents);
  refuseOutside(SEED_LIMIT, a.seed);
}

/** Seconds between occupancy samples. */
export const SAMPLE_INTERVAL_S = 4;

export function pauseScenario(policy: PausePolicyId, a: PauseArenaArgs): Scenario {
  return {
    name: `07.06 ${policy}`,
    seed: a.seed,
    durationS: PAUSE_DURATION_S,
    drainS: 0,
    model: PAUSE_MODEL,
    hardware: { accelerator: PAUSE_ACCELERATOR, tp: PAUSE_TP },
    replicas: 1,
    router: { kind: 'session-affinity' },
    scheduler: { tokenBudget: 8192, chunkedPrefill: 2048 },
    kv: { blockSize: PAUSE_BLOCK_SIZE, dram: { capacityGB: PAUSE_DRAM_GB } },
    policies: { toolPause: toolPausePolicy(policy, a.ttlS) },
    slo: { ...PAUSE_SLO },
    workload: {
      arrival: { kind: 'closed', concurrency: a.agents, rampS: 20 },
      sessions: 100_000,
      classes: [pauseAgent(a.tool)],
    },
    output: { frameIntervalS: SAMPLE_INTERVAL_S },
  };
}

/** KV bytes of one block of the lab's model (BF16 cache). */
export function pauseBytesPerBlock(): number {
  return kvBytesPerToken(resolveModel(PAUSE_MODEL), 'bf16') * PAUSE_BLOCK_SIZE;
}

/** Hashes of the full blocks of the shared head (system prompt + tool schemas): the same in every session. */
export function pauseSharedHashes(): Set<number> {
  const segs = [
    { id: segId(SEG.system, 0, 0), tokens: PAUSE_SYSTEM_TOKENS },
    { id: segId(SEG.tools, 0, 0), tokens: PAUSE_TOOL_TOKENS },
  ];
  return new Set(segmentBlockHashes(segs, PAUSE_BLOCK_SIZE, { fullBlocksOnly: true }).hashes);
}

// ───────────────────────────── occupancy ─────────────────────────────

/** Where the KV blocks are at each sample (blocks, one entry per sample). */
export interface OccupancyTrack {
  t: Float64Array;
  /** HBM: sessions with a request queued or running, and the shared head. */
  hbmActive: Uint32Array;
  /** HBM: idle sessions (waiting for a tool), pinned: held through the pause. */
  hbmIdlePinned: Uint32Array;
  /** HBM: idle sessions, unpinned: cached, LRU may evict them. */
  hbmIdleCached: Uint32Array;
  /** HBM: finished sessions' blocks, still cached. */
  hbmDone: Uint32Array;
  /** DRAM: copies of idle sessions' blocks (offloaded, written through, or demoted by LRU; some also in HBM). */
  dramIdle: Uint32Array;
  /** DRAM: every other copy (finished sessions, the shared head). */
  dramOther: Uint32Array;
}

export const TRACK_KEYS = [
  'hbmActive',
  'hbmIdlePinned',
  'hbmIdleCached',
  'hbmDone',
  'dramIdle',
  'dramOther',
] as const;
export type TrackKey = (typeof TRACK_KEYS)[number];

class Track {
  readonly t: number[] = [];
  readonly v: Record<TrackKey, number[]> = {
    hbmActive: [],
    hbmIdlePinned: [],
    hbmIdleCached: [],
    hbmDone: [],
    dramIdle: [],
    dramOther: [],
  };

  sample(sim: FleetSim, time: number, shared: ReadonlySet<number>): void {
    const active = new Set<number>();
    for (const r of sim.replicas) {
      for (const q of r.running) active.add(q.session);
      for (const q of r.waiting) active.add(q.session);
    }
    const c = { hbmActive: 0, hbmIdlePinned: 0, hbmIdleCached: 0, hbmDone: 0, dramIdle: 0, dramOther: 0 };
    for (const cache of sim.caches) {
      const snap = cache.snapshot();
      const hbm = snap.tiers.indexOf('hbm');
      const dram = snap.tiers.indexOf('dram');
      for (let i = 0; i < snap.count; i++) {
        const tag = snap.tag[i];
        const s = tag >= 0 ? sim.sessions[tag] : undefined;
        const isShared = shared.has(snap.hashes[i]);
        const idle = !isShared && s !== undefined && !s.done && !active.has(tag);
        if (snap.tier[i] === hbm) {
          if (isShared || active.has(tag)) c.hbmActive++;
          else if (idle) {
            if (snap.pins[i] > 0) c.hbmIdlePinned++;
            else c.hbmIdleCached++;
          } else c.hbmDone++;
        }
        // Tiers are inclusive: a block may also have a DRAM copy (written through, or kept after a reload).
        if (dram >= 0 && snap.resident[i] & (1 << dram)) {
          if (idle) c.dramIdle++;
          else c.dramOther++;
        }
      }
    }
    this.t.push(time);
    for (const k of TRACK_KEYS) this.v[k].push(c[k]);
  }

  out(): OccupancyTrack {
    const u = (k: TrackKey) => Uint32Array.from(this.v[k]);
    return {
      t: Float64Array.from(this.t),
      hbmActive: u('hbmActive'),
      hbmIdlePinned: u('hbmIdlePinned'),
      hbmIdleCached: u('hbmIdleCached'),
      hbmDone: u('hbmDone'),
      dramIdle: u('dramIdle'),
      dramOther: u('dramOther'),
    };
  }
}

function meanOf(a: ArrayLike<number>): number {
  if (!a.length) return 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s / a.length;
}

// ───────────────────────────── resumes ─────────────────────────────

export interface ResumeStats {
  /** Finished turns after the first (each the resume after a tool call). */
  count: number;
  ttft: { mean: number; p50: number; p90: number; p99: number };
  /** Share of resumes that found the whole previous context in HBM. */
  inHbmShare: number;
  /** Where the previous turns' contexts came from, token-weighted: HBM, DRAM, recomputed. Sums to 1. */
  source: { hbm: number; dram: number; recomputed: number };
}

/**
 * The resumes of a run from its request table. A turn k > 0 of a session re-sends turn k − 1's context: the
 * reusable part is K = ⌊(prompt + output − 1) / B⌋ · B tokens of turn k − 1 (whole blocks; the last sampled token
 * has no KV). Reused from HBM ≥ K: the resume found it all in HBM.
 */
export function resumeStats(table: RequestTable, blockSize: number): ResumeStats {
  const d = table.data;
  const n = d.session.length;
  const prevCtx = new Map<number, Map<number, number>>();
  for (let i = 0; i < n; i++) {
    if (d.status[i] !== 1) continue;
    const k = Math.floor((d.promptTokens[i] + d.outputTokens[i] - 1) / blockSize) * blockSize;
    let m = prevCtx.get(d.session[i]);
    if (!m) prevCtx.set(d.session[i], (m = new Map()));
    m.set(d.turn[i], k);
  }
  const ttfts: number[] = [];
  let inHbm = 0;
  let fromHbm = 0;
  let fromDram = 0;
  let recomputed = 0;
  for (let i = 0; i < n; i++) {
    if (d.status[i] !== 1 || d.turn[i] === 0) continue;
    ttfts.push(d.ttft[i]);
    const k = prevCtx.get(d.session[i])?.get(d.turn[i] - 1);
    if (k === undefined) continue;
    const h = Math.min(k, d.reusedHbm[i]);
    const r = Math.min(k - h, d.reusedDram[i] + d.reusedNvme[i] + d.reusedRemote[i]);
    fromHbm += h;
    fromDram += r;
    recomputed += k - h - r;
    if (d.reusedHbm[i] >= k) inHbm++;
  }
  ttfts.sort((a, b) => a - b);
  const total = fromHbm + fromDram + recomputed;
  return {
    count: ttfts.length,
    ttft: {
      mean: meanOf(ttfts),
      p50: percentileSorted(ttfts, 0.5),
      p90: percentileSorted(ttfts, 0.9),
      p99: percentileSorted(ttfts, 0.99),
    },
    inHbmShare: ttfts.length ? inHbm / ttfts.length : 0,
    source:
      total > 0
        ? { hbm: fromHbm / total, dram: fromDram / total, recomputed: recomputed / total }
        : { hbm: 0, dram: 0, recomputed: 0 },
  };
}

// ───────────────────────────── one run ─────────────────────────────

export interface PauseSummary {
  policy: PausePolicyId;
  /** The TTL of a ttl-* policy, else null. */
  ttlS: number | null;
  resumes: ResumeStats;
  /** TTFT p50 of first turns (nothing to resume), s. */
  firstTtftP50: number;
  /** Time-mean blocks: idle sessions' KV in HBM (pinned, cached), in DRAM; all HBM in use. */
  idlePinnedBlocks: number;
  idleCachedBlocks: number;
  idleDramBlocks: number;
  hbmUsedBlocks: number;
  /** Bytes over the host link: up (reloads), down (offloads and demotions). */
  pcieUpBytes: number;
  pcieDownBytes: number;
  outputTokensPerS: number;
  goodputShare: number;
  goodputTokensPerS: number;
  promptTokens: number;
  prefilledTokens: number;
  requestsFinished: number;
  sessionsFinished: number;
  heldReleases: number;
  simulatedS: number;
}

export interface PauseRun {
  summary: PauseSummary;
  track: OccupancyTrack;
  /** The replica's HBM KV capacity, blocks. */
  hbmCapacityBlocks: number;
  /** KV bytes of one block. */
  bytesPerBlock: number;
}

export interface RunHooks {
  checkpoint?: () => Promise<void>;
}

function summarise(
  policy: PausePolicyId,
  a: PauseArenaArgs,
  m: FleetMetrics,
  table: RequestTable,
  track: OccupancyTrack,
): PauseSummary {
  const link = m.bytesMoved['dram→hbm'] ?? { up: 0, down: 0 };
  const firstTtfts: number[] = [];
  const d = table.data;
  for (let i = 0; i < d.session.length; i++)
    if (d.status[i] === 1 && d.turn[i] === 0) firstTtfts.push(d.ttft[i]);
  firstTtfts.sort((x, y) => x - y);
  let hbmUsed = 0;
  for (let i = 0; i < track.t.length; i++)
    hbmUsed += track.hbmActive[i] + track.hbmIdlePinned[i] + track.hbmIdleCached[i] + track.hbmDone[i];
  return {
    policy,
    ttlS: policy.startsWith('ttl') ? a.ttlS : null,
    resumes: resumeStats(table, PAUSE_BLOCK_SIZE),
    firstTtftP50: percentileSorted(firstTtfts, 0.5),
    idlePinnedBlocks: meanOf(track.hbmIdlePinned),
    idleCachedBlocks: meanOf(track.hbmIdleCached),
    idleDramBlocks: meanOf(track.dramIdle),
    hbmUsedBlocks: track.t.length ? hbmUsed / track.t.length : 0,
    pcieUpBytes: link.up,
    pcieDownBytes: link.down,
    outputTokensPerS: m.fleet.outputTokensPerS,
    goodputShare: m.fleet.goodput.share,
    goodputTokensPerS: m.fleet.goodput.outputTokensPerS,
    promptTokens: m.tokens.prompt,
    prefilledTokens: m.tokens.prefilled,
    requestsFinished: m.requests.finished,
    sessionsFinished: m.sessions.finished,
    heldReleases: m.replicas.reduce((s, r) => s + r.heldReleases, 0),
    simulatedS: m.simulatedS,
  };
}

/** One policy on the lab's replica: its summary and occupancy track. */
export async function runPausePolicy(
  policy: PausePolicyId,
  a: PauseArenaArgs,
  hooks: RunHooks = {},
): Promise<PauseRun> {
  checkArenaArgs(a);
  if (!PAUSE_POLICIES.includes(policy)) throw new RangeError(`unknown pause policy "${String(policy)}"`);
  const shared = pauseSharedHashes();
  const track = new Track();
  const res = await runScenario(pauseScenario(policy, a), {
    afterEvent: (sim) => {
      const f = sim.pendingFrame;
      if (f) track.sample(sim, f.t, shared);
    },
    checkpoint: hooks.checkpoint,
    checkpointEvery: 2000,
    includeRequests: true,
    includeSeries: false,
  });
  const t = track.out();
  return {
    summary: summarise(policy, a, res.metrics, res.requests!, t),
    track: t,
    hbmCapacityBlocks: res.metrics.config.hbmBlocksPerReplica,
    bytesPerBlock: pauseBytesPerBlock(),
  };
}
