/**
 * Worker methods of lesson 07.03 (cache-aware routing): argument checks, then the runs in src/sim/lessons/routing/lab.ts.
 * Kept apart from methods.ts so that file only lists them.
 */
import { BadRequest, within } from './badRequest';
import * as Comlink from 'comlink';
import {
  chunkTransferables,
  LLMD_POLICIES,
  labBytesPerBlock,
  ROUTER_POLICIES,
  runPolicy,
  routerSpreadPoint,
  routerSweepPoint,
  runRouterAnimation,
  type LabFleet,
  type PolicyRun,
  type RouterAnimationArgs,
  type RouterAnimationResult,
  type RouterChunk,
  type RouterPolicy,
  type RouterSpreadArgs,
  type RouterSweepArgs,
  type SpreadPoint,
  type SweepPoint,
} from '../sim/lessons/routing/lab';
import type { JobContext } from './job';
import { ROUTER_LIMITS as L } from './limits/router';
import { SEED_LIMIT } from '../sim/engine/rng';
import { SPREAD_POLICIES } from '../sim/lessons/routing/constants';
import { sweepOrder } from '../lib/progressive';
import { PointMemo, runSweep, type SweepTask } from './pointMemo';

/** Sweep and spread points by their inputs (pointMemo.ts): a slider step reruns only the points it changes. */
const sweepMemo = new PointMemo<SweepPoint>();
const spreadMemo = new PointMemo<SpreadPoint & { hbmBlocks: number }>();

function checkPolicy(p: unknown): asserts p is RouterPolicy {
  if (!ROUTER_POLICIES.includes(p as never) && !LLMD_POLICIES.includes(p as never))
    throw new BadRequest(`Unknown routing policy "${String(p)}".`);
}

function checkFleet(f: LabFleet): void {
  within(L.replicas, f.replicas);
  within(L.sessionsPerS, f.sessionsPerS);
  within(L.arrivalS, f.arrivalS);
  within(SEED_LIMIT, f.seed);
  within(L.loadThreshold, f.loadThreshold);
  if (f.poolGB !== undefined) within(L.poolGB, f.poolGB);
  if (f.cacheView !== undefined && f.cacheView !== 'exact' && f.cacheView !== 'approximate')
    throw new BadRequest(`Unknown cache view "${String(f.cacheView)}".`);
}

export interface RouterAnimationRequest extends RouterAnimationArgs {
  /** Also summarise this policy on the same fleet and workload, for comparison (no frames). */
  compareWith?: RouterPolicy;
}

export interface RouterAnimationResponse extends RouterAnimationResult {
  comparison: PolicyRun | null;
}

/**
 * One animated run (frames + per-request table), and optionally a summary of another policy on the same
 * workload. The run streams itself as it advances (chunks of frames and final request rows, transferred), so
 * the widget draws the playhead's picture long before the run ends.
 */
export async function routerAnimation(
  req: RouterAnimationRequest,
  ctx: JobContext<RouterChunk>,
): Promise<RouterAnimationResponse> {
  checkPolicy(req.policy);
  checkFleet(req);
  if (req.frameIntervalS !== undefined) within(L.frameIntervalS, req.frameIntervalS);
  const hooks = { checkpoint: () => ctx.checkpoint() };
  const run = await runRouterAnimation(req, {
    ...hooks,
    emit: (c) => ctx.emit(Comlink.transfer(c, chunkTransferables(c))),
  });
  let comparison: PolicyRun | null = null;
  if (req.compareWith !== undefined) {
    checkPolicy(req.compareWith);
    comparison = await runPolicy(req.compareWith, req, hooks, 0);
  }
  return { ...run, comparison };
}

/**
 * Every policy at each offered load; each point is streamed as it finishes, coarse to fine over the loads
 * (progressive.ts), points already computed for the same inputs first (pointMemo.ts). The load threshold is
 * part of cache-aware routing's points only: the other policies ignore it (routers.ts).
 */
export async function routerSweep(
  req: RouterSweepArgs,
  ctx: JobContext<SweepPoint>,
): Promise<{ points: SweepPoint[] }> {
  within(L.replicas, req.replicas);
  within(L.loadThreshold, req.loadThreshold);
  within(SEED_LIMIT, req.seed);
  within(L.arrivalS, req.arrivalS);
  if (
    !Array.isArray(req.perReplicaRates) ||
    req.perReplicaRates.length === 0 ||
    req.perReplicaRates.length > 24
  ) {
    throw new BadRequest('perReplicaRates must list 1 to 24 loads.');
  }
  for (const r of req.perReplicaRates) within(L.perReplicaRate, r);
  req.policies?.forEach(checkPolicy);
  const policies = req.policies ?? ROUTER_POLICIES;
  const fleet = {
    replicas: req.replicas,
    seed: req.seed,
    arrivalS: req.arrivalS,
    loadThreshold: req.loadThreshold,
  };
  const tasks: SweepTask<SweepPoint>[] = [];
  for (const per of req.perReplicaRates)
    for (const policy of policies)
      tasks.push({
        key: JSON.stringify([
          fleet.replicas,
          fleet.seed,
          fleet.arrivalS,
          policy === 'cache-aware' ? fleet.loadThreshold : null,
          per,
          policy,
        ]),
        run: (checkpoint) => routerSweepPoint(fleet, per, policy, { checkpoint }),
      });
  // Task i is load i ÷ policies, policy i mod policies.
  const order = sweepOrder(req.perReplicaRates.length, policies.length).map(
    (c) => c.x * policies.length + c.series,
  );
  return { points: await runSweep(tasks, order, sweepMemo, ctx) };
}

/**
 * Spreading policies against session affinity on 1…R replicas at a constant load per replica; streamed coarse
 * to fine over the fleet sizes, remembered points first (as routerSweep).
 */
export async function routerSpread(
  req: RouterSpreadArgs,
  ctx: JobContext<SpreadPoint>,
): Promise<{ points: SpreadPoint[]; bytesPerBlock: number; hbmBlocks: number }> {
  if (!Array.isArray(req.replicaCounts) || req.replicaCounts.length === 0 || req.replicaCounts.length > 16) {
    throw new BadRequest('replicaCounts must list 1 to 16 fleet sizes.');
  }
  for (const r of req.replicaCounts) within(L.fleetSize, r);
  within(L.perReplicaRate, req.perReplicaRate);
  within(SEED_LIMIT, req.seed);
  within(L.arrivalS, req.arrivalS);
  req.policies?.forEach(checkPolicy);
  const policies = req.policies ?? SPREAD_POLICIES;
  const tasks: SweepTask<SpreadPoint & { hbmBlocks: number }>[] = [];
  for (const R of req.replicaCounts)
    for (const policy of policies)
      tasks.push({
        key: JSON.stringify([req.perReplicaRate, req.seed, req.arrivalS, R, policy]),
        run: (checkpoint) => routerSpreadPoint(req, R, policy, { checkpoint }),
      });
  const order = sweepOrder(req.replicaCounts.length, policies.length).map(
    (c) => c.x * policies.length + c.series,
  );
  // Frames without the replica's block count (the result carries it once).
  const frames: JobContext<SpreadPoint & { hbmBlocks: number }> = {
    isCancelled: () => ctx.isCancelled(),
    checkpoint: () => ctx.checkpoint(),
    emit: ({ hbmBlocks: _blocks, ...p }) => ctx.emit(p),
  };
  const all = await runSweep(tasks, order, spreadMemo, frames);
  return {
    points: all.map(({ hbmBlocks: _blocks, ...p }) => p),
    bytesPerBlock: labBytesPerBlock(),
    hbmBlocks: all.at(-1)?.hbmBlocks ?? 0,
  };
}

/** Summaries of several policies on one fleet (for figures in the prose). */
export async function routerSummaries(
  req: LabFleet & { policies: RouterPolicy[] },
  ctx: JobContext<never>,
): Promise<PolicyRun[]> {
  checkFleet(req);
  if (!Array.isArray(req.policies) || req.policies.length === 0)
    throw new BadRequest('policies must list at least one policy.');
  req.policies.forEach(checkPolicy);
  const out: PolicyRun[] = [];
  for (const p of req.policies) {
    await ctx.checkpoint();
    out.push(await runPolicy(p, req, { checkpoint: () => ctx.checkpoint() }, 2));
  }
  return out;
}

export const routerMethods = { routerAnimation, routerSweep, routerSpread, routerSummaries };
