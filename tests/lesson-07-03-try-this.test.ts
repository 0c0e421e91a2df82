/**
 * Lesson 07.03's "Try this" items (which its guided tour plays): each direction an item claims, computed by the fleet
 * simulator with the state the item sets (the widgets' TRY_THIS over their schema defaults). Claims the lesson test
 * (tests/lesson-07-03.test.ts) already asserts are named there and not run twice: round-robin's HBM filling within
 * seconds, the pool's reloads, the thresholds 32 / 3 / 0, the blind policies' hit rates and warm shares.
 */
import { describe, expect, it } from 'vitest';
import { runPolicy, runRouterSpread, runRouterSweep, type SweepPoint } from '../src/sim/lessons/routing/lab';
import {
  DEFAULT_PER_REPLICA_RATES,
  type CacheViewKind,
  type RouterPolicy,
} from '../src/sim/lessons/routing/constants';
import { SGLANG_ROUTER_DEFAULTS } from '../src/sim/engine/fleet/routerDefaults';
import { capacityAtSlo } from '../src/sim/lessons/routing/summary';
import {
  ANIMATION_ARRIVAL_S,
  ANIMATION_START_S,
  cacheRouterSchema,
  routerSweepSchema,
  SPREAD_ARRIVAL_S,
  spreadSchema,
  SWEEP_ARRIVAL_S,
} from '../src/widgets/cache-router/schema';
import { TRY_THIS as ROUTER_TRY } from '../src/widgets/cache-router/CacheRouter';
import { TRY_THIS as SPREAD_TRY } from '../src/widgets/cache-router/RoundRobinSpread';
import { TRY_THIS as SWEEP_TRY } from '../src/widgets/cache-router/RouterSweep';
import type { TryItem } from '../src/widgets/kit/stage';
import { expectValidSets, valuesOf } from './try-this';

const routerRun = (item?: TryItem) => {
  const v = valuesOf(cacheRouterSchema, item);
  return runPolicy(
    v.policy as RouterPolicy,
    {
      replicas: v.replicas as number,
      sessionsPerS: v.sessionsPerS as number,
      arrivalS: ANIMATION_ARRIVAL_S,
      seed: v.seed as number,
      loadThreshold: v.loadThreshold as number,
      poolGB: v.poolGB as number,
      cacheView: v.cacheView as CacheViewKind,
    },
    {},
    0,
  );
};

describe('Animated router: Try this', () => {
  it('every item sets parameters of the widget’s schema to values its controls offer; the playing items start warm', () => {
    expectValidSets(ROUTER_TRY, cacheRouterSchema);
    // 4, 5 · "Then a threshold of 3", "Then 0": the load is item 3's, named there
    for (const i of [4, 5]) expect(ROUTER_TRY[i].set?.sessionsPerS).toBe(ROUTER_TRY[3].set?.sessionsPerS);
    for (const item of ROUTER_TRY.filter((i) => i.play)) expect(item.time).toBe(ANIMATION_START_S);
  });

  it('0 · round-robin: most of what arrives is red (more prompt tokens prefilled than found cached)', async () => {
    const rr = await routerRun(ROUTER_TRY[0]);
    expect(rr.summary.hitRate).toBeLessThan(0.5);
  });

  it('1 · cache-aware: the hit rate rises and the p90 TTFT falls against round-robin', async () => {
    const rr = await routerRun(ROUTER_TRY[0]);
    const ca = await routerRun(ROUTER_TRY[1]);
    expect(ca.summary.hitRate).toBeGreaterThan(rr.summary.hitRate);
    expect(ca.summary.ttftP90).toBeLessThan(rr.summary.ttftP90);
  });

  it('3–5 · the thresholds are one setting apart: same policy and load, threshold 32, 3, 0', () => {
    expect(ROUTER_TRY.slice(3, 6).map((i) => i.set?.loadThreshold)).toEqual([32, 3, 0]);
  });

  it('6, 7 · least load and power of two: the load stays even (imbalance near 1×) and the p90 TTFT drops a little', async () => {
    const rr = await routerRun(ROUTER_TRY[0]);
    for (const item of ROUTER_TRY.slice(6, 8)) {
      const r = await routerRun(item);
      expect(r.summary.imbalance).toBeLessThan(1.15);
      expect(r.summary.ttftP90).toBeLessThan(rr.summary.ttftP90);
      expect(r.summary.ttftP90).toBeGreaterThan(rr.summary.ttftP90 * 0.7);
    }
  });

  it('8 · SGLang’s tree at SGLang’s own threshold: one replica takes the sessions, the hit rate ends below round-robin’s', async () => {
    const item = ROUTER_TRY[8];
    expect(item.set).toMatchObject({
      cacheView: 'approximate',
      loadThreshold: SGLANG_ROUTER_DEFAULTS.balanceAbsThreshold,
    });
    const rr = await routerRun(ROUTER_TRY[0]);
    const sg = await routerRun(item);
    expect(sg.summary.hitRate).toBeLessThan(rr.summary.hitRate);
    expect(sg.summary.ttftP90).toBeGreaterThan(5 * rr.summary.ttftP90);
    expect(sg.summary.imbalance).toBeGreaterThan(2); // "whose queue grows while the others idle"
  });
});

describe('Round-robin spread: Try this', () => {
  const spread = (item?: TryItem, replicaCounts = [2, 8]) => {
    const v = valuesOf(spreadSchema, item);
    return runRouterSpread({
      replicaCounts,
      perReplicaRate: v.perReplicaRate as number,
      seed: v.seed as number,
      arrivalS: SPREAD_ARRIVAL_S,
    });
  };

  it('every item sets parameters of the widget’s schema to values its controls offer', () => {
    expectValidSets(SPREAD_TRY, spreadSchema, ['1:perReplicaRate']); // 'to its highest', asserted below
  });

  it('0 · each time R doubles, round-robin’s and random’s warm share about halves (the 1/R curve)', async () => {
    const { points } = await spread(undefined, [2, 4, 8]);
    const warm = (policy: RouterPolicy, R: number) =>
      points.find((p) => p.policy === policy && p.replicas === R)!.warmTurnShare;
    for (const policy of ['round-robin', 'random'] as const)
      for (const R of [2, 4]) {
        const ratio = warm(policy, 2 * R) / warm(policy, R);
        expect(ratio, `${policy} ${R} → ${2 * R}`).toBeGreaterThan(0.35);
        expect(ratio, `${policy} ${R} → ${2 * R}`).toBeLessThan(0.65);
      }
  });

  it('1 · “to its highest”: the item sets the control’s maximum', () => {
    expect(SPREAD_TRY[1].set?.perReplicaRate).toBe(spreadSchema.perReplicaRate.max);
  });

  it('1 · at the highest load per replica round-robin’s hit rate falls onto the dashed bound', async () => {
    const R = valuesOf(spreadSchema).inspect as number;
    const at = (ps: Awaited<ReturnType<typeof spread>>['points']) =>
      ps.find((p) => p.policy === 'round-robin' && p.replicas === R)!;
    const base = at((await spread(undefined, [R])).points);
    const loaded = at((await spread(SPREAD_TRY[1], [R])).points);
    expect(loaded.hitRate).toBeLessThan(base.hitRate);
    expect(Math.abs(loaded.hitRate - loaded.spreadBoundHitRate)).toBeLessThan(0.02);
    expect(base.hitRate - base.spreadBoundHitRate).toBeGreaterThan(0.03);
  });

  it('2 · at R = 8 round-robin holds a sizable part of a replica’s KV capacity in duplicate (over a quarter), affinity almost none', async () => {
    const r = await spread(SPREAD_TRY[2], [8]);
    const rr = r.points.find((p) => p.policy === 'round-robin')!;
    const aff = r.points.find((p) => p.policy === 'session-affinity')!;
    expect(rr.duplicateBytes / (r.hbmBlocks * r.bytesPerBlock)).toBeGreaterThan(0.25);
    expect(aff.duplicateBytes).toBeLessThan(rr.duplicateBytes / 10);
  });
});

describe('Policy sweep: Try this', () => {
  const sweep = (item?: TryItem, policies?: readonly RouterPolicy[]) => {
    const v = valuesOf(routerSweepSchema, item);
    return runRouterSweep({
      replicas: v.replicas as number,
      loadThreshold: v.loadThreshold as number,
      seed: v.seed as number,
      arrivalS: SWEEP_ARRIVAL_S,
      perReplicaRates: [...DEFAULT_PER_REPLICA_RATES],
      policies,
    });
  };
  const of = (points: SweepPoint[], p: RouterPolicy) => points.filter((x) => x.policy === p);

  it('every item sets parameters of the widget’s schema to values its controls offer', () => {
    expectValidSets(SWEEP_TRY, routerSweepSchema);
  });

  it('0, 1 · cache-aware and affinity carry more load within the target; the cache-blind four sit together in hit rate', async () => {
    const { points } = await sweep();
    const slo = routerSweepSchema.sloS.default;
    const cap = (p: RouterPolicy) => capacityAtSlo(of(points, p), slo)?.load ?? 0;
    expect(cap('round-robin')).toBeGreaterThan(0);
    for (const p of ['cache-aware', 'session-affinity'] as const)
      expect(cap(p)).toBeGreaterThan(cap('round-robin') * 1.2);
    for (const per of DEFAULT_PER_REPLICA_RATES) {
      const blind = points.filter(
        (x) =>
          ['round-robin', 'random', 'least-load', 'power-of-two'].includes(x.policy) &&
          Math.abs(x.sessionsPerS - per * routerSweepSchema.replicas.default) < 1e-9,
      );
      const hits = blind.map((x) => x.hitRate);
      expect(blind.length).toBe(4);
      expect(Math.max(...hits) - Math.min(...hits)).toBeLessThan(0.12);
      const warm = points.filter(
        (x) => x.policy === 'cache-aware' && Math.abs(x.sessionsPerS - blind[0].sessionsPerS) < 1e-9,
      )[0];
      expect(warm.hitRate).toBeGreaterThan(Math.max(...hits));
    }
  }, 120_000);

  it('2 · threshold 0: cache-aware’s hit rate and TTFT move toward round-robin’s at every load', async () => {
    const both = ['round-robin', 'cache-aware'] as const;
    const base = (await sweep(undefined, both)).points;
    const eager = (await sweep(SWEEP_TRY[2], ['cache-aware'])).points;
    const rr = of(base, 'round-robin');
    const ca = of(base, 'cache-aware');
    const gap = (a: typeof base, b: typeof base) =>
      a.reduce((s, x, i) => s + Math.abs(x.hitRate - b[i].hitRate), 0);
    expect(gap(eager, rr)).toBeLessThan(gap(ca, rr) / 2);
    const meanTtft = (ps: typeof base) => ps.reduce((s, x) => s + Math.log(x.ttftP90), 0) / ps.length;
    expect(meanTtft(eager)).toBeGreaterThan(meanTtft(ca));
  }, 120_000);
});
