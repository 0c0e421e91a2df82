import { ACCELERATORS } from '../../src/sim/engine/catalog/accelerators';
import { MODELS } from '../../src/sim/engine/catalog/models';
import { computeFootprint } from '../../src/sim/engine/footprint';
import { timeRuns } from '../util';
import type { BenchSuite } from './index';

export const footprintSuite: BenchSuite = {
  name: 'footprint',
  description: 'KV footprint calculator: every model × accelerator pair (the widget computes 6 per change)',
  run() {
    const r = timeRuns(21, () => {
      for (const model of MODELS)
        for (const accelerator of ACCELERATORS)
          computeFootprint({
            model,
            accelerator,
            kvDtype: 'bf16',
            weightDtype: 'bf16',
            contextTokens: 100_000,
            gpus: 8,
            memoryUtilization: 0.9,
          });
    });
    console.log(
      `${MODELS.length * ACCELERATORS.length} footprints: median ${r.medianMs.toFixed(3)} ms, min ${r.minMs.toFixed(3)} ms (21 runs)`,
    );
  },
};
