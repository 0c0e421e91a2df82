/** Property tests of the fleet simulator over random small scenarios (fast-check). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FleetSim } from '../src/sim/engine/fleet/engine';
import { EVENT_PRIORITY, EventQueue, PERIODIC_KINDS, type EventKind } from '../src/sim/engine/fleet/events';
import { frameToJson } from '../src/sim/engine/fleet/frames';
import { ROUTER_KINDS } from '../src/sim/engine/fleet/router';
import { runScenario, runScenarioSync } from '../src/sim/engine/fleet/run';
import type { Scenario, ToolPausePolicy } from '../src/sim/engine/fleet/scenario';
import { agentClass, c, chatClass, scenario } from './fleet-helpers';

const pauses: ToolPausePolicy[] = [
  { kind: 'lru' },
  { kind: 'hold' },
  { kind: 'evict' },
  { kind: 'offload', tier: 'dram' },
  { kind: 'offload', tier: 'remote' },
  { kind: 'ttl', ttlS: 0.5, then: 'offload', tier: 'dram' },
  { kind: 'ttl', ttlS: 0.5, then: 'evict' },
  { kind: 'write-through' },
];

const arbScenario: fc.Arbitrary<Scenario> = fc
  .record({
    seed: fc.integer({ min: 0, max: 1_000_000 }),
    replicas: fc.integer({ min: 1, max: 4 }),
    router: fc.constantFrom(...ROUTER_KINDS),
    view: fc.constantFrom('exact', 'delayed', 'approximate'),
    pause: fc.constantFrom(...pauses),
    chunk: fc.constantFrom<number | false>(false, 64, 512),
    budget: fc.constantFrom(256, 1024, 4096),
    hbmBlocks: fc.integer({ min: 60, max: 400 }),
    preemption: fc.constantFrom<'recompute' | 'swap'>('recompute', 'swap'),
    sessions: fc.integer({ min: 1, max: 25 }),
    closed: fc.boolean(),
    turns: fc.integer({ min: 1, max: 6 }),
    out: fc.integer({ min: 1, max: 120 }),
    result: fc.integer({ min: 10, max: 600 }),
    structured: fc.boolean(),
    compaction: fc.boolean(),
    dramWrite: fc.constantFrom<'write-back' | 'write-through' | 'none'>(
      'write-back',
      'write-through',
      'none',
    ),
  })
  .map((p) =>
    scenario({
      seed: p.seed,
      replicas: p.replicas,
      durationS: 60,
      router: {
        kind: p.router,
        view: p.view === 'delayed' ? { kind: 'delayed', intervalS: 0.5 } : { kind: p.view },
      } as Scenario['router'],
      scheduler: {
        chunkedPrefill: p.chunk,
        tokenBudget: p.budget,
        maxBatchSeqs: 16,
        preemption: p.preemption,
      },
      kv: {
        blockSize: 16,
        hbmBlocks: p.hbmBlocks,
        // the write-through pause policy sets DRAM's write policy itself
        dram: { capacityGB: 0.05, ...(p.pause.kind === 'write-through' ? {} : { write: p.dramWrite }) },
        pool: { capacityGB: 0.1 },
      },
      policies: {
        toolPause: p.pause,
        structuredOutput: { compileTime: { kind: 'exponential', mean: 0.2 }, cacheCapacity: 2 },
      },
      workload: {
        arrival: p.closed ? { kind: 'closed', concurrency: 4 } : { kind: 'poisson', sessionsPerS: 2 },
        sessions: p.sessions,
        classes: [
          agentClass({
            weight: 2,
            apps: 2,
            systemTokens: c(300),
            toolSchemaTokens: c(200),
            taskTokens: { kind: 'uniform', min: 10, max: 200 },
            turns: c(p.turns),
            outputTokens: { kind: 'uniform', min: 1, max: p.out },
            toolResultTokens: { kind: 'uniform', min: 1, max: p.result },
            toolLatency: { kind: 'exponential', mean: 0.7 },
            structuredOutput: p.structured ? { prob: 0.5, schemas: 3 } : undefined,
            nonExtension: p.compaction
              ? { compaction: { thresholdTokens: 1500, summaryTokens: 100 }, reorderToolsProb: 0.2 }
              : undefined,
          }),
          chatClass({
            systemTokens: c(200),
            userTokens: { kind: 'uniform', min: 5, max: 100 },
            outputTokens: { kind: 'uniform', min: 1, max: p.out },
            turns: c(2),
            thinkTime: c(1),
          }),
        ],
      },
    }),
  );

function conserved(sim: FleetSim): string[] {
  const bad: string[] = [];
  for (const r of sim.replicas) {
    bad.push(...r.cache.checkInvariants().map((m) => `replica ${r.index}: ${m}`));
    bad.push(...r.pauses.checkInvariants().map((m) => `replica ${r.index}: ${m}`));
    if (r.outstandingTokens < 0) bad.push(`replica ${r.index}: negative outstanding tokens`);
  }
  if (sim.pool) bad.push(...sim.pool.checkInvariants());
  return bad;
}

describe('fleet properties', () => {
  it('time never runs backwards, KV accounting is conserved, every request finishes or is dropped', () => {
    fc.assert(
      fc.property(arbScenario, (sc) => {
        let last = -Infinity;
        let n = 0;
        let final: FleetSim | null = null;
        const res = runScenarioSync(sc, {
          afterEvent: (sim) => {
            if (sim.now < last) throw new Error(`time ran backwards: ${sim.now} < ${last}`);
            last = sim.now;
            if (++n % 97 === 0) {
              const bad = conserved(sim);
              if (bad.length) throw new Error(bad.join('\n'));
            }
            final = sim;
          },
        });
        const m = res.metrics;
        expect(m.requests.finished + m.requests.dropped).toBe(m.requests.created);
        expect(m.requests.unfinished).toBe(0);
        expect(m.requests.stalled).toBe(false);
        expect(m.sessions.finished + m.sessions.dropped).toBe(m.sessions.started);
        const sim = final as unknown as FleetSim;
        expect(conserved(sim)).toEqual([]);
        for (const r of sim.replicas) {
          expect(r.outstandingRequests).toBe(0);
          expect(r.outstandingTokens).toBe(0);
          expect(r.waiting.length + r.running.length).toBe(0);
          // Nothing is pinned once every session has ended.
          expect(r.cache.occupancy()[0].pinnedBlocks).toBe(0);
        }
        // Bytes over each link are whole copies of a block (the caches check their own links per copy).
        const bpb = sim.caches[0].bytesPerBlock;
        for (const [name, v] of Object.entries(m.bytesMoved)) {
          expect(Number.isInteger(v.up / bpb), name).toBe(true);
          expect(Number.isInteger(v.down / bpb), name).toBe(true);
        }
        // Prompt tokens are either prefilled or reused (recompute after preemption adds prefill).
        const t = m.tokens;
        const reused = t.reused.hbm + t.reused.dram + t.reused.nvme + t.reused.remote;
        expect(t.prefilled + reused).toBeGreaterThanOrEqual(t.prompt - m.requests.dropped * 100_000);
      }),
      { numRuns: 40 },
    );
  });

  it('a seed replays byte-identically (metrics and frames)', async () => {
    await fc.assert(
      fc.asyncProperty(arbScenario, async (sc) => {
        sc.output = { frameIntervalS: 0.5 };
        const run = async () => {
          const frames: string[] = [];
          const r = await runScenario(sc, {
            onFrame: (f) => void frames.push(JSON.stringify(frameToJson(f))),
            checkpoint: async () => {},
            checkpointEvery: 50,
          });
          return JSON.stringify(r.metrics) + JSON.stringify(r.series) + frames.join('\n');
        };
        const a = await run();
        const b = await run();
        expect(a).toBe(b);
        // A different seed gives a different run (when there is randomness to draw).
      }),
      { numRuns: 15 },
    );
  });

  it('different seeds give different runs', () => {
    const sc = scenario({
      workload: {
        arrival: { kind: 'poisson', sessionsPerS: 2 },
        sessions: 20,
        classes: [agentClass({ toolLatency: 'shell' })],
      },
    });
    const a = JSON.stringify(runScenarioSync({ ...sc, seed: 1 }).metrics);
    const b = JSON.stringify(runScenarioSync({ ...sc, seed: 2 }).metrics);
    expect(a).not.toBe(b);
  });
});

describe('event queue', () => {
  it('pops by time, then kind priority, then push order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            t: fc.integer({ min: 0, max: 5 }),
            k: fc.constantFrom(...(Object.keys(EVENT_PRIORITY) as EventKind[])),
          }),
          { maxLength: 200 },
        ),
        (items) => {
          const q = new EventQueue();
          items.forEach((x, i) => q.push(x.t, x.k, i));
          const expected = items
            .map((x, i) => ({ ...x, i }))
            .sort((a, b) => a.t - b.t || EVENT_PRIORITY[a.k] - EVENT_PRIORITY[b.k] || a.i - b.i)
            .map((x) => x.i);
          const got: number[] = [];
          for (let e = q.pop(); e; e = q.pop()) got.push(e.a);
          expect(got).toEqual(expected);
        },
      ),
    );
  });

  it('keeps that order when pops and pushes interleave, through growth and reused slots', () => {
    const kinds = Object.keys(EVENT_PRIORITY) as EventKind[];
    fc.assert(
      fc.property(
        // Each step pushes `push` events at `dt` ahead of the current time (0: the same instant), then pops `pop`.
        fc.array(
          fc.record({
            push: fc.integer({ min: 0, max: 40 }),
            dt: fc.integer({ min: 0, max: 3 }),
            k: fc.integer({ min: 0, max: 1000 }),
            pop: fc.integer({ min: 0, max: 40 }),
          }),
          { maxLength: 60 },
        ),
        (steps) => {
          const q = new EventQueue();
          // The reference: every event pending, popped by a linear scan for the least in THE order.
          const pending: { t: number; pri: number; seq: number; kind: EventKind; b: number }[] = [];
          let seq = 0;
          let now = 0;
          for (const s of steps) {
            for (let j = 0; j < s.push; j++) {
              const kind = kinds[(s.k + j) % kinds.length];
              const t = now + ((s.dt + j) % 4);
              q.push(t, kind, seq, 3 * seq + 1);
              pending.push({ t, pri: EVENT_PRIORITY[kind], seq, kind, b: 3 * seq + 1 });
              seq++;
            }
            for (let j = 0; j < s.pop && pending.length > 0; j++) {
              let m = 0;
              for (let i = 1; i < pending.length; i++) {
                const x = pending[i];
                const y = pending[m];
                if (x.t < y.t || (x.t === y.t && (x.pri < y.pri || (x.pri === y.pri && x.seq < y.seq))))
                  m = i;
              }
              const want = pending.splice(m, 1)[0];
              const got = q.pop()!;
              expect([got.time, got.kind, got.a, got.b]).toEqual([want.t, want.kind, want.seq, want.b]);
              now = got.time;
              expect(q.now).toBe(now);
            }
            expect(q.size).toBe(pending.length);
            expect(q.live).toBe(pending.filter((x) => !PERIODIC_KINDS.includes(x.kind)).length);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses an event in the past', () => {
    const q = new EventQueue();
    q.push(5, 'end');
    q.pop();
    expect(() => q.push(4, 'frame')).toThrow(/before the current time/);
  });

  it('refuses a payload that is not a 32-bit integer, and hands back the extremes it keeps', () => {
    const q = new EventQueue();
    expect(() => q.push(1, 'turn-ready', 0.5)).toThrow(/32-bit integers/);
    expect(() => q.push(1, 'turn-ready', 0, 2 ** 31)).toThrow(/32-bit integers/);
    expect(() => q.push(1, 'turn-ready', NaN)).toThrow(/32-bit integers/);
    q.push(1, 'turn-ready', 2 ** 31 - 1, -(2 ** 31));
    const e = q.pop()!;
    expect([e.a, e.b]).toEqual([2 ** 31 - 1, -(2 ** 31)]);
  });
});
