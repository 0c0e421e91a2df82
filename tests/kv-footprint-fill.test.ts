/** 07.04's footprint animation: N agent contexts filling the HBM KV budget block by block (fill.ts). */
import { describe, expect, it } from 'vitest';
import { computeFootprint } from '../src/sim/engine/footprint';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { findModel } from '../src/sim/engine/catalog/models';
import {
  ENGINE_BLOCK_TOKENS,
  fillAt,
  fillDuration,
  fillPlan,
  ownerOf,
} from '../src/widgets/kv-footprint/fill';
import { kvFootprintSchema } from '../src/widgets/kv-footprint/schema';

describe('fillPlan / fillAt', () => {
  const r = computeFootprint({
    model: findModel(kvFootprintSchema.model.default)!,
    accelerator: findAccelerator(kvFootprintSchema.accelerator.default)!,
    kvDtype: 'bf16',
    weightDtype: 'bf16',
    contextTokens: kvFootprintSchema.contextTokens.default,
    gpus: kvFootprintSchema.gpus.default,
    memoryUtilization: kvFootprintSchema.memoryUtilization.default,
  });
  const plan = fillPlan(r.kvBudgetBytes, r.kvBytesPerToken, kvFootprintSchema.contextTokens.default);

  it('cells are whole powers of two of vLLM’s 16-token block, at most 3,000 of them', () => {
    expect(plan.blockTokens % ENGINE_BLOCK_TOKENS).toBe(0);
    expect(Math.log2(plan.engineBlocksPerCell) % 1).toBe(0);
    expect(plan.budgetCells).toBeLessThanOrEqual(3000);
    expect(plan.budgetCells).toBeGreaterThan(1500);
  });

  it('at the defaults, as many whole contexts fit as the calculator says, and the next finds no room', () => {
    const end = fillAt(plan, fillDuration(plan));
    expect(plan.agents).toBe(r.concurrentContexts + 1);
    expect(end.whole).toBe(r.concurrentContexts);
    expect(end.usedCells).toBe(plan.budgetCells);
    expect(end.overflowCells).toBeGreaterThan(0);
  });

  it('fills block by block: a block is taken with its first token, contexts one after another', () => {
    expect(fillAt(plan, 0).usedCells).toBe(0);
    expect(fillAt(plan, 1).usedCells).toBe(1);
    expect(fillAt(plan, plan.blockTokens).usedCells).toBe(1);
    expect(fillAt(plan, plan.blockTokens + 1).usedCells).toBe(2);
    const second = fillAt(plan, plan.contextTokens + 1);
    expect(second.agent).toBe(1);
    expect(second.whole).toBe(1);
    expect(ownerOf(plan, plan.contextCells)).toBe(1);
    let prev = 0;
    for (let t = 0; t <= fillDuration(plan); t += plan.contextTokens / 7) {
      const u = fillAt(plan, t).usedCells;
      expect(u).toBeGreaterThanOrEqual(prev);
      prev = u;
    }
  });

  it('no budget (the weights do not fit): nothing to fill, every block of the one context overflows', () => {
    const p = fillPlan(0, r.kvBytesPerToken, 100_000);
    const end = fillAt(p, fillDuration(p));
    expect(p.budgetCells).toBe(0);
    expect(end.usedCells).toBe(0);
    expect(end.overflowCells).toBe(p.contextCells);
  });
});
