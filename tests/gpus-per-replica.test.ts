/**
 * GPUs per replica is one Limit (GPUS_PER_REPLICA, src/sim/engine/hardware.ts): the scenario validator, the core
 * functions that take a GPU count (the KV footprint and budget, a replica's rates) and the command line refuse
 * outside it with the limit's own words, instead of rounding a count into range. Each widget's GPUs control
 * against its worker methods: tests/control-ranges.test.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { findModel } from '../src/sim/engine/catalog/models';
import { computeFootprint } from '../src/sim/engine/footprint';
import { effectiveFlops, defaultHardware, GPUS_PER_REPLICA } from '../src/sim/engine/cost';
import { kvBudget } from '../src/sim/engine/hbm';
import { limitRefusal } from '../src/sim/engine/limits';
import { replicaCannotRun } from '../src/sim/engine/fleet/replicaFit';
import { validateScenario } from '../src/sim/engine/fleet/scenario';
import { methods } from '../src/worker/methods';
import { parseArgs } from '../cli/args';
import { breakevenCommand } from '../cli/commands/breakeven';
import { costCommand } from '../cli/commands/cost';

const BAD = [0, -1, 0.5, 2.5, 65, Number.NaN];
const h100 = findAccelerator('h100-sxm')!;
const llama70 = findModel('llama-3.1-70b')!;

describe('GPUs per replica: one limit', () => {
  it('is worded for the reader', () => {
    expect(limitRefusal(GPUS_PER_REPLICA, 65)).toBe(
      'GPUs per replica takes whole numbers from 1 to 64, not 65.',
    );
    expect(limitRefusal(GPUS_PER_REPLICA, 2.5)).toBe(
      'GPUs per replica takes whole numbers from 1 to 64, not 2.5.',
    );
    for (const ok of [1, 8, 64]) expect(limitRefusal(GPUS_PER_REPLICA, ok)).toBeNull();
  });

  it('the scenario validator refuses hardware.tp outside it with the limit’s message', () => {
    const scenario = JSON.parse(
      readFileSync(new URL('../scenarios/chat-vs-agent-1-replica.json', import.meta.url), 'utf8'),
    ) as { hardware: Record<string, unknown> };
    const withTp = (tp: unknown) => ({ ...scenario, hardware: { ...scenario.hardware, tp } });
    expect(validateScenario(withTp(64))).toEqual([]);
    for (const tp of [0, 2.5, 65, '8'])
      expect(validateScenario(withTp(tp))).toEqual([
        { path: 'hardware.tp', message: limitRefusal(GPUS_PER_REPLICA, tp) },
      ]);
  });

  it('the KV footprint and budget refuse a count outside it (no rounding into range)', () => {
    const footprint = (gpus: number) =>
      computeFootprint({
        model: llama70,
        accelerator: h100,
        kvDtype: 'bf16',
        weightDtype: 'bf16',
        contextTokens: 100_000,
        gpus,
        memoryUtilization: 0.9,
      });
    const budget = (gpus: number) =>
      kvBudget({ accelerator: h100, gpus, memoryUtilization: 0.9, weightBytes: 141.2e9 });
    expect(footprint(64).weightsFit).toBe(true);
    expect(budget(64).fits).toBe(true);
    for (const g of BAD) {
      const why = limitRefusal(GPUS_PER_REPLICA, g)!;
      expect(() => footprint(g), `footprint ${g}`).toThrow(why);
      expect(() => budget(g), `budget ${g}`).toThrow(why);
      expect(() => effectiveFlops(defaultHardware(h100, g)), `hardware ${g}`).toThrow(why);
      // The fit test leaves the refusal to the method it guards.
      expect(replicaCannotRun('llama-3.1-70b', 'h100-sxm', g)).toBeNull();
    }
  });

  it('07.04’s footprint methods refuse it in the limit’s words (they had clamped it)', () => {
    const req = {
      modelId: 'llama-3.1-70b',
      acceleratorId: 'h100-sxm',
      kvDtype: 'bf16' as const,
      weightDtype: 'bf16' as const,
      contextTokens: 100_000,
      memoryUtilization: 0.9,
    };
    for (const gpus of BAD) {
      const why = limitRefusal(GPUS_PER_REPLICA, gpus)!;
      expect(() => methods.kvFootprint({ ...req, gpus }), `kvFootprint ${gpus}`).toThrow(why);
      expect(
        () => methods.kvFootprintSweep({ ...req, gpus, contextTokens: [1_000, 10_000] }),
        `kvFootprintSweep ${gpus}`,
      ).toThrow(why);
      const { modelId: _, ...perModel } = req;
      expect(() => methods.contextsPerModel({ ...perModel, gpus }), `contextsPerModel ${gpus}`).toThrow(why);
    }
  });

  it('the command line takes the same range for --tp and --gpus', () => {
    const flags = ['--model', 'llama-3.1-70b', '--gpu', 'h100-sxm'];
    expect(() => costCommand.run(parseArgs([...flags, '--tp', '65', '--prefill', '1000']))).toThrow(
      '--tp must be at most 64, got 65',
    );
    for (const flag of ['--tp', '--gpus'])
      expect(() =>
        breakevenCommand.run(parseArgs([...flags, '--link', 'pcie-gen5-x16', flag, '65'])),
      ).toThrow(`${flag} must be at most 64, got 65`);
  });
});
