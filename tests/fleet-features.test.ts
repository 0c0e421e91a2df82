/** Features of the fleet simulator, each on a small deterministic case. */
import { describe, expect, it } from 'vitest';
import { resolveAccelerator, resolveModel } from '../src/sim/engine/catalog/index';
import { decodeStepTime, defaultHardware, prefillTime } from '../src/sim/engine/cost';
import { runScenarioSync } from '../src/sim/engine/fleet/run';
import { validateScenario, type Scenario, type ToolPausePolicy } from '../src/sim/engine/fleet/scenario';
import { afterHold } from '../src/sim/engine/fleet/toolPauses';
import { agentClass, c, chatClass, scenario } from './fleet-helpers';

const model = resolveModel('llama-3.1-8b');
const hw = defaultHardware(resolveAccelerator('h100-sxm'), 1);

function requests(sc: Scenario) {
  return runScenarioSync(sc, { includeRequests: true }).requests!.data;
}

describe('structured output', () => {
  const so = (capacity: number, sessions = 1, maskCostS = 0.001, extra: Record<string, number> = {}) =>
    scenario({
      policies: { structuredOutput: { compileTime: c(0.5), cacheCapacity: capacity, maskCostS, ...extra } },
      workload: {
        arrival: { kind: 'closed', concurrency: 1 },
        sessions,
        classes: [
          chatClass({
            systemTokens: c(900),
            userTokens: c(100),
            outputTokens: c(11),
            turns: c(1),
            structuredOutput: { prob: 1, schemas: 1 },
          }),
        ],
      },
    });

  it('the first use on a replica pays the compile time in TTFT; a mask shorter than the GPU step adds nothing', () => {
    const d = requests(so(4));
    expect(d.grammarWaitS[0]).toBe(0.5);
    expect(d.ttft[0]).toBeCloseTo(0.5 + prefillTime(model, hw, 1000, 0), 12);
    let steps = 0;
    for (let i = 0; i < 10; i++) steps += decodeStepTime(model, hw, 1, 1000 + i + 1);
    expect(decodeStepTime(model, hw, 1, 1001)).toBeGreaterThan(0.001);
    expect(d.tpot[0]).toBeCloseTo(steps / 10, 12);
  });

  it('a mask longer than the GPU step sets the step: only the part the step cannot hide adds', () => {
    const d = requests(so(4, 1, 0.02));
    expect(decodeStepTime(model, hw, 1, 1011)).toBeLessThan(0.02);
    expect(d.tpot[0]).toBeCloseTo(0.02, 12);
  });

  it("compiles queue for the replica's compile threads", () => {
    // 3 sessions at once, each its own schema, compile 0.5 s: one thread compiles them one after another.
    const three = (threads: number) =>
      scenario({
        policies: { structuredOutput: { compileTime: c(0.5), cacheCapacity: 8, cpuThreads: threads } },
        workload: {
          arrival: { kind: 'closed', concurrency: 3 },
          sessions: 3,
          classes: [
            chatClass({
              systemTokens: c(900),
              userTokens: c(100),
              outputTokens: c(4),
              turns: c(1),
              structuredOutput: { prob: 1, schemas: 1_000_000 },
            }),
          ],
        },
      });
    const waits = (threads: number) => [...requests(three(threads)).grammarWaitS].sort((a, b) => a - b);
    expect(waits(1)).toEqual([0.5, 1, 1.5]);
    expect(waits(8)).toEqual([0.5, 0.5, 0.5]);
  });

  it('later requests with the same schema find it compiled, unless the cache holds none', () => {
    const cached = runScenarioSync(so(4, 5)).metrics;
    expect(cached.replicas[0].grammar.compiles).toBe(1);
    expect(cached.replicas[0].grammar.hits).toBe(4);
    const none = runScenarioSync(so(0, 5)).metrics;
    expect(none.replicas[0].grammar.compiles).toBe(5);
    expect(none.requests.ttft.p50).toBeGreaterThan(0.5);
    expect(cached.requests.ttft.p50).toBeLessThan(0.5);
  });
});

describe('prompts that are not pure extensions miss exactly where they differ', () => {
  const run = (ne: NonNullable<Parameters<typeof agentClass>[0]>['nonExtension']) =>
    requests(
      scenario({
        workload: {
          arrival: { kind: 'poisson', sessionsPerS: 1 },
          sessions: 1,
          classes: [agentClass({ turns: c(3), nonExtension: ne })],
        },
      }),
    );

  it('a dynamic timestamp at the top defeats all reuse', () => {
    const d = run({ timestampTokens: 20 });
    for (let i = 0; i < 3; i++) expect(d.reusedHbm[i]).toBe(0);
  });

  it('a reordered tool block keeps only the system prompt before it', () => {
    const d = run({ reorderToolsProb: 1 });
    // system prompt 1,000 tokens = 62 full blocks of 16 (the 63rd mixes system and tool tokens)
    expect(d.reusedHbm[1]).toBe(992);
    expect(d.reusedHbm[2]).toBe(992);
  });

  it('a compaction keeps the head (system + tools) and misses from the summary on', () => {
    const d = run({ compaction: { thresholdTokens: 2000, summaryTokens: 50 } });
    // Turn 1: the context passed the threshold after turn 0, so it is head + summary.
    expect(d.promptTokens[1]).toBe(2050);
    expect(d.reusedHbm[1]).toBe(2000);
  });
});

describe('tool-pause policies', () => {
  const pause = (p: ToolPausePolicy, tool = 10) =>
    scenario({
      kv: { blockSize: 16, dram: { capacityGB: 1 } },
      policies: { toolPause: p },
      workload: {
        arrival: { kind: 'poisson', sessionsPerS: 1 },
        sessions: 1,
        classes: [agentClass({ turns: c(2), toolLatency: c(tool) })],
      },
    });
  const firstTurn = (d: Record<string, Float64Array>) =>
    Math.floor((d.promptTokens[0] + d.outputTokens[0] - 1) / 16) * 16;

  it('lru and hold keep the first turn in HBM; hold pins it meanwhile', () => {
    const lru = requests(pause({ kind: 'lru' }));
    expect(lru.reusedHbm[1]).toBe(firstTurn(lru));
    const res = runScenarioSync(pause({ kind: 'hold' }), { includeRequests: true });
    expect(res.requests!.data.reusedHbm[1]).toBe(firstTurn(res.requests!.data));
    // Held pages: the fleet tracks 256-token pages (kv.pageTokens) while reusing at 16-token blocks.
    expect(res.metrics.replicas[0].heldBlocks.max).toBe(
      Math.ceil((res.requests!.data.promptTokens[0] + 100) / 256),
    );
    expect(res.metrics.replicas[0].heldBlocks.mean).toBeGreaterThan(0);
  });

  it('evict recomputes everything on resume', () => {
    const d = requests(pause({ kind: 'evict' }));
    expect(d.reusedHbm[1] + d.reusedDram[1]).toBe(0);
    expect(d.prefilled[1]).toBe(d.promptTokens[1]);
  });

  it('offload reloads from DRAM over the link, and the load shows in TTFT', () => {
    const d = requests(pause({ kind: 'offload', tier: 'dram' }));
    expect(d.reusedDram[1]).toBe(firstTurn(d));
    expect(d.reusedHbm[1]).toBe(0);
    expect(d.loadS[1]).toBeGreaterThan(0);
    expect(d.bytesLoaded[1]).toBe((firstTurn(d) / 16) * 16 * 131072);
    const lru = requests(pause({ kind: 'lru' }));
    expect(d.ttft[1]).toBeGreaterThan(lru.ttft[1]);
  });

  it('write-through keeps the first turn in HBM like lru, with its full blocks copied to DRAM once', () => {
    const res = runScenarioSync(pause({ kind: 'write-through' }), { includeRequests: true });
    const d = res.requests!.data;
    expect(d.reusedHbm[1]).toBe(firstTurn(d));
    expect(d.reusedDram[1]).toBe(0);
    const link = res.metrics.bytesMoved['dram→hbm'];
    expect(link.up).toBe(0);
    // every full page computed in the run went down once (turn 2 re-sends turn 1: only its new pages); the cache
    // tracks 256-token pages (kv.pageTokens) while reuse is matched at 16-token blocks
    const page = 256 * 131072;
    const fullPages = Math.floor((d.promptTokens[1] + d.outputTokens[1]) / 256);
    expect(link.down).toBeGreaterThan(0);
    expect(link.down % page).toBe(0);
    expect(link.down).toBeLessThanOrEqual(fullPages * page);
    expect(link.down / page).toBeGreaterThanOrEqual(Math.floor(d.promptTokens[1] / 256) - 1);
    // lru writes nothing: DRAM is only filled by evictions, and there are none
    const lru = runScenarioSync(pause({ kind: 'lru' })).metrics.bytesMoved['dram→hbm'];
    expect(lru.down).toBe(0);
  });

  it('ttl holds until it expires, then applies its follow-up', () => {
    const short = requests(pause({ kind: 'ttl', ttlS: 1, then: 'evict' }, 10));
    expect(short.reusedHbm[1]).toBe(0);
    const long = requests(pause({ kind: 'ttl', ttlS: 20, then: 'evict' }, 10));
    expect(long.reusedHbm[1]).toBe(firstTurn(long));
    // Expired with offload as its follow-up, the context waits in DRAM and comes back over the link.
    const offloaded = requests(pause({ kind: 'ttl', ttlS: 1, then: 'offload', tier: 'dram' }, 10));
    expect(offloaded.reusedHbm[1]).toBe(0);
    expect(offloaded.reusedDram[1]).toBe(firstTurn(offloaded));
    expect(offloaded.loadS[1]).toBeGreaterThan(0);
  });

  it('what letting go of a held session does: the ttl follow-up, else leave it to LRU', () => {
    expect(afterHold({ kind: 'ttl', ttlS: 1, then: 'evict' })).toBe('drop');
    expect(afterHold({ kind: 'ttl', ttlS: 1, then: 'lru' })).toBe('cache');
    expect(afterHold({ kind: 'ttl', ttlS: 1, then: 'offload' })).toBe('dram');
    expect(afterHold({ kind: 'ttl', ttlS: 1, then: 'offload', tier: 'nvme' })).toBe('nvme');
    expect(afterHold({ kind: 'hold' })).toBe('cache');
  });

  it('offload to a shared pool lets another replica reuse the context', () => {
    const d = requests(
      scenario({
        replicas: 2,
        router: { kind: 'round-robin' },
        kv: { blockSize: 16, pool: { capacityGB: 1 } },
        policies: { toolPause: { kind: 'offload', tier: 'remote' } },
        workload: {
          arrival: { kind: 'poisson', sessionsPerS: 1 },
          sessions: 1,
          classes: [agentClass({ turns: c(2) })],
        },
      }),
    );
    expect(d.replica[1]).not.toBe(d.replica[0]);
    expect(d.reusedRemote[1]).toBe(Math.floor((d.promptTokens[0] + d.outputTokens[0] - 1) / 16) * 16);
  });
});

describe('the shared pool', () => {
  const run = (bandwidthGBps?: number) =>
    runScenarioSync(
      scenario({
        replicas: 2,
        router: { kind: 'round-robin' },
        kv: { blockSize: 16, pool: { capacityGB: 10, ...(bandwidthGBps ? { bandwidthGBps } : {}) } },
        policies: { toolPause: { kind: 'offload', tier: 'remote' } },
        workload: {
          arrival: { kind: 'poisson', sessionsPerS: 4 },
          sessions: 20,
          classes: [agentClass({ turns: c(3) })],
        },
      }),
      { includeRequests: true },
    );

  it('its own bandwidth, shared by every replica, slows reloads when it is the bottleneck', () => {
    const free = run();
    const slow = run(0.2);
    expect(free.metrics.tokens.reused.remote).toBeGreaterThan(0);
    expect(slow.metrics.tokens.reused.remote).toBeGreaterThan(0);
    expect(slow.metrics.requests.kvLoadS.mean).toBeGreaterThan(5 * free.metrics.requests.kvLoadS.mean);
    // A reload of b bytes takes at least b / 0.2 GB/s.
    const d = slow.requests!.data;
    for (let i = 0; i < d.loadS.length; i++)
      if (d.reusedRemote[i] > 0)
        expect(d.loadS[i]).toBeGreaterThanOrEqual((d.reusedRemote[i] * 131072) / 0.2e9 - 1e-12);
  });
});

describe('memory pressure', () => {
  it('swap preemption offloads to DRAM and reloads; recompute prefills again', () => {
    const base = (preemption: 'swap' | 'recompute') =>
      runScenarioSync(
        scenario({
          scheduler: { preemption },
          kv: { blockSize: 16, pageTokens: 16, hbmBlocks: 120, dram: { capacityGB: 1 } },
          workload: {
            arrival: { kind: 'poisson', sessionsPerS: 20 },
            sessions: 12,
            classes: [
              chatClass({ systemTokens: c(300), userTokens: c(50), outputTokens: c(400), turns: c(1) }),
            ],
          },
        }),
      ).metrics;
    const swap = base('swap');
    const rec = base('recompute');
    expect(swap.replicas[0].swaps).toBeGreaterThan(0);
    expect(swap.replicas[0].swaps).toBe(swap.replicas[0].preemptions);
    expect(rec.replicas[0].preemptions).toBeGreaterThan(0);
    expect(rec.replicas[0].swaps).toBe(0);
    expect(swap.tokens.reused.dram).toBeGreaterThan(0);
    expect(swap.requests.finished).toBe(12);
    expect(rec.requests.finished).toBe(12);
  });

  it('a prompt that can never fit in HBM is dropped and reported', () => {
    const m = runScenarioSync(
      scenario({
        kv: { blockSize: 16, pageTokens: 16, hbmBlocks: 50 },
        workload: {
          arrival: { kind: 'poisson', sessionsPerS: 1 },
          sessions: 2,
          classes: [chatClass({ systemTokens: c(5000), turns: c(1) })],
        },
      }),
    ).metrics;
    expect(m.requests.dropped).toBe(2);
    expect(m.requests.finished).toBe(0);
    expect(Object.keys(m.requests.dropReasons)[0]).toMatch(/HBM holds 50/);
  });
});

describe('arrivals', () => {
  it('closed loop keeps at most N sessions in flight and starts them all', () => {
    let maxLive = 0;
    const res = runScenarioSync(
      scenario({
        workload: {
          arrival: { kind: 'closed', concurrency: 3 },
          sessions: 10,
          classes: [agentClass({ turns: c(2) })],
        },
      }),
      {
        afterEvent: (sim) => {
          const live = sim.sessions.filter((s) => s && !s.done).length;
          maxLive = Math.max(maxLive, live);
        },
      },
    );
    expect(maxLive).toBe(3);
    expect(res.metrics.sessions.finished).toBe(10);
  });
});

describe('scenario validation', () => {
  it('names every problem by path', () => {
    const errs = validateScenario({
      seed: 1,
      durationS: 10,
      model: 'llama-3.1-8b',
      hardware: { accelerator: 'h100-sxm', mfu: 2, extra: 1 },
      replicas: 2,
      router: { kind: 'cache-aware', view: { kind: 'delayed' } },
      workload: {
        arrival: { kind: 'closed', concurrency: 0 },
        sessions: 5,
        classes: [{ kind: 'agent', name: 'a', toolLatency: 'teleport' }],
      },
      policies: { toolPause: { kind: 'ttl', ttlS: 5, then: 'offload', tier: 'remote' } },
    });
    const paths = errs.map((e) => e.path);
    expect(paths).toContain('hardware.mfu');
    expect(paths).toContain('hardware.extra');
    expect(paths).toContain('router.view.intervalS');
    expect(paths).toContain('workload.arrival.concurrency');
    expect(paths).toContain('workload.classes[0].toolLatency');
    expect(paths).toContain('workload.classes[0].turns');
    expect(paths).toContain('policies.toolPause.tier');
    expect(errs.find((e) => e.path === 'workload.classes[0].toolLatency')!.message).toMatch(
      /unknown preset "teleport"/,
    );
  });

  it('write-through needs a DRAM tier it may write through to', () => {
    const wt = { toolPause: { kind: 'write-through' } } as const;
    const noDram = validateScenario(scenario({ policies: wt }));
    expect(noDram.find((e) => e.path === 'policies.toolPause.kind')?.message).toMatch(/needs kv.dram/);
    const wrongWrite = validateScenario(
      scenario({ kv: { dram: { capacityGB: 1, write: 'none' } }, policies: wt }),
    );
    expect(wrongWrite.find((e) => e.path === 'policies.toolPause.kind')?.message).toMatch(/write-through/);
    expect(validateScenario(scenario({ kv: { dram: { capacityGB: 1 } }, policies: wt }))).toEqual([]);
    const badWrite = validateScenario(scenario({ kv: { dram: { capacityGB: 1, write: 'later' as never } } }));
    expect(badWrite.map((e) => e.path)).toContain('kv.dram.write');
  });

  it('accepts the test scenario', () => {
    expect(validateScenario(scenario())).toEqual([]);
  });
});

describe('the cache-aware router sees the caches through its view', () => {
  const run = (view: NonNullable<Scenario['router']['view']>) =>
    runScenarioSync(
      scenario({
        replicas: 3,
        router: { kind: 'cache-aware', view },
        workload: {
          arrival: { kind: 'poisson', sessionsPerS: 1 },
          sessions: 30,
          classes: [agentClass({ apps: 3 })],
        },
      }),
    ).metrics;

  it('exact and approximate views find the sessions’ prefixes', () => {
    for (const v of [{ kind: 'exact' } as const, { kind: 'approximate' } as const]) {
      const m = run(v);
      expect(m.routing['cache-hit']).toBeGreaterThan(60);
      expect(m.tokens.reuseRatio).toBeGreaterThan(0.6);
    }
  });

  it('a view that is never refreshed sees nothing, and routing falls back to free KV', () => {
    const stale = run({ kind: 'delayed', intervalS: 1e9 });
    expect(stale.routing['cache-hit'] ?? 0).toBe(0);
    expect(stale.routing['cache-miss']).toBe(stale.requests.created);
    const fresh = run({ kind: 'delayed', intervalS: 0.1 });
    expect(fresh.routing['cache-hit']).toBeGreaterThan(60);
    expect(fresh.tokens.reuseRatio).toBeGreaterThan(stale.tokens.reuseRatio);
  });
});

describe('router options', () => {
  const run = (router: Scenario['router']) =>
    runScenarioSync(
      scenario({
        replicas: 4,
        router,
        workload: {
          arrival: { kind: 'poisson', sessionsPerS: 3 },
          sessions: 40,
          classes: [agentClass({ apps: 2 })],
        },
      }),
    ).metrics;

  it('session affinity falls back to the least loaded replica when its replica is overloaded', () => {
    const loose = run({ kind: 'session-affinity' });
    expect(loose.routing['sticky-overflow'] ?? 0).toBe(0);
    const tight = run({ kind: 'session-affinity', overloadRatio: 1, overloadMinTokens: 0 });
    expect(tight.routing['sticky-overflow']).toBeGreaterThan(0);
    expect(tight.tokens.reuseRatio).toBeLessThan(loose.tokens.reuseRatio);
  });

  it('weighted cache-aware scoring routes by prefix, load and free KV', () => {
    const m = run({ kind: 'cache-aware', scoring: 'weighted' });
    expect(Object.keys(m.routing)).toEqual(['weighted-score']);
    const blind = run({ kind: 'cache-aware', scoring: 'weighted', prefixWeight: 0 });
    expect(m.tokens.reuseRatio).toBeGreaterThan(blind.tokens.reuseRatio);
  });
});
