import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { resolveAccelerator, resolveModel } from '../src/sim/engine/catalog/index';
import type { ModelSpec } from '../src/sim/engine/catalog/models';
import {
  attentionFlopsPerPair,
  bodyParams,
  decodeCost,
  decodeStepTime,
  defaultHardware,
  iterationTime,
  kvReplication,
  perTokenPrefillTime,
  prefillCost,
  prefillFlops,
  prefillTime,
  weightBytesTouched,
  weightSplit,
  type HardwareConfig,
} from '../src/sim/engine/cost';

const llama70 = resolveModel('llama-3.1-70b');
const h100 = resolveAccelerator('h100-sxm');
const hw8: HardwareConfig = defaultHardware(h100, 8); // mfu 0.5, mbu 0.8, bf16 weights and KV

/*
 * Hand computation, Llama-3.1-70B (80 layers, hidden 8192, 64 heads, 8 KV heads, head_dim 128, vocab 128,256,
 * 70.6e9 params, untied embeddings) on 8 × H100 SXM (989 TFLOP/s BF16 dense, 3.35 TB/s), mfu 0.5, mbu 0.8:
 *   V·D      = 128,256 × 8,192                    = 1,050,673,152
 *   body     = 70.6e9 − 2 × 1,050,673,152         = 68,498,653,696
 *   A        = 2 × 80 × 64 × (128 + 128)          = 2,621,440 FLOP per (query, key) pair
 *   G        = 8 × 989e12 × 0.5                   = 3.956e15 FLOP/s
 *   M        = 8 × 3.35e12 × 0.8                  = 21.44e12 B/s
 *   KV/token = 2 × 80 × 8 × 128 × 2               = 327,680 B
 */
const VD = 1_050_673_152;
const BODY = 68_498_653_696;
const A = 2_621_440;
const G = 3.956e15;
const M = 21.44e12;
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
    // total                               = 1,501,060,282,466,304 FLOP → / 3.956e15 = 0.37944 s
    expect(prefillFlops(llama70, 10_000, 0)).toBe(1_501_060_282_466_304);
    const c = prefillCost(llama70, hw8, 10_000, 0);
    expect(c.bound).toBe('compute');
    expect(c.time).toBeCloseTo(1_501_060_282_466_304 / G, 12);
    expect(c.time).toBeCloseTo(0.37944, 4);
    // memory side: weights (70.6e9 − V·D) × 2 B + KV 10,000 × 327,680 B = 142,375,453,696 B → 6.64 ms
    expect(c.bytes).toBe((70.6e9 - VD) * 2 + 10_000 * KV);
    expect(c.memoryTime).toBeCloseTo(0.0066406, 6);
  });

  it('prefill of 8k tokens takes ~0.3 s (the brief’s sanity check)', () => {
    // 2·BODY·8192 + 2·VD + A·8192·8193/2 = 1.12226e15 + 2.1e9 + 8.7972e13 = 1.21026e15 → 0.3059 s
    const t = prefillTime(llama70, hw8, 8192, 0);
    expect(t).toBeCloseTo((2 * BODY * 8192 + 2 * VD + (A * 8192 * 8193) / 2) / G, 12);
    expect(t).toBeGreaterThan(0.29);
    expect(t).toBeLessThan(0.32);
  });

  it('prefill on top of a cached prefix adds the n·c attention pairs', () => {
    // 1,000 new tokens after 9,000 cached: pairs = 1,000 × 9,000 + 1,000 × 1,001 / 2 = 9,500,500
    expect(prefillFlops(llama70, 1000, 9000)).toBe(2 * BODY * 1000 + 2 * VD + A * 9_500_500);
    // cached prefill is far cheaper than prefilling all 10k
    expect(prefillTime(llama70, hw8, 1000, 9000)).toBeLessThan(prefillTime(llama70, hw8, 10_000, 0) / 5);
  });

  it('decode step, batch 1: weights over bandwidth ≈ 6.5 ms', () => {
    // (70.6e9 − V·D) × 2 B = 139,098,653,696 B (input embedding table is not streamed) + 1 token of KV
    // 139,098,981,376 B / 21.44e12 B/s = 6.4878 ms. (With the full 141.2 GB it would be 6.59 ms.)
    const c = decodeCost(llama70, hw8, 1, 1);
    expect(c.bound).toBe('memory');
    expect(c.bytes).toBe(139_098_653_696 + KV);
    expect(c.time).toBeCloseTo(139_098_981_376 / M, 12);
    expect(c.time * 1e3).toBeCloseTo(6.488, 3);
  });

  it('decode step, batch 32 at 8k context each', () => {
    // KV: 32 × 8,192 = 262,144 tokens × 327,680 B = 85,899,345,920 B; + weights 139,098,653,696 B
    //   = 224,997,999,616 B / 21.44e12 = 10.494 ms
    // FLOPs: 2 × (70.6e9 − V·D) × 32 + A × 262,144 = 4,451,156,918,272 + 687,194,767,360 = 5,138,351,685,632
    //   / 3.956e15 = 1.30 ms → memory-bound
    const c = decodeCost(llama70, hw8, 32, 32 * 8192);
    expect(c.bytes).toBe(224_997_999_616);
    expect(c.flops).toBe(5_138_351_685_632);
    expect(c.bound).toBe('memory');
    expect(decodeStepTime(llama70, hw8, 32, 32 * 8192) * 1e3).toBeCloseTo(10.494, 3);
  });

  it('perTokenPrefillTime at context 0 and 100k', () => {
    // (2 × BODY + A × 1) / G = 136,999,928,832 / 3.956e15 = 34.63 µs
    expect(perTokenPrefillTime(llama70, hw8, 0)).toBeCloseTo((2 * BODY + A) / G, 15);
    expect(perTokenPrefillTime(llama70, hw8, 0) * 1e6).toBeCloseTo(34.63, 2);
    // at 100k context: + A × 100,000 = 2.62e11 more → (1.37e11 + 2.6214e11) / G = 100.9 µs
    expect(perTokenPrefillTime(llama70, hw8, 100_000) * 1e6).toBeCloseTo(
      ((2 * BODY + A * 100_001) / G) * 1e6,
      6,
    );
  });
});

describe('roofline behaviour', () => {
  it('tensor parallelism divides compute-bound prefill time by tp', () => {
    const t1 = prefillTime(llama70, defaultHardware(h100, 1), 16_000, 0);
    const t8 = prefillTime(llama70, hw8, 16_000, 0);
    expect(t1 / t8).toBeCloseTo(8, 9);
  });

  it('a one-token prefill is memory-bound and equals a batch-1 decode of one token', () => {
    const c = prefillCost(llama70, hw8, 1, 0);
    expect(c.bound).toBe('memory');
    // both stream the same weights; prefill writes one KV token, decode reads one
    expect(c.time).toBeCloseTo(decodeStepTime(llama70, hw8, 1, 1), 12);
  });

  it('mfu and FP8 compute scale the compute branch only', () => {
    const half = prefillTime(llama70, { ...hw8, mfu: 0.25 }, 10_000, 0);
    expect(half / prefillTime(llama70, hw8, 10_000, 0)).toBeCloseTo(2, 9);
    const fp8 = prefillTime(llama70, { ...hw8, computeDtype: 'fp8' }, 10_000, 0);
    expect(prefillTime(llama70, hw8, 10_000, 0) / fp8).toBeCloseTo(1979 / 989, 9);
    // decode at batch 1 is memory-bound: mfu does not matter, mbu does
    expect(decodeStepTime(llama70, { ...hw8, mfu: 0.1 }, 1, 1)).toBeCloseTo(
      decodeStepTime(llama70, hw8, 1, 1),
      15,
    );
    expect(
      decodeStepTime(llama70, { ...hw8, mbu: 0.4 }, 1, 1) / decodeStepTime(llama70, hw8, 1, 1),
    ).toBeCloseTo(2, 9);
  });

  it('FP8 weights halve the decode weight stream; FP8 compute on A100 is refused', () => {
    const fp8w = decodeCost(llama70, { ...hw8, weightDtype: 'fp8' }, 1, 0);
    expect(fp8w.bytes).toBe((70.6e9 - VD) * 1);
    const a100 = defaultHardware(resolveAccelerator('a100-80gb'), 8);
    expect(() => prefillTime(llama70, { ...a100, computeDtype: 'fp8' }, 100, 0)).toThrow(/no FP8/);
  });

  it('rejects invalid inputs', () => {
    expect(() => prefillTime(llama70, { ...hw8, tp: 0 }, 10, 0)).toThrow(/tp/);
    expect(() => prefillTime(llama70, { ...hw8, mfu: 1.5 }, 10, 0)).toThrow(/mfu/);
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

  it('Σ perTokenPrefillTime over positions 0..n−1 = compute time of an n-token prefill less the LM head', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), (n) => {
        let sum = 0;
        for (let c = 0; c < n; c++) sum += perTokenPrefillTime(llama70, hw8, c);
        const compute = prefillCost(llama70, hw8, n, 0).computeTime - (2 * VD) / G;
        return Math.abs(sum - compute) <= 1e-9 * compute;
      }),
      { numRuns: 30 },
    );
  });
});
