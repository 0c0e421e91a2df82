import { describe, expect, it } from 'vitest';
import { runSim } from './cli-process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIX = 'tests/fixtures/';
const CONVERSATION = fileURLToPath(
  new URL('../../shared/data/mooncake/conversation_trace.jsonl', import.meta.url),
);

const sim = (...args: string[]) => runSim('trace-stats', ...args);

function expectCleanFailure(r: ReturnType<typeof sim>, pattern: RegExp) {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
}

describe('sim trace-stats', () => {
  it('prints the statistics of a Mooncake trace as JSON', () => {
    const r = sim(FIX + 'mooncake-tiny.jsonl', '--lru-blocks', '1,2');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      format: 'mooncake',
      blockSize: 512,
      requests: 5,
      durationS: 4,
      arrivalRatePerS: 1.25,
      outputTokens: { mean: 92, median: 100, p90: 160, p99: 196 },
      idealHitRatio: { blocks: 0.5 },
      errors: { count: 0, first: [] },
    });
    expect(out.inputTokens.median).toBe(1000);
    expect(out.lru).toEqual([
      { capacityBlocks: 1, hitRatio: { blocks: 0.2, tokens: 1024 / 4824 } },
      { capacityBlocks: 2, hitRatio: { blocks: 0.4, tokens: 2048 / 4824 } },
    ]);
  });

  it('reads a file that starts with a byte-order mark as the same file without it', () => {
    const withBom = join(mkdtempSync(join(tmpdir(), 'sal-bom-')), 'bom.jsonl');
    writeFileSync(withBom, '\ufeff' + readFileSync(ROOT + FIX + 'mooncake-tiny.jsonl', 'utf8'));
    const plain = sim(FIX + 'mooncake-tiny.jsonl', '--lru-blocks', '1,2');
    const bom = sim(withBom, '--lru-blocks', '1,2');
    expect(bom.code).toBe(0);
    expect({ ...JSON.parse(bom.stdout), file: '' }).toEqual({ ...JSON.parse(plain.stdout), file: '' });
  });

  it('skips malformed lines by default and lists the first ones with line numbers', () => {
    const r = sim(FIX + 'mooncake-bad.jsonl', '--format', 'mooncake');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.requests).toBe(5);
    expect(out.errors.count).toBe(4);
    expect(out.errors.first.map((e: { line: number }) => e.line)).toEqual([3, 5, 6, 9]);
    expect(out.errors.first[1]).toEqual({ line: 5, message: 'missing "input_length"' });
  });

  it('--on-error stop: exit 2 naming the line, no stack trace', () => {
    expectCleanFailure(
      sim(FIX + 'mooncake-bad.jsonl', '--on-error', 'stop'),
      /mooncake-bad\.jsonl: line 3: not valid JSON/,
    );
  });

  it('reads the native format (block size from its header unless given)', () => {
    const r = sim(FIX + 'native-tiny.jsonl', '--lru-blocks', '2');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      format: 'native',
      blockSize: 4,
      requests: 4,
      sessions: 2,
      idealHitRatio: { blocks: 5 / 12, tokens: 20 / 45 },
    });
    expect(out.lru[0].hitRatio.blocks).toBe(0.25);
    const r8 = JSON.parse(sim(FIX + 'native-tiny.jsonl', '--block-size', '8').stdout);
    expect(r8.blockSize).toBe(8);
    expect(r8.blocks.total).toBe(2 + 1 + 2 + 2);
  });

  it('bad input: clear message, exit 2', () => {
    expectCleanFailure(
      sim('tests/fixtures/nope.jsonl'),
      /no such file or folder: "tests\/fixtures\/nope\.jsonl"/,
    );
    expectCleanFailure(sim(), /the trace file is required/);
    expectCleanFailure(
      sim(FIX + 'mooncake-tiny.jsonl', '--lru-blocks', '10,abc'),
      /--lru-blocks takes whole numbers.*"abc"/,
    );
    expectCleanFailure(sim(FIX + 'mooncake-tiny.jsonl', '--format', 'csv'), /unknown format "csv"/);
    expectCleanFailure(
      sim(FIX + 'mooncake-tiny.jsonl', '--block-size', '0'),
      /--block-size must be at least 1/,
    );
    expectCleanFailure(sim(FIX + 'mooncake-tiny.jsonl', '--lru'), /unknown flag --lru/);
    expectCleanFailure(
      sim(FIX + 'native-tiny.jsonl', '--format', 'mooncake'),
      /no valid requests \(5 malformed lines; first: line 1: missing "timestamp"\)/,
    );
    expectCleanFailure(sim('tests/fixtures'), /is a directory/);
  });

  it.skipIf(!existsSync(CONVERSATION))(
    'the Mooncake conversation trace (skipped when ../shared/data/mooncake is absent)',
    () => {
      const r = sim(CONVERSATION, '--lru-blocks', '1000,10000,100000');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.requests).toBe(12_031);
      expect(Math.round(out.inputTokens.mean)).toBe(12_035);
      expect(Math.round(out.outputTokens.mean)).toBe(343);
      expect(out.idealHitRatio.blocks).toBeGreaterThan(0.35);
      expect(out.lru.map((l: { capacityBlocks: number }) => l.capacityBlocks)).toEqual([
        1000, 10_000, 100_000,
      ]);
    },
  );
});
