import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { resolveAccelerator, resolveModel } from '../src/sim/engine/catalog/index';
import type { ModelSpec } from '../src/sim/engine/catalog/models';
import {
  decodeCost,
  decodeStepTime,
  defaultHardware,
  GPUS_PER_REPLICA,
  iterationCost,
  iterationTime,
  perTokenPrefillTime,
  prefillCost,
  prefillTime,
  type HardwareConfig,
} from '../src/sim/engine/cost';
import {
  attentionFlopsPerPair,
  bodyParams,
  kvReplication,
  prefillFlops,
  weightBytesTouched,
  weightSplit,
} from '../src/sim/engine/flopsAndBytes';
import { limitRefusal } from '../src/sim/engine/limits';

const llama70 = resolveModel('llama-3.1-70b');
const h100 = resolveAccelerator('h100-sxm');
const hw8: HardwareConfig = defaultHardware(h100, 8); // GEMM 0.64, attention 0.56, mbu 0.8, 2.5 ms, bf16

/*
 * Hand computation, Llama-3.1-70B (80 layers, hidden 8192, 64 heads, 8 KV heads, head_dim 128, vocab 128,256,
 * 70.6e9 params, untied embeddings) on 8 × H100 SXM (989 TFLOP/s BF16 dense, 3.35 TB/s, NVLink 4 at 380 GB/s
 * effective), GEMM efficiency 0.64, attention efficiency 0.56, mbu 0.8, 2.5 ms per iteration:
 *   V·D      = 128,256 × 8,192                    = 1,050,673,152
 *   body     = 70.6e9 − 2 × 1,050,673,152         = 68,498,653,696
 *   A        = 2 × 80 × 64 × (128 + 128)          = 2,621,440 FLOP per (query, key) pair
 *   G        = 8 × 989e12 × 0.64                  = 5.06368e15 FLOP/s (GEMMs)
 *   Ga       = 8 × 989e12 × 0.56                  = 4.43072e15 FLOP/s (attention)
 *   M        = 8 × 3.35e12 × 0.8                  = 21.44e12 B/s
 *   KV/token = 2 × 80 × 8 × 128 × 2               = 327,680 B
 *   all-reduce: 160 calls × (2·7/8 × n × 8,192 × 2 B / Bbus + λ), Bbus = 380e9 × (1 − 0.86/64) = 374.89375e9 B/s,
 *               λ = 16.7 µs + 14 × 1.5 µs = 37.7 µs
 */
const VD = 1_050_673_152;
const BODY = 68_498_653_696;
const A = 2_621_440;
const G = 5.06368e15;
const GA = 4.43072e15;
const M = 21.44e12;
const BBUS = 374.89375e9;
const AR_LATENCY = 37.7e-6;
const OVERHEAD = 2.5e-3;
/** All-reduce seconds of a pass of n tokens at TP8. */
const allReduce = (n: number) => 160 * ((1.75 * n * 16_384) / BBUS + AR_LATENCY);
const KV = 327_680;

describe('hand-computed figures, Llama-3.1-70B on 8 × H100', () => {
  it('derives body params and attention FLOPs per pair', () => {
    expect(bodyParams(llama70)).toBe(BODY);
    expect(attentionFlopsPerPair(llama70)).toBe(A);
    expect(kvReplication(llama70, 8)).toBe(1);
  });

  it('prefill of 10k tokens: FLOPs and time', () => {
    // linear 2 × 68,498,653,696 × 10,000 = 1,369,973,073,920,000
    // head   2 × 1,050,673,152           =         2,101,346,304
    // attn   2,621,440 × 10,000 × 10,001 / 2 = 131,085,107,200,000
    // total                               = 1,501,060,282,466,304 FLOP
    // time = 1,369,975,175,266,304 / G (0.27055 s) + 131,085,107,200,000 / Ga (0.02959 s)
    //      + all-reduce 160 × (1.75 × 10,000 × 16,384 B / Bbus + 37.7 µs) (0.12840 s) + 2.5 ms = 0.43104 s
    expect(prefillFlops(llama70, 10_000, 0)).toBe(1_501_060_282_466_304);
    const c = prefillCost(llama70, hw8, 10_000, 0);
    expect(c.bound).toBe('compute');
    expect(c.gemmTime).toBeCloseTo(1_369_975_175_266_304 / G, 12);
    expect(c.attentionTime).toBeCloseTo(131_085_107_200_000 / GA, 12);
    expect(c.allReduceTime).toBeCloseTo(allReduce(10_000), 12);
    expect(c.allReduceBytes).toBe(160 * 10_000 * 16_384);
    expect(c.overheadTime).toBe(OVERHEAD);
    expect(c.time).toBeCloseTo(0.43104, 4);
    // memory side: weights (70.6e9 − V·D) × 2 B + KV 10,000 × 327,680 B = 142,375,453,696 B → 6.64 ms
    expect(c.bytes).toBe((70.6e9 - VD) * 2 + 10_000 * KV);
    expect(c.memoryTime).toBeCloseTo(0.0066406, 6);
  });

  it('prefill of 8k tokens takes ~0.3 s (the brief’s sanity check)', () => {
    // (2·BODY·8192 + 2·VD) / G + A·8192·8193/2 / Ga + all-reduce + overhead = 0.2220 + 0.0199 + 0.1056 + 0.0025
    const t = prefillTime(llama70, hw8, 8192, 0);
    expect(t).toBeCloseTo(
      (2 * BODY * 8192 + 2 * VD) / G + (A * 8192 * 8193) / 2 / GA + allReduce(8192) + OVERHEAD,
      12,
    );
    expect(t).toBeGreaterThan(0.34);
    expect(t).toBeLessThan(0.36);
  });

  it('prefill on top of a cached prefix adds the n·c attention pairs', () => {
    // 1,000 new tokens after 9,000 cached: pairs = 1,000 × 9,000 + 1,000 × 1,001 / 2 = 9,500,500
    expect(prefillFlops(llama70, 1000, 9000)).toBe(2 * BODY * 1000 + 2 * VD + A * 9_500_500);
    // cached prefill is far cheaper than prefilling all 10k
    expect(prefillTime(llama70, hw8, 1000, 9000)).toBeLessThan(prefillTime(llama70, hw8, 10_000, 0) / 5);
  });

  it('decode step, batch 1: weights over bandwidth ≈ 6.5 ms, plus 160 latency-bound all-reduces and the overhead', () => {
    // (70.6e9 − V·D) × 2 B = 139,098,653,696 B (input embedding table is not streamed) + 1 token of KV
    // 139,098,981,376 B / 21.44e12 B/s = 6.4878 ms. (With the full 141.2 GB it would be 6.59 ms.)
    // + 160 × (1.75 × 16,384 B / Bbus + 37.7 µs) = 6.044 ms + 2.5 ms = 15.03 ms
    const c = decodeCost(llama70, hw8, 1, 1);
    expect(c.bound).toBe('memory');
    expect(c.bytes).toBe(139_098_653_696 + KV);
    expect(c.memoryTime).toBeCloseTo(139_098_981_376 / M, 12);
    expect(c.memoryTime * 1e3).toBeCloseTo(6.488, 3);
    expect(c.time).toBeCloseTo(139_098_981_376 / M + allReduce(1) + OVERHEAD, 12);
    expect(c.time * 1e3).toBeCloseTo(15.032, 3);
  });

  it('decode step, batch 32 at 8k context each', () => {
    // KV: 32 × 8,192 = 262,144 tokens × 327,680 B = 85,899,345,920 B; + weights 139,098,653,696 B
    //   = 224,997,999,616 B / 21.44e12 = 10.494 ms; + all-reduce of 32 tokens (6.43 ms) + 2.5 ms = 19.418 ms
    // FLOPs: 2 × (70.6e9 − V·D) × 32 + A × 262,144 = 4,451,156,918,272 + 687,194,767,360 = 5,138,351,685,632
    //   / G and / Ga ≈ 1.03 ms → memory-bound
    const c = decodeCost(llama70, hw8, 32, 32 * 8192);
    expect(c.bytes).toBe(224_997_999_616);
    expect(c.flops).toBe(5_138_351_685_632);
    expect(c.bound).toBe('memory');
    expect(c.memoryTime * 1e3).toBeCloseTo(10.494, 3);
    expect(decodeStepTime(llama70, hw8, 32, 32 * 8192)).toBeCloseTo(
      224_997_999_616 / M + allReduce(32) + OVERHEAD,
      12,
    );
    expect(decodeStepTime(llama70, hw8, 32, 32 * 8192) * 1e3).toBeCloseTo(19.418, 3);
  });

  it('perTokenPrefillTime at context 0 and 100k', () => {
    // 2 × BODY / G + A / Ga + all-reduce bandwidth per token 160 × 1.75 × 16,384 B / Bbus = 39.29 µs
    const arPerToken = (160 * 1.75 * 16_384) / BBUS;
    expect(perTokenPrefillTime(llama70, hw8, 0)).toBeCloseTo((2 * BODY) / G + A / GA + arPerToken, 15);
    expect(perTokenPrefillTime(llama70, hw8, 0) * 1e6).toBeCloseTo(39.29, 2);
    // at 100k context: + A × 100,000 / Ga = 59.2 µs more → 98.46 µs
    expect(perTokenPrefillTime(llama70, hw8, 100_000) * 1e6).toBeCloseTo(
      ((2 * BODY) / G + (A * 100_001) / GA + arPerToken) * 1e6,
      6,
    );
    expect(perTokenPrefillTime(llama70, hw8, 100_000) * 1e6).toBeCloseTo(98.46, 2);
  });
});

describe('roofline behaviour', () => {
  it('tensor parallelism divides compute by tp, but the all-reduce it adds keeps the speed-up below tp', () => {
    const c1 = prefillCost(llama70, defaultHardware(h100, 1), 16_000, 0);
    const c8 = prefillCost(llama70, hw8, 16_000, 0);
    expect(c1.computeTime / c8.computeTime).toBeCloseTo(8, 9);
    expect(c1.allReduceTime).toBe(0);
    expect(c8.allReduceTime).toBeCloseTo(allReduce(16_000), 12);
    // 8 GPUs prefill 16k tokens only ~5.7× faster than one
    expect(c1.time / c8.time).toBeGreaterThan(5.5);
    expect(c1.time / c8.time).toBeLessThan(6);
  });

  it('tp beyond a node all-reduces over the node’s NICs together, a little slower than NVLink: TP16 prefills faster', () => {
    const hw16 = defaultHardware(h100, 16);
    const c16 = prefillCost(llama70, hw16, 16_000, 0);
    const c8 = prefillCost(llama70, hw8, 16_000, 0);
    // 8 × ConnectX-7 (400 Gb/s × 0.87) = 348 GB/s together, against NVLink 4's 380 GB/s
    expect(c16.allReduceTime).toBeGreaterThan(c8.allReduceTime);
    expect(c16.allReduceTime).toBeLessThan(1.5 * c8.allReduceTime);
    expect(c16.time).toBeLessThan(c8.time);
  });

  it('a one-token prefill is memory-bound and equals a batch-1 decode of one token', () => {
    const c = prefillCost(llama70, hw8, 1, 0);
    expect(c.bound).toBe('memory');
    // both stream the same weights; prefill writes one KV token, decode reads one
    expect(c.time).toBeCloseTo(decodeStepTime(llama70, hw8, 1, 1), 12);
  });

  it('each efficiency scales its own term; FP8 compute speeds the GEMMs only', () => {
    const base = prefillCost(llama70, hw8, 10_000, 0);
    const halfGemm = prefillCost(llama70, { ...hw8, gemmEfficiency: 0.32 }, 10_000, 0);
    expect(halfGemm.gemmTime / base.gemmTime).toBeCloseTo(2, 9);
    expect(halfGemm.attentionTime).toBe(base.attentionTime);
    const halfAttn = prefillCost(llama70, { ...hw8, attentionEfficiency: 0.28 }, 10_000, 0);
    expect(halfAttn.attentionTime / base.attentionTime).toBeCloseTo(2, 9);
    expect(halfAttn.gemmTime).toBe(base.gemmTime);
    const fp8 = prefillCost(llama70, { ...hw8, computeDtype: 'fp8' }, 10_000, 0);
    expect(base.gemmTime / fp8.gemmTime).toBeCloseTo(1979 / 989, 9);
    expect(fp8.attentionTime).toBe(base.attentionTime);
    expect(fp8.allReduceTime).toBe(base.allReduceTime);
    // decode at batch 1 is memory-bound: the compute efficiencies do not matter, mbu and overhead do
    expect(
      decodeStepTime(llama70, { ...hw8, gemmEfficiency: 0.1, attentionEfficiency: 0.1 }, 1, 1),
    ).toBeCloseTo(decodeStepTime(llama70, hw8, 1, 1), 15);
    const d = decodeCost(llama70, hw8, 1, 1);
    expect(decodeCost(llama70, { ...hw8, mbu: 0.4 }, 1, 1).memoryTime / d.memoryTime).toBeCloseTo(2, 9);
    expect(decodeStepTime(llama70, { ...hw8, iterationOverheadS: 0 }, 1, 1)).toBeCloseTo(
      d.time - OVERHEAD,
      15,
    );
  });

  it('FP8 weights halve the decode weight stream; FP8 compute on A100 is refused', () => {
    const fp8w = decodeCost(llama70, { ...hw8, weightDtype: 'fp8' }, 1, 0);
    expect(fp8w.bytes).toBe((70.6e9 - VD) * 1);
    const a100 = defaultHardware(resolveAccelerator('a100-80gb'), 8);
    expect(() => prefillTime(llama70, { ...a100, computeDtype: 'fp8' }, 100, 0)).toThrow(/no FP8/);
  });

  it('rejects invalid inputs', () => {
    for (const tp of [0, 2.5, 65])
      expect(() => prefillTime(llama70, { ...hw8, tp }, 10, 0)).toThrow(limitRefusal(GPUS_PER_REPLICA, tp)!);
    expect(() => prefillTime(llama70, { ...hw8, gemmEfficiency: 1.5 }, 10, 0)).toThrow(/gemmEfficiency/);
    expect(() => prefillTime(llama70, { ...hw8, attentionEfficiency: 0 }, 10, 0)).toThrow(
      /attentionEfficiency/,
    );
    expect(() => prefillTime(llama70, { ...hw8, iterationOverheadS: -1 }, 10, 0)).toThrow(
      /iterationOverheadS/,
    );
    expect(() => prefillTime(llama70, hw8, -1, 0)).toThrow(/newTokens/);
    expect(() => decodeStepTime(llama70, hw8, 1, Number.NaN)).toThrow(/totalContextTokens/);
    expect(prefillTime(llama70, hw8, 0, 5000)).toBe(0);
    expect(decodeStepTime(llama70, hw8, 0, 0)).toBe(0);
  });
});

describe('MoE and MLA', () => {
  const qwen = resolveModel('qwen3-235b-a22b');
  const dsv3 = resolveModel('deepseek-v3');

  it('MoE weight split: expert size (235e9 − 22e9) / (128 − 8) = 1.775e9', () => {
    const VDq = 151_936 * 4096; // 622,329,856
    const s = weightSplit(qwen);
    expect(s.routed).toBeCloseTo(128 * 1.775e9, 0);
    expect(s.always).toBeCloseTo(22e9 - 8 * 1.775e9 - VDq, 0);
    expect(s.touchProbability).toBe(8 / 128);
  });

  it('one token touches exactly the active weights; a large batch touches them all', () => {
    const VDq = 151_936 * 4096;
    expect(weightBytesTouched(qwen, 'bf16', 1)).toBeCloseTo((22e9 - VDq) * 2, -2);
    expect(weightBytesTouched(qwen, 'bf16', 100_000)).toBeCloseTo((235e9 - VDq) * 2, -2);
    // batch 16: 1 − (120/128)^16 = 0.6440 of experts → between the two
    const frac = 1 - (120 / 128) ** 16;
    const s = weightSplit(qwen);
    expect(weightBytesTouched(qwen, 'bf16', 16)).toBeCloseTo((s.always + s.routed * frac) * 2, -2);
  });

  it('MoE without an expert count falls back to a fine-grained split that still gives active at one token', () => {
    const m: ModelSpec = resolveModel('llama-3.1-70b', { activeParams: 20e9 });
    expect(weightBytesTouched(m, 'bf16', 1)).toBeCloseTo((20e9 - VD) * 2, -2);
    expect(weightBytesTouched(m, 'bf16', 1e7)).toBeCloseTo((70.6e9 - VD) * 2, -2);
  });

  it('MLA: prefill uses qk/v head dims, decode the absorbed latent dims, and the latent is replicated under TP', () => {
    expect(attentionFlopsPerPair(dsv3, 'prefill')).toBe(2 * 61 * 128 * (192 + 128));
    expect(attentionFlopsPerPair(dsv3, 'decode')).toBe(2 * 61 * 128 * (512 + 64 + 512));
    expect(kvReplication(dsv3, 8)).toBe(8);
    // GQA with fewer KV heads than GPUs: Qwen3-235B has 4 KV heads → 2 copies on 8 GPUs
    expect(kvReplication(qwen, 8)).toBe(2);
    expect(kvReplication(llama70, 3)).toBeCloseTo((3 * 3) / 8, 12);
  });
});

describe('iterationTime (chunked prefill + decodes)', () => {
  it('property: the time-only paths give the breakdown time to the last bit (dense, MoE, MLA; TP 1 to 16)', () => {
    const models = ['llama-3.1-8b', 'llama-3.1-70b', 'qwen3-235b-a22b', 'deepseek-v3'].map((id) =>
      resolveModel(id),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: models.length - 1 }),
        fc.constantFrom(1, 2, 4, 8, 16),
        fc.array(
          fc.record({
            newTokens: fc.integer({ min: 0, max: 9000 }),
            cachedTokens: fc.integer({ min: 0, max: 200_000 }),
          }),
          { maxLength: 4 },
        ),
        fc.array(fc.integer({ min: 1, max: 200_000 }), { maxLength: 64 }),
        (m, tp, prefill, decodeContextTokens) => {
          const model = models[m];
          const hw = defaultHardware(h100, tp);
          const batch = { prefill, decodeContextTokens };
          const c = iterationCost(model, hw, batch);
          expect(iterationTime(model, hw, batch)).toBe(c.time);
          // and the time is the breakdown's own terms combined
          expect(c.time).toBe(
            Math.max(c.gemmTime + c.attentionTime, c.memoryTime) + c.allReduceTime + c.overheadTime,
          );
          const total = decodeContextTokens.reduce((a, b) => a + b, 0);
          const n = decodeContextTokens.length;
          expect(decodeStepTime(model, hw, n, total)).toBe(decodeCost(model, hw, n, total).time);
        },
      ),
    );
  });

  it('reduces to prefillTime and decodeStepTime', () => {
    expect(
      iterationTime(llama70, hw8, {
        prefill: [{ newTokens: 2048, cachedTokens: 4096 }],
        decodeContextTokens: [],
      }),
    ).toBeCloseTo(prefillTime(llama70, hw8, 2048, 4096), 15);
    const ctx = [1000, 5000, 12_000];
    expect(iterationTime(llama70, hw8, { prefill: [], decodeContextTokens: ctx })).toBeCloseTo(
      decodeStepTime(llama70, hw8, 3, 18_000),
      15,
    );
    expect(iterationTime(llama70, hw8, { prefill: [], decodeContextTokens: [] })).toBe(0);
  });

  it('a mixed batch streams the weights once: cheaper than running its parts separately', () => {
    const batch = {
      prefill: [{ newTokens: 512, cachedTokens: 0 }],
      decodeContextTokens: Array.from({ length: 32 }, () => 4096),
    };
    const mixed = iterationTime(llama70, hw8, batch);
    const apart = prefillTime(llama70, hw8, 512, 0) + decodeStepTime(llama70, hw8, 32, 32 * 4096);
    expect(mixed).toBeLessThan(apart);
    expect(mixed).toBeGreaterThanOrEqual(
      Math.max(prefillTime(llama70, hw8, 512, 0), decodeStepTime(llama70, hw8, 32, 32 * 4096)) - 1e-15,
    );
  });

  it('property: splitting a prefill into chunks never lowers total compute (attention pairs are conserved)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50_000 }), fc.integer({ min: 1, max: 50_000 }), (a, b) => {
        const whole = prefillFlops(llama70, a + b, 0);
        const chunks = prefillFlops(llama70, a, 0) + prefillFlops(llama70, b, a);
        // the split pays the one-off LM head twice, nothing else differs
        return Math.abs(chunks - whole - 2 * VD) <= 1e-9 * whole;
      }),
    );
  });
});

describe('properties', () => {
  it('prefill time grows with new tokens and with cached tokens; decode with batch and context', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('llama-3.1-8b', 'llama-3.1-70b', 'qwen3-32b', 'qwen3-235b-a22b', 'deepseek-v3'),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 1, max: 1000 }),
        (id, n, c, dn) => {
          const m = resolveModel(id);
          return (
            prefillTime(m, hw8, n + dn, c) >= prefillTime(m, hw8, n, c) &&
            prefillTime(m, hw8, n, c + dn) >= prefillTime(m, hw8, n, c) &&
            decodeStepTime(m, hw8, Math.ceil(n / 1000) + 1, c + n) >=
              decodeStepTime(m, hw8, Math.ceil(n / 1000), c + n) &&
            decodeStepTime(m, hw8, 8, c + dn) >= decodeStepTime(m, hw8, 8, c)
          );
        },
      ),
    );
  });

  it('Σ perTokenPrefillTime over positions 0..n−1 = compute + all-reduce bandwidth time of an n-token prefill less the LM head', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), (n) => {
        let sum = 0;
        for (let c = 0; c < n; c++) sum += perTokenPrefillTime(llama70, hw8, c);
        const p = prefillCost(llama70, hw8, n, 0);
        const compute = p.computeTime - (2 * VD) / G + p.allReduceTime - 160 * AR_LATENCY;
        return Math.abs(sum - compute) <= 1e-9 * compute;
      }),
      { numRuns: 30 },
    );
  });
});
