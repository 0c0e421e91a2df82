import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asRefusal, BadRequest, within } from '../src/worker/badRequest';
import { replicaHardware } from '../src/worker/replicaHardware';
import { limit } from '../src/sim/engine/limits';
import { CatalogError } from '../src/sim/engine/catalog/index';
import { affinityMethods } from '../src/worker/affinityMethods';
import { routerMethods } from '../src/worker/routerMethods';

async function refusal(run: () => unknown): Promise<Error> {
  try {
    await run();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a refusal');
}

describe('BadRequest', () => {
  const chunk = limit('the chunk size', 16, 65_536, { integer: true, unit: 'tokens' });

  it('passes a value inside the limit through, and refuses one outside it in the reader’s words', () => {
    expect(within(chunk, 512)).toBe(512);
    const refusal = (() => {
      try {
        within(chunk, 8.5);
      } catch (e) {
        return e;
      }
    })();
    expect(refusal).toBeInstanceOf(BadRequest);
    expect((refusal as Error).name).toBe('BadRequest');
    expect((refusal as Error).message).toBe(
      'The chunk size takes whole numbers from 16 to 65,536 tokens, not 8.5.',
    );
  });

  it('is the one refusal class every worker method throws', () => {
    const dir = new URL('../src/worker/', import.meta.url);
    const own = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && f !== 'badRequest.ts')
      .filter((f) => /this\.name = 'BadRequest'/.test(readFileSync(new URL(f, dir), 'utf8')));
    expect(own).toEqual([]);
  });

  it('turns the core’s catalog and range errors into refusals and lets faults through', async () => {
    expect(
      (
        await refusal(() =>
          asRefusal(() => {
            throw new CatalogError('unknown model "x"');
          }),
        )
      ).name,
    ).toBe('BadRequest');
    expect(
      (
        await refusal(() =>
          asRefusal(() => {
            throw new RangeError('too long');
          }),
        )
      ).message,
    ).toBe('too long');
    const fault = await refusal(() =>
      asRefusal(() => {
        throw new TypeError('bug');
      }),
    );
    expect(fault).toBeInstanceOf(TypeError);
    const own = await refusal(() =>
      asRefusal(
        () => {
          throw new SyntaxError('x');
        },
        () => 'worded',
      ),
    );
    expect(own).toBeInstanceOf(BadRequest);
    expect(own.message).toBe('worded');
  });

  it('resolves a replica or refuses its model, accelerator or GPU count', async () => {
    const r = replicaHardware('llama-3.1-70b', 'h100-sxm', 8);
    expect(r.model.id).toBe('llama-3.1-70b');
    expect(r.hw.tp).toBe(8);
    const badModel = await refusal(() => replicaHardware('gpt-9', 'h100-sxm', 8));
    expect(badModel).toBeInstanceOf(BadRequest);
    expect(badModel.message).toMatch(/unknown model "gpt-9"/);
    expect((await refusal(() => replicaHardware('llama-3.1-70b', 'h100-sxm', 3.5))).message).toBe(
      'GPUs per replica takes whole numbers from 1 to 64, not 3.5.',
    );
  });

  it('words the shared fields (seed, arrival window, prompt) as every other limit', async () => {
    const base = {
      modelId: 'llama-3.1-70b',
      acceleratorId: 'h100-sxm',
      gpus: 8,
      promptTokens: 40_000,
      cachedTokens: 39_000,
    };
    const cached = await refusal(() => affinityMethods.coldTurnCost({ ...base, cachedTokens: 40_000 }));
    expect(cached).toBeInstanceOf(BadRequest);
    expect(cached.message).toBe(
      'The cached part of the prompt takes whole numbers from 0 to 39,999 tokens, not 40,000.',
    );
    const fleet = { replicas: 4, sessionsPerS: 0.5, arrivalS: 60, seed: 7, loadThreshold: 64, policies: [] };
    const ctx = undefined as unknown as Parameters<typeof routerMethods.routerSummaries>[1];
    const seed = await refusal(() => routerMethods.routerSummaries({ ...fleet, seed: -1 }, ctx));
    expect(seed.message).toBe('The seed takes whole numbers from 0 to 2,147,483,647, not -1.');
    const arrival = await refusal(() => routerMethods.routerSummaries({ ...fleet, arrivalS: 0.5 }, ctx));
    expect(arrival.message).toBe('The arrival window takes values from 1 to 600 s, not 0.5.');
  });
});
