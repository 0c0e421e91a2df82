/**
 * Lesson 07.02's "Try this" items (which its guided tour plays): each direction an item claims, computed by the core
 * with the state the item sets (the widgets' TRY_THIS over their schema defaults). The recorded trajectory's items
 * (affinity from turn 6 on, the full history against it at turn 8) are asserted in tests/lesson-07-02.test.ts.
 */
import { computedOrThrow } from '../src/sim/engine/cannotRun';
import { describe, expect, it } from 'vitest';
import { oneOverRModel } from '../src/sim/lessons/affinity';
import { affinitySweepPoint, type SweepPoint } from '../src/sim/lessons/affinitySweep';
import { methods } from '../src/worker/methods';
import { affinityFleetSchema, affinityReplaySchema } from '../src/widgets/session-affinity/schema';
import { TRY_THIS as REPLAY_TRY } from '../src/widgets/session-affinity/AffinityReplay';
import { TRY_THIS as FLEET_TRY } from '../src/widgets/session-affinity/AffinityFleet';
import type { TryItem } from '../src/widgets/kit/stage';
import { expectValidSets, valuesOf } from './try-this';

/** The replay widget's synthetic-trajectory run for an item (the recorded one needs the trace loader). */
function replay(item: TryItem) {
  const v = valuesOf(affinityReplaySchema, item);
  expect(v.source).toBe('synthetic');
  const r = computedOrThrow(
    methods.affinityReplay({
      modelId: v.model as string,
      acceleratorId: v.accelerator as string,
      gpus: v.gpus as number,
      replicas: v.replicas as number,
      routing: v.routing as 'round-robin' | 'random',
      turns: v.turns as number,
      toolResultTokens: v.toolResultTokens as number,
      seed: v.seed as number,
      blockSize: Number(v.blockSize),
    }),
  );
  return v.affinity ? r.affinity : r.request;
}

describe('Affinity replay: Try this', () => {
  it('every item sets parameters of the widget’s schema to values its controls offer, and says which trajectory', () => {
    expectValidSets(REPLAY_TRY, affinityReplaySchema);
    for (const item of REPLAY_TRY) if (item.set) expect(['trace', 'synthetic']).toContain(item.set.source);
    // The recorded items show the turn their words name.
    expect(REPLAY_TRY[0].time).toBe(6);
    expect(REPLAY_TRY[1].time).toBe(8);
  });

  it('3 · synthetic with affinity: every later turn warm, nothing re-prefilled, TTFT under a fifth of a second', () => {
    const run = replay(REPLAY_TRY[3]);
    expect(run.totals.rePrefilledTokens).toBe(0);
    for (const row of run.rows.slice(1)) {
      expect(row.kind).toBe('warm');
      expect(row.ttftS).toBeLessThan(0.2);
    }
  });

  it('4 · sixteen replicas, round-robin: turns 1 to 15 cold, each paying more extra TTFT than the last', () => {
    const run = replay(REPLAY_TRY[4]);
    const cold = run.rows.slice(1, 16);
    expect(cold.map((r) => r.kind)).toEqual(Array(15).fill('cold'));
    for (let i = 1; i < cold.length; i++) expect(cold[i].extraS).toBeGreaterThan(cold[i - 1].extraS);
    expect(run.rows[16].kind).not.toBe('cold');
  });

  it('4 · “from 4 to 16”: the default fleet, and the item sets the largest the control offers; 15 cold turns', () => {
    expect(affinityReplaySchema.replicas.default).toBe(4);
    expect(REPLAY_TRY[4].set?.replicas).toBe(16);
    expect(affinityReplaySchema.replicas.max).toBe(16);
    expect(REPLAY_TRY[4].time).toBe(16 - 1);
  });

  it('5 · random routing with another seed: some turns land warm by luck, most do not', () => {
    const run = replay(REPLAY_TRY[5]);
    const later = run.rows.slice(1);
    const warm = later.filter((r) => r.kind === 'warm').length;
    expect(warm).toBeGreaterThan(0);
    expect(warm).toBeLessThan(later.length / 2);
  });
});

describe('Fleet view: Try this', () => {
  const hwOf = (v: Record<string, string | number | boolean>) => ({
    model: v.model as string,
    accelerator: v.accelerator as string,
    tp: v.gpus as number,
  });
  /** The request-level point at R and the 1/R model there (h₁ from affinity on one replica), for an item. */
  async function at(item: TryItem | undefined, R: number): Promise<{ p: SweepPoint; model: number }> {
    const v = valuesOf(affinityFleetSchema, item);
    const w = { agentsPerReplica: v.agentsPerReplica as number };
    const h1 = (await affinitySweepPoint(hwOf(v), w, 1, 'session-affinity', v.seed as number)).hitRate;
    const routing = v.routing as 'round-robin' | 'random';
    const p = await affinitySweepPoint(hwOf(v), w, R, routing, v.seed as number);
    return { p, model: oneOverRModel(p.sharedShare, h1, R) };
  }

  it('every item sets parameters of the widget’s schema to values its controls offer', () => {
    expectValidSets(FLEET_TRY, affinityFleetSchema);
  });

  it('0 · at R = 2 about half the turns land on another replica', async () => {
    const { p } = await at(undefined, 2);
    expect(p.sameReplicaShare).toBeGreaterThan(0.4);
    expect(p.sameReplicaShare).toBeLessThan(0.6);
  }, 60_000);

  it('1 · twelve agents per replica: request-level routing falls onto the 1/R curve at sixteen replicas, the tail grows', async () => {
    const base = await at(undefined, 16);
    const tight = await at(FLEET_TRY[1], 16);
    expect(Math.abs(tight.p.hitRate - tight.model)).toBeLessThan(0.02);
    expect(tight.p.hitRate - tight.model).toBeLessThan(base.p.hitRate - base.model);
    expect(tight.p.ttftP90S).toBeGreaterThan(base.p.ttftP90S);
    // "the TTFT tail grows with affinity too"
    const sticky = async (item: TryItem | undefined) => {
      const v = valuesOf(affinityFleetSchema, item);
      const w = { agentsPerReplica: v.agentsPerReplica as number };
      return affinitySweepPoint(hwOf(v), w, 16, 'session-affinity', v.seed as number);
    };
    expect((await sticky(FLEET_TRY[1])).ttftP90S).toBeGreaterThan(3 * (await sticky(undefined)).ttftP90S);
  }, 120_000);

  it('2 · two agents per replica: stale hits hold the curve well above the 1/R model', async () => {
    const base = await at(undefined, 16);
    const roomy = await at(FLEET_TRY[2], 16);
    expect(roomy.p.hitRate - roomy.model).toBeGreaterThan(base.p.hitRate - base.model + 0.05);
    // "several times what its own agents keep warm": the read-out's KV per replica against agents × mean prompt,
    // roomier than at the default, where the replica's own agents fill most of it.
    const own = (x: SweepPoint, agents: number) => agents * x.meanPromptTokens;
    expect(FLEET_TRY[2].set?.agentsPerReplica).toBe(2);
    expect(roomy.p.kvCapacityTokens).toBeGreaterThan(3 * own(roomy.p, 2));
    const defaultAgents = affinityFleetSchema.agentsPerReplica.default;
    expect(base.p.kvCapacityTokens).toBeLessThan(2 * own(base.p, defaultAgents));
    // "still far short of every session's prefix in the fleet": R × 2 live sessions' prompts exceed a replica's KV.
    expect(16 * own(roomy.p, 2)).toBeGreaterThan(2 * roomy.p.kvCapacityTokens);
  }, 60_000);

  it('3 · random routing: the hit rate barely moves; the TTFT tail rises on the large fleet', async () => {
    for (const R of [2, 16]) {
      const rr = await at(undefined, R);
      const rnd = await at(FLEET_TRY[3], R);
      expect(Math.abs(rnd.p.hitRate - rr.p.hitRate)).toBeLessThan(0.05);
      if (R === 16) expect(rnd.p.ttftP90S).toBeGreaterThan(1.2 * rr.p.ttftP90S);
    }
  }, 60_000);
});
