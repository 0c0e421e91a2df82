/**
 * One replica's prefill constants are one object (src/worker/prefillFormula.ts): 07.02's cold turn, 07.10's figures
 * and 07.11's re-prefill print them under the same names, and the same replica gives the same values in all three.
 */
import { describe, expect, it } from 'vitest';
import { methods } from '../src/worker/methods';
import { compactionEdit } from '../src/worker/compactionMethods';
import { prefillFigures } from '../src/worker/prefillFigureMethods';
import { EDIT_DEFAULTS, editArgs } from '../src/widgets/context-compaction/schema';
import { FIGURES_REQUEST } from '../src/widgets/long-prefill/schema';
import { DEFAULT_GEMM_EFFICIENCY } from '../src/sim/engine/cost';
import type { PrefillFormula } from '../src/worker/prefillFormula';

const SHARED: (keyof PrefillFormula)[] = [
  'bodyFlopsPerToken',
  'attentionFlopsPerPair',
  'effectiveFlops',
  'attentionFlops',
  'gemmEfficiency',
  'attentionEfficiency',
  'allReducePerTokenS',
  'iterationFixedS',
  'peakFlopsPerGpu',
  'gpus',
];

const pick = (f: PrefillFormula) => Object.fromEntries(SHARED.map((k) => [k, f[k]]));

describe('the prefill formula the lessons print', () => {
  it('is the same object, with the same values, in 07.02, 07.10 and 07.11 for one replica', () => {
    const replica = { modelId: 'llama-3.1-70b', acceleratorId: 'h100-sxm', gpus: 8 };
    const coldTurn = methods.coldTurnCost({ ...replica, promptTokens: 40_000, cachedTokens: 38_000 }).formula;
    const figures = prefillFigures({ ...FIGURES_REQUEST, ...replica }).formula;
    const edit = compactionEdit({
      ...editArgs(EDIT_DEFAULTS),
      modelId: replica.modelId,
      acceleratorId: replica.acceleratorId,
      tp: replica.gpus,
      gemmEfficiency: DEFAULT_GEMM_EFFICIENCY,
    }).replica;
    expect(coldTurn.gpus).toBe(8);
    expect(coldTurn.effectiveFlops).toBeGreaterThan(0);
    expect(pick(figures)).toEqual(pick(coldTurn));
    expect(pick(edit)).toEqual(pick(coldTurn));
  });
});
