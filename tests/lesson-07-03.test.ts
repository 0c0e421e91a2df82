/**
 * Lesson 07.03 (cache-aware routing): the formulas of src/sim/lessons/routing/theory.ts against hand-computed values,
 * the per-request summaries of summary.ts on a hand-made table, and the lab runs (lab.ts) on the fleet
 * simulator: round-robin's warm-turn share follows 1/R, cache-aware routing beats it, runs replay by seed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findModel, kvBytesPerToken } from '../src/sim/engine/catalog/models';
import type { RequestTable } from '../src/sim/engine/fleet/run';
import {
  affinityTurnHitRate,
  duplicatedPrefixBytes,
  replicasHoldingSession,
  spreadTurnHitRate,
  replicaKvBlocks,
  warmTurnProbability,
} from '../src/sim/lessons/routing/theory';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { weightBytes } from '../src/sim/engine/catalog/models';
import { resolveScenario } from '../src/sim/engine/fleet/scenario';
import { capacityAtSlo, frameAt, requestRows, summarizeRows } from '../src/sim/lessons/routing/summary';
import {
  DEFAULT_PER_REPLICA_RATES,
  LAB_SHARED_TOKENS,
  type RouterPolicy,
} from '../src/sim/lessons/routing/constants';
import {
  ANIMATION_DEFAULT_FLEET,
  ANIMATION_PLAY_RATE,
  ANIMATION_START_S,
  routerSweepSchema,
  SWEEP_ARRIVAL_S,
} from '../src/widgets/cache-router/schema';
import { describeRoute } from '../src/widgets/cache-router/routeReason';
import { lanePart, trailOpacity, TRAIL_S } from '../src/widgets/cache-router/routerLayout';
import { promptSplit, routeText, wrap } from '../src/widgets/cache-router/RouterPicture';
import {
  LAB_BLOCK_SIZE,
  LAB_SYSTEM_TOKENS,
  LAB_TOOL_TOKENS,
  labBytesPerBlock,
  labScenario,
  runPolicy,
  runRouterAnimation,
  runRouterSpread,
  runRouterSweep,
  sharedPrefixHashes,
  ROUTER_POLICIES,
  type LabFleet,
} from '../src/sim/lessons/routing/lab';
import { validateScenario } from '../src/sim/engine/fleet/scenario';
import { routerMethods } from '../src/worker/routerMethods';
import { directContext } from '../src/worker/job';
import { routerConfig } from '../src/sim/lessons/routing/lab';
import { runScenario } from '../src/sim/engine/fleet/run';
import { cacheRouterSchema } from '../src/widgets/cache-router/schema';
import {
  LLMD_APPROX_CURRENT,
  LLMD_APPROX_DEFAULTS,
  SGLANG_RADIX_DEFAULTS,
  SGLANG_ROUTER_DEFAULTS,
  SGLANG_V04_ROUTER_DEFAULTS,
} from '../src/sim/engine/fleet/routerDefaults';
import { SglangRadixView } from '../src/sim/engine/fleet/views/sglangRadix';
import { createRouter, type ReplicaLoad, type RouterEnv } from '../src/sim/engine/fleet/router';

const prose = readFileSync(new URL('../lessons/07-03-cache-aware-routing.mdx', import.meta.url), 'utf8');

describe('theory: spreading a session over R replicas', () => {
  it('a turn lands warm with probability 1/R when the router ignores the session, 1 with affinity', () => {
    expect(warmTurnProbability('spread', 1)).toBe(1);
    expect(warmTurnProbability('spread', 4)).toBe(0.25);
    expect(warmTurnProbability('spread', 8)).toBe(0.125);
    expect(warmTurnProbability('affinity', 8)).toBe(1);
    expect(() => warmTurnProbability('spread', 0)).toThrow(RangeError);
  });

  it('expected hit rate of a spread turn: (S + (C − S)/R) / P, by hand', () => {
    // S = 5,000 shared, previous context 30,000, prompt 32,000, R = 4: (5,000 + 25,000/4) / 32,000 = 11,250 / 32,000.
    const t = { replicas: 4, sharedTokens: 5000, previousContextTokens: 30_000, promptTokens: 32_000 };
    expect(spreadTurnHitRate(t)).toBeCloseTo(0.3515625, 12);
    expect(affinityTurnHitRate(t)).toBeCloseTo(0.9375, 12);
    // One replica: spreading is affinity.
    expect(spreadTurnHitRate({ ...t, replicas: 1 })).toBeCloseTo(affinityTurnHitRate(t), 12);
    // No shared prefix: exactly 1/R of the affinity hit rate.
    const noShared = { ...t, sharedTokens: 0 };
    expect(spreadTurnHitRate({ ...noShared, replicas: 8 })).toBeCloseTo(
      affinityTurnHitRate(noShared) / 8,
      12,
    );
    // Large R: only the shared prefix is left.
    expect(spreadTurnHitRate({ ...t, replicas: 1e9 })).toBeCloseTo(5000 / 32_000, 6);
    expect(() => spreadTurnHitRate({ ...t, previousContextTokens: 40_000 })).toThrow(RangeError);
  });

  it('replicas holding a copy after k turns: round-robin min(k, R), random R(1 − (1 − 1/R)^k), affinity 1', () => {
    expect(replicasHoldingSession('round-robin', 8, 3)).toBe(3);
    expect(replicasHoldingSession('round-robin', 8, 12)).toBe(8);
    expect(replicasHoldingSession('random', 4, 2)).toBeCloseTo(1.75, 12); // 4 × (1 − 9/16)
    expect(replicasHoldingSession('random', 4, 1)).toBeCloseTo(1, 12);
    expect(replicasHoldingSession('affinity', 8, 40)).toBe(1);
    expect(replicasHoldingSession('round-robin', 8, 0)).toBe(0);
    // Round-robin spreads at least as fast as random placement, for every k.
    for (let k = 1; k <= 20; k++)
      expect(replicasHoldingSession('round-robin', 8, k)).toBeGreaterThanOrEqual(
        replicasHoldingSession('random', 8, k) - 1e-12,
      );
  });

  it('the prose: within R turns a blind router leaves copies on most of the R replicas, nearly all after 20 of 8', () => {
    for (let R = 2; R <= 64; R++) {
      expect(replicasHoldingSession('random', R, R)).toBeGreaterThan(R / 2);
      expect(replicasHoldingSession('round-robin', R, R)).toBeGreaterThan(R / 2);
    }
    expect(replicasHoldingSession('random', 8, 20)).toBeGreaterThan(7);
  });

  it('duplicated prefix bytes: (copies − 1) × tokens × KV bytes/token; Qwen3-32B BF16 by hand', () => {
    const q = findModel('qwen3-32b')!;
    // 2 (K and V) × 64 layers × 8 KV heads × 128 head dim × 2 bytes = 262,144 B = 256 KiB per token.
    expect(kvBytesPerToken(q, 'bf16')).toBe(262_144);
    // 40,000 tokens on all 8 replicas: 7 × 40,000 × 262,144 = 73,400,320,000 B ≈ 73.4 GB.
    expect(duplicatedPrefixBytes(262_144, 40_000, 8)).toBe(73_400_320_000);
    expect(duplicatedPrefixBytes(262_144, 40_000, 1)).toBe(0);
    expect(duplicatedPrefixBytes(262_144, 40_000, 0)).toBe(0);
  });
});

/** A request table by hand: two sessions on two replicas. */
function table(
  rows: Array<
    [
      session: number,
      turn: number,
      replica: number,
      arrival: number,
      ttft: number,
      prompt: number,
      output: number,
      reused: number,
      gpu: number,
      prefilled?: number,
    ]
  >,
): RequestTable {
  const cols = [
    'session',
    'turn',
    'replica',
    'arrival',
    'ttft',
    'e2e',
    'promptTokens',
    'outputTokens',
    'prefilled',
    'reusedHbm',
    'reusedDram',
    'reusedNvme',
    'reusedRemote',
    'gpuSeconds',
    'status',
  ];
  const data: Record<string, Float64Array> = {};
  for (const c of cols) data[c] = new Float64Array(rows.length);
  rows.forEach(([s, k, r, a, ttft, p, o, u, g, pre], i) => {
    data.session[i] = s;
    data.turn[i] = k;
    data.replica[i] = r;
    data.arrival[i] = a;
    data.ttft[i] = ttft;
    data.e2e[i] = ttft + 1;
    data.promptTokens[i] = p;
    data.outputTokens[i] = o;
    data.reusedHbm[i] = u;
    data.prefilled[i] = pre ?? p - u; // no preemption: reused + prefilled = prompt
    data.gpuSeconds[i] = g;
    data.status[i] = 1;
  });
  return { columns: cols, data };
}

describe('summary: figures of a run from its per-request table, up to any t', () => {
  const rows = requestRows(
    table([
      // session, turn, replica, arrival, ttft, prompt, output, reused, gpu-s
      [0, 0, 0, 0, 1.0, 6000, 100, 5000, 2],
      [1, 0, 1, 1, 2.0, 7000, 100, 5000, 2],
      [0, 1, 0, 10, 0.2, 7100, 100, 6100, 1], // warm: same replica as turn 0
      [1, 1, 0, 11, 0.5, 8100, 100, 5000, 1], // cold: moved to replica 0
    ]),
  );

  it('hit rate, TTFT percentiles, imbalance, warm-turn share, spread bound', () => {
    const s = summarizeRows(rows, 2, Infinity, 5000);
    expect(s.requests).toBe(4);
    expect(s.hitRate).toBeCloseTo(21_100 / 28_200, 12);
    // TTFTs sorted 0.2, 0.5, 1, 2: p50 = 0.75, p90 at rank 2.7 = 1 + 0.7 × 1 = 1.7.
    expect(s.ttftP50).toBeCloseTo(0.75, 12);
    expect(s.ttftP90).toBeCloseTo(1.7, 12);
    // GPU-s: replica 0 has 2 + 1 + 1 = 4, replica 1 has 2: max/mean = 4/3.
    expect(s.imbalance).toBeCloseTo(4 / 3, 12);
    expect(s.warmTurnShare).toBe(0.5);
    // Private: reused beyond 5,000 = 0 + 0 + 1,100 + 0; prompts beyond = 1,000 + 2,000 + 2,100 + 3,100.
    expect(s.privateHitRate).toBeCloseTo(1100 / 8200, 12);
    // Bound: first turns 5,000 each; later turns 5,000 + (6,100 − 5,000)/2 and 5,000 + (7,100 − 5,000)/2.
    expect(s.spreadBoundHitRate).toBeCloseTo((5000 + 5000 + 5550 + 6050) / 28_200, 12);
  });

  it('a cut-off counts only requests whose first token came by then', () => {
    const s = summarizeRows(rows, 2, 2.5, 5000);
    expect(s.requests).toBe(1); // request 1's first token is at 3 s
    expect(s.hitRate).toBeCloseTo(5000 / 6000, 12);
    expect(summarizeRows(rows, 2, -1, 5000).requests).toBe(0);
    expect(Number.isNaN(summarizeRows(rows, 2, -1, 5000).hitRate)).toBe(true);
  });

  it('hit rate = reused ÷ (reused + prefilled): a preempted request’s readmission cannot push it past 100%', () => {
    // One request of 10,000 prompt tokens: 8,000 reused, 2,000 prefilled; preempted, readmitted with the same
    // 8,000 reused again and 2,000 recomputed: reused 16,000 against a 10,000-token prompt.
    const pre = requestRows(table([[0, 0, 0, 0, 1, 10_000, 100, 16_000, 1, 4000]]));
    expect(summarizeRows(pre, 1, Infinity, 0).hitRate).toBeCloseTo(0.8, 12);
  });

  it('capacity at a TTFT target: the first crossing, read linearly between sweep points', () => {
    const pts = [
      { sessionsPerS: 0.4, ttftP90: 0.5 },
      { sessionsPerS: 0.8, ttftP90: 1.5 },
      { sessionsPerS: 1.2, ttftP90: 3.5 },
    ];
    // Crosses 2 s between 0.8 (1.5 s) and 1.2 (3.5 s): 0.8 + 0.4 × 0.5/2 = 0.9.
    expect(capacityAtSlo(pts, 2)!.load).toBeCloseTo(0.9, 12);
    expect(capacityAtSlo(pts, 2)!.beyond).toBe(false);
    expect(capacityAtSlo(pts, 0.25)).toBeNull();
    expect(capacityAtSlo(pts, 10)).toEqual({ load: 1.2, beyond: true });
    expect(capacityAtSlo([...pts].reverse(), 2)!.load).toBeCloseTo(0.9, 12);
  });

  it('frameAt picks the last frame at or before t', () => {
    const f = { count: 4, t: Float64Array.from([0, 0.5, 1, 1.5]) };
    expect(frameAt(f, -3)).toBe(0);
    expect(frameAt(f, 0)).toBe(0);
    expect(frameAt(f, 0.49)).toBe(0);
    expect(frameAt(f, 0.5)).toBe(1);
    expect(frameAt(f, 1.2)).toBe(2);
    expect(frameAt(f, 99)).toBe(3);
    expect(frameAt({ count: 0, t: new Float64Array(0) }, 1)).toBe(-1);
  });
});

const FLEET: LabFleet = { ...ANIMATION_DEFAULT_FLEET };

describe('lab: the lesson runs on the fleet simulator', () => {
  it('builds valid scenarios for every policy, and the shared head is 19 full blocks', () => {
    expect(LAB_SYSTEM_TOKENS + LAB_TOOL_TOKENS).toBe(LAB_SHARED_TOKENS);
    for (const p of ROUTER_POLICIES) expect(validateScenario(labScenario(p, FLEET, 0.5))).toEqual([]);
    expect(sharedPrefixHashes().size).toBe(Math.floor(LAB_SHARED_TOKENS / LAB_BLOCK_SIZE));
    expect(labBytesPerBlock()).toBe(262_144 * 256);
  });

  it('replica KV capacity by formula equals the simulator’s (Qwen3-32B on 2 × H100, 90% of HBM)', () => {
    const q = findModel('qwen3-32b')!;
    const h = findAccelerator('h100-sxm')!;
    const blocks = replicaKvBlocks({
      gpus: 2,
      memoryBytes: h.memoryBytes,
      memoryUtilization: 0.9,
      weightBytes: weightBytes(q, 'bf16'),
      kvBytesPerToken: kvBytesPerToken(q, 'bf16'),
      blockSize: 256,
    });
    expect(blocks).toBe(resolveScenario(labScenario('round-robin', FLEET)).hbmBlocks);
    // By hand: (2 × (81,559 MiB × 0.9 − 4.84 GiB reserve) − 2 × 32.8e9 weights) ÷ (256 × 262,144) = 1,161.45
    // → 1,161 blocks = 297,216 tokens (nvidia-smi's H100 total; vLLM's profiled reserve, engine/hbm.ts).
    expect(blocks).toBe(1161);
    expect(blocks * 256).toBeGreaterThan(290_000);
    expect(blocks * 256).toBeLessThan(320_000);
  });

  it('cache-aware routing raises the hit rate and lowers p90 TTFT against round-robin; runs replay by seed', async () => {
    const rr = await runPolicy('round-robin', FLEET);
    const ca = await runPolicy('cache-aware', FLEET);
    const aff = await runPolicy('session-affinity', FLEET);
    expect(ca.summary.hitRate).toBeGreaterThan(rr.summary.hitRate + 0.1);
    expect(ca.summary.ttftP90).toBeLessThan(rr.summary.ttftP90 * 0.7);
    expect(aff.summary.warmTurnShare).toBeGreaterThan(0.9);
    // Round-robin: a turn is warm about 1 time in R.
    expect(Math.abs(rr.summary.warmTurnShare - 0.25)).toBeLessThan(0.06);
    // ... and every session's prefix ends up on several replicas: duplicated KV, which affinity avoids.
    expect(rr.duplicateBlocksMean).toBeGreaterThan(5 * aff.duplicateBlocksMean + 100);
    expect(rr.copiesPerSession).toBeGreaterThan(1.5);
    expect(aff.copiesPerSession).toBeLessThan(1.2);
    const again = await runPolicy('round-robin', FLEET);
    expect(again).toEqual(rr);
  });

  it('the load threshold: too low gives the cache away, too high lets sessions pile onto few replicas', async () => {
    const light = { ...FLEET, sessionsPerS: 0.3 };
    const eager = await runPolicy('cache-aware', { ...light, loadThreshold: 0 }, {}, 0);
    const tuned = await runPolicy('cache-aware', { ...light, loadThreshold: 3 }, {}, 0);
    const lax = await runPolicy('cache-aware', { ...light, loadThreshold: 32 }, {}, 0);
    const rr = await runPolicy('round-robin', light, {}, 0);
    // Balancing on every request: the hit rate falls most of the way to round-robin's.
    expect(eager.summary.hitRate).toBeLessThan(lax.summary.hitRate - 0.15);
    expect(eager.summary.hitRate).toBeLessThan(rr.summary.hitRate + 0.08);
    // Never balancing: the work piles onto the replicas that cached the shared head first.
    expect(lax.summary.imbalance).toBeGreaterThan(tuned.summary.imbalance + 0.4);
    expect(tuned.summary.hitRate).toBeGreaterThan(lax.summary.hitRate - 0.03);
    // "balances on almost every request"
    const eagerRun = await runRouterAnimation({ ...light, policy: 'cache-aware', loadThreshold: 0 });
    let balanced = 0;
    for (let i = 0; i < eagerRun.requests.count; i++)
      if (eagerRun.reasonNames[eagerRun.reason[i]] === 'cache-balance') balanced++;
    expect(balanced / eagerRun.requests.count).toBeGreaterThan(0.7);
    // "a loose threshold costs some of the TTFT tail and none of the hit rate … an eager one costs a lot more"
    expect(Math.abs(lax.summary.hitRate - tuned.summary.hitRate)).toBeLessThan(0.03);
    expect(lax.summary.ttftP90).toBeGreaterThan(tuned.summary.ttftP90);
    expect(eager.summary.ttftP90 - tuned.summary.ttftP90).toBeGreaterThan(
      2 * (lax.summary.ttftP90 - tuned.summary.ttftP90),
    );
  });

  it('animation frames: every frame is a snapshot of the queues and of HBM by session', async () => {
    const a = await runRouterAnimation({ ...FLEET, policy: 'round-robin', frameIntervalS: 1 });
    const R = a.replicas;
    const f = a.frames;
    expect(f.count).toBeGreaterThan(a.endS / 1 - 2);
    expect(f.kvOffsets.length).toBe(f.count * R + 1);
    expect(f.memOffsets.length).toBe(f.count * R + 1);
    let sawShared = false;
    let sawMany = false;
    for (let k = 0; k < f.count * R; k++) {
      let blocks = 0;
      const sessions = new Set<number>();
      for (let j = f.kvOffsets[k]; j < f.kvOffsets[k + 1]; j++) {
        blocks += f.kvBlocks[j];
        sessions.add(f.kvSession[j]);
        if (f.kvSession[j] === -1) {
          sawShared = true;
          expect(f.kvBlocks[j]).toBeLessThanOrEqual(a.sharedBlocks);
        }
      }
      expect(blocks).toBeLessThanOrEqual(a.hbmBlocks);
      if (sessions.size > 8) sawMany = true;
      // Queue + batch members are requests that exist, and their count matches the per-replica counters.
      const n = f.memOffsets[k + 1] - f.memOffsets[k];
      expect(n).toBe(f.waiting[k] + f.running[k]);
      for (let j = f.memOffsets[k]; j < f.memOffsets[k + 1]; j++)
        expect(f.memRequest[j]).toBeLessThan(a.requests.count);
    }
    expect(sawShared).toBe(true);
    expect(sawMany).toBe(true); // round-robin: a replica holds many sessions at once
    // Frame times increase; the per-request table is in arrival order.
    for (let i = 1; i < f.count; i++) expect(f.t[i]).toBeGreaterThan(f.t[i - 1]);
    for (let i = 1; i < a.requests.count; i++)
      expect(a.requests.arrival[i]).toBeGreaterThanOrEqual(a.requests.arrival[i - 1]);
    expect(a.summary).toEqual((await runPolicy('round-robin', FLEET)).summary);
    expect(Math.max(...f.duplicateBlocks)).toBeGreaterThan(0);
  });

  it('spread: round-robin and random land warm ≈ 1/R of the time, affinity ≈ always; duplication grows with R', async () => {
    const seen: number[] = [];
    const { points } = await runRouterSpread(
      { replicaCounts: [1, 2, 4, 8], perReplicaRate: 0.2, seed: 4, arrivalS: 40 },
      { emit: (p) => void seen.push(p.replicas) },
    );
    expect(seen.length).toBe(12);
    const at = (policy: string, R: number) => points.find((p) => p.policy === policy && p.replicas === R)!;
    // One seed's warm share swings by up to ±0.07 around 1/R (seeds 4–6): the ≈ 1/R claim is on their mean.
    const more = await Promise.all(
      [5, 6].map((seed) =>
        runRouterSpread({ replicaCounts: [2, 4, 8], perReplicaRate: 0.2, seed, arrivalS: 40 }),
      ),
    );
    const meanWarm = (policy: string, R: number) =>
      [points, ...more.map((m) => m.points)]
        .map((ps) => ps.find((p) => p.policy === policy && p.replicas === R)!.warmTurnShare)
        .reduce((a, b) => a + b, 0) / 3;
    for (const R of [2, 4, 8]) {
      expect(Math.abs(meanWarm('round-robin', R) - 1 / R)).toBeLessThan(0.05);
      expect(Math.abs(meanWarm('random', R) - 1 / R)).toBeLessThan(0.05);
      expect(at('session-affinity', R).warmTurnShare).toBeGreaterThan(0.9);
      expect(at('round-robin', R).hitRate).toBeLessThan(at('session-affinity', R).hitRate);
      // The bound (nothing survives on a cold replica) is below what stale copies actually give.
      expect(at('round-robin', R).spreadBoundHitRate).toBeLessThan(at('round-robin', R).hitRate + 0.02);
    }
    expect(at('round-robin', 1).warmTurnShare).toBe(1);
    expect(at('round-robin', 8).duplicateBytes).toBeGreaterThan(at('round-robin', 4).duplicateBytes);
    expect(at('round-robin', 4).duplicateBytes).toBeGreaterThan(at('round-robin', 2).duplicateBytes);
    expect(at('session-affinity', 8).duplicateBytes).toBeLessThan(at('round-robin', 8).duplicateBytes / 10);
    expect(at('round-robin', 8).hitRate).toBeLessThan(at('round-robin', 2).hitRate);
  });

  it('the prose on the sweep: at light load the warm policies are well under the target, the load-blind ones close to it, random the first to miss it as the load grows', async () => {
    // The RouterSweep widget's defaults (schema.ts): 4 replicas, threshold 8, seed 4, 40 s of arrivals.
    const d = routerSweepSchema;
    const { points } = await runRouterSweep({
      replicas: d.replicas.default,
      loadThreshold: d.loadThreshold.default,
      seed: d.seed.default,
      arrivalS: SWEEP_ARRIVAL_S,
      perReplicaRates: [...DEFAULT_PER_REPLICA_RATES],
    });
    const slo = d.sloS.default;
    const of = (p: RouterPolicy) =>
      points.filter((x) => x.policy === p).sort((a, b) => a.sessionsPerS - b.sessionsPerS);
    const lightest = (p: RouterPolicy) => of(p)[0].ttftP90;
    for (const p of ['session-affinity', 'cache-aware'] as const) expect(lightest(p)).toBeLessThan(slo / 2);
    for (const p of ['round-robin', 'least-load', 'power-of-two'] as const) {
      expect(lightest(p)).toBeLessThan(slo);
      expect(lightest(p)).toBeGreaterThan(slo / 2);
    }
    // "random … is the first to miss it as the load grows": the first load at which any policy misses the target
    // is one where random misses it, and no other blind policy misses it before random does.
    const loads = of('random').map((x) => x.sessionsPerS);
    const firstMiss = (p: RouterPolicy) => of(p).findIndex((x) => x.ttftP90 > slo);
    expect(firstMiss('random')).toBeGreaterThanOrEqual(0);
    for (const p of [
      'round-robin',
      'least-load',
      'power-of-two',
      'session-affinity',
      'cache-aware',
    ] as const) {
      const i = firstMiss(p);
      expect(i === -1 || i >= firstMiss('random'), `${p} misses at ${loads[i]} before random`).toBe(true);
    }
  }, 60_000);

  it('sweep: one point per policy and load, streamed', async () => {
    const streamed: string[] = [];
    const { points } = await runRouterSweep(
      {
        replicas: 2,
        loadThreshold: 8,
        seed: 4,
        arrivalS: 20,
        perReplicaRates: [0.1, 0.3],
        policies: ['round-robin', 'cache-aware'],
      },
      { emit: (p) => void streamed.push(`${p.policy}@${p.sessionsPerS}`) },
    );
    expect(streamed).toEqual(['round-robin@0.2', 'cache-aware@0.2', 'round-robin@0.6', 'cache-aware@0.6']);
    expect(points.every((p) => p.hitRate > 0 && p.hitRate < 1 && p.ttftP90 > 0)).toBe(true);
  });
});

describe('worker methods: arguments are checked', () => {
  it('rejects an unknown policy and out-of-range fleets with a readable message', async () => {
    const ctx = directContext<never>();
    await expect(
      routerMethods.routerAnimation({ ...FLEET, policy: 'fastest' as never }, ctx),
    ).rejects.toThrow(/Unknown routing policy "fastest"/);
    await expect(
      routerMethods.routerAnimation({ ...FLEET, policy: 'random', replicas: 0 }, ctx),
    ).rejects.toThrow(/^The number of replicas takes whole numbers from 1 to 16 replicas, not 0\./);
    await expect(
      routerMethods.routerSweep(
        { replicas: 2, loadThreshold: 8, seed: 1, arrivalS: 10, perReplicaRates: [] },
        directContext(),
      ),
    ).rejects.toThrow(/perReplicaRates/);
  });

  it('the animation method adds a comparison run of another policy on the same workload', async () => {
    const r = await routerMethods.routerAnimation(
      { ...FLEET, policy: 'cache-aware', compareWith: 'round-robin' },
      directContext<never>(),
    );
    expect(r.comparison?.policy).toBe('round-robin');
    expect(r.comparison!.summary.hitRate).toBeLessThan(r.summary.hitRate);
  });
});

describe('the animated router’s geometry', () => {
  it('requests travel along their lane from the router to the replica’s queue, at any fraction', async () => {
    const { along, pictureLayout } = await import('../src/widgets/cache-router/RouterPicture');
    const pts: [number, number][] = [
      [0, 0],
      [0, 30],
      [40, 30],
    ];
    expect(along(pts, 0)).toEqual([0, 0]);
    expect(along(pts, 1)).toEqual([40, 30]);
    expect(along(pts, 30 / 70)).toEqual([0, 30]);
    expect(along(pts, 0.5)).toEqual([5, 30]);
    expect(along(pts, 2)).toEqual([40, 30]);
    // Phones stack the router above the replicas; wide figures put it beside them. Rows never overlap.
    for (const [w, stacked] of [
      [360, true],
      [640, false],
    ] as const) {
      const L = pictureLayout(w, 8);
      expect(L.stacked).toBe(stacked);
      for (let r = 1; r < 8; r++) expect(L.rowY(r)).toBeGreaterThanOrEqual(L.rowY(r - 1) + L.rowH);
      expect(L.rowY(7) + L.rowH).toBeLessThanOrEqual(L.height);
      expect(L.x0 + L.boxW).toBeLessThanOrEqual(w);
      for (let r = 0; r < 8; r++) expect(L.lane(r).at(-1)![1]).toBeCloseTo(L.rowY(r) + L.markDy, 9);
    }
  });

  it('a wide replica box puts its two bars side by side, so its rows are shorter; both stay inside the box', async () => {
    const { pictureLayout } = await import('../src/widgets/cache-router/RouterPicture');
    for (const w of [360, 640, 760]) {
      const L = pictureLayout(w, 4);
      const inBox = (lane: { x: number; w: number }) => {
        expect(lane.x).toBeGreaterThanOrEqual(L.x0);
        expect(lane.x + lane.w).toBeLessThanOrEqual(L.x0 + L.boxW);
      };
      inBox(L.arrivalLane);
      inBox(L.kvLane);
      expect(L.kvDy + L.barH).toBeLessThanOrEqual(L.rowH);
      if (L.kvDy === L.arrivalDy) expect(L.kvLane.x).toBeGreaterThan(L.arrivalLane.x + L.arrivalLane.w);
      else expect(L.kvDy).toBeGreaterThanOrEqual(L.arrivalDy + L.barH);
    }
    // With a shared pool, the router and the pool never overlap, at any fleet size, and both fit the picture.
    for (const w of [360, 640, 760])
      for (let replicas = 1; replicas <= 16; replicas++) {
        const L = pictureLayout(w, replicas, true);
        const pool = L.pool!;
        if (!L.stacked)
          expect(pool.y, `${replicas} replicas`).toBeGreaterThanOrEqual(L.router.y + L.router.h + 8);
        expect(pool.y + pool.h).toBeLessThanOrEqual(L.height);
        expect(L.router.y + L.router.h).toBeLessThanOrEqual(L.height);
      }
    const narrow = pictureLayout(640, 4);
    const wide = pictureLayout(760, 4);
    expect(narrow.kvDy).toBeGreaterThan(narrow.arrivalDy);
    expect(wide.kvDy).toBe(wide.arrivalDy);
    expect(wide.rowH).toBeLessThan(narrow.rowH);
    expect(wide.height).toBeLessThan(narrow.height);
  });
});

/** Fleet-wide share of HBM KV blocks in use at frame f of an animation run. */
function hbmFill(a: Awaited<ReturnType<typeof runRouterAnimation>>, f: number): number {
  const R = a.replicas;
  let used = 0;
  for (let j = a.frames.kvOffsets[f * R]; j < a.frames.kvOffsets[(f + 1) * R]; j++)
    used += a.frames.kvBlocks[j];
  return used / (a.hbmBlocks * R);
}

describe('the animated router at its defaults: HBM under pressure, reasons kept, an optional pool', () => {
  const played = (s: number) => ANIMATION_START_S + s * ANIMATION_PLAY_RATE;

  it('within five seconds of play, round-robin’s HBM is nearly full, and it stays above 70% for the minute after', async () => {
    for (const policy of ['round-robin', 'cache-aware'] as const) {
      const a = await runRouterAnimation({ ...FLEET, policy, frameIntervalS: 0.5 });
      const fills: number[] = [];
      for (let f = 0; f < a.frames.count; f++)
        if (a.frames.t[f] >= played(5) && a.frames.t[f] <= played(15)) fills.push(hbmFill(a, f));
      const mean = fills.reduce((x, y) => x + y, 0) / fills.length;
      // The caption's and the lesson's "HBM fills": at least 70% full over the ten seconds after the first five.
      expect(mean).toBeGreaterThan(0.7);
      if (policy === 'round-robin') {
        expect(hbmFill(a, frameAt(a.frames, played(5)))).toBeGreaterThan(0.9);
        // Before the playhead's start it was filling, not full: the pressure builds, which scrubbing back shows.
        expect(hbmFill(a, frameAt(a.frames, 10))).toBeLessThan(0.3);
        // The caption's "starts … while HBM is still filling": at the playhead's start it is not yet full.
        expect(hbmFill(a, frameAt(a.frames, ANIMATION_START_S))).toBeLessThan(0.9);
      }
    }
  });

  it('the cache-aware hit rate beats round-robin’s by a visible margin at the defaults', async () => {
    const rr = await runPolicy('round-robin', FLEET, {}, 0);
    const ca = await runPolicy('cache-aware', FLEET, {}, 0);
    expect(ca.summary.hitRate).toBeGreaterThan(rr.summary.hitRate + 0.3);
  });

  it('every request keeps the reason its policy gave; the cache-aware reasons cite a prefix the replica held', async () => {
    const rr = await runRouterAnimation({ ...FLEET, policy: 'round-robin' });
    for (let i = 0; i < rr.requests.count; i++) expect(rr.reasonNames[rr.reason[i]]).toBe('round-robin');
    // Round-robin: request i goes to replica i mod R.
    for (let i = 0; i < rr.requests.count; i++) expect(rr.requests.replica[i]).toBe(i % rr.replicas);
    const ca = await runRouterAnimation({ ...FLEET, policy: 'cache-aware' });
    const counts = new Map<string, number>();
    for (let i = 0; i < ca.requests.count; i++) {
      const why = ca.reasonNames[ca.reason[i]];
      counts.set(why, (counts.get(why) ?? 0) + 1);
      if (why === 'cache-hit') {
        // The threshold rule (SGLang's current default): the replica held more than 30% of the prompt's tokens.
        const pages = Math.floor(ca.requests.promptTokens[i] / ca.blockSize);
        expect(ca.matched[i] * ca.blockSize).toBeGreaterThan(ca.requests.promptTokens[i] * 0.3);
        expect(ca.matched[i]).toBeLessThanOrEqual(pages);
        expect(routeText(ca, i)).toMatch(/^cache-aware: replica \d holds [\d.]+k? of [\d.]+k? tokens$/);
      }
    }
    // Most turns go where their prefix is; first turns and moved sessions account for the rest.
    expect(counts.get('cache-hit')! / ca.requests.count).toBeGreaterThan(0.7);
  });

  it('a shared pool turns cold round-robin turns into reloads: pool hits counted, hit rate up toward cache-aware’s', async () => {
    const rr = await runPolicy('round-robin', FLEET, {}, 0);
    const pooled = await runRouterAnimation({ ...FLEET, policy: 'round-robin', poolGB: 500 });
    expect(pooled.poolGB).toBe(500);
    expect(pooled.summary.poolHits).toBeGreaterThan(pooled.requests.count * 0.3);
    expect(pooled.summary.poolReusedTokens).toBeGreaterThan(0);
    expect(pooled.summary.hitRate).toBeGreaterThan(rr.summary.hitRate + 0.2);
    // Without a pool nothing is reloaded from one.
    expect(rr.summary.poolHits).toBe(0);
    const ca = await runPolicy('cache-aware', FLEET, {}, 0);
    expect(pooled.summary.hitRate).toBeLessThan(ca.summary.hitRate);
    // A reload is counted in the request's hit, not its prefill: hit + pool + miss is what it served.
    for (let i = 0; i < pooled.requests.count; i++) {
      const p = promptSplit(pooled, i);
      expect(p.hit + p.pool).toBeCloseTo(pooled.requests.reusedTokens[i], 6);
    }
  });
});

describe('the router’s reason in words', () => {
  it('names the replica and the figure the policy decided on', () => {
    const base = { replica: 2, matchedTokens: 12_400, promptTokens: 13_000, queued: 2 };
    expect(describeRoute({ ...base, reason: 'cache-hit' })).toBe(
      'cache-aware: replica 3 holds 12.4k of 13k tokens',
    );
    expect(describeRoute({ ...base, reason: 'least-load' })).toBe('least load: replica 3 had 2 queued');
    expect(describeRoute({ ...base, reason: 'round-robin' })).toBe('round-robin: replica 3 is next in turn');
    expect(describeRoute({ ...base, reason: null })).toBe('to replica 3');
    // A miss names SGLang's current threshold and where the current router sends it.
    expect(describeRoute({ ...base, reason: 'cache-miss' })).toBe(
      'cache-aware: no replica holds over 30% of the prompt; to the least loaded, replica 3 (2 queued)',
    );
  });

  it('wraps a reason into the router box without losing words before the last line', () => {
    expect(wrap('holds 12.4k of 13k tokens', 12, 4)).toEqual(['holds 12.4k', 'of 13k', 'tokens']);
    expect(wrap('a b c d e f', 4, 2)).toEqual(['a b', 'c d…']);
  });

  it('a trail runs from the router to the mark, fades over TRAIL_S, and is a function of t alone', () => {
    const pts: [number, number][] = [
      [0, 0],
      [0, 30],
      [40, 30],
    ];
    expect(lanePart(pts, 0)).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(lanePart(pts, 0.5)).toEqual([
      [0, 0],
      [0, 30],
      [5, 30],
    ]);
    expect(lanePart(pts, 1)).toEqual(pts);
    expect(trailOpacity(0)).toBe(1);
    expect(trailOpacity(TRAIL_S / 2)).toBeCloseTo(0.5, 12);
    expect(trailOpacity(TRAIL_S)).toBe(0);
    expect(trailOpacity(-1)).toBe(0);
  });
});

describe('the prose on the policy table (the animated router’s defaults)', () => {
  it('the load-blind four: close hit rates, warm ≈ 1/R, many times the duplicate KV; balancing buys TTFT, not hits', async () => {
    const runs = new Map<string, Awaited<ReturnType<typeof runPolicy>>>();
    for (const p of ROUTER_POLICIES) runs.set(p, await runPolicy(p, FLEET));
    const blind = ['round-robin', 'random', 'least-load', 'power-of-two'].map((p) => runs.get(p)!);
    const warm = ['session-affinity', 'cache-aware'].map((p) => runs.get(p)!);
    const hits = blind.map((r) => r.summary.hitRate);
    // "land close together in hit rate"
    expect(Math.max(...hits) - Math.min(...hits)).toBeLessThan(0.1);
    for (const b of blind) {
      // "about one time in four, 1/R"
      expect(Math.abs(b.summary.warmTurnShare - 1 / FLEET.replicas)).toBeLessThan(0.06);
      // "many times more KV in duplicate than the two policies that follow the session"
      for (const w of warm) expect(b.duplicateBlocksMean).toBeGreaterThan(5 * w.duplicateBlocksMean);
      // "... find the previous turn's replica almost every time ... and cut the TTFT tail"
      for (const w of warm) expect(w.summary.ttftP90).toBeLessThan(b.summary.ttftP90);
    }
    for (const w of warm) expect(w.summary.warmTurnShare).toBeGreaterThan(0.9);
    // "balancing the load better (least load, power of two) buys TTFT, not cache hits"
    const rr = runs.get('round-robin')!.summary;
    for (const p of ['least-load', 'power-of-two']) {
      const s = runs.get(p)!.summary;
      expect(s.ttftP90).toBeLessThan(rr.ttftP90);
      expect(Math.abs(s.hitRate - rr.hitRate)).toBeLessThan(0.05);
    }
  });
});

describe('the prose on the routers’ views (the animated router’s defaults)', () => {
  it('the lab runs the defaults of sglang-router 0.3.0 (and smg 1.9.0), cited by version', () => {
    const c = routerConfig('cache-aware', 8);
    expect(c).toMatchObject({
      kind: 'cache-aware',
      cacheThreshold: SGLANG_ROUTER_DEFAULTS.cacheThreshold,
      balanceAbsThreshold: 8,
      balanceRelThreshold: SGLANG_ROUTER_DEFAULTS.balanceRelThreshold,
      onMiss: 'least-load',
    });
    expect([
      SGLANG_ROUTER_DEFAULTS.cacheThreshold,
      SGLANG_ROUTER_DEFAULTS.balanceAbsThreshold,
      SGLANG_ROUTER_DEFAULTS.balanceRelThreshold,
    ]).toEqual([0.3, 64, 1.5]);
    expect([
      SGLANG_V04_ROUTER_DEFAULTS.cacheThreshold,
      SGLANG_V04_ROUTER_DEFAULTS.balanceAbsThreshold,
      SGLANG_V04_ROUTER_DEFAULTS.balanceRelThreshold,
    ]).toEqual([0.5, 32, 1.0001]);
    // The slider reaches the current default.
    expect(cacheRouterSchema.loadThreshold.max).toBeGreaterThanOrEqual(
      SGLANG_ROUTER_DEFAULTS.balanceAbsThreshold,
    );
    expect(routerConfig('cache-aware', 8, 'approximate').view).toEqual({ kind: 'sglang-radix' });
    // The slider's help quotes the same defaults.
    expect(cacheRouterSchema.loadThreshold.help).toContain(
      `balance_abs_threshold: ${SGLANG_ROUTER_DEFAULTS.balanceAbsThreshold} by default`,
    );
    expect(cacheRouterSchema.loadThreshold.help).toContain(
      `${SGLANG_V04_ROUTER_DEFAULTS.balanceAbsThreshold} in SGLang v0.4`,
    );
  });

  it('the prose on ties: SGLang’s tree names one worker per prefix, the one whose request put it there, whatever the order (or load) of the candidates', () => {
    for (const creator of [0, 1, 2, 3]) {
      const v = new SglangRadixView(4, { kind: 'sglang-radix' }, 16);
      const hashes = [11, 22, 33];
      v.routed(creator, hashes, 3);
      for (const r of [0, 1, 2, 3]) v.routed(r, hashes, 3);
      expect(v.firstAt(hashes, 3, [0, 1, 2, 3])).toBe(creator);
      expect(v.firstAt(hashes, 3, [3, 2, 1, 0])).toBe(creator);
      expect(v.firstAt(hashes, 3, [2, 0, 3, 1])).toBe(creator);
    }
    expect(prose).toMatch(/the one whose request\s+put it in the tree, for as long as that worker keeps it/);
  });

  it('under memory pressure SGLang’s tree costs hit rate and TTFT, and its belief goes stale where the exact view’s does not', async () => {
    const exact = await runPolicy('cache-aware', FLEET, {}, 0);
    const tree = await runPolicy('cache-aware', { ...FLEET, cacheView: 'approximate' }, {}, 0);
    expect(tree.summary.hitRate).toBeLessThan(exact.summary.hitRate - 0.02);
    expect(tree.summary.ttftP90).toBeGreaterThan(exact.summary.ttftP90 * 1.2);
    expect(tree.summary.staleRouteShare).toBeGreaterThan(0.03);
    expect(exact.summary.staleRouteShare).toBeLessThan(0.01);
  });

  it('“leaving the tools out”: without the tool schemas the September 2025 window reaches past the system prompt', () => {
    const l = LLMD_APPROX_DEFAULTS;
    const windowTokens = l.maxPrefixBlocks * l.blockTokens;
    expect(LAB_SYSTEM_TOKENS + LAB_TOOL_TOKENS).toBeGreaterThan(windowTokens); // the shared head fills it
    expect(LAB_SYSTEM_TOKENS).toBeLessThan(windowTokens); // the messages alone reach the session's own turns
    expect(prose).toMatch(/GAIE v1\.0\.0 hashes\s+only the messages' roles and text/);
    expect(prose).toMatch(/policy="llm-d-approximate-messages"/); // run, not only stated (the figures' test below)
  });

  it('at SGLang’s own load threshold the tree piles sessions on one worker: below round-robin, its routes mostly stale', async () => {
    // "Those runs balance at <8> requests. At SGLang's own θ_abs of <64>, its tree does far worse: … behind
    // round-robin's …"; the prose's loadThreshold={64} is SGLang's default
    expect(prose).toContain('loadThreshold={64}');
    expect(SGLANG_ROUTER_DEFAULTS.balanceAbsThreshold).toBe(64);
    expect(FLEET.loadThreshold).toBe(8);
    const sg = await runPolicy(
      'cache-aware',
      { ...FLEET, cacheView: 'approximate', loadThreshold: 64 },
      {},
      0,
    );
    const rr = await runPolicy('round-robin', FLEET, {}, 0);
    const tree = await runPolicy('cache-aware', { ...FLEET, cacheView: 'approximate' }, {}, 0);
    expect(sg.summary.hitRate).toBeLessThan(rr.summary.hitRate);
    expect(sg.summary.ttftP90).toBeGreaterThan(rr.summary.ttftP90);
    expect(sg.summary.staleRouteShare).toBeGreaterThan(0.5); // "stale … of the time": most of it
    expect(sg.summary.staleRouteShare).toBeGreaterThan(tree.summary.staleRouteShare);
    expect(prose).toMatch(/`vllm-project\/router` issue #179/);
  });

  it('at its default size the tree’s trim removes nothing for over an hour on this fleet', async () => {
    let sizes: number[] = [];
    let t = 0;
    await runScenario(labScenario('cache-aware', { ...FLEET, cacheView: 'approximate' }), {
      includeSeries: false,
      afterEvent: (sim) => {
        const v = sim.view as SglangRadixView;
        sizes = [...Array(FLEET.replicas).keys()].map((r) => v.sizeOf(r));
        t = sim.now;
      },
    });
    const fastest = Math.max(...sizes) / t; // characters a second, the busiest worker
    expect(fastest * 3600).toBeLessThan(SGLANG_RADIX_DEFAULTS.maxTreeSize);
    // … while a worker's HBM holds far less than the tree will keep.
    const hbmTokens = resolveScenario(labScenario('cache-aware', FLEET)).hbmBlocks * LAB_BLOCK_SIZE;
    expect(SGLANG_RADIX_DEFAULTS.maxTreeSize / SGLANG_RADIX_DEFAULTS.charsPerToken).toBeGreaterThan(
      50 * hbmTokens,
    );
  });
});

describe('the prose on llm-d’s scheduler (the animated router’s defaults)', () => {
  it('its approximate window is shorter than the shared head, so it routes like least load; the precise scorer does not', async () => {
    expect(LLMD_APPROX_DEFAULTS.maxPrefixBlocks * LLMD_APPROX_DEFAULTS.blockTokens).toBeLessThan(
      LAB_SHARED_TOKENS,
    );
    const approx = await runPolicy('llm-d-approximate', FLEET, {}, 0);
    const precise = await runPolicy('llm-d-precise', FLEET, {}, 0);
    const least = await runPolicy('least-load', FLEET, {}, 0);
    const ca = await runPolicy('cache-aware', FLEET, {}, 0);
    // "about what least load gets"
    expect(Math.abs(approx.summary.hitRate - least.summary.hitRate)).toBeLessThan(0.05);
    expect(approx.summary.hitRate).toBeLessThan(ca.summary.hitRate - 0.3);
    // the precise scorer keeps sessions warm, and the tail with them
    expect(precise.summary.hitRate).toBeGreaterThan(approx.summary.hitRate + 0.3);
    expect(precise.summary.ttftP90).toBeLessThan(approx.summary.ttftP90 / 2);
    // "A longer window would let the approximate index see past the shared head"
    const s = labScenario('llm-d-approximate', FLEET);
    s.router = { kind: 'llm-d', view: { kind: 'llm-d-approximate', maxPrefixBlocks: 4096 } };
    const res = await runScenario(s, { includeRequests: true, includeSeries: false });
    const longer = summarizeRows(requestRows(res.requests!), FLEET.replicas);
    expect(longer.hitRate).toBeGreaterThan(approx.summary.hitRate + 0.2);
    // "such as today's default": llm-d Router since PR #1548 (approximateprefix/types.go and README) matches
    // 131,072 tokens in blocks of at least 64, and autoTune sizes the index from the pod's KV blocks.
    const today = labScenario('llm-d-approximate', FLEET);
    expect(LLMD_APPROX_CURRENT).toEqual({
      blockTokens: 64,
      maxPrefixBlocks: 131_072 / 64,
      lruCapacityPerServer: 'auto',
    });
    today.router = { kind: 'llm-d', view: { kind: 'llm-d-approximate', ...LLMD_APPROX_CURRENT } };
    const todayRes = await runScenario(today, { includeRequests: true, includeSeries: false });
    const todayRows = summarizeRows(requestRows(todayRes.requests!), FLEET.replicas);
    expect(todayRows.hitRate).toBeGreaterThan(approx.summary.hitRate + 0.2);
    // "Run that way (the index keyed by the prompt without its tool schemas) … between its figures above and the
    // precise scorer's": the same window, the schemas left out of what it hashes.
    const messages = await runPolicy('llm-d-approximate-messages', FLEET, {}, 0);
    expect(messages.summary.hitRate).toBeGreaterThan(approx.summary.hitRate);
    expect(messages.summary.hitRate).toBeLessThan(precise.summary.hitRate);
    expect(messages.summary.ttftP90).toBeLessThan(approx.summary.ttftP90);
    expect(messages.summary.ttftP90).toBeGreaterThan(precise.summary.ttftP90);
  });

  it('names the simulated index as the September 2025 benchmark’s, and today’s window beside it', () => {
    const says = (text: string) =>
      expect(prose).toMatch(new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')));
    says('as llm-d benchmarked it in September 2025 (Gateway API Inference Extension v1.0.0)');
    says("llm-d's approximate scorer as benchmarked in September 2025");
    says('131,072 tokens in blocks of at least 64 (`maxPrefixTokensToMatch`, pull request #1548');
    says(
      "`autoTune` takes only the block size and the index's capacity from the engines' metrics, never the window",
    );
    expect(prose).not.toMatch(/read both\s+from the engines' metrics/);
  });
});

describe('the animated router’s picture', () => {
  it('labels requests in flight above every mark, without overlapping labels: the newer keeps its label', async () => {
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { createElement } = await import('react');
    const { RouterPicture } = await import('../src/widgets/cache-router/RouterPicture');
    const { textWidth } = await import('../src/widgets/kit/charts/layout');
    const run = await runRouterAnimation({ ...FLEET, policy: 'round-robin', sessionsPerS: 3 });
    let labelled = 0;
    let crowded = 0;
    for (let t = 10; t < 40; t += 0.25) {
      const html = renderToStaticMarkup(createElement(RouterPicture, { r: run, t, follow: null }));
      const flights = [...html.matchAll(/class="router-flight" data-request="(\d+)"/g)];
      const labels = [
        ...html.matchAll(
          /<text x="([\d.-]+)" y="([\d.-]+)"[^>]*data-flight-label="\d+"[^>]*>([^<]*)<\/text>/g,
        ),
      ].map((m) => ({ x: Number(m[1]), y: Number(m[2]), label: m[3] }));
      if (flights.length > 1) crowded++;
      const boxes = labels.map((f) => ({
        x0: f.x - textWidth(f.label!, 14) / 2,
        x1: f.x + textWidth(f.label!, 14) / 2,
        y: f.y,
      }));
      labelled += boxes.length;
      // Labels are drawn after every mark in flight, so no mark hides one.
      if (labels.length)
        expect(html.indexOf('data-flight-label')).toBeGreaterThan(html.lastIndexOf('router-flight"'));
      for (let a = 0; a < boxes.length; a++)
        for (let b = a + 1; b < boxes.length; b++) {
          const apart =
            boxes[a].x1 <= boxes[b].x0 ||
            boxes[b].x1 <= boxes[a].x0 ||
            Math.abs(boxes[a].y - boxes[b].y) >= 16;
          expect(apart, `t = ${t}`).toBe(true);
        }
    }
    expect(crowded).toBeGreaterThan(10);
    expect(labelled).toBeGreaterThan(0);
  });
});

describe('the load threshold at 0: only the relative test is left (the prose and the Try this items)', () => {
  // The lab's cache-aware router as the widgets configure it, with the absolute threshold at 0.
  const router = createRouter(routerConfig('cache-aware', 0));
  const load = (outstandingRequests: number): ReplicaLoad => ({
    outstandingTokens: outstandingRequests * 1000,
    outstandingRequests,
    kvUsage: 0,
    waitingRequests: 0,
    kvInUse: 0,
  });
  // Replica 1 holds the whole 4-block prompt; the others nothing. A view that keeps no tenant order.
  const matched = Int32Array.from([0, 4, 0]);
  const view = { kind: 'exact', syncIntervalS: 0, match: () => matched, routed() {}, sync() {} };
  const route = (queues: number[]) =>
    router.route(
      {
        session: 1,
        request: 1,
        hashes: [1, 2, 3, 4],
        promptBlocks: 4,
        promptTokens: 4 * 256,
        blockSize: 256,
      },
      { now: 0, loads: queues.map(load), view, rng: null } as unknown as RouterEnv,
    );
  const rel = SGLANG_ROUTER_DEFAULTS.balanceRelThreshold;

  it('the lab keeps SGLang’s relative threshold whatever the slider sets', () => {
    expect(routerConfig('cache-aware', 0)).toMatchObject({
      balanceAbsThreshold: 0,
      balanceRelThreshold: rel,
    });
  });

  it('equal queues, or the longest within θ_rel of the shortest, still take the cache path', () => {
    expect(route([3, 3, 3])).toMatchObject({ replica: 1, reason: 'cache-hit' });
    const within = Math.floor(4 * rel);
    expect(within).toBeGreaterThan(4);
    expect(route([4, within, 4])).toMatchObject({ replica: 1, reason: 'cache-hit' });
  });

  it('past θ_rel times the shortest, or with any replica idle, the request goes to the least loaded', () => {
    expect(route([4, Math.floor(4 * rel) + 1, 4])).toMatchObject({ replica: 0, reason: 'cache-balance' });
    expect(route([0, 1, 1])).toMatchObject({ replica: 0, reason: 'cache-balance' });
  });
});
