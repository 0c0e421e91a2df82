/** Disaggregated prefill in the fleet simulator (src/sim/engine/fleet/disagg.ts): units, then properties. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveLink, resolveModel as model } from '../src/sim/engine/catalog/index';
import { kvBytesPerToken } from '../src/sim/engine/catalog/models';
import { ROUTER_KINDS } from '../src/sim/engine/fleet/router';
import { runScenarioSync } from '../src/sim/engine/fleet/run';
import { validateScenario, type Scenario } from '../src/sim/engine/fleet/scenario';
import { DISAGG_DEFAULTS, type DisaggregationSpec } from '../src/sim/engine/fleet/disagg';
import { c, chatClass, scenario } from './fleet-helpers';

const KV_PER_TOKEN = kvBytesPerToken(model('llama-3.1-8b'), 'bf16');

/** One session of one request: a prompt of `prompt` tokens (all new) and `out` output tokens. */
function oneRequest(
  prompt: number,
  out: number,
  d: Partial<DisaggregationSpec> = {},
  over: Partial<Scenario> = {},
) {
  return scenario({
    replicas: 2,
    disaggregation: { prefillReplicas: 1, decodeReplicas: 1, ...d },
    kv: { blockSize: 16 },
    workload: {
      arrival: { kind: 'poisson', sessionsPerS: 1 },
      sessions: 1,
      classes: [
        chatClass({ systemTokens: c(prompt - 100), userTokens: c(100), outputTokens: c(out), turns: c(1) }),
      ],
    },
    ...over,
  });
}

function run(s: Scenario) {
  return runScenarioSync(s, { includeRequests: true, includeSeries: false });
}

describe('disaggregation: validation', () => {
  it('replicas must be the two pools together', () => {
    const errs = validateScenario(oneRequest(2000, 10, {}, { replicas: 3 }));
    expect(errs.map((e) => e.path)).toContain('replicas');
  });
  it('names an unknown mode and an unknown link', () => {
    const errs = validateScenario(
      oneRequest(2000, 10, { mode: 'sideways' as never, transfer: 'carrier-pigeon' }),
    );
    expect(errs.map((e) => e.path)).toEqual(
      expect.arrayContaining(['disaggregation.mode', 'disaggregation.transfer']),
    );
  });
  it('pools need at least one replica each', () => {
    const errs = validateScenario(oneRequest(2000, 10, { prefillReplicas: 0 }, { replicas: 1 }));
    expect(errs.map((e) => e.path)).toContain('disaggregation.prefillReplicas');
  });
});

describe('disaggregation: one long request', () => {
  const P = 20_000;
  const res = run(oneRequest(P, 50));
  const m = res.metrics;
  const d = res.requests!.data;
  const link = resolveLink(DISAGG_DEFAULTS.transfer);

  it('prefills on the prefill worker and decodes on the decode worker', () => {
    expect(m.disaggregation!.remotePrefills).toBe(1);
    expect(d['disagg.prefillReplica'][0]).toBe(0);
    expect(d.replica[0]).toBe(1);
    expect(m.replicas[0].tokensPrefilled).toBeGreaterThanOrEqual(P - 1);
    // The decode worker computes only the last prompt token and decodes every output token.
    expect(m.replicas[1].tokensPrefilled).toBe(1);
    expect(m.replicas[1].tokensDecoded).toBe(49);
    expect(m.replicas[0].tokensDecoded).toBe(0);
  });

  it('ships every prompt block: bytes = ⌈P / block⌉ × block × KV bytes per token', () => {
    const blocks = Math.ceil(P / 16);
    expect(d['disagg.transferBlocks'][0]).toBe(blocks);
    expect(d['disagg.transferBytes'][0]).toBe(blocks * 16 * KV_PER_TOKEN);
    expect(m.disaggregation!.transfer.bytes).toBe(blocks * 16 * KV_PER_TOKEN);
  });

  it('after-prefill: the transfer takes bytes / bandwidth + latency on an idle link', () => {
    const bytes = d['disagg.transferBytes'][0];
    // tp 1: one NIC.
    expect(d['disagg.transferS'][0]).toBeCloseTo(bytes / link.effectiveBandwidth + link.latency, 9);
  });

  it('TTFT is prefill queue + prefill + transfer + the decode worker’s first step', () => {
    const parts = d['disagg.prefillQueueS'][0] + d['disagg.prefillS'][0] + d['disagg.transferS'][0];
    const first = d.ttft[0] - parts;
    expect(first).toBeGreaterThan(0);
    // One 1-token iteration on an idle replica: well under the prefill.
    expect(first).toBeLessThan(d['disagg.prefillS'][0] / 10);
  });

  it('layerwise streaming hides the transfer behind the prefill, all but the last layer', () => {
    const lw = run(oneRequest(P, 50, { mode: 'layerwise' })).requests!.data;
    const bytes = lw['disagg.transferBytes'][0];
    const L = model('llama-3.1-8b').layers;
    expect(lw['disagg.transferS'][0]).toBeLessThan(d['disagg.transferS'][0]);
    expect(lw['disagg.transferS'][0]).toBeCloseTo(bytes / (L * link.effectiveBandwidth) + link.latency, 9);
    expect(lw.ttft[0]).toBeLessThan(d.ttft[0]);
  });

  it('a slower link makes the transfer, and TTFT, longer', () => {
    const slow = run(oneRequest(P, 50, { transfer: 'rdma-100g' })).requests!.data;
    expect(slow['disagg.transferS'][0]).toBeGreaterThan(d['disagg.transferS'][0]);
    expect(slow.ttft[0]).toBeGreaterThan(d.ttft[0]);
  });
});

describe('disaggregation: conditional (prefill locally when the uncached prompt is short)', () => {
  it('a prompt below localPrefillBelow prefills on its decode worker, with nothing transferred', () => {
    const res = run(oneRequest(800, 20));
    expect(res.metrics.disaggregation!.localPrefills).toBe(1);
    expect(res.metrics.disaggregation!.transfer.count).toBe(0);
    expect(res.metrics.replicas[0].iterations).toBe(0);
  });
  it('the same prompt with the threshold lowered goes to the prefill worker', () => {
    const res = run(oneRequest(800, 20, { localPrefillBelow: 500 }));
    expect(res.metrics.disaggregation!.remotePrefills).toBe(1);
  });
  it('later turns of a session, mostly cached on their decode worker, prefill there', () => {
    const res = run(
      scenario({
        replicas: 2,
        disaggregation: { prefillReplicas: 1, decodeReplicas: 1 },
        workload: {
          arrival: { kind: 'poisson', sessionsPerS: 1 },
          sessions: 1,
          classes: [
            chatClass({ systemTokens: c(5000), userTokens: c(100), outputTokens: c(50), turns: c(4) }),
          ],
        },
      }),
    );
    const rem = res.requests!.data['disagg.remote'];
    expect(Array.from(rem)).toEqual([1, 0, 0, 0]);
  });
});

describe('disaggregation: decodes never wait for someone else’s prefill', () => {
  // Chat decoding on the decode worker while 30,000-token documents arrive.
  const mixed = (disagg: boolean): Scenario =>
    scenario({
      durationS: 60,
      replicas: disagg ? 2 : 1,
      ...(disagg ? { disaggregation: { prefillReplicas: 1, decodeReplicas: 1 } } : {}),
      scheduler: { tokenBudget: 2048, chunkedPrefill: 512 },
      workload: {
        arrival: { kind: 'poisson', sessionsPerS: 1 },
        sessions: 60,
        classes: [
          chatClass({ name: 'chat', weight: 6, systemTokens: c(400), turns: c(2), thinkTime: c(2) }),
          chatClass({
            name: 'doc',
            weight: 1,
            apps: 4095,
            systemTokens: c(30_000),
            userTokens: c(100),
            outputTokens: c(50),
            turns: c(1),
          }),
        ],
      },
    });
  const agg = run(mixed(false)).metrics;
  const dis = run(mixed(true)).metrics;
  it('the longest decode gap is far shorter than under chunked prefill', () => {
    expect(dis.requests.interTokenGap.max).toBeLessThan(agg.requests.interTokenGap.max / 2);
  });
  it('chat TPOT is lower', () => {
    expect(dis.sessions.perClass[0].tpot.p90).toBeLessThan(agg.sessions.perClass[0].tpot.p90);
  });
  it('reports each pool’s utilisation', () => {
    const u = dis.disaggregation!.utilisation;
    expect(u.prefill).toBeGreaterThan(0);
    expect(u.decode).toBeGreaterThan(0);
    expect(u.prefill).toBeCloseTo(dis.replicas[0].utilisation, 6);
  });
});

// ───────────────────────────── properties ─────────────────────────────

const arb: fc.Arbitrary<Scenario> = fc
  .record({
    seed: fc.integer({ min: 0, max: 1_000_000 }),
    np: fc.integer({ min: 1, max: 3 }),
    nd: fc.integer({ min: 1, max: 3 }),
    router: fc.constantFrom(...ROUTER_KINDS),
    mode: fc.constantFrom<'after-prefill' | 'layerwise'>('after-prefill', 'layerwise'),
    transfer: fc.constantFrom('rdma-100g', 'rdma-400g-cx7', 'tcp-4x200g'),
    threshold: fc.constantFrom(0, 1000),
    sessions: fc.integer({ min: 1, max: 20 }),
    prompt: fc.integer({ min: 200, max: 6000 }),
    out: fc.integer({ min: 1, max: 80 }),
    chunk: fc.constantFrom<number | false>(false, 512),
    hbmBlocks: fc.integer({ min: 80, max: 400 }),
  })
  .map((p) =>
    scenario({
      seed: p.seed,
      durationS: 30,
      replicas: p.np + p.nd,
      disaggregation: {
        prefillReplicas: p.np,
        decodeReplicas: p.nd,
        mode: p.mode,
        transfer: p.transfer,
        localPrefillBelow: p.threshold,
      },
      router: { kind: p.router } as Scenario['router'],
      scheduler: { chunkedPrefill: p.chunk, tokenBudget: 4096, maxBatchSeqs: 16 },
      kv: { blockSize: 16, hbmBlocks: p.hbmBlocks },
      workload: {
        arrival: { kind: 'poisson', sessionsPerS: 2 },
        sessions: p.sessions,
        // Single-turn, each its own prompt (a 16-token system prompt, then the session's own text): no decode
        // worker holds any of its pages beforehand.
        classes: [
          chatClass({
            systemTokens: c(16),
            userTokens: c(p.prompt),
            outputTokens: c(p.out),
            turns: c(1),
          }),
        ],
      },
    }),
  );

describe('disaggregation: properties', () => {
  it('bytes = prompt blocks × bytes per block; no decode before its KV landed; time never goes back', () => {
    let shipped = 0;
    fc.assert(
      fc.property(arb, (s) => {
        let last = -Infinity;
        let backwards = false;
        const res = runScenarioSync(s, {
          includeRequests: true,
          includeSeries: false,
          afterEvent: (sim) => {
            if (sim.now < last) backwards = true;
            last = sim.now;
          },
        });
        expect(backwards).toBe(false);
        const m = res.metrics;
        const d = res.requests!.data;
        expect(m.requests.finished + m.requests.dropped + m.requests.unfinished).toBe(m.requests.created);
        expect(m.requests.stalled).toBe(false);
        let bytes = 0;
        for (let i = 0; i < d.status.length; i++) {
          if (d['disagg.remote'][i] !== 1 || d.status[i] !== 1) continue;
          const prompt = d.promptTokens[i];
          if (d.outputTokens[i] > 1) {
            expect(d['disagg.transferBlocks'][i]).toBe(Math.ceil(prompt / 16));
            expect(d['disagg.transferBytes'][i]).toBe(Math.ceil(prompt / 16) * 16 * KV_PER_TOKEN);
            bytes += d['disagg.transferBytes'][i];
            shipped++;
            // The first token comes from the decode worker, after the KV is in place.
            expect(d.arrival[i] + d.ttft[i]).toBeGreaterThanOrEqual(d['disagg.handoffAt'][i] - 1e-12);
            expect(d['disagg.transferS'][i]).toBeGreaterThan(0);
            expect(d.replica[i]).toBeGreaterThanOrEqual(s.disaggregation!.prefillReplicas);
          }
          expect(d['disagg.prefillReplica'][i]).toBeLessThan(s.disaggregation!.prefillReplicas);
        }
        // Every transfer counted once (dropped or unfinished requests may still have been shipped).
        expect(m.disaggregation!.transfer.bytes).toBeGreaterThanOrEqual(bytes);
        // Decode workers never prefill more than the last token of a shipped prompt.
        for (let r = 0; r < s.disaggregation!.prefillReplicas; r++)
          expect(m.replicas[r].tokensDecoded).toBe(0);
      }),
      { numRuns: 25 },
    );
    // The runs did exercise the transfer path.
    expect(shipped).toBeGreaterThan(25);
  });

  it('is deterministic', () => {
    const s = fc.sample(arb, { numRuns: 1, seed: 7 })[0];
    expect(run(s).metrics).toEqual(run(s).metrics);
  });
});
