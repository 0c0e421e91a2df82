/**
 * Lesson 07.12's "Try this" items (which its guided tour plays): each direction an item claims, computed by the fleet
 * simulator with the state the item sets (the widgets' TRY_THIS over their schema defaults). The tighter TTFT
 * objective admitting fewer agents is asserted in tests/lesson-07-12.test.ts. Runs are the widgets' own (one replica
 * for the sweep, a whole node per grid cell), a few seconds each.
 */
import { describe, expect, it } from 'vitest';
import { searchCapacity, sweepConcurrency } from '../src/sim/lessons/economicsLab';
import { maxFeasible } from '../src/sim/lessons/economicsLab';
import type { EconNodeId, EconPolicyId, EconRouterId } from '../src/sim/lessons/economicsLabSetup';
import { leverGridSchema, sloSweepSchema } from '../src/widgets/agents-per-mw/schema';
import { sweepArgs, sweepSummary, TRY_THIS as SWEEP_TRY } from '../src/widgets/agents-per-mw/SloSweep';
import { TRY_THIS as GRID_TRY } from '../src/widgets/agents-per-mw/LeverGrid';
import { priceCell } from '../src/widgets/agents-per-mw/pricedCells';
import type { TryItem } from '../src/widgets/kit/stage';
import { expectValidSets, valuesOf } from './try-this';

/** The SLO sweep as the widget runs and reads it out. */
async function sweep(item?: TryItem) {
  const v = valuesOf(sloSweepSchema, item) as Parameters<typeof sweepArgs>[0] & { pue: number };
  const req = sweepArgs(v);
  const points = await sweepConcurrency(req);
  return { req, points, summary: sweepSummary(points, req, v.pue) };
}

/** One cell of the lever grid as the widget runs and prices it. */
async function cell(item?: TryItem) {
  const v = valuesOf(leverGridSchema, item);
  const slo = { ttftP90S: v.ttftP90S as number, tpotP90S: v.tpotP90S as number };
  const c = await searchCapacity({
    node: v.node as EconNodeId,
    tool: v.tool as Parameters<typeof searchCapacity>[0]['tool'],
    slo,
    seed: v.seed as number,
    router: v.router as EconRouterId,
    policy: v.policy as EconPolicyId,
  });
  return priceCell(c, v.node as EconNodeId, {
    gpuHourUSD: v.gpuHourUSD as number,
    kwhUSD: v.kwhUSD as number,
    pue: v.pue as number,
  });
}

describe('SLO sweep: Try this', () => {
  it('every item sets parameters of the widget’s schema to values its controls offer', () => {
    expectValidSets(SWEEP_TRY, sloSweepSchema);
  });

  it('1 · a 30 ms TPOT objective binds first: fewer agents, and the first point past them misses TPOT, not TTFT', async () => {
    const base = await sweep();
    const tight = await sweep(SWEEP_TRY[1]);
    expect(tight.summary.perReplica).toBeLessThan(base.summary.perReplica);
    const past = tight.points.find((p) => p.concurrency > tight.summary.perReplica)!;
    expect(past.tpotP90S).toBeGreaterThan(tight.req.slo.tpotP90S);
    expect(past.ttftP90S).toBeLessThanOrEqual(tight.req.slo.ttftP90S);
  }, 60_000);

  it('2, 3 · DGX B200: more agents per replica and per MW at its higher power; a higher PUE lowers agents per MW by its ratio', async () => {
    const h100 = await sweep();
    const b200 = await sweep(SWEEP_TRY[2]);
    expect(b200.summary.perReplica).toBeGreaterThan(h100.summary.perReplica);
    expect(b200.summary.node.powerW).toBeGreaterThan(h100.summary.node.powerW);
    expect(b200.summary.perMW).toBeGreaterThan(h100.summary.perMW);
    // The prose: the B200 meets the SLOs at every concurrency the sweep tries, so its capacity is a floor ("≥");
    // the H100's sweep finds its wall.
    expect(b200.summary.atLeast).toBe(true);
    expect(h100.summary.atLeast).toBe(false);
    // The PUE changes no run, only the facility power: the same points, agents per MW scaled by the PUEs' ratio.
    const pue = SWEEP_TRY[3].set!.pue as number;
    const hot = sweepSummary(b200.points, b200.req, pue);
    expect(hot.perReplica).toBe(b200.summary.perReplica);
    expect(hot.perMW / b200.summary.perMW).toBeCloseTo(sloSweepSchema.pue.default / pue, 9);
    expect(maxFeasible(b200.points, b200.req.slo)).toBe(b200.summary.perReplica);
  }, 60_000);
});

describe('Lever grid: Try this', () => {
  it('every item sets parameters of the widget’s schema to values its controls offer', () => {
    expectValidSets(GRID_TRY, leverGridSchema, ['4:gpuHourUSD']);
    // 4 · "Double the GPU-hour price"
    expect(GRID_TRY[4].set?.gpuHourUSD).toBe(2 * leverGridSchema.gpuHourUSD.default);
  });

  it('0 · round-robin: agents per MW collapse (under half the cache-aware router’s)', async () => {
    const ca = await cell();
    const rr = await cell(GRID_TRY[0]);
    expect(rr.perMW).toBeLessThan(ca.perMW / 2);
    // "less of the prompt is reused", though far from none: turns come back to replicas that held the session
    expect(rr.cell.point.reuseRatio).toBeLessThan(ca.cell.point.reuseRatio);
    expect(rr.cell.point.reuseRatio).toBeGreaterThan(0.5);
  }, 60_000);

  it('1–3 · hold against the TTL: the same agents for each tool; hold pins several times more with coding tools, more still with web calls, little more with shell', async () => {
    const held: Record<string, number> = {};
    for (const item of GRID_TRY.slice(1, 4)) {
      const hold = await cell(item);
      const ttl = await cell({ ...item, set: { ...item.set, policy: 'ttl-offload' } });
      expect(hold.cell.agentsPerReplica).toBe(ttl.cell.agentsPerReplica);
      expect(hold.cell.agentsPerReplica).toBeGreaterThan(0);
      const tool = (item.set!.tool as string | undefined) ?? 'coding-mix';
      held[tool] = hold.cell.point.heldShare;
      held[`${tool}/ttl`] = ttl.cell.point.heldShare;
      held[`${tool}/agents`] = hold.cell.agentsPerReplica;
    }
    expect(held['coding-mix']).toBeGreaterThan(3 * held['coding-mix/ttl']);
    expect(held.web).toBeGreaterThan(held['coding-mix']);
    expect(held.shell).toBeLessThan(2 * held['shell/ttl']);
    expect(held['shell/agents']).toBeLessThan(held['coding-mix/agents']);
  }, 120_000);

  it('4, 5 · twice the GPU-hour price almost doubles the cost; triple the electricity moves only energy, still under a quarter', async () => {
    const base = await cell();
    const rent = await cell(GRID_TRY[4]);
    const power = await cell(GRID_TRY[5]);
    expect(rent.cost.totalUSD / base.cost.totalUSD).toBeGreaterThan(1.8);
    expect(rent.cost.totalUSD / base.cost.totalUSD).toBeLessThan(2);
    expect(rent.cost.energyUSD).toBeCloseTo(base.cost.energyUSD, 12);
    expect(power.cost.computeUSD).toBeCloseTo(base.cost.computeUSD, 12);
    expect(power.cost.energyUSD).toBeGreaterThan(base.cost.energyUSD);
    expect(power.cost.energyUSD / power.cost.totalUSD).toBeLessThan(0.25); // "under a quarter"
    expect(power.cost.computeUSD / power.cost.totalUSD).toBeGreaterThan(0.5); // "rent is most of it"
  }, 60_000);
});
