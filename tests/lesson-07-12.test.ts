/**
 * Lesson 07.12 (agents per megawatt): the economics arithmetic pinned to hand computations, and the fleet runs
 * behind the widgets checked for the effects the lesson teaches.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { LLMD_DEFAULT_SCORERS } from '../src/sim/engine/fleet/llmd';
import { LLMD_APPROX_CURRENT, LLMD_APPROX_DEFAULTS } from '../src/sim/engine/fleet/routerDefaults';
import { PAUSE_SYSTEM_TOKENS, PAUSE_TOOL_TOKENS } from '../src/sim/lessons/pauseLabSetup';
import {
  agentsPerMW,
  agentsPerNode,
  facilityWattsPerNode,
  maxFeasible,
  nodesPerMW,
  replicasPerNode,
  sessionCost,
  sessionsPerHour,
} from '../src/sim/lessons/economics';
import {
  econRouter,
  econScenario,
  runEconPoint,
  searchCapacity,
  sweepConcurrency,
} from '../src/sim/lessons/economicsLab';
import { validateScenario } from '../src/sim/engine/fleet/scenario';
import { TOOL_LATENCY_PRESETS } from '../src/sim/engine/fleet/dist';
import { cdf, quantile } from '../src/sim/lessons/toolLatency';
import { findNode } from '../src/sim/engine/catalog/nodes';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { findModel, weightBytes } from '../src/sim/engine/catalog/models';
import { kvBudget, VLLM_GPU_MEMORY_UTILIZATION } from '../src/sim/engine/hbm';
import { ECON_MODEL, ECON_TP } from '../src/sim/lessons/economicsLabSetup';
import { directContext } from '../src/worker/job';
import { methods } from '../src/worker/methods';

const SLO = { ttftP90S: 2, tpotP90S: 0.1 };
/** The lesson's default sweep (DGX H100, TTL then offload, the coding mix), run once for every test that reads it. */
const SWEEP_ARGS = { policy: 'ttl-offload', tool: 'coding-mix', slo: SLO, seed: 1 } as const;
let h100Sweep: ReturnType<typeof sweepConcurrency> | undefined;
const sweepH100 = () => (h100Sweep ??= sweepConcurrency({ ...SWEEP_ARGS, node: 'dgx-h100' }));

describe('economics arithmetic', () => {
  it('SLOs first: the largest concurrency before the first failure', () => {
    const pts = [
      { concurrency: 8, ttftP90S: 0.6, tpotP90S: 0.03 },
      { concurrency: 2, ttftP90S: 0.5, tpotP90S: 0.02 },
      { concurrency: 12, ttftP90S: 2.5, tpotP90S: 0.04 }, // TTFT fails
      { concurrency: 16, ttftP90S: 1.9, tpotP90S: 0.05 }, // lucky, after a failure: ignored
    ];
    expect(maxFeasible(pts, SLO)).toBe(8);
    expect(maxFeasible(pts, { ttftP90S: 0.55, tpotP90S: 0.1 })).toBe(2);
    expect(maxFeasible(pts, { ttftP90S: 2, tpotP90S: 0.01 })).toBe(0); // TPOT fails everywhere
  });

  it('agents per node and per megawatt (DGX H100: 10.2 kW, PUE 1.3)', () => {
    expect(replicasPerNode(8, 2)).toBe(4);
    expect(replicasPerNode(8, 3)).toBe(2);
    expect(agentsPerNode(12, 8, 2)).toBe(48);
    expect(facilityWattsPerNode(10_200, 1.3)).toBeCloseTo(13_260, 6);
    // 1e6 / 13,260 = 75.414 nodes; × 48 = 3,619.9 agents
    expect(nodesPerMW(10_200, 1.3)).toBeCloseTo(75.4148, 3);
    expect(agentsPerMW(48, 10_200, 1.3)).toBeCloseTo(3619.91, 1);
    // DGX B200, 14.3 kW, PUE 1.0: 1e6/14,300 × 100 = 6,993.0
    expect(agentsPerMW(100, 14_300, 1)).toBeCloseTo(6993.01, 1);
    expect(() => facilityWattsPerNode(10_200, 0.9)).toThrow(RangeError);
  });

  it('the per-session cost model', () => {
    // 40 GPU-s at $2/GPU-h = $0.022222; 20% held, busy 0.017778 split 25% prefill
    const c = sessionCost({
      gpuSeconds: 40,
      gpuHourUSD: 2,
      nodePowerW: 10_200,
      gpusPerNode: 8,
      pue: 1.3,
      kwhUSD: 0.1,
      prefillShare: 0.25,
      heldShare: 0.2,
    });
    expect(c.computeUSD).toBeCloseTo(0.0222222, 6);
    expect(c.idleHeldUSD).toBeCloseTo(0.00444444, 7);
    expect(c.prefillUSD).toBeCloseTo(0.00444444, 7);
    expect(c.decodeUSD).toBeCloseTo(0.0133333, 6);
    // 40 s × 1,275 W × 1.3 = 66,300 J = 0.0184167 kWh; × $0.10 = $0.00184167
    expect(c.energyKWh).toBeCloseTo(0.0184167, 6);
    expect(c.energyUSD).toBeCloseTo(0.00184167, 7);
    expect(c.totalUSD).toBeCloseTo(0.0240639, 6);
    expect(c.prefillUSD + c.decodeUSD + c.idleHeldUSD).toBeCloseTo(c.computeUSD, 12);
    expect(sessionsPerHour(48, 240)).toBe(720);
  });
});

describe('the tools, as the lesson quotes them', () => {
  it('coding-agent pauses mostly end within the 2 s TTL, median under a second; web pauses mostly outlast it', () => {
    const coding = TOOL_LATENCY_PRESETS['coding-mix'];
    expect(cdf(coding, 2)).toBeGreaterThan(0.5);
    expect(quantile(coding, 0.5)).toBeLessThan(1);
    const web = TOOL_LATENCY_PRESETS.web;
    expect(1 - cdf(web, 2)).toBeGreaterThan(0.95);
    expect(quantile(web, 0.01)).toBeCloseTo(2, 6);
    expect(quantile(web, 0.99)).toBeCloseTo(30, 6);
  });
});

describe('fleet runs of the lab', () => {
  it('builds valid scenarios on the catalog nodes', () => {
    for (const node of ['dgx-h100', 'dgx-h200', 'dgx-b200'] as const) {
      const s = econScenario({
        node,
        concurrency: 4,
        scope: 'node',
        router: 'cache-aware',
        policy: 'ttl-offload',
        tool: 'coding-mix',
        slo: SLO,
        seed: 1,
      });
      expect(validateScenario(s)).toEqual([]);
      expect(s.replicas).toBe(findNode(node)!.gpuCount / 2);
    }
  });

  it('a tighter TTFT SLO admits fewer agents per replica; latency grows with load', async () => {
    const pts = await sweepH100();
    const loose = maxFeasible(pts, SLO);
    const tight = maxFeasible(pts, { ttftP90S: 0.7, tpotP90S: 0.1 });
    expect(loose).toBeGreaterThanOrEqual(8);
    expect(tight).toBeLessThan(loose);
    expect(pts[pts.length - 1].ttftP90S).toBeGreaterThan(pts[0].ttftP90S * 3);
    for (const p of pts) {
      expect(p.prefillShare).toBeGreaterThan(0);
      expect(p.prefillShare).toBeLessThan(1);
    }
  });

  it('cache-aware routing sustains more agents than round-robin; evicting idle KV prefills more', async () => {
    const base = { node: 'dgx-h100', tool: 'coding-mix', slo: SLO, seed: 1 } as const;
    const rr = await searchCapacity({ ...base, router: 'round-robin', policy: 'ttl-offload' });
    const ca = await searchCapacity({ ...base, router: 'cache-aware', policy: 'ttl-offload' });
    expect(ca.agentsPerReplica).toBeGreaterThan(rr.agentsPerReplica + 4);
    expect(ca.point.reuseRatio).toBeGreaterThan(rr.point.reuseRatio);
    const hold = await runEconPoint({
      ...base,
      router: 'cache-aware',
      policy: 'hold',
      concurrency: 4,
      scope: 'node',
    });
    const evict = await runEconPoint({
      ...base,
      router: 'cache-aware',
      policy: 'evict',
      concurrency: 4,
      scope: 'node',
    });
    expect(hold.heldShare).toBeGreaterThan(0);
    expect(evict.heldShare).toBe(0);
    expect(evict.prefillShare).toBeGreaterThan(hold.prefillShare);
    expect(evict.gpuSecondsPerSession).toBeGreaterThan(hold.gpuSecondsPerSession);
  });

  it('"another seed moves it by a few agents … enough to open or close a gap of two agents between two policies"', async () => {
    const at = (seed: number, policy: 'hold' | 'ttl-offload') =>
      searchCapacity({ node: 'dgx-h100', tool: 'shell', slo: SLO, seed, router: 'cache-aware', policy });
    const [h1, t1, h3, t3] = await Promise.all([
      at(1, 'hold'),
      at(1, 'ttl-offload'),
      at(3, 'hold'),
      at(3, 'ttl-offload'),
    ]);
    const moved = [h3.agentsPerReplica - h1.agentsPerReplica, t3.agentsPerReplica - t1.agentsPerReplica];
    expect(Math.max(...moved.map(Math.abs))).toBeGreaterThan(0); // a seed moves a count…
    expect(Math.max(...moved.map(Math.abs))).toBeLessThanOrEqual(4); // …by a few agents
    const gaps = [
      Math.abs(h1.agentsPerReplica - t1.agentsPerReplica),
      Math.abs(h3.agentsPerReplica - t3.agentsPerReplica),
    ];
    expect(Math.min(...gaps)).toBe(0); // level under one seed…
    expect(Math.max(...gaps)).toBe(2); // …two agents apart under the other
  });

  it('the cache-aware router is llm-d’s scheduler at its default weights with the precise prefix scorer; round-robin is not a rotation per session', () => {
    const r = econRouter('cache-aware');
    expect(r.kind).toBe('llm-d');
    const scorers = (r as { scorers: { type: string; weight: number }[] }).scorers;
    expect(scorers.map((x) => x.type).sort()).toEqual([
      'kv-cache-utilization',
      'precise-prefix-cache',
      'queue',
    ]);
    // "waiting queue and free KV weighted 2, the share of the prompt it holds 3": llm-d-router's defaults
    const w = Object.fromEntries(scorers.map((x) => [x.type, x.weight]));
    expect([w.queue, w['kv-cache-utilization'], w['precise-prefix-cache']]).toEqual([2, 2, 3]);
    expect(LLMD_DEFAULT_SCORERS.find((x) => x.type === 'prefix-cache')!.weight).toBe(3);
    const prose = readFileSync(new URL('../lessons/07-12-agents-per-megawatt.mdx', import.meta.url), 'utf8');
    expect(prose).toMatch(/weighted 2, the share of the prompt it holds 3/);
    expect(prose).not.toMatch(/when the rotation comes back/);
  });

  // "What the router knows" (lessons/07-12): llm-d's approximate index with today's window sustains what the precise
  // one does; with September 2025's, shorter than the agents' shared head, fewer than round-robin, replicas idle.
  it('what the router knows: today’s approximate window matches the precise index; 2025’s piles sessions up', async () => {
    const base = { node: 'dgx-h100', tool: 'coding-mix', slo: SLO, seed: 1, policy: 'ttl-offload' } as const;
    const precise = await searchCapacity({ ...base, router: 'cache-aware' });
    const rr = await searchCapacity({ ...base, router: 'round-robin' });
    const today = await searchCapacity({ ...base, router: 'llm-d-approximate' });
    const sept2025 = await searchCapacity({ ...base, router: 'llm-d-approximate-2025' });
    const windowTokens = (w: { maxPrefixBlocks: number; blockTokens: number }) =>
      w.maxPrefixBlocks * w.blockTokens;
    const head = PAUSE_SYSTEM_TOKENS + PAUSE_TOOL_TOKENS;
    // "a window that long reaches past the agents' shared head"; September 2025's stops inside it, and a
    // messages-only hash would start after the system prompt with room left for the session's own task.
    expect(windowTokens(LLMD_APPROX_CURRENT)).toBeGreaterThan(head);
    expect(windowTokens(LLMD_APPROX_DEFAULTS)).toBeLessThan(head);
    expect(windowTokens(LLMD_APPROX_DEFAULTS)).toBeGreaterThan(PAUSE_SYSTEM_TOKENS);
    // "sustains … agents per replica, as the precise index does, and reuses …, more than round-robin"
    expect(today.agentsPerReplica).toBe(precise.agentsPerReplica);
    expect(today.point.reuseRatio).toBeGreaterThan(rr.point.reuseRatio);
    // "At its capacity of … agents per replica, fewer than round-robin's, … of the node's … replicas never receive a turn"
    expect(sept2025.agentsPerReplica).toBeGreaterThan(0);
    expect(sept2025.agentsPerReplica).toBeLessThan(rr.agentsPerReplica);
    expect(sept2025.point.idleReplicas).toBeGreaterThanOrEqual(1);
    expect(sept2025.point.idleReplicas).toBeLessThan(sept2025.point.replicas);
    // The routers the grid does not compare are never idle for the same reason: precise and round-robin use every replica.
    expect(precise.point.idleReplicas).toBe(0);
    expect(rr.point.idleReplicas).toBe(0);
    // "… sends its schemas in the request's tools field … the same index then sustains … as the precise index does"
    const toolsField = await searchCapacity({ ...base, router: 'llm-d-approximate-2025-messages' });
    expect(toolsField.agentsPerReplica).toBe(precise.agentsPerReplica);
    expect(toolsField.point.idleReplicas).toBe(0);
    expect(econRouter('llm-d-approximate-2025-messages')).toMatchObject({
      view: { ...LLMD_APPROX_DEFAULTS, kind: 'llm-d-approximate', hashes: 'messages' },
    });
    // The prose's figures ask the worker for one cell each; the grid widget compares only its two routers.
    const req = { node: 'dgx-h100', tool: 'coding-mix', slo: SLO, seed: 1, policy: 'ttl-offload' } as const;
    const one = await methods.leverGrid(
      { ...req, router: 'llm-d-approximate-2025', cellOnly: true },
      directContext(),
    );
    expect(one.cells).toEqual([sept2025]);
    await expect(methods.leverGrid({ ...req, router: 'llm-d-approximate' }, directContext())).rejects.toThrow(
      /one cell at a time/,
    );
    await expect(
      methods.leverGrid({ ...req, router: 'nope' as 'round-robin', cellOnly: true }, directContext()),
    ).rejects.toThrow(/Unknown router/);
    // Each is what it says: llm-d's default weights over its own approximate view, the window the only difference.
    for (const id of ['llm-d-approximate', 'llm-d-approximate-2025'] as const) {
      const r = econRouter(id) as { kind: string; scorers?: unknown; view: { kind: string } };
      expect(r.kind).toBe('llm-d');
      expect(r.scorers).toBeUndefined(); // llm-d's defaults (LLMD_DEFAULT_SCORERS)
      expect(r.view.kind).toBe('llm-d-approximate');
    }
  });

  // The idle-KV lever's prose (lessons/07-12, "Idle-KV policy"): for each tool it names, writing through
  // sustains at least as many agents as holding or the TTL, and pins none of the KV budget.
  for (const tool of ['coding-mix', 'web', 'shell'] as const) {
    it(`idle-KV lever, ${tool}: write-through sustains at least hold's and the TTL's agents, pinning nothing`, async () => {
      const base = { node: 'dgx-h100', tool, slo: SLO, seed: 1, router: 'cache-aware' } as const;
      const hold = await searchCapacity({ ...base, policy: 'hold' });
      const ttl = await searchCapacity({ ...base, policy: 'ttl-offload' });
      const wt = await searchCapacity({ ...base, policy: 'write-through' });
      expect(wt.agentsPerReplica).toBeGreaterThanOrEqual(
        Math.max(hold.agentsPerReplica, ttl.agentsPerReplica),
      );
      expect(wt.agentsPerReplica).toBeGreaterThan(0);
      expect(wt.point.heldShare).toBe(0);
      if (tool === 'coding-mix') {
        expect(hold.point.heldShare).toBeGreaterThan(ttl.point.heldShare); // "hold pins … the TTL …"
        expect(ttl.point.heldShare).toBeGreaterThan(0);
      }
    });
  }

  it('worker methods stream the sweep and the grid', async () => {
    const frames: unknown[] = [];
    const r = await methods.sloSweep(
      { node: 'dgx-h100', policy: 'ttl-offload', tool: 'coding-mix', slo: SLO, seed: 1 },
      directContext((f) => frames.push(f)),
    );
    expect(frames.length).toBe(r.points.length);
    const cells: unknown[] = [];
    const g = await methods.leverGrid(
      {
        node: 'dgx-h100',
        tool: 'coding-mix',
        slo: SLO,
        seed: 1,
        router: 'cache-aware',
        policy: 'ttl-offload',
      },
      directContext((f) => cells.push(f)),
    );
    expect(cells.length).toBe(8);
    // The prose on the grid: round-robin's reuse is mostly the session's own older context, not the shared prompt
    // (evicting paused sessions leaves only the shared prompt, and that is under half of round-robin's reuse).
    const cell = (router: string, policy: string) =>
      g.cells.find((c) => c.router === router && c.policy === policy)!.point.reuseRatio;
    // The prose names both evict rows, round-robin's and the cache-aware router's.
    for (const sharedOnly of [cell('round-robin', 'evict'), cell('cache-aware', 'evict')]) {
      expect(sharedOnly).toBeGreaterThan(0);
      expect(sharedOnly).toBeLessThan(cell('round-robin', 'ttl-offload') / 2);
    }
    expect(cell('round-robin', 'ttl-offload')).toBeLessThan(cell('cache-aware', 'ttl-offload'));
    expect(g.cells.map((c) => `${c.router}|${c.policy}`)).toEqual([
      'round-robin|hold',
      'round-robin|ttl-offload',
      'round-robin|write-through',
      'round-robin|evict',
      'cache-aware|hold',
      'cache-aware|ttl-offload',
      'cache-aware|write-through',
      'cache-aware|evict',
    ]);
    // A figure of another tool asks for its cell only: the same cell the whole grid computes, and no other.
    const one = await methods.leverGrid(
      {
        node: 'dgx-h100',
        tool: 'coding-mix',
        slo: SLO,
        seed: 1,
        router: 'round-robin',
        policy: 'evict',
        cellOnly: true,
      },
      directContext(),
    );
    expect(one.cells).toEqual([g.cells.find((c) => c.router === 'round-robin' && c.policy === 'evict')]);
    await expect(
      methods.sloSweep(
        { node: 'nope' as 'dgx-h100', policy: 'hold', tool: 'coding-mix', slo: SLO, seed: 1 },
        directContext(),
      ),
    ).rejects.toThrow(/Unknown node/);
  });
});

// "From a replica to a megawatt" and "The SLOs first": the prose's comparisons, at the SLO sweep's defaults.
describe('the prose’s node comparisons and the wall', () => {
  it('a DGX H200 draws what a DGX H100 does, its replica’s KV budget more than doubles, and it sustains more agents', async () => {
    const h100 = findNode('dgx-h100')!;
    const h200 = findNode('dgx-h200')!;
    expect(h200.powerW).toBe(h100.powerW);
    const budget = (n: typeof h100) =>
      kvBudget({
        accelerator: findAccelerator(n.accelerator)!,
        gpus: ECON_TP,
        memoryUtilization: VLLM_GPU_MEMORY_UTILIZATION,
        weightBytes: weightBytes(findModel(ECON_MODEL)!, 'bf16'),
      }).kvBytes;
    expect(budget(h200)).toBeGreaterThan(2 * budget(h100));
    const a = maxFeasible(await sweepH100(), SLO);
    const b = maxFeasible(await sweepConcurrency({ ...SWEEP_ARGS, node: 'dgx-h200' }), SLO);
    expect(b).toBeGreaterThan(a);
  }, 120_000);

  it('past the wall TTFT fails while TPOT still holds; output tokens per GPU below llm-d’s 8,730 / 16', async () => {
    const pts = await sweepH100();
    const n = maxFeasible(pts, SLO);
    const past = pts.find((p) => p.concurrency > n)!;
    expect(past.ttftP90S).toBeGreaterThan(SLO.ttftP90S);
    expect(past.tpotP90S).toBeLessThanOrEqual(SLO.tpotP90S);
    const at = pts.find((p) => p.concurrency === n)!;
    expect(at.outputTokensPerS / ECON_TP).toBeLessThan(8730 / 16);
  }, 60_000);
});

describe('the idle-KV lever’s evict row', () => {
  it('evicting paused sessions’ KV with the cache-aware router meets the SLOs at no concurrency (the prose)', async () => {
    const c = await searchCapacity({
      node: 'dgx-h100',
      tool: 'coding-mix',
      slo: SLO,
      seed: 1,
      router: 'cache-aware',
      policy: 'evict',
    });
    expect(c.agentsPerReplica).toBe(0);
  }, 120_000);
});
