/**
 * What stands between the clients and the engines, as llm-d's benchmark ran it: the gateway's concurrency limit
 * (fleet/gateway.ts), and the endpoint picker reading each pod's metrics from its last scrape, as the engine
 * reported them after its last step (Replica.reported, LlmdRouter.metricsRefreshS).
 */
import { describe, expect, it } from 'vitest';
import { runScenarioSync } from '../src/sim/engine/fleet/run';
import {
  resolveScenario,
  validateScenario,
  type MooncakeRecord,
  type Scenario,
} from '../src/sim/engine/fleet/scenario';
import { ENVOY_DEFAULT_MAX_REQUESTS, GatewayLimit } from '../src/sim/engine/fleet/gateway';
import type { FleetSim } from '../src/sim/engine/fleet/engine';
import { GAIE_REFRESH_METRICS_S, LlmdRouter } from '../src/sim/engine/fleet/llmd';
import { overloaded, scenario } from './fleet-helpers';

describe('the gateway’s concurrency limit', () => {
  it('counts what passes and refuses one more, without queueing it', () => {
    const g = new GatewayLimit(2);
    expect([g.admit(), g.admit(), g.admit()]).toEqual([true, true, false]);
    expect(g.rejected).toBe(1);
    g.leave();
    expect(g.admit()).toBe(true);
    expect(g.inFlight).toBe(2);
    const empty = new GatewayLimit(1);
    expect(() => empty.leave()).toThrow(/never passed/);
  });

  it('rejects the requests past it at once (counted, never good), where a client bound would make them wait', () => {
    const limited = runScenarioSync(overloaded({ gateway: { maxInFlight: 8 } }), { includeRequests: true });
    const waited = runScenarioSync(overloaded({ clients: { maxInFlight: 8 } }), { includeRequests: true });
    const m = limited.metrics.requests;
    expect(m.rejected).toBeGreaterThan(m.created / 2);
    expect(m.finished + m.failed + m.unfinished).toBe(m.created);
    expect(waited.metrics.requests.rejected).toBe(0);
    expect(waited.metrics.requests.finished).toBe(m.created);
    const d = limited.requests!.data;
    // A rejected request fails the instant it is sent; no more than 8 are ever through the gateway at once.
    const ns = (x: number) => Math.round(x * 1e9);
    const events: [number, number][] = [];
    for (let i = 0; i < d.status.length; i++) {
      if (d.status[i] === 4) {
        expect(d.failedAfterS[i]).toBe(0);
        continue;
      }
      expect(d.status[i]).toBe(1);
      events.push([ns(d.arrival[i]), 1], [ns(d.arrival[i] + d.e2e[i]), -1]);
    }
    events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let inFlight = 0;
    let peak = 0;
    for (const [, k] of events) peak = Math.max(peak, (inFlight += k));
    expect(peak).toBe(8);
    // The engine never queues much behind a gateway that lets 8 through: TTFT stays far below the waiting run's
    // engine queue would give it unbounded.
    expect(limited.metrics.requests.ttft.p90).toBeLessThan(
      runScenarioSync(overloaded()).metrics.requests.ttft.p90,
    );
  });

  it('takes a number or Envoy’s default, and names the field that is wrong', () => {
    expect(
      resolveScenario(overloaded({ gateway: { maxInFlight: 'envoy-default' } })).gatewayMaxInFlight,
    ).toBe(ENVOY_DEFAULT_MAX_REQUESTS);
    expect(ENVOY_DEFAULT_MAX_REQUESTS).toBe(1024);
    expect(resolveScenario(overloaded()).gatewayMaxInFlight).toBe(Infinity);
    for (const bad of [0, 1.5, 'nginx']) {
      const errs = validateScenario({ ...overloaded(), gateway: { maxInFlight: bad } });
      expect(errs.map((e) => e.path)).toEqual(['gateway.maxInFlight']);
      expect(errs[0].message).toMatch(/whole number ≥ 1 or one of "envoy-default"/);
    }
    const extra = validateScenario({ ...overloaded(), gateway: { maxRequests: 4 } });
    expect(extra.map((e) => e.message).join()).toMatch(/unknown field/);
  });
});

/** Requests of `tokens` prompt tokens at time t (s), each with its own blocks (512-token hash ids). */
function records(list: { t: number; tokens: number }[]): MooncakeRecord[] {
  let next = 1;
  return list.map(({ t, tokens }) => ({
    timestamp: t * 1000,
    input_length: tokens,
    output_length: 20,
    hash_ids: Array.from({ length: Math.ceil(tokens / 512) }, () => next++),
  }));
}

function traceScenario(recs: MooncakeRecord[], over: Partial<Scenario> = {}): Scenario {
  return scenario({
    durationS: 30,
    kv: { blockSize: 512 },
    workload: { kind: 'trace', format: 'mooncake', records: recs },
    ...over,
  });
}

describe('the metrics the endpoint picker scrapes', () => {
  it('count, as vLLM does, an admitted request that no step has scheduled yet as waiting', () => {
    // Three 7,000-token prompts at once under an 8,192-token budget: the first step prefills the first and starts
    // the second; the third has its pages but no chunk, so vLLM would still have it in `waiting`.
    const s = traceScenario(records([0, 0, 0].map((t) => ({ t, tokens: 7000 }))), {
      scheduler: { tokenBudget: 8192 },
      router: { kind: 'llm-d', scorers: [{ type: 'queue' }] },
    });
    let sim: FleetSim | undefined;
    const seen: { waiting: number; live: number; t: number }[] = [];
    runScenarioSync(s, {
      afterEvent: (x) => {
        sim = x;
        const r = x.replicas[0];
        const last = seen[seen.length - 1];
        if (!last || last.waiting !== r.reported.waiting || last.live !== r.waiting.length)
          seen.push({ waiting: r.reported.waiting, live: r.waiting.length, t: x.now });
      },
    });
    expect(sim).toBeDefined();
    // After the first step: one reported waiting while the replica's own queue is empty (all three admitted).
    const firstStep = seen.find((x) => x.t > 0)!;
    expect(firstStep).toEqual({ waiting: 1, live: 0, t: firstStep.t });
    expect(seen[seen.length - 1].waiting).toBe(0);
  });

  /** Where a burst of 12 requests at t = 1 s went under llm-d's queue scorer: requests per pod of `column`. */
  function burstSpread(metricsRefreshS: number, over: Partial<Scenario>, column: string): number[] {
    const burst = records(Array.from({ length: 12 }, () => ({ t: 1, tokens: 2000 })));
    const res = runScenarioSync(
      traceScenario(burst, {
        ...over,
        router: { kind: 'llm-d', scorers: [{ type: 'queue' }], tieBreak: 'order', metricsRefreshS },
      }),
      { includeRequests: true },
    );
    const per = [0, 0, 0, 0];
    for (const r of res.requests!.data[column]) per[r]++;
    return per;
  }

  it('are the same for every request routed between two scrapes: a burst herds onto one pod', () => {
    const run = (refresh: number) => burstSpread(refresh, { replicas: 4 }, 'replica');
    // Read live, each routed request is in its pod's queue before the next is scored: three each.
    expect(run(0)).toEqual([3, 3, 3, 3]);
    // Read from the last scrape (all pods idle then), every pod ties and the whole burst goes to the first.
    expect(run(0.05)).toEqual([12, 0, 0, 0]);
  });

  it('are what a disaggregated fleet’s prefill routing reads too', () => {
    const disagg: Partial<Scenario> = {
      replicas: 5,
      disaggregation: { prefillReplicas: 4, decodeReplicas: 1, localPrefillBelow: 0 },
    };
    const run = (refresh: number) => burstSpread(refresh, disagg, 'disagg.prefillReplica');
    expect(run(0)).toEqual([3, 3, 3, 3]);
    expect(run(0.05)).toEqual([12, 0, 0, 0]);
  });

  it('default to GAIE’s 50 ms scrape for llm-d’s router and are refused past a minute', () => {
    const errs = (x: number) =>
      validateScenario({ ...overloaded(), router: { kind: 'llm-d', metricsRefreshS: x } }).map((e) => e.path);
    expect(errs(-1)).toEqual(['router.metricsRefreshS']);
    expect(errs(61)).toEqual(['router.metricsRefreshS']);
    expect(errs(0)).toEqual([]);
    expect(new LlmdRouter({ kind: 'llm-d' }).metricsRefreshS).toBe(GAIE_REFRESH_METRICS_S);
    expect(GAIE_REFRESH_METRICS_S).toBe(0.05);
  });
});
