/**
 * Overload as benchmarks see it: the clients' concurrency bound and timeout (fleet/clients.ts), the admission
 * bound (fleet/admission.ts), the per-request overhead (fleet/overhead.ts) and the shared-prefix workload
 * (fleet/sharedPrefix.ts).
 */
import { describe, expect, it } from 'vitest';
import { runScenarioSync } from '../src/sim/engine/fleet/run';
import { validateScenario } from '../src/sim/engine/fleet/scenario';
import {
  sharedPrefixPlan,
  sharedPrefixStages,
  StagePacer,
  type SharedPrefixWorkload,
} from '../src/sim/engine/fleet/sharedPrefix';
import { ClientGate } from '../src/sim/engine/fleet/clients';
import { stageFigures } from '../src/sim/engine/fleet/stageReport';
import { REQUEST_OVERHEAD_PRESETS } from '../src/sim/engine/fleet/overhead';
import { agentClass, c, overloaded, scenario } from './fleet-helpers';
import type { FleetSim } from '../src/sim/engine/fleet/engine';

describe('clients', () => {
  it('the gate passes a freed slot straight to the oldest waiting request', () => {
    const g = new ClientGate(2);
    expect([g.offer(1), g.offer(2), g.offer(3), g.offer(4)]).toEqual([true, true, false, false]);
    expect(g.release()).toBe(3);
    expect(g.release()).toBe(4);
    expect(g.inFlight).toBe(2);
    expect(g.release()).toBeUndefined();
    expect(g.inFlight).toBe(1);
    expect(g.maxQueued).toBe(2);
  });

  it('a concurrency bound moves the wait from the engine queue to the client and shortens TTFT', () => {
    const open = runScenarioSync(overloaded(), { includeRequests: true }).metrics;
    const bounded = runScenarioSync(overloaded({ clients: { maxInFlight: 8 } }), { includeRequests: true });
    const m = bounded.metrics;
    expect(m.requests.finished).toBe(open.requests.finished);
    expect(m.requests.clientWaitS.max).toBeGreaterThan(10);
    expect(open.requests.clientWaitS.max).toBe(0);
    // Latency counts from the send: the engine queue is short, so TTFT p90 falls far below the unbounded run's.
    expect(m.requests.ttft.p90).toBeLessThan(open.requests.ttft.p90 / 3);
    // Never more than 8 in flight: sends and ends interleave so that at most 8 overlap.
    const d = bounded.requests!.data;
    const events: [number, number][] = [];
    // Rounded to the nanosecond: a send and the end that freed its slot fall at the same instant.
    const ns = (x: number) => Math.round(x * 1e9);
    for (let i = 0; i < d.status.length; i++) {
      const sent = d.arrival[i] + d.clientWaitS[i];
      events.push([ns(sent), 1], [ns(sent + d.e2e[i]), -1]);
    }
    events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let inFlight = 0;
    let peak = 0;
    for (const [, k] of events) peak = Math.max(peak, (inFlight += k));
    expect(peak).toBe(8);
  });

  it('a timeout fails the requests it catches: counted, never silently dropped, never good', () => {
    const r = runScenarioSync(overloaded({ clients: { timeoutS: 15 }, slo: { ttftP90S: 15, tpotP90S: 5 } }), {
      includeRequests: true,
    });
    const m = r.metrics;
    expect(m.requests.timedOut).toBeGreaterThan(0);
    expect(m.requests.failed).toBe(m.requests.timedOut + m.requests.dropped + m.requests.rejected);
    expect(m.requests.finished + m.requests.failed + m.requests.unfinished).toBe(m.requests.created);
    expect(m.requests.unfinished).toBe(0);
    // Every finished request came back within the timeout; every timed-out one failed at it.
    expect(m.requests.e2e.max).toBeLessThanOrEqual(15 + 1e-9);
    const d = r.requests!.data;
    for (let i = 0; i < d.status.length; i++)
      if (d.status[i] === 3) expect(d.failedAfterS[i]).toBeCloseTo(15, 9);
    expect(m.fleet.goodput.shareOfEnded).toBeLessThan(m.fleet.goodput.share);
  });
});

describe('timeouts that never fire', () => {
  it('change nothing: the run ends with its last request, not its last deadline', () => {
    const light = overloaded({
      workload: { ...overloaded().workload, stages: [{ rate: 0.5, durationS: 20 }] } as SharedPrefixWorkload,
    });
    const a = runScenarioSync(light).metrics;
    const b = runScenarioSync({ ...light, clients: { timeoutS: 1000 } }).metrics;
    expect(b.requests.timedOut).toBe(0);
    expect(b.simulatedS).toBe(a.simulatedS);
    expect(b.fleet.outputTokensPerS).toBe(a.fleet.outputTokensPerS);
  });
});

describe('admission bound', () => {
  it('scheduler.maxWaiting rejects what a full queue cannot take; unbounded (vLLM) rejects nothing', () => {
    const open = runScenarioSync(overloaded()).metrics;
    expect(open.requests.rejected).toBe(0);
    const m = runScenarioSync(overloaded({ scheduler: { maxWaiting: 4 } })).metrics;
    expect(m.requests.rejected).toBeGreaterThan(0);
    expect(m.requests.finished + m.requests.rejected).toBe(m.requests.created);
    expect(m.requests.queueS.max).toBeLessThan(open.requests.queueS.max);
  });
});

describe('failures and held sessions', () => {
  it('a rejected or timed-out turn lets go of the KV its session held through the pause', () => {
    let sim: FleetSim | undefined;
    const m = runScenarioSync(
      scenario({
        durationS: 60,
        replicas: 2,
        policies: { toolPause: { kind: 'hold' } },
        scheduler: { maxWaiting: 1 },
        clients: { timeoutS: 4 },
        workload: {
          arrival: { kind: 'poisson', sessionsPerS: 3 },
          sessions: 150,
          classes: [agentClass({ turns: c(6), toolLatency: c(0.5), systemTokens: c(3000) })],
        },
      }),
      { afterEvent: (s) => (sim = s) },
    ).metrics;
    expect(m.requests.rejected + m.requests.timedOut).toBeGreaterThan(0);
    expect(m.sessions.dropped).toBeGreaterThan(0);
    expect(m.requests.unfinished).toBe(0);
    for (const r of sim!.replicas) expect(r.pauses.heldBlocks).toBe(0);
  });
});

describe('a timeout that fires mid-decode', () => {
  it('drops the request when its batch ends, frees its blocks, and the replica goes on', () => {
    let sim: FleetSim | undefined;
    let pendingAborts = 0; // events at which an aborted request was still in the running batch
    // Outputs of 4,000 tokens take seconds to decode, so a 2 s timeout catches requests while they are in the
    // running batch: they leave at the iteration's end (vLLM aborts between steps), not in the middle of it.
    const m = runScenarioSync(
      scenario({
        durationS: 20,
        clients: { timeoutS: 2 },
        workload: {
          arrival: { kind: 'poisson', sessionsPerS: 2 },
          sessions: 20,
          classes: [agentClass({ turns: c(2), outputTokens: c(4000), toolLatency: c(0.2) })],
        },
      }),
      {
        afterEvent: (s) => {
          sim = s;
          if (s.replicas[0].running.some((r) => r.abortWhy !== undefined)) pendingAborts++;
        },
      },
    ).metrics;
    expect(m.requests.timedOut).toBeGreaterThan(0);
    expect(m.requests.unfinished).toBe(0);
    expect(pendingAborts).toBeGreaterThan(0);
    const rep = sim!.replicas[0];
    expect(rep.running.length + rep.waiting.length).toBe(0);
    expect(rep.running.some((r) => r.abortWhy !== undefined)).toBe(false);
    expect(rep.cache.occupancy()[0].pinnedBlocks).toBe(0); // nothing left pinned by a dropped request
  });
});

describe('per-request overhead', () => {
  it('adds tokenisation per prompt token and the fixed hop to every TTFT, and leaves TPOT alone', () => {
    const light = scenario({
      workload: { ...overloaded().workload, stages: [{ rate: 0.5, durationS: 20 }] } as SharedPrefixWorkload,
    });
    const base = runScenarioSync(light).metrics;
    const fixed = runScenarioSync({ ...light, requestOverhead: { fixedS: 0.05, firstTokenS: 0.02 } }).metrics;
    expect(fixed.requests.ttft.mean - base.requests.ttft.mean).toBeCloseTo(0.07, 6);
    expect(fixed.requests.tpot.mean).toBeCloseTo(base.requests.tpot.mean, 9);
    const tok = runScenarioSync({ ...light, requestOverhead: 'vllm' }).metrics;
    // 4,000-token prompts at the preset's rate.
    const perToken = REQUEST_OVERHEAD_PRESETS.vllm.perPromptTokenS;
    expect(tok.requests.ttft.mean - base.requests.ttft.mean).toBeCloseTo(4000 * perToken, 6);
  });

  it('is rejected with a clear message when it is not a preset or seconds', () => {
    const errs = validateScenario({ ...scenario(), requestOverhead: 'fast' });
    expect(errs.map((e) => e.path)).toEqual(['requestOverhead']);
    expect(errs[0].message).toMatch(/unknown preset "fast"/);
    const errs2 = validateScenario({ ...scenario(), clients: { maxInFlight: 0, timeout: 3 } });
    expect(errs2.map((e) => e.path).sort()).toEqual(['clients.maxInFlight', 'clients.timeout']);
  });
});

describe('shared-prefix workload (inference-perf)', () => {
  const w: SharedPrefixWorkload = {
    kind: 'shared-prefix',
    groups: 3,
    promptsPerGroup: 2,
    systemTokens: 600,
    questionTokens: 100,
    outputTokens: 10,
    stages: [
      { rate: 5, durationS: 10 },
      { rate: 20, durationS: 10 },
    ],
  };

  it('is deterministic, draws int(rate × duration) requests a stage and restarts the prompt cycle each stage', () => {
    const plan = sharedPrefixPlan(w, 7);
    expect(sharedPrefixPlan(w, 7)).toEqual(plan);
    expect(sharedPrefixPlan(w, 8)).not.toEqual(plan);
    expect(plan.map((p) => p.offsets.length)).toEqual([50, 200]);
    for (const p of plan) {
      // Request n of a stage sends prompt n mod 6: six consecutive requests hold each prompt once.
      for (let i = 0; i + 6 <= p.prompts.length; i += 6)
        expect(new Set(p.prompts.slice(i, i + 6)).size).toBe(6);
      for (let i = 1; i < p.offsets.length; i++) expect(p.offsets[i]).toBeGreaterThan(p.offsets[i - 1]);
    }
    expect(Array.from(plan[1].prompts.slice(0, 6))).toEqual(Array.from(plan[0].prompts.slice(0, 6)));
    // About `rate` requests a second: the 200 of the 20-per-second stage take about 10 s.
    expect(plan[1].offsets[199]).toBeGreaterThan(7);
    expect(plan[1].offsets[199]).toBeLessThan(13);
  });

  it('starts a stage only when the previous one has drained, plus the interval', () => {
    const plan = sharedPrefixPlan(w, 7);
    const pacer = new StagePacer(plan, 1);
    expect(pacer.timeOf(0)).toBeCloseTo(1 + plan[0].offsets[0], 12);
    expect(pacer.timeOf(50)).toBeNull();
    for (let i = 0; i < 49; i++) expect(pacer.endedAt(i, 20)).toBeNull();
    const next = pacer.endedAt(49, 30)!;
    expect(next.index).toBe(50);
    expect(next.t).toBeCloseTo(30 + 1 + 1 + plan[1].offsets[0], 12);
  });

  it('replays through the fleet: the groups share their prefix in the cache, the per-stage report adds up', () => {
    // Pages of one engine block, so the prompts' last partial pages are matched too (docs/scenarios.md § Blocks).
    const s = scenario({ durationS: 21, workload: w, kv: { blockSize: 16, pageTokens: 16 } });
    const r = runScenarioSync(s, { includeRequests: true });
    expect(r.metrics.requests.finished).toBe(250);
    // The second stage's first send comes after the first stage's last end.
    const d = r.requests!.data;
    let lastEnd = 0;
    for (let i = 0; i < 50; i++) lastEnd = Math.max(lastEnd, d.arrival[i] + d.e2e[i]);
    expect(d.arrival[50]).toBeGreaterThan(lastEnd + 2);
    // After each prompt's first send, its whole prompt is cached (one replica, room for all of them).
    expect(r.metrics.tokens.reuseRatio).toBeGreaterThan(0.8);
    const figs = stageFigures(r.requests!, sharedPrefixStages(w, s.seed), 2);
    expect(figs[0].successes + figs[1].successes).toBe(r.metrics.requests.finished);
    expect(figs[1].outputTokensPerS).toBeGreaterThan(figs[0].outputTokensPerS);
    // The harness counts a share of the tokens (it re-tokenises the text): the throughput scales by it, and
    // nothing else in the report moves.
    const counted = stageFigures(r.requests!, sharedPrefixStages(w, s.seed), 2, 0.95);
    for (let k = 0; k < 2; k++) {
      expect(counted[k].outputTokensPerS).toBeCloseTo(0.95 * figs[k].outputTokensPerS, 9);
      expect({ ...counted[k], outputTokensPerS: 0 }).toEqual({ ...figs[k], outputTokensPerS: 0 });
    }
  });

  it('refuses a counted share of the output outside (0, 1], in the user’s words', () => {
    for (const bad of [0, 1.2, -0.5, '0.9']) {
      const errors = validateScenario(scenario({ workload: { ...w, countedOutputShare: bad as number } }));
      expect(errors).toContainEqual({
        path: 'workload.countedOutputShare',
        message: `must be a share in (0, 1] of the generated tokens (got ${JSON.stringify(bad)})`,
      });
    }
    expect(validateScenario(scenario({ workload: { ...w, countedOutputShare: 0.95 } }))).toEqual([]);
  });
});
