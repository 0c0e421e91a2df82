/**
 * Lesson 07.10, "Or take the prefill elsewhere: disaggregation": the comparison of chunked and disaggregated
 * prefill (src/sim/lessons/longPrefillDisagg.ts) pinned to hand-computed values, and every claim the section makes
 * about its figures, at the lesson's setup (DISAGG_REQUEST), and about the fleet scenario it quotes.
 */
import { describe, expect, it } from 'vitest';
import { resolveAccelerator, resolveLink, resolveModel } from '../src/sim/engine/catalog/index';
import { kvBytesPerToken } from '../src/sim/engine/catalog/models';
import { DISAGG_DEFAULTS } from '../src/sim/engine/fleet/disagg';
import { defaultHardware } from '../src/sim/engine/cost';
import { disaggComparison, PREFILL_WORKER_BUDGET } from '../src/sim/lessons/longPrefillDisagg';
import { prefillTimeline } from '../src/sim/lessons/longPrefill';
import { methods } from '../src/worker/methods';
import { prefillDisagg } from '../src/worker/prefillDisaggMethods';
import { prefillScenarios } from '../src/worker/prefillScenarioMethods';
import { DISAGG_REQUEST, SETUP } from '../src/widgets/long-prefill/schema';
import { DISAGG_METRIC_KEYS, formatDisaggMetric } from '../src/widgets/long-prefill/disaggFigures';

const r = prefillDisagg(DISAGG_REQUEST);
const c512 = r.byChunk.find((x) => x.chunk === 512)!.result;
const c2048 = r.byChunk.find((x) => x.chunk === 2048)!.result;
const slow = r.slow;

describe('the comparison’s inputs', () => {
  it('keeps a prompt local under 1,000 uncached tokens, the threshold of Dynamo’s first router (the prose)', () => {
    expect(DISAGG_DEFAULTS.localPrefillBelow).toBe(1000);
  });
  it('is the lesson’s replica, its prose chunks, the simulator’s default link with one NIC per GPU', () => {
    expect(DISAGG_REQUEST).toMatchObject({ ...SETUP, chunks: [512, 2048] });
    expect(DISAGG_REQUEST.fast).toEqual({ linkId: 'rdma-400g-cx7', nics: 8 });
    expect(methods).toHaveProperty('prefillDisagg');
  });
  it('renders every figure without a gap', () => {
    for (const m of DISAGG_METRIC_KEYS)
      for (const chunk of [512, 2048, 'slow'] as const) {
        const v = formatDisaggMetric(m, r, chunk);
        expect(v).not.toBeNull();
        expect(v).not.toMatch(/NaN|undefined|Infinity|—/);
      }
  });
});

describe('the mechanism, by hand', () => {
  const model = resolveModel('llama-3.1-70b');
  const hw = defaultHardware(resolveAccelerator('h100-sxm'), 8);
  const link = resolveLink('rdma-400g-cx7');
  it('bytes = ⌈P / 16⌉ × 16 × 2·L·H_kv·d·2 (320 KiB a token for Llama 3.1 70B in BF16)', () => {
    expect(kvBytesPerToken(model, 'bf16')).toBe(2 * 80 * 8 * 128 * 2);
    expect(c512.disagg.blocks).toBe(6250);
    expect(c512.disagg.bytes).toBe(100_000 * 327_680);
  });
  it('after the prefill: bytes over eight NICs plus one latency; layer-wise: the last layer’s share', () => {
    const bw = 8 * link.effectiveBandwidth;
    expect(c512.disagg.bandwidth).toBe(bw);
    expect(c512.disagg.afterPrefillS).toBeCloseTo(c512.disagg.bytes / bw + link.latency, 12);
    expect(c512.disagg.layerwiseS).toBeCloseTo(c512.disagg.bytes / (80 * bw) + link.latency, 12);
  });
  it('the prefill replica runs the prompt alone in chunks of its budget', () => {
    const alone = prefillTimeline({
      model,
      hw,
      promptTokens: 100_000,
      decodes: 0,
      decodeContext: 0,
      chunk: PREFILL_WORKER_BUDGET,
      leadIterations: 0,
      tailIterations: 0,
    });
    expect(c512.disagg.prefillS).toBe(alone.ttftS);
    expect(c512.disagg.ttftAfterPrefillS).toBeCloseTo(
      alone.ttftS + c512.disagg.afterPrefillS + c512.disagg.firstStepS,
      12,
    );
  });
  it('pool sizing: capacity 1 / prefill, utilisation rate × prefill', () => {
    expect(c512.disagg.capacityPerS).toBeCloseTo(1 / c512.disagg.prefillS, 12);
    expect(c512.disagg.utilisationPerDecodeReplica).toBeCloseTo(c512.disagg.prefillS / 60, 12);
    expect(c512.disagg.decodeReplicasPerPrefill).toBe(Math.floor(60 / c512.disagg.prefillS));
  });
  it('each rank ships what it holds: Qwen3 235B-A22B’s 4 KV heads on 8 GPUs are two copies, twice one copy’s bytes', () => {
    const qwen = resolveModel('qwen3-235b-a22b');
    const hw8 = defaultHardware(resolveAccelerator('h100-sxm'), 8);
    const setup = {
      model: qwen,
      hw: hw8,
      promptTokens: 10_240,
      decodes: 1,
      decodeContext: 100,
      chunk: 512,
      linkId: 'rdma-400g-cx7',
      promptsPerS: 1,
    };
    const d = disaggComparison(setup).disagg;
    expect(d.bytes).toBe(10_240 * kvBytesPerToken(qwen, 'bf16') * 2);
  });
  it('refuses a rate it cannot use', () => {
    expect(() => disaggComparison({ ...setupOf(), promptsPerS: 0 })).toThrow(RangeError);
    function setupOf() {
      return {
        model,
        hw,
        promptTokens: 1000,
        decodes: 1,
        decodeContext: 100,
        chunk: 512,
        linkId: 'rdma-100g',
        promptsPerS: 1,
      };
    }
  });
});

describe('the prose’s claims', () => {
  it('"the wire takes … of the prefill": a small fraction over RDMA; streamed, far less is left', () => {
    expect(c512.disagg.wireS / c512.disagg.prefillS).toBeLessThan(0.05);
    expect(c512.disagg.layerwiseS).toBeLessThan(c512.disagg.afterPrefillS / 10);
  });
  it('the disaggregated TTFT is sooner than chunked at 512 (and at 2,048)', () => {
    expect(c512.disagg.ttftAfterPrefillS).toBeLessThan(c512.chunked.ttftS);
    expect(c2048.disagg.ttftAfterPrefillS).toBeLessThan(c2048.chunked.ttftS);
    // "every chunk also carried the 32 decodes and paid an iteration's fixed costs": more iterations chunked.
    expect(c512.chunked.iterations).toBeGreaterThan(Math.ceil(100_000 / PREFILL_WORKER_BUDGET));
  });
  it('the decodes’ longest gap is barely above their step; chunked they wait longer on average and at most', () => {
    expect(c512.disagg.gapMaxS).toBeGreaterThanOrEqual(c512.decodeStepS);
    expect(c512.disagg.gapMaxS).toBeLessThan(1.2 * c512.decodeStepS);
    expect(c512.chunked.gapMeanS).toBeGreaterThan(c512.decodeStepS);
    expect(c512.chunked.tpotInflation).toBeGreaterThan(2);
    expect(c512.chunked.gapMaxS).toBeGreaterThan(2 * c512.disagg.gapMaxS);
    expect(c512.chunked.lostPerStreamS).toBeGreaterThan(1);
    // With 2,048-token chunks the inflation is larger.
    expect(c2048.chunked.tpotInflation).toBeGreaterThan(c512.chunked.tpotInflation);
  });
  it('over TCP: still below chunked 512, but the transfer is visible; streamed it hides again', () => {
    expect(slow.disagg.ttftAfterPrefillS).toBeLessThan(slow.chunked.ttftS);
    expect(slow.disagg.wireS).toBeGreaterThan(5 * c512.disagg.wireS);
    expect(slow.disagg.wireS / slow.disagg.prefillS).toBeGreaterThan(0.05);
    expect(slow.disagg.ttftLayerwiseS).toBeLessThan(slow.disagg.ttftAfterPrefillS);
    expect(slow.disagg.layerwiseS).toBeLessThan(slow.disagg.wireS / 10);
  });
  it('the price: a prefill replica serving one decode replica is mostly idle; several fill it', () => {
    expect(c512.disagg.utilisationPerDecodeReplica).toBeLessThan(0.2);
    expect(c512.disagg.decodeReplicasPerPrefill).toBeGreaterThanOrEqual(5);
  });
});

describe('the fleet scenario (scenarios/prefill/100k-disaggregated.json)', () => {
  it('the decodes’ longest gap and chat TPOT fall below chunk-512’s, for twice the GPUs, the prefill one mostly idle', async () => {
    const res = await prefillScenarios({ ids: ['no-chunking', 'chunk-2048', 'chunk-512', 'disaggregated'] });
    const c = res.rows.find((x) => x.id === 'chunk-512')!;
    const d = res.rows.find((x) => x.id === 'disaggregated')!;
    expect(d.gap.max).toBeLessThan(c.gap.max);
    expect(d.chatTpotP90).toBeLessThan(c.chatTpotP90);
    expect(d.gpus).toBe(2 * c.gpus);
    expect(d.prefillUtilisation!).toBeGreaterThan(0);
    expect(d.prefillUtilisation!).toBeLessThan(0.2);
    // A document's KV over one 400 Gb/s NIC: 100,200 tokens × 128 KiB in about 0.3 s.
    expect(d.transferMaxS!).toBeGreaterThan(0.1);
    expect(d.transferMaxS!).toBeLessThan(1);
    expect(c.prefillUtilisation).toBeUndefined();
  }, 120_000);
});
