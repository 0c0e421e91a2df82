// Two builds as whole processes, side by side (docs/performance.md, "Twelfth round"): N pairs of fresh
// `node dist-cli/sim.mjs run <scenario>` processes, run as the fleet bench runs them (bench/fleetChild.ts), which
// build goes first alternating pair by pair, and for each build the medians of: wall time (spawn to exit), CPU of
// every thread, the main thread's CPU and its wait for a core (`/proc/self/task/<pid>/schedstat`), minor page
// faults and peak RSS; then B/A of the medians and the median of the pairs' ratios. What steady-ab.mjs leaves out
// (the JIT's warm-up, the collector's first growth, first-touch faults) is in here; the host's load is too, so judge
// a change by both orders (A B and B A) and by the main-thread CPU as much as by the wall. Linux only (schedstat).
//
//   npm run sim -- --help >/dev/null                       # builds dist-cli/ (this checkout)
//   npx tsx scripts/dev/process-ab.ts <cli-dir-A> <cli-dir-B> [pairs] [scenario.json]
//   (a cli dir holds dist-cli/; defaults: 8 pairs, scenarios/bench-16x1000-agents.json)
import { join, resolve } from 'node:path';
import { runFleetProcess, type FleetRun } from '../../bench/fleetChild';
import { median } from '../../bench/util';

const root = join(import.meta.dirname, '..', '..');
const [dirA, dirB] = process.argv.slice(2, 4).map((d) => resolve(d ?? ''));
if (!process.argv[3])
  throw new Error('usage: npx tsx scripts/dev/process-ab.ts <cli-dir-A> <cli-dir-B> [pairs] [scenario]');
const pairs = Number(process.argv[4] ?? 8);
const scenario = resolve(process.argv[5] ?? join(root, 'scenarios', 'bench-16x1000-agents.json'));

function run(dir: string): FleetRun {
  const r = runFleetProcess(root, scenario, join(dir, 'dist-cli'));
  if (!Number.isFinite(r.mainMs))
    throw new Error('process-ab reads /proc/self/task/<pid>/schedstat: Linux only');
  return r;
}

const A: FleetRun[] = [];
const B: FleetRun[] = [];
for (let i = 0; i < pairs; i++) {
  if (i % 2 === 0) {
    A.push(run(dirA));
    B.push(run(dirB));
  } else {
    B.push(run(dirB));
    A.push(run(dirA));
  }
}
console.log(`A ${dirA}\nB ${dirB}\n${pairs} pairs of ${scenario}`);
const figures: [string, string, (x: FleetRun) => number][] = [
  ['wall', 'ms', (x) => x.wallMs],
  ['cpu', 'ms', (x) => x.cpuMs],
  ['main', 'ms', (x) => x.mainMs],
  ['wait', 'ms', (x) => x.waitMs],
  ['faults', '', (x) => x.faults],
  ['rss', 'MiB', (x) => x.maxRSS / 1048576],
];
for (const [k, unit, of] of figures) {
  const a = median(A.map(of));
  const b = median(B.map(of));
  const pairRatio = median(A.map((x, i) => of(B[i]) / of(x)));
  console.log(
    `${k.padEnd(7)} A ${a.toFixed(1).padStart(9)} ${unit.padEnd(3)} B ${b.toFixed(1).padStart(9)} ${unit.padEnd(3)}` +
      ` B/A ${(b / a).toFixed(3)}, median of pairs ${pairRatio.toFixed(3)}`,
  );
}
