/**
 * trace-stats on the Mooncake conversation trace (12,031 requests, 288,500 blocks) with three LRU capacities,
 * against a straightforward dictionary-based Python script doing the same computation
 * (bench/reference/trace_stats_ref.py: json.loads per line, a set, an OrderedDict per LRU).
 *
 * Figures printed (never asserted):
 * - in this process: the median over 5 runs of read + parse + statistics, the first (cold) run, and memory;
 * - in fresh processes, 3 runs each: time after start-up and peak RSS for TypeScript
 *   (bench/reference/trace_stats_ts.ts under tsx) and for Python, and their ratio;
 * - whether both computed the same figures;
 * - the cost of the tiered KvCache itself on the same trace, driven as a replica would drive it (acquire,
 *   commit, release per request), for three tier set-ups.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  arrivalOrder,
  mooncakeTable,
  traceStats,
  type RequestTable,
  type TraceStats,
} from '../../src/sim/engine/trace';
import { KvCache, KvPool, type TierConfig } from '../../src/sim/engine/kvcache';
import { median, mib } from '../util';
import type { BenchSuite } from './index';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TRACE = fileURLToPath(
  new URL('../../../shared/data/mooncake/conversation_trace.jsonl', import.meta.url),
);
const CAPACITIES = [1_000, 10_000, 100_000];
const RUNS = 5;
const PROCESS_RUNS = 3;

interface ChildResult {
  requests: number;
  idealHitRatio: { blocks: number; tokens: number };
  lru: { capacityBlocks: number; hitRatio: { blocks: number; tokens: number } }[];
  inputTokens: { mean: number; p99: number };
  elapsedS: number;
  maxRssKiB: number;
}

const LINK = { bandwidthGBps: 50, latencyS: 10e-6 };
const REPLAYS: { name: string; make: () => KvCache[] }[] = [
  {
    name: 'hbm 10k blocks',
    make: () => [
      new KvCache({ blockSize: 512, bytesPerBlock: 1, tiers: [{ name: 'hbm', capacityBlocks: 10_000 }] }),
    ],
  },
  {
    name: 'hbm 5k + dram 20k',
    make: () => [
      new KvCache({
        blockSize: 512,
        bytesPerBlock: 1,
        tiers: [
          { name: 'hbm', capacityBlocks: 5_000 },
          { name: 'dram', capacityBlocks: 20_000, link: LINK },
        ],
      }),
    ],
  },
  {
    name: '2 replicas (hbm 5k + dram 20k) + shared pool 100k, round robin',
    make: () => {
      const pool = new KvPool({ bytesPerBlock: 1, capacityBlocks: 100_000 });
      const tiers: TierConfig[] = [
        { name: 'hbm', capacityBlocks: 5_000 },
        { name: 'dram', capacityBlocks: 20_000, link: LINK },
        { name: 'remote', pool, link: LINK },
      ];
      return [0, 1].map((id) => new KvCache({ id, blockSize: 512, bytesPerBlock: 1, tiers }));
    },
  },
];

/** Replay a trace through replica caches; returns the prefix hit ratio in blocks. */
function replay(table: RequestTable, caches: KvCache[]): number {
  const order = arrivalOrder(table);
  let hit = 0;
  for (let j = 0; j < order.length; j++) {
    const i = order[j];
    const c = caches[j % caches.length];
    const a = c.acquire(i, table.blocks.subarray(table.blockStart[i], table.blockStart[i + 1]), {
      tokens: table.inputTokens[i],
    });
    if (!a.ok) continue;
    hit += a.hit.blocks;
    c.commit(i);
    c.release(i);
  }
  return hit / table.blocks.length;
}

function runChild(cmd: string, args: string[]): { out: ChildResult; wallS: number } | { error: string } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
  const wallS = (performance.now() - t0) / 1000;
  if (r.error) return { error: r.error.message };
  if (r.status !== 0) return { error: (r.stderr || `exit ${r.status}`).trim().split('\n').pop() ?? '' };
  return { out: JSON.parse(r.stdout) as ChildResult, wallS };
}

function same(
  a: Pick<TraceStats, 'requests' | 'idealHitRatio' | 'lru'> & { inputTokens: { mean: number; p99: number } },
  b: ChildResult,
): boolean {
  const close = (x: number, y: number) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x));
  return (
    a.requests === b.requests &&
    close(a.idealHitRatio.blocks, b.idealHitRatio.blocks) &&
    close(a.idealHitRatio.tokens, b.idealHitRatio.tokens) &&
    close(a.inputTokens.mean, b.inputTokens.mean) &&
    close(a.inputTokens.p99, b.inputTokens.p99) &&
    a.lru.length === b.lru.length &&
    a.lru.every(
      (l, i) =>
        close(l.hitRatio.blocks, b.lru[i].hitRatio.blocks) &&
        close(l.hitRatio.tokens, b.lru[i].hitRatio.tokens),
    )
  );
}

function python3(): string | null {
  const r = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? (r.stdout || r.stderr).trim() : null;
}

export const traceStatsSuite: BenchSuite = {
  name: 'trace-stats',
  description: `trace-stats on the Mooncake conversation trace with LRU capacities ${CAPACITIES.join(', ')} blocks, vs a dictionary-based Python script`,
  run() {
    if (!existsSync(TRACE)) {
      console.log(`skipped: ${TRACE} is absent (the Mooncake traces live in ../shared/data/mooncake/)`);
      return;
    }
    // In this process.
    const samples: number[] = [];
    let stats: TraceStats | null = null;
    const rss0 = process.memoryUsage().rss;
    let heapPeak = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const { table } = mooncakeTable(readFileSync(TRACE, 'utf8'));
      stats = traceStats(table, { lruCapacities: CAPACITIES });
      samples.push(performance.now() - t0);
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }
    const s = stats as TraceStats;
    console.log(
      `trace: ${s.requests} requests, ${s.blocks.total} blocks (${s.blocks.unique} unique), ideal hit ratio ${(100 * s.idealHitRatio.blocks).toFixed(1)}% of blocks, ${(100 * s.idealHitRatio.tokens).toFixed(1)}% of tokens`,
    );
    console.log(
      `LRU hit ratio (blocks / tokens): ${s.lru.map((l) => `${l.capacityBlocks}: ${(100 * l.hitRatio.blocks).toFixed(1)}% / ${(100 * l.hitRatio.tokens).toFixed(1)}%`).join(', ')}`,
    );
    console.log(
      `TypeScript, in process (read + parse + stats): median ${median(samples).toFixed(1)} ms over ${RUNS} runs, first (cold) ${samples[0].toFixed(1)} ms; ` +
        `heapUsed peak ${mib(heapPeak)}, rss ${mib(process.memoryUsage().rss)} (was ${mib(rss0)}), process peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}`,
    );

    // The tiered KvCache on the same trace.
    const { table } = mooncakeTable(readFileSync(TRACE, 'utf8'));
    for (const r of REPLAYS) {
      let ratio = 0;
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const caches = r.make();
        const t0 = performance.now();
        ratio = replay(table, caches);
        times.push(performance.now() - t0);
      }
      const ms = median(times);
      console.log(
        `KvCache replay, ${r.name}: median ${ms.toFixed(1)} ms over 3 runs (${((1000 * ms) / table.blocks.length).toFixed(2)} µs per block, ${((1000 * ms) / table.count).toFixed(1)} µs per request), prefix hit ratio ${(100 * ratio).toFixed(1)}% of blocks`,
      );
    }

    // Fresh processes: TypeScript (tsx) and Python, same computation, same fields.
    const ts: { out: ChildResult; wallS: number }[] = [];
    for (let i = 0; i < PROCESS_RUNS; i++) {
      const r = runChild(ROOT + 'node_modules/.bin/tsx', [
        'bench/reference/trace_stats_ts.ts',
        TRACE,
        ...CAPACITIES.map(String),
      ]);
      if ('error' in r) {
        console.log(`TypeScript child failed: ${r.error}`);
        return;
      }
      ts.push(r);
    }
    const tsS = median(ts.map((r) => r.out.elapsedS));
    const tsWall = median(ts.map((r) => r.wallS));
    const tsRss = Math.max(...ts.map((r) => r.out.maxRssKiB));
    console.log(
      `TypeScript, fresh process (tsx): ${(tsS * 1000).toFixed(1)} ms after start-up (median of ${PROCESS_RUNS}), ${(tsWall * 1000).toFixed(0)} ms wall with start-up, peak RSS ${mib(tsRss * 1024)}`,
    );

    const py = python3();
    if (!py) {
      console.log('Python comparison skipped: python3 is not installed');
      return;
    }
    const pys: { out: ChildResult; wallS: number }[] = [];
    for (let i = 0; i < PROCESS_RUNS; i++) {
      const r = runChild('python3', ['bench/reference/trace_stats_ref.py', TRACE, ...CAPACITIES.map(String)]);
      if ('error' in r) {
        console.log(`Python reference failed: ${r.error}`);
        return;
      }
      pys.push(r);
    }
    const pyS = median(pys.map((r) => r.out.elapsedS));
    const pyWall = median(pys.map((r) => r.wallS));
    const pyRss = Math.max(...pys.map((r) => r.out.maxRssKiB));
    console.log(
      `Python reference (${py}, bench/reference/trace_stats_ref.py): ${(pyS * 1000).toFixed(1)} ms after start-up (median of ${PROCESS_RUNS}), ${(pyWall * 1000).toFixed(0)} ms wall, peak RSS ${mib(pyRss * 1024)}`,
    );
    console.log(
      `ratio Python / TypeScript: ${(pyS / tsS).toFixed(1)}× fresh process after start-up, ${(pyS / (median(samples) / 1000)).toFixed(1)}× against the warm in-process median, ${(pyWall / tsWall).toFixed(2)}× wall with start-up (tsx compiles on start)`,
    );
    console.log(
      `same figures (requests, input mean and p99, ideal and LRU ratios): ${same(s, pys[0].out) && same(s, ts[0].out) ? 'yes' : 'NO'}`,
    );
  },
};
