/**
 * trace-stats on the Mooncake conversation trace (12,031 requests, 288,500 blocks) with three LRU capacities,
 * against a straightforward dictionary-based Python script doing the same computation
 * (bench/reference/trace_stats_ref.py: json.loads per line, a set, an OrderedDict per LRU).
 *
 * Figures printed (never asserted):
 * - in this process: the median over 5 runs of read + parse + statistics, the first (cold) run, and memory;
 * - as whole processes, spawn to exit, interleaved pairs: the bundled command line a user runs
 *   (`node dist-cli/sim.mjs trace-stats …`) and the Python reference, their ratio against the goal (≥ 3×), and
 *   the Python script's own time after its start-up;
 * - whether both computed the same figures;
 * - with BENCH_BASE_CLI=<folder> (a copy of dist-cli/ built from another commit, e.g. `cp -r dist-cli
 *   /tmp/base-cli` before a change; it reads ../package.json, so copy package.json beside the folder too): that
 *   bundle as well, in the same interleaved loop, printed after " | before ". BENCH_RUNS sets the number of
 *   interleaved runs (default 9).
 * - the cost of the tiered KvCache itself on the same trace, driven as a replica would drive it (acquire,
 *   commit, release per request), for three tier set-ups.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
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
const PROCESS_RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 9));

interface ChildResult {
  requests: number;
  idealHitRatio: { blocks: number; tokens: number };
  lru: { capacityBlocks: number; hitRatio: { blocks: number; tokens: number } }[];
  inputTokens: { mean: number; p99: number };
  elapsedS: number;
  maxRssKiB: number;
}

/** What the command line prints that the comparison reads (it has no timing fields of its own). */
type CliResult = Pick<ChildResult, 'requests' | 'idealHitRatio' | 'lru' | 'inputTokens'>;

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
  b: CliResult,
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
      // The file's bytes, as the command line reads them.
      const { table } = mooncakeTable(readFileSync(TRACE));
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

    // Whole processes, spawn to exit: the bundled command line and the Python reference, interleaved so both
    // see the same machine load.
    const build = spawnSync(process.execPath, ['scripts/sim.mjs', '--build-only'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (build.status !== 0) {
      console.log(`could not build the CLI bundle: ${build.stderr}`);
      return;
    }
    const py = python3();
    const baseCli = process.env.BENCH_BASE_CLI;
    const baseWall: number[] = [];
    const cliArgs = (bundle: string) => [bundle, 'trace-stats', TRACE, '--lru-blocks', CAPACITIES.join(',')];
    const cliWall: number[] = [];
    const pyWall: number[] = [];
    let cliOut: CliResult | null = null;
    let pyOut: ChildResult | null = null;
    for (let i = 0; i < PROCESS_RUNS; i++) {
      const c = runChild(process.execPath, cliArgs('dist-cli/sim.mjs'));
      if ('error' in c) {
        console.log(`command line failed: ${c.error}`);
        return;
      }
      cliWall.push(c.wallS);
      cliOut = c.out as unknown as CliResult;
      if (baseCli) {
        const b = runChild(process.execPath, cliArgs(`${baseCli}/sim.mjs`));
        if ('error' in b) {
          console.log(`base command line (${baseCli}) failed: ${b.error}`);
          return;
        }
        baseWall.push(b.wallS);
      }
      if (!py) continue;
      const r = runChild('python3', ['bench/reference/trace_stats_ref.py', TRACE, ...CAPACITIES.map(String)]);
      if ('error' in r) {
        console.log(`Python reference failed: ${r.error}`);
        return;
      }
      pyWall.push(r.wallS);
      pyOut = r.out;
    }
    const cliS = median(cliWall);
    const before = baseWall.length
      ? ` | before (${baseCli}): ${(median(baseWall) * 1000).toFixed(0)} ms (fastest ${(Math.min(...baseWall) * 1000).toFixed(0)} ms)`
      : '';
    console.log(
      `command line (node dist-cli/sim.mjs trace-stats, whole process): ${(cliS * 1000).toFixed(0)} ms wall (median of ${PROCESS_RUNS}, fastest ${(Math.min(...cliWall) * 1000).toFixed(0)} ms)${before}`,
    );
    if (!py || !pyOut) {
      console.log('Python comparison skipped: python3 is not installed');
      return;
    }
    const pyS = median(pyWall);
    console.log(
      `Python reference (${py}, bench/reference/trace_stats_ref.py, whole process): ${(pyS * 1000).toFixed(0)} ms wall (median of ${PROCESS_RUNS}, fastest ${(Math.min(...pyWall) * 1000).toFixed(0)} ms), ${(pyOut.elapsedS * 1000).toFixed(0)} ms of it after the interpreter's start, peak RSS ${mib(pyOut.maxRssKiB * 1024)}`,
    );
    const ratio = pyS / cliS;
    const baseRatio = baseWall.length ? ` | before ${(pyS / median(baseWall)).toFixed(2)}×` : '';
    console.log(
      `ratio Python / command line, whole processes: ${ratio.toFixed(2)}× (goal ≥ 3×: ${ratio >= 3 ? 'meets' : 'MISSES'})${baseRatio}; against the warm in-process median ${(pyOut.elapsedS / (median(samples) / 1000)).toFixed(1)}×`,
    );
    console.log(
      `load average at the end: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(', ')} (2 cores)`,
    );
    console.log(
      `same figures (requests, input mean and p99, ideal and LRU ratios): ${cliOut && same(s, pyOut) && same(s, cliOut) ? 'yes' : 'NO'}`,
    );
  },
};
