/** Closed-form checks of the fleet simulator against the cost model. */
import { describe, expect, it } from 'vitest';
import { resolveModel, resolveAccelerator } from '../src/sim/engine/catalog/index';
import { decodeStepTime, defaultHardware, prefillTime } from '../src/sim/engine/cost';
import { runScenarioSync } from '../src/sim/engine/fleet/run';
import { agentClass, c, chatClass, scenario } from './fleet-helpers';

const model = resolveModel('llama-3.1-8b');
const hw = defaultHardware(resolveAccelerator('h100-sxm'), 1);

function one(prompt: number, output: number, sched: Record<string, unknown> = {}) {
  const sc = scenario({
    scheduler: sched,
    workload: {
      arrival: { kind: 'poisson', sessionsPerS: 1 },
      sessions: 1,
      classes: [
        chatClass({
          systemTokens: c(prompt - 100),
          userTokens: c(100),
          outputTokens: c(output),
          turns: c(1),
        }),
      ],
    },
  });
  const r = runScenarioSync(sc, { includeRequests: true });
  return r.requests!.data;
}

describe('one request alone', () => {
  it('TTFT equals the cost model prefill time (no chunking)', () => {
    const d = one(3000, 50, { chunkedPrefill: false });
    expect(d.ttft.length).toBe(1);
    expect(d.ttft[0]).toBeCloseTo(prefillTime(model, hw, 3000, 0), 12);
    expect(d.prefilled[0]).toBe(3000);
    expect(d.queueS[0]).toBe(0);
  });

  it('TTFT with chunked prefill is the sum of the chunks, each on top of the previous ones (100k tokens)', () => {
    const d = one(100_000, 20, { chunkedPrefill: 2048, tokenBudget: 2048 });
    let expected = 0;
    for (let done = 0; done < 100_000; done += 2048)
      expected += prefillTime(model, hw, Math.min(2048, 100_000 - done), done);
    expect(d.ttft[0]).toBeCloseTo(expected, 9);
    // …and more than one unchunked prefill: every chunk streams the weights again.
    expect(d.ttft[0]).toBeGreaterThan(prefillTime(model, hw, 100_000, 0));
  });

  it('TPOT equals the decode step time at the mean context', () => {
    const out = 101;
    const d = one(2000, out);
    // Step i (i = 0 … 99) attends the 2000-token prompt and the i + 1 tokens generated before it.
    let total = 0;
    for (let i = 0; i < out - 1; i++) total += decodeStepTime(model, hw, 1, 2000 + i + 1);
    expect(d.tpot[0]).toBeCloseTo(total / (out - 1), 12);
    expect(d.e2e[0]).toBeCloseTo(d.ttft[0] + total, 12);
  });
});

describe('prefix reuse', () => {
  it('a two-turn session with session affinity reuses the whole first turn', () => {
    const bs = 16;
    const sc = scenario({
      replicas: 4,
      router: { kind: 'session-affinity' },
      kv: { blockSize: bs },
      workload: {
        arrival: { kind: 'poisson', sessionsPerS: 1 },
        sessions: 1,
        classes: [agentClass({ turns: c(2) })],
      },
    });
    const d = runScenarioSync(sc, { includeRequests: true }).requests!.data;
    expect(d.turn.length).toBe(2);
    const p0 = d.promptTokens[0];
    const o0 = d.outputTokens[0];
    expect(d.replica[1]).toBe(d.replica[0]);
    // KV exists for the prompt and all but the last sampled token; full blocks are cached.
    const reusable = Math.floor((p0 + o0 - 1) / bs) * bs;
    expect(d.reusedHbm[1]).toBe(reusable);
    expect(d.prefilled[1]).toBe(d.promptTokens[1] - reusable);
    expect(d.reusedHbm[0]).toBe(0);
  });

  it('round-robin over N replicas without a shared pool: a later turn finds its own prefix about 1/N of the time', () => {
    const N = 4;
    const head = 1000 + 1000 + 200; // system + tools (shared) + task
    const sc = scenario({
      seed: 3,
      replicas: N,
      durationS: 10_000,
      router: { kind: 'round-robin' },
      workload: {
        arrival: { kind: 'poisson', sessionsPerS: 2 },
        sessions: 600,
        classes: [agentClass({ turns: c(3), toolLatency: { kind: 'exponential', mean: 2 } })],
      },
    });
    const d = runScenarioSync(sc, { includeRequests: true }).requests!.data;
    // Turn 1 can only find its own prefix where turn 0 ran (a later turn has two chances, so look at turn 1).
    let later = 0;
    let own = 0;
    for (let i = 0; i < d.turn.length; i++) {
      if (d.turn[i] !== 1) continue;
      later++;
      if (d.reusedHbm[i] > head) own++;
    }
    expect(later).toBe(600);
    const share = own / later;
    expect(share).toBeGreaterThan(1 / N - 0.06);
    expect(share).toBeLessThan(1 / N + 0.06);
  });

  it('affinity finds the own prefix every time in the same setting', () => {
    const sc = scenario({
      seed: 3,
      replicas: 4,
      durationS: 10_000,
      router: { kind: 'session-affinity' },
      workload: {
        arrival: { kind: 'poisson', sessionsPerS: 2 },
        sessions: 200,
        classes: [agentClass({ turns: c(3) })],
      },
    });
    const d = runScenarioSync(sc, { includeRequests: true }).requests!.data;
    for (let i = 0; i < d.turn.length; i++) if (d.turn[i] > 0) expect(d.reusedHbm[i]).toBeGreaterThan(2200);
  });
});
