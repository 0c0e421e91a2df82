/**
 * Lessons 07.04 and 07.06: the KV hierarchy animation's run. One replica of the 07.06 arena (two H100s, the agent
 * sessions of pauseLabSetup.ts) with all four tiers (HBM, host DRAM, local NVMe, a remote pool), its HBM budget cut
 * to a size the reader chooses so the spill down the hierarchy shows within seconds. The fleet simulator
 * (src/sim/engine/fleet) runs it and streams a frame (frames.ts) every FRAME_INTERVAL_S of simulated time: where
 * every page is, in which tiers it has a copy, whose it is.
 *
 * Simplification: the HBM budget is a control rather than what the GPUs leave after the weights (it is capped at
 * that), so a short run fills it; the pool serves this one replica only (no other replica competes for it).
 */
import { resolveModel } from '../engine/catalog';
import { kvBytesPerToken } from '../engine/catalog/models';
import type { ToolLatencyPreset } from '../engine/fleet/dist';
import { TOOL_LATENCY_PRESETS } from '../engine/fleet/dist';
import { resolveScenario, type Scenario } from '../engine/fleet/scenario';
import { POOL_REPLICA, TIERS, type FleetFrame } from '../engine/fleet/frames';
import { runScenarioSync } from '../engine/fleet/run';
import { segmentBlockHashes } from '../engine/kvcache/hash';
import { SEG, segId } from '../engine/fleet/workload';
import { toolPausePolicy } from './pauseLab';
import { cannotRun, type CannotRun } from '../engine/cannotRun';
import { limit, refuseOutside, refuseOutsideEach } from '../engine/limits';
import { SEED_LIMIT } from '../engine/rng';
import {
  PAUSE_ACCELERATOR,
  PAUSE_POLICIES,
  PAUSE_POLICY_LABELS,
  PAUSE_SLO,
  PAUSE_SYSTEM_TOKENS,
  PAUSE_TOOL_TOKENS,
  PAUSE_TP,
  pauseAgent,
  type PausePolicyId,
} from './pauseLabSetup';

/** Models that leave the arena's 2 × H100 more than the HBM control's maximum for KV (Llama 3.1 70B leaves 2 GB). */
export const HIERARCHY_MODELS = ['qwen3-32b', 'llama-3.1-8b'] as const;
export type HierarchyModelId = (typeof HIERARCHY_MODELS)[number];

/** Tokens per tracked page (kv.pageTokens' default): one mark of the animation. */
export const HIERARCHY_PAGE_TOKENS = 256;
/** Simulated seconds of a run and between frames. */
export const HIERARCHY_DURATION_S = 240;
export const FRAME_INTERVAL_S = 1;

export interface HierarchyArgs {
  modelId: HierarchyModelId;
  /** Agent sessions in flight (closed loop). */
  sessions: number;
  policy: PausePolicyId;
  tool: ToolLatencyPreset;
  /** HBM given to KV, GB (capped at what the GPUs leave after weights and reserve). */
  hbmGB: number;
  dramGB: number;
  nvmeGB: number;
  poolGB: number;
  seed: number;
}

export const HIERARCHY_DEFAULTS: HierarchyArgs = {
  modelId: 'qwen3-32b',
  sessions: 16,
  policy: 'write-through',
  tool: 'coding-mix',
  hbmGB: 30,
  dramGB: 40,
  nvmeGB: 60,
  poolGB: 160,
  seed: 1,
};

/** TTL of the ttl-* policies here, s (07.06's arena default). */
export const HIERARCHY_TTL_S = 5;

function fail(m: string): never {
  throw new RangeError(m);
}

const gb = { unit: 'GB' } as const;

/**
 * What the hierarchy run accepts for each setting its controls set, declared once: checkHierarchyArgs refuses
 * anything outside these in words, and the widget's schema (src/widgets/kv-hierarchy/schema.ts) spreads them. HBM
 * for KV: from 2 GB up to what two H100s leave after Qwen3-32B's weights and vLLM's profiled reserve
 * (hbmPagesAvailable). DRAM: 0 (no DRAM tier) up to a DGX's 2 TB of host DRAM (catalog/nodes.ts). NVMe and the
 * pool: 0 (none) up to 4 TB and 8 TB, a slice of a DGX's 30 TB of drives and twice that for a shared store.
 * Sessions: up to 48 in flight on the one simulated replica for the run's 240 s.
 */
export const HIERARCHY_LIMITS = {
  sessions: limit('the number of agent sessions', 1, 48, { integer: true, unit: 'sessions' }),
  hbmGB: limit('the HBM for KV', 2, 75, gb),
  dramGB: limit('the host DRAM', 0, 2000, gb),
  nvmeGB: limit('the local NVMe', 0, 4000, gb),
  poolGB: limit('the remote pool', 0, 8000, gb),
} as const;

/** The tiers' capacity limits, GB (HIERARCHY_LIMITS by tier). */
export const TIER_LIMITS_GB = {
  hbm: HIERARCHY_LIMITS.hbmGB,
  dram: HIERARCHY_LIMITS.dramGB,
  nvme: HIERARCHY_LIMITS.nvmeGB,
  pool: HIERARCHY_LIMITS.poolGB,
} as const;

/** Pause policies that put idle KV in host DRAM (so need a DRAM tier). */
const NEEDS_DRAM: readonly PausePolicyId[] = ['offload', 'ttl-offload', 'write-through'];

/**
 * A setting whose controls are each in range but cannot run together: a policy that writes idle KV to host DRAM with
 * no DRAM tier. The fixes: the lab's DRAM default, or leaving idle KV to LRU in HBM.
 */
export function hierarchyCannotRun(a: HierarchyArgs): CannotRun | null {
  if (!NEEDS_DRAM.includes(a.policy) || a.dramGB > 0) return null;
  return cannotRun(
    `"${PAUSE_POLICY_LABELS[a.policy]}" moves idle KV to host DRAM, and this setting has no DRAM (0 GB): ` +
      `there is nowhere for it to go.`,
    [
      { label: `Give host DRAM ${HIERARCHY_DEFAULTS.dramGB} GB`, set: { dramGB: HIERARCHY_DEFAULTS.dramGB } },
      { label: `Use "${PAUSE_POLICY_LABELS.lru}"`, set: { policy: 'lru' } },
    ],
  );
}

/** Each numeric setting inside HIERARCHY_LIMITS (checked before "cannot run": a refused value is not a state). */
export function checkHierarchyLimits(a: HierarchyArgs): void {
  refuseOutsideEach(HIERARCHY_LIMITS, a, ['sessions', 'hbmGB', 'dramGB', 'nvmeGB', 'poolGB']);
}

export function checkHierarchyArgs(a: HierarchyArgs): void {
  if (!HIERARCHY_MODELS.includes(a.modelId)) fail(`unknown model "${String(a.modelId)}"`);
  if (!PAUSE_POLICIES.includes(a.policy)) fail(`unknown pause policy "${String(a.policy)}"`);
  if (!(a.tool in TOOL_LATENCY_PRESETS)) fail(`unknown tool preset "${String(a.tool)}"`);
  checkHierarchyLimits(a);
  const cannot = hierarchyCannotRun(a);
  if (cannot) fail(cannot.reason);
  refuseOutside(SEED_LIMIT, a.seed);
}

/** Bytes of one page of the model's BF16 KV (one copy). */
export function pageBytes(modelId: HierarchyModelId): number {
  return kvBytesPerToken(resolveModel(modelId), 'bf16') * HIERARCHY_PAGE_TOKENS;
}

/** Pages the GPUs could give KV after weights and reserve (the HBM control's cap). */
export function hbmPagesAvailable(modelId: HierarchyModelId): number {
  return resolveScenario(baseScenario({ ...HIERARCHY_DEFAULTS, modelId }, undefined)).hbmBlocks;
}

function baseScenario(a: HierarchyArgs, hbmBlocks: number | undefined): Scenario {
  const kv: NonNullable<Scenario['kv']> = { pageTokens: HIERARCHY_PAGE_TOKENS };
  if (hbmBlocks !== undefined) kv.hbmBlocks = hbmBlocks;
  if (a.dramGB > 0) kv.dram = { capacityGB: a.dramGB };
  if (a.nvmeGB > 0) kv.nvme = { capacityGB: a.nvmeGB };
  if (a.poolGB > 0) kv.pool = { capacityGB: a.poolGB };
  return {
    name: `KV hierarchy ${a.policy}`,
    seed: a.seed,
    durationS: HIERARCHY_DURATION_S,
    drainS: 0,
    model: a.modelId,
    hardware: { accelerator: PAUSE_ACCELERATOR, tp: PAUSE_TP },
    replicas: 1,
    router: { kind: 'session-affinity' },
    scheduler: { tokenBudget: 8192, chunkedPrefill: 2048 },
    kv,
    policies: { toolPause: toolPausePolicy(a.policy, HIERARCHY_TTL_S) },
    slo: { ...PAUSE_SLO },
    workload: {
      arrival: { kind: 'closed', concurrency: a.sessions, rampS: 10 },
      sessions: 100_000,
      classes: [pauseAgent(a.tool)],
    },
    output: { frameIntervalS: FRAME_INTERVAL_S },
  };
}

/** The scenario the animation runs (HBM pages = the chosen GB, capped at what the GPUs leave). */
export function hierarchyScenario(a: HierarchyArgs): Scenario {
  checkHierarchyArgs(a);
  const want = Math.max(1, Math.floor((a.hbmGB * 1e9) / pageBytes(a.modelId)));
  return baseScenario(a, Math.min(want, hbmPagesAvailable(a.modelId)));
}

/** Hashes of the full pages of the sessions' shared head (system prompt + tool schemas): one copy for all. */
export function sharedHeadHashes(): number[] {
  const segs = [
    { id: segId(SEG.system, 0, 0), tokens: PAUSE_SYSTEM_TOKENS },
    { id: segId(SEG.tools, 0, 0), tokens: PAUSE_TOOL_TOKENS },
  ];
  return segmentBlockHashes(segs, HIERARCHY_PAGE_TOKENS, { fullBlocksOnly: true }).hashes;
}

// ───────────────────────────── what a run shows ─────────────────────────────

/** Share of the prompt tokens served from the cache that came from below HBM, from a frame's run totals. */
export function belowHbmShare(f: FleetFrame): number {
  let all = 0;
  let below = 0;
  for (let t = 0; t < TIERS.length; t++) {
    all += f.replicas.hitTokens[t];
    if (t > 0) below += f.replicas.hitTokens[t];
  }
  return all > 0 ? below / all : 0;
}

export interface HierarchySummary {
  pageBytes: number;
  /** Pages each tier holds (hbm, dram, nvme, remote; 0: none). */
  capacityPages: number[];
  /** Prompt tokens served from each tier over the run (the cache's counters in the last frame). */
  hitTokens: number[];
  /** Bytes written down into / read up from each tier over the run. */
  bytesDown: number[];
  bytesUp: number[];
  belowHbmShare: number;
  /** Most pages (copies in all tiers of the node) on screen in any frame. */
  maxCopies: number;
}

/** The run the animation shows, reduced to its last frame's totals (for the prose and the tests). */
export function hierarchySummary(a: HierarchyArgs): HierarchySummary {
  let last: FleetFrame | null = null;
  let maxCopies = 0;
  runScenarioSync(hierarchyScenario(a), {
    includeSeries: false,
    afterEvent: (sim) => {
      const f = sim.pendingFrame;
      if (!f || f === last) return;
      last = f;
      let n = 0;
      for (let i = 0; i < f.blocks.count; i++) {
        if (f.blocks.replica[i] !== 0 && f.blocks.replica[i] !== POOL_REPLICA) continue;
        for (let r = f.blocks.resident[i]; r; r >>= 1) n += r & 1;
      }
      if (n > maxCopies) maxCopies = n;
    },
  });
  const f = last as FleetFrame | null;
  if (!f) throw new RangeError('the run produced no frame');
  const per = (x: ArrayLike<number>) => Array.from({ length: TIERS.length }, (_, t) => x[t] ?? 0);
  return {
    pageBytes: pageBytes(a.modelId),
    capacityPages: per(f.replicas.kvCapacity),
    hitTokens: per(f.replicas.hitTokens),
    bytesDown: per(f.replicas.bytesDown),
    bytesUp: per(f.replicas.bytesUp),
    belowHbmShare: belowHbmShare(f),
    maxCopies,
  };
}
