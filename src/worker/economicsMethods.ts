/**
 * Worker methods of lesson 07.12 (agents per megawatt): the SLO sweep (one replica, concurrency by
 * concurrency, streamed) and the lever grid (router × idle-KV policy on a whole node, each cell the largest
 * concurrency meeting the SLOs, streamed cell by cell). Runs in src/sim/lessons/economicsLab.ts; the money and power
 * arithmetic (src/sim/lessons/economics.ts) is left to the caller, so changing a price never re-runs a simulation.
 *
 * Runs are memoised by their arguments (the widgets and the lesson's inline figures ask for the same ones).
 */
import { BadRequest } from './badRequest';
import type { ToolLatencyPreset } from '../sim/engine/fleet/dist';
import { TOOL_LATENCY_PRESETS } from '../sim/engine/fleet/dist';
import type { Slo } from '../sim/lessons/economics';
import { econDisaggScenario } from '../sim/lessons/economicsDisagg';
import { ECON_PREFILL_REPLICAS } from '../sim/lessons/economicsLabSetup';
import {
  checkEconArgs,
  econScenario,
  runEconPoint,
  searchCapacity,
  type CapacityResult,
  type EconPoint,
  type EconRunArgs,
} from '../sim/lessons/economicsLab';
import {
  ECON_ALL_ROUTERS,
  ECON_NODES,
  ECON_POLICIES,
  ECON_ROUTERS,
  SWEEP_GRID,
  SWEEP_PAST_FAILURE,
  type EconNodeId,
  type EconPolicyId,
  type EconRouterId,
} from '../sim/lessons/economicsLabSetup';
import type { JobContext } from './job';
import { PointMemo } from './pointMemo';

function check(fn: () => void): void {
  try {
    fn();
  } catch (e) {
    throw new BadRequest(e instanceof Error ? e.message : String(e));
  }
}

function checkCommon(req: { node: EconNodeId; tool: ToolLatencyPreset; slo: Slo; seed: number }): void {
  if (!ECON_NODES.includes(req.node))
    throw new BadRequest(`Unknown node "${String(req.node)}" (nodes: ${ECON_NODES.join(', ')}).`);
  if (!(req.tool in TOOL_LATENCY_PRESETS))
    throw new BadRequest(`Unknown tool-latency preset "${String(req.tool)}".`);
  if (!req.slo || typeof req.slo !== 'object') throw new BadRequest('slo is required.');
}

/** Runs remembered by their arguments and shared while they run (pointMemo.ts). */
const memo = new PointMemo<EconPoint>(400);

/**
 * One run, memoised by its arguments and shared by every caller that asks for it: it goes on while any caller
 * still waits, and stops at its next checkpoint once every caller has been cancelled. The SLO does not change a
 * run, only whether it meets the SLO.
 */
function point(
  a: EconRunArgs,
  ctx: JobContext<unknown>,
  layout: 'aggregated' | 'disaggregated' = 'aggregated',
): Promise<EconPoint> {
  const key = JSON.stringify({ ...a, slo: undefined, layout });
  const run = memo.get(key, ctx, (checkpoint) =>
    runEconPoint(a, { checkpoint }, layout === 'disaggregated' ? econDisaggScenario : econScenario),
  );
  return run.then((p) => ({
    ...p,
    meetsSlo: p.ttftP90S <= a.slo.ttftP90S && p.tpotP90S <= a.slo.tpotP90S,
  }));
}

export interface SloSweepRequest {
  node: EconNodeId;
  policy: EconPolicyId;
  tool: ToolLatencyPreset;
  slo: Slo;
  seed: number;
}

export interface SloSweepResponse {
  points: EconPoint[];
}

/** The SLO sweep on one replica, point by point (each point is also emitted as a frame). */
async function sloSweep(req: SloSweepRequest, ctx: JobContext<EconPoint>): Promise<SloSweepResponse> {
  checkCommon(req);
  if (!ECON_POLICIES.includes(req.policy))
    throw new BadRequest(`Unknown idle-KV policy "${String(req.policy)}".`);
  check(() => checkEconArgs({ ...req, router: 'round-robin' }));
  const points: EconPoint[] = [];
  let past = -1;
  for (const c of SWEEP_GRID) {
    await ctx.checkpoint();
    const p = await point({ ...req, router: 'round-robin', concurrency: c, scope: 'replica' }, ctx);
    points.push(p);
    await ctx.emit(p);
    if (past < 0 && !p.meetsSlo) past = 0;
    else if (past >= 0) past++;
    if (past >= SWEEP_PAST_FAILURE) break;
  }
  return { points };
}

export interface LeverGridRequest {
  node: EconNodeId;
  tool: ToolLatencyPreset;
  slo: Slo;
  seed: number;
  /** The cell computed first (the widget's selection). */
  router: EconRouterId;
  policy: EconPolicyId;
  /**
   * Only that cell: a figure the prose quotes at settings no widget shows (another tool) needs one cell of the
   * grid, not the eight capacity searches of all of it.
   */
  cellOnly?: boolean;
}

export interface LeverGridResponse {
  /** Every cell (or the one asked for: cellOnly), routers × policies in ECON_ROUTERS × ECON_POLICIES order. */
  cells: CapacityResult[];
}

/** The lever grid on a whole node: the selected cell first, then its other router, then the rest. */
async function leverGrid(req: LeverGridRequest, ctx: JobContext<CapacityResult>): Promise<LeverGridResponse> {
  checkCommon(req);
  if (!ECON_ALL_ROUTERS.includes(req.router)) throw new BadRequest(`Unknown router "${String(req.router)}".`);
  if (!ECON_POLICIES.includes(req.policy))
    throw new BadRequest(`Unknown idle-KV policy "${String(req.policy)}".`);
  check(() => checkEconArgs(req));
  if (req.cellOnly !== undefined && typeof req.cellOnly !== 'boolean')
    throw new BadRequest(`cellOnly must be true or false (got ${String(req.cellOnly)}).`);
  const inGrid = (ECON_ROUTERS as readonly EconRouterId[]).includes(req.router);
  if (!inGrid && !req.cellOnly)
    throw new BadRequest(
      `The lever grid compares ${ECON_ROUTERS.join(' and ')}; ask for "${req.router}" one cell at a time.`,
    );
  const order: [EconRouterId, EconPolicyId][] = [[req.router, req.policy]];
  if (!req.cellOnly) {
    order.push([ECON_ROUTERS.find((r) => r !== req.router)!, req.policy]);
    for (const p of ECON_POLICIES)
      for (const r of ECON_ROUTERS) if (!order.some(([a, b]) => a === r && b === p)) order.push([r, p]);
  }
  const done = new Map<string, CapacityResult>();
  for (const [router, policy] of order) {
    await ctx.checkpoint();
    const base = { node: req.node, tool: req.tool, slo: req.slo, seed: req.seed, router, policy };
    const cell = await searchCapacity(base, (c) => point({ ...base, concurrency: c, scope: 'node' }, ctx));
    done.set(`${router}|${policy}`, cell);
    await ctx.emit(cell);
  }
  const cells: CapacityResult[] = [];
  for (const r of ECON_ALL_ROUTERS)
    for (const p of ECON_POLICIES) {
      const cell = done.get(`${r}|${p}`);
      if (cell) cells.push(cell);
    }
  return { cells };
}

export interface DisaggLeverRequest {
  node: EconNodeId;
  tool: ToolLatencyPreset;
  seed: number;
  router: EconRouterId;
  policy: EconPolicyId;
  /** The SLOs to compare under (e.g. the lesson's default and a tight TPOT). */
  slos: Slo[];
}

export interface DisaggLeverRow {
  slo: Slo;
  /** Agents per replica and the run at capacity: all four replicas aggregated, and 1 prefill + 3 decode. */
  aggregated: CapacityResult;
  disaggregated: CapacityResult;
  /** Replicas carrying agents in each layout (agents per node = agentsPerReplica × this). */
  aggregatedReplicas: number;
  decodeReplicas: number;
}

export interface DisaggLeverResponse {
  rows: DisaggLeverRow[];
}

/** Disaggregated prefill as a lever (src/sim/lessons/economicsDisagg.ts): the node aggregated and split 1P3D, per SLO. */
async function disaggLever(
  req: DisaggLeverRequest,
  ctx: JobContext<DisaggLeverRow>,
): Promise<DisaggLeverResponse> {
  if (!Array.isArray(req.slos) || req.slos.length === 0)
    throw new BadRequest('slos must list at least one SLO.');
  const rows: DisaggLeverRow[] = [];
  for (const slo of req.slos) {
    checkCommon({ ...req, slo });
    check(() => checkEconArgs({ ...req, slo }));
    const base = {
      node: req.node,
      tool: req.tool,
      slo,
      seed: req.seed,
      router: req.router,
      policy: req.policy,
    };
    await ctx.checkpoint();
    const aggregated = await searchCapacity(base, (c) =>
      point({ ...base, concurrency: c, scope: 'node' }, ctx),
    );
    const disaggregated = await searchCapacity(base, (c) =>
      point({ ...base, concurrency: c, scope: 'node' }, ctx, 'disaggregated'),
    );
    const total = aggregated.point.replicas;
    const row = {
      slo,
      aggregated,
      disaggregated,
      aggregatedReplicas: total,
      decodeReplicas: disaggregated.point.replicas - ECON_PREFILL_REPLICAS,
    };
    rows.push(row);
    await ctx.emit(row);
  }
  return { rows };
}

export type { CapacityResult, EconPoint };

export const economicsMethods = { sloSweep, leverGrid, disaggLever };
