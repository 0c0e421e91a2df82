import { describe, expect, it } from 'vitest';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { findModel, kvBytesPerToken, mlaAttentionParams, MODELS } from '../src/sim/engine/catalog/models';
import { computeFootprint, footprintWeightBytes } from '../src/sim/engine/footprint';
import { methods } from '../src/worker/methods';

const model = (id: string) => findModel(id)!;

describe('KV bytes per token (derived from architecture)', () => {
  it('matches the hand computation 2 × layers × kv_heads × head_dim × bytes', () => {
    expect(kvBytesPerToken(model('llama-3.1-8b'), 'bf16')).toBe(2 * 32 * 8 * 128 * 2); // 131,072 = 128 KiB
    expect(kvBytesPerToken(model('llama-3.1-70b'), 'bf16')).toBe(2 * 80 * 8 * 128 * 2); // 327,680 = 320 KiB (Mooncake: "320 KB")
    expect(kvBytesPerToken(model('llama-3.1-405b'), 'bf16')).toBe(516_096);
    expect(kvBytesPerToken(model('qwen3-32b'), 'bf16')).toBe(262_144);
    expect(kvBytesPerToken(model('qwen3-235b-a22b'), 'bf16')).toBe(2 * 94 * 4 * 128 * 2);
    expect(kvBytesPerToken(model('llama-3.1-70b'), 'fp8')).toBe(163_840);
  });

  it('uses the latent width for MLA: layers × (kv_lora_rank + rope_dim) × bytes', () => {
    expect(kvBytesPerToken(model('deepseek-v3'), 'bf16')).toBe(61 * 576 * 2); // 70,272
  });

  it('every catalog model cites a source', () => {
    for (const m of MODELS) expect(m.source.length).toBeGreaterThan(20);
  });
});

describe('computeFootprint', () => {
  const base = {
    model: model('llama-3.1-70b'),
    accelerator: findAccelerator('h100-sxm')!,
    kvDtype: 'bf16' as const,
    weightDtype: 'bf16' as const,
    contextTokens: 100_000,
    gpus: 8,
    memoryUtilization: 0.9,
  };

  it('computes the KV budget after the reserve and weights, and the contexts that fit', () => {
    const r = computeFootprint(base);
    const usable = 8 * 81_559 * 2 ** 20 * 0.9; // nvidia-smi's 81,559 MiB per H100 × 0.9 = 615.8 GB
    const reserve = 8 * (1.26 + 3.58) * 2 ** 30; // vLLM PR #10511: activation peak + non-torch at TP > 1 = 41.6 GB
    const weights = 70.6e9 * 2; // 141.2 GB
    expect(r.usableHbmBytes).toBeCloseTo(usable);
    expect(r.reserveBytes).toBeCloseTo(reserve);
    expect(r.weightBytesTotal).toBeCloseTo(weights);
    expect(r.kvBudgetBytes).toBeCloseTo(usable - reserve - weights);
    expect(r.contextBytes).toBe(327_680 * 100_000); // 32.8 GB
    expect(r.concurrentContexts).toBe(Math.floor((usable - reserve - weights) / (327_680 * 100_000))); // 13
    expect(r.concurrentContexts).toBe(13);
  });

  it('an explicit reserve replaces the profiled one; zero gives the whole usable share to weights and KV', () => {
    const r = computeFootprint({ ...base, reserveBytesPerGpu: 0 });
    expect(r.reserveBytes).toBe(0);
    expect(r.kvBudgetBytes).toBeCloseTo(8 * 81_559 * 2 ** 20 * 0.9 - 70.6e9 * 2);
  });

  it('reports when the weights do not fit', () => {
    const r = computeFootprint({ ...base, model: model('llama-3.1-405b'), gpus: 1 });
    expect(r.weightsFit).toBe(false);
    expect(r.kvBudgetBytes).toBe(0);
    expect(r.concurrentContexts).toBe(0);
  });

  it('halves the context bytes with an FP8 cache', () => {
    const bf16 = computeFootprint(base);
    const fp8 = computeFootprint({ ...base, kvDtype: 'fp8' });
    expect(fp8.contextBytes * 2).toBe(bf16.contextBytes);
    expect(fp8.concurrentContexts).toBeGreaterThanOrEqual(2 * bf16.concurrentContexts);
  });

  it('counts every copy when the GPUs outnumber the KV heads (vLLM gives each GPU whole heads)', () => {
    const qwen = model('qwen3-235b-a22b'); // 4 KV heads
    const tp4 = computeFootprint({ ...base, model: qwen, gpus: 4 });
    const tp8 = computeFootprint({ ...base, model: qwen, gpus: 8 });
    expect(tp4.kvCopies).toBe(1);
    expect(tp8.kvCopies).toBe(2);
    expect(tp8.contextBytes).toBe(2 * kvBytesPerToken(qwen, 'bf16') * 100_000);
    expect(tp8.maxCachedTokens).toBe(Math.floor(tp8.kvBudgetBytes / (2 * kvBytesPerToken(qwen, 'bf16'))));
    expect(tp8.concurrentContexts).toBe(Math.floor(tp8.kvBudgetBytes / tp8.contextBytes));
    // Llama 3.1 70B's 8 heads over 8 GPUs: one copy; an MLA latent is counted once (data-parallel attention).
    expect(computeFootprint(base).kvCopies).toBe(1);
    expect(computeFootprint({ ...base, model: model('deepseek-v3') }).kvCopies).toBe(1);
  });

  it('data-parallel attention (MLA): one latent a context, but every GPU holds the whole attention weights', () => {
    const ds = model('deepseek-v3');
    // per layer: wq_a 7168 × 1536, wq_b 1536 × 128 × 192, wkv_a 7168 × (512 + 64), wkv_b 512 × 128 × (128 + 128),
    // wo 128 × 128 × 7168 = 187,105,280; × 61 layers
    const perLayer = 7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 128 * 128 * 7168;
    expect(perLayer).toBe(187_105_280);
    expect(mlaAttentionParams(ds)).toBe(61 * perLayer); // 11.4 B
    expect(mlaAttentionParams(model('llama-3.1-70b'))).toBe(0); // GQA: sharded by heads, not replicated
    // without a low-rank query projection, queries come from the hidden state directly
    const noQLora = { ...ds, attention: { ...ds.attention, qLoraRank: undefined } };
    expect(mlaAttentionParams(noQLora) - mlaAttentionParams(ds)).toBe(
      61 * (7168 * 128 * 192 - (7168 * 1536 + 1536 * 128 * 192)),
    );
    // FP8 weights on 8 GPUs: 7 more copies, 79.9 GB on top of 671 GB
    expect(footprintWeightBytes(ds, 'fp8', 8)).toBe(671e9 + 7 * 61 * perLayer);
    expect(footprintWeightBytes(ds, 'fp8', 1)).toBe(671e9);
    const r = computeFootprint({
      ...base,
      model: ds,
      weightDtype: 'fp8',
      accelerator: findAccelerator('h200')!,
    });
    expect(r.replicatedAttentionBytes).toBeCloseTo(79.9e9, -8);
    expect(r.weightBytesTotal).toBe(671e9 + r.replicatedAttentionBytes);
    expect(computeFootprint({ ...base }).replicatedAttentionBytes).toBe(0);
  });

  it('the worker method validates ids with a clear message', () => {
    expect(() => methods.kvFootprint({ ...base, modelId: 'gpt-9', acceleratorId: 'h100-sxm' })).toThrow(
      /unknown model "gpt-9"/i,
    );
    const ok = methods.kvFootprint({ ...base, modelId: 'llama-3.1-8b', acceleratorId: 'h100-sxm' });
    expect(ok.perModel).toHaveLength(MODELS.length);
    expect(ok.kvBytesPerToken).toBe(131_072);
  });
});
