/**
 * `sim trace-stats`'s figures equal the plain Python reference's (bench/reference/trace_stats_ref.py, the one
 * the speed goal is measured against) exactly: on the tiny fixture, on a generated trace with evictions, ties
 * and unsorted arrivals, and on the Mooncake conversation trace when ../shared/data/mooncake is present. The
 * statistics are computed the command line's way: the file's bytes through readTraceTable and traceStats.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTraceTable, traceStats } from '../src/sim/engine/trace';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONVERSATION = fileURLToPath(
  new URL('../../shared/data/mooncake/conversation_trace.jsonl', import.meta.url),
);
const havePython = spawnSync('python3', ['--version']).status === 0;
if (!havePython) console.warn('trace-stats-reference.test: python3 is absent, the comparison is skipped');

function reference(file: string, capacities: number[]) {
  const r = spawnSync('python3', ['bench/reference/trace_stats_ref.py', file, ...capacities.map(String)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  const out = JSON.parse(r.stdout) as Record<string, unknown>;
  delete out.elapsedS;
  delete out.maxRssKiB;
  return out;
}

function ours(file: string, capacities: number[]) {
  const { table } = readTraceTable(readFileSync(file), { format: 'mooncake', onError: 'stop' });
  const s = traceStats(table, { lruCapacities: capacities });
  return {
    requests: s.requests,
    durationS: s.durationS,
    arrivalRatePerS: s.arrivalRatePerS,
    inputTokens: s.inputTokens,
    outputTokens: s.outputTokens,
    idealHitRatio: s.idealHitRatio,
    lru: s.lru,
  };
}

/** A deterministic trace: chains of conversation blocks that grow, share a head and get evicted. */
function generatedTrace(): string {
  let x = 12345;
  const rand = (n: number) => {
    // mulberry32
    x = (x + 0x6d2b79f5) | 0;
    let z = Math.imul(x ^ (x >>> 15), 1 | x);
    z = (z + Math.imul(z ^ (z >>> 7), 61 | z)) ^ z;
    return ((z ^ (z >>> 14)) >>> 0) % n;
  };
  const chains: number[][] = [];
  let nextId = 0;
  const lines: string[] = [];
  for (let i = 0; i < 400; i++) {
    const c = rand(6) === 0 || chains.length === 0 ? chains.push([0]) - 1 : rand(chains.length);
    const chain = chains[c];
    for (let k = rand(4); k > 0; k--) chain.push(++nextId);
    // mostly ceil(input / 512) blocks; sometimes a length that disagrees, as some Mooncake lines do
    const input = (chain.length - 1) * 512 + 1 + rand(512) + (rand(20) === 0 ? 2048 : 0);
    // arrival times with ties and now and then out of order
    const t = i * 100 - (rand(10) === 0 ? 250 : 0) - (i % 7 === 0 ? 0 : rand(2) * 100);
    lines.push(
      JSON.stringify({
        timestamp: Math.max(0, t),
        input_length: input,
        output_length: rand(300),
        hash_ids: chain,
      }),
    );
  }
  return lines.join('\n') + '\n';
}

describe.skipIf(!havePython)('trace-stats against the Python reference', () => {
  it('the tiny fixture', () => {
    const file = join(ROOT, 'tests/fixtures/mooncake-tiny.jsonl');
    const caps = [0, 1, 2, 1000];
    expect(ours(file, caps)).toEqual(reference(file, caps));
  });

  it('a generated trace with evictions, unsorted and tied arrivals and mismatched lengths', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sal-trace-ref-')), 'generated.jsonl');
    writeFileSync(file, generatedTrace());
    const caps = [7, 1, 50, 0, 20, 7, 100_000];
    const mine = ours(file, caps);
    expect(mine).toEqual(reference(file, caps));
    // the trace exercises what it is meant to: misses, hits and evictions differ between capacities
    const r = mine.lru.map((l) => l.hitRatio.blocks);
    expect(r[1]).toBeLessThan(r[0]);
    expect(r[0]).toBeLessThan(r[2]);
    expect(r[2]).toBeLessThan(r[6]);
    expect(mine.lru[6].hitRatio).toEqual(mine.idealHitRatio);
  });

  it.skipIf(!existsSync(CONVERSATION))(
    'the Mooncake conversation trace (when ../shared/data is present)',
    () => {
      const caps = [1000, 10_000, 100_000];
      expect(ours(CONVERSATION, caps)).toEqual(reference(CONVERSATION, caps));
    },
    60_000,
  );
});
