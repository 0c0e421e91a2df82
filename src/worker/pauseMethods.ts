/**
 * Worker methods of lesson 07.06 (tool calls in the loop): the tool-latency distributions in closed form
 * (src/sim/lessons/toolLatency.ts, src/sim/lessons/pauseCosts.ts), and the pause-policy arena (src/sim/lessons/pauseLab.ts: the fleet
 * simulator under every policy, streamed policy by policy). Plain structured-cloneable arguments.
 *
 * The arena's runs are memoised by their arguments and shared between callers (the widget and the lesson's
 * inline figures ask for the same runs): a run goes on while any caller still waits for it, and stops at its
 * next checkpoint once every caller has been cancelled.
 */
import { BadRequest, within } from './badRequest';
import { TOOL_LATENCY_MARKS, type PublishedMark } from '../sim/engine/catalog/pauses';
import { TOOL_LATENCY_PRESETS, type ToolLatencyPreset } from '../sim/engine/fleet/dist';
import { pauseCosts, type MissKind, type PauseCosts } from '../sim/lessons/pauseCosts';
import {
  checkArenaArgs,
  pauseBytesPerBlock,
  runPausePolicy,
  type PauseArenaArgs,
  type PauseRun,
  type PauseSummary,
} from '../sim/lessons/pauseLab';
import { PAUSE_POLICIES, TOOL_PRESET_LABELS, type PausePolicyId } from '../sim/lessons/pauseLabSetup';
import { cdf, endsWithin, mean, quantile, timeShare } from '../sim/lessons/toolLatency';
import type { JobContext } from './job';
import { PointMemo } from './pointMemo';
import { TOOL_LATENCY_LIMITS } from './limits/pause';
import * as Comlink from 'comlink';
import { transferables, type FleetFrame } from '../sim/engine/fleet/frames';
import { runScenario } from '../sim/engine/fleet/run';
import { pauseScenario, pauseSharedHashes, SAMPLE_INTERVAL_S } from '../sim/lessons/pauseLab';
import { PAUSE_DURATION_S } from '../sim/lessons/pauseLabSetup';

const PRESETS = Object.keys(TOOL_LATENCY_PRESETS) as ToolLatencyPreset[];

function checkTool(t: unknown): asserts t is ToolLatencyPreset {
  if (!PRESETS.includes(t as ToolLatencyPreset))
    throw new BadRequest(`Unknown tool-latency preset "${String(t)}" (presets: ${PRESETS.join(', ')}).`);
}

// ───────────────────────────── the distribution ─────────────────────────────

/** Durations at which curves are sampled: 1 ms to 1 day, 24 points per decade. */
export const CURVE_GRID: readonly number[] = (() => {
  const out: number[] = [];
  const lo = -3;
  const hi = Math.log10(86_400);
  const n = Math.ceil((hi - lo) * 24);
  for (let i = 0; i <= n; i++) out.push(Math.pow(10, lo + ((hi - lo) * i) / n));
  return out;
})();

export interface ToolLatencyRequest {
  tool: ToolLatencyPreset;
  ttlS: number;
  contextTokens: number;
  /** What happens to the KV when the TTL runs out (sets the miss cost). */
  after: MissKind;
}

export interface PresetStats {
  id: ToolLatencyPreset;
  label: string;
  medianS: number;
  meanS: number;
  p90S: number;
  p99S: number;
  /** Shares of calls and of tool time under 1 s and over 1 min (of the fitted distribution). */
  callsUnder1s: number;
  timeUnder1s: number;
  callsOver1min: number;
  timeOver1min: number;
  /** F(τ) at the requested TTL. */
  resumedInHbm: number;
}

export interface ToolLatencyResponse {
  grid: readonly number[];
  /** F(t) of every preset on the grid. */
  presets: (PresetStats & { cdf: number[] })[];
  selected: PresetStats & {
    /** G(t) on the grid: the share of tool time in calls over by t. */
    timeShare: number[];
    /** P(a call that has run t seconds ends within the next second), for a few t. */
    nextSecond: { t: number; p: number }[];
  };
  marks: readonly PublishedMark[];
  costs: PauseCosts;
}

function presetStats(id: ToolLatencyPreset, ttlS: number): PresetStats {
  const d = TOOL_LATENCY_PRESETS[id];
  return {
    id,
    label: TOOL_PRESET_LABELS[id],
    medianS: quantile(d, 0.5),
    meanS: mean(d),
    p90S: quantile(d, 0.9),
    p99S: quantile(d, 0.99),
    callsUnder1s: cdf(d, 1),
    timeUnder1s: timeShare(d, 1),
    callsOver1min: 1 - cdf(d, 60),
    timeOver1min: 1 - timeShare(d, 60),
    resumedInHbm: cdf(d, ttlS),
  };
}

/** The tool-latency widget: every preset's CDF, the chosen one's time share, and what one pause costs. */
function toolLatency(req: ToolLatencyRequest): ToolLatencyResponse {
  checkTool(req.tool);
  within(TOOL_LATENCY_LIMITS.ttlS, req.ttlS);
  within(TOOL_LATENCY_LIMITS.contextTokens, req.contextTokens);
  if (req.after !== 'evict' && req.after !== 'offload')
    throw new BadRequest(`after must be "evict" or "offload" (got ${String(req.after)}).`);
  const d = TOOL_LATENCY_PRESETS[req.tool];
  const presets = PRESETS.map((id) => {
    const dd = TOOL_LATENCY_PRESETS[id];
    return { ...presetStats(id, req.ttlS), cdf: CURVE_GRID.map((t) => cdf(dd, t)) };
  });
  return {
    grid: CURVE_GRID,
    presets,
    selected: {
      ...presetStats(req.tool, req.ttlS),
      timeShare: CURVE_GRID.map((t) => timeShare(d, t)),
      nextSecond: [0.1, 1, 10, 60, 600].map((t) => ({ t, p: endsWithin(d, t, 1) })),
    },
    marks: TOOL_LATENCY_MARKS[req.tool] ?? [],
    costs: pauseCosts(d, req.ttlS, req.contextTokens, req.after),
  };
}

// ───────────────────────────── the arena ─────────────────────────────

export interface PauseArenaRequest extends PauseArenaArgs {
  /** The policy whose run comes first (and whose occupancy the widget draws). */
  policy: PausePolicyId;
}

export interface PauseArenaResponse {
  selected: PauseRun;
  /** Every policy, in PAUSE_POLICIES order. */
  runs: PauseRun[];
  bytesPerBlock: number;
  /** F(τ) of the workload's tool latency: the closed-form share of pauses over within the TTL. */
  closedFormInHbm: number;
}

/** Every policy's runs, remembered by their arguments and shared while they run (pointMemo.ts). */
const runs = new PointMemo<PauseRun>(96);

function runKey(policy: PausePolicyId, a: PauseArenaArgs): string {
  const ttl = policy.startsWith('ttl') ? a.ttlS : '-';
  return `${policy}|${ttl}|${a.tool}|${a.agents}|${a.seed}`;
}

/** One policy's run, shared by every caller that asks for the same arguments. */
function sharedRun(policy: PausePolicyId, a: PauseArenaArgs, ctx: JobContext<unknown>): Promise<PauseRun> {
  return runs.get(runKey(policy, a), ctx, (checkpoint) => runPausePolicy(policy, a, { checkpoint }));
}

async function pauseArena(req: PauseArenaRequest, ctx: JobContext<PauseRun>): Promise<PauseArenaResponse> {
  if (!PAUSE_POLICIES.includes(req.policy))
    throw new BadRequest(
      `Unknown pause policy "${String(req.policy)}" (policies: ${PAUSE_POLICIES.join(', ')}).`,
    );
  checkTool(req.tool);
  const args: PauseArenaArgs = { ttlS: req.ttlS, tool: req.tool, agents: req.agents, seed: req.seed };
  try {
    checkArenaArgs(args);
  } catch (e) {
    throw new BadRequest(e instanceof Error ? e.message : String(e));
  }
  const order = [req.policy, ...PAUSE_POLICIES.filter((p) => p !== req.policy)];
  const done = new Map<PausePolicyId, PauseRun>();
  for (const p of order) {
    await ctx.checkpoint();
    const run = await sharedRun(p, args, ctx);
    await ctx.checkpoint();
    done.set(p, run);
    await ctx.emit(run);
  }
  return {
    selected: done.get(req.policy)!,
    runs: PAUSE_POLICIES.map((p) => done.get(p)!),
    bytesPerBlock: pauseBytesPerBlock(),
    closedFormInHbm: cdf(TOOL_LATENCY_PRESETS[req.tool], req.ttlS),
  };
}

export type { PauseRun, PauseSummary };

// ───────────────────────────── the arena's run, page by page ─────────────────────────────

export interface PauseHierarchyResponse {
  frames: number;
  durationS: number;
  frameIntervalS: number;
  bytesPerBlock: number;
  sharedHashes: number[];
}

/**
 * The arena's run of one policy (the same scenario and seed as pauseArena's, so the same run), its frames
 * streamed (transferred) for the hierarchy animation: where every page is at every frame.
 */
async function pauseHierarchyRun(
  req: PauseArenaRequest,
  ctx: JobContext<FleetFrame>,
): Promise<PauseHierarchyResponse> {
  if (!PAUSE_POLICIES.includes(req.policy))
    throw new BadRequest(
      `Unknown pause policy "${String(req.policy)}" (policies: ${PAUSE_POLICIES.join(', ')}).`,
    );
  checkTool(req.tool);
  try {
    checkArenaArgs(req);
  } catch (e) {
    throw new BadRequest(e instanceof Error ? e.message : String(e));
  }
  let frames = 0;
  await runScenario(pauseScenario(req.policy, req), {
    onFrame: (f) => {
      frames++;
      return ctx.emit(Comlink.transfer(f, transferables(f)));
    },
    checkpoint: () => ctx.checkpoint(),
    checkpointEvery: 4000,
    includeSeries: false,
  });
  return {
    frames,
    durationS: PAUSE_DURATION_S,
    frameIntervalS: SAMPLE_INTERVAL_S,
    bytesPerBlock: pauseBytesPerBlock(),
    sharedHashes: [...pauseSharedHashes()],
  };
}

export const pauseMethods = { toolLatency, pauseArena, pauseHierarchyRun };
