/** Refusals a widget can show are in the reader's words: what does not fit, and what to change. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolveScenario, ScenarioError } from '../src/sim/engine/fleet/scenario';

describe('scenario refusals', () => {
  it('weights that leave no room for KV name the model, the GPUs and the way out', () => {
    const sc = JSON.parse(readFileSync('scenarios/pause/hold.json', 'utf8'));
    sc.model = 'llama-3.1-70b';
    delete sc.kv.hbmBlocks;
    sc.hardware = { ...sc.hardware, accelerator: 'h100-sxm', tp: 1 };
    let err: unknown;
    try {
      resolveScenario(sc);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    const message = (err as ScenarioError).errors[0].message;
    expect(message).toMatch(/Llama 3\.1 70B's weights \(\d+\.\d GB\)/);
    expect(message).toMatch(/use more GPUs per replica or a smaller model/);
  });
});
