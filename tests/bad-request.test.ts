import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BadRequest, within } from '../src/worker/badRequest';
import { limit } from '../src/sim/engine/limits';

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
});
