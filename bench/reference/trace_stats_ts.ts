/**
 * The TypeScript side of the trace-stats bench in a fresh process (cold JIT, like each Python run): reads the
 * trace, computes the statistics with the given LRU capacities, prints JSON with the time after start-up
 * (elapsedS) and the peak RSS (maxRssKiB), the same fields the Python reference prints.
 *
 * usage: tsx bench/reference/trace_stats_ts.ts <trace.jsonl> [capacity ...]
 */
import { readFileSync } from 'node:fs';
import { mooncakeTable, traceStats } from '../../src/sim/engine/trace';

const [path, ...caps] = process.argv.slice(2);
const t0 = performance.now();
const { table } = mooncakeTable(readFileSync(path, 'utf8'));
const s = traceStats(table, { lruCapacities: caps.map(Number) });
const elapsedS = (performance.now() - t0) / 1000;
process.stdout.write(
  JSON.stringify({
    ...s,
    elapsedS,
    maxRssKiB: process.resourceUsage().maxRSS,
    heapUsedBytes: process.memoryUsage().heapUsed,
  }) + '\n',
);
