// Two builds as whole processes, side by side (docs/performance.md, "Twelfth round"): N pairs of fresh
// `node dist-cli/sim.mjs run <scenario>` processes, which build goes first alternating pair by pair, and for each
// build the medians of: wall time (spawn to exit), CPU of every thread, the main thread's CPU and its wait for a
// core (`/proc/self/task/<pid>/schedstat`), minor page faults and peak RSS; then B/A of the medians and the median of
// the pairs' ratios. What steady-ab.mjs leaves out (the JIT's warm-up, the collector's first growth, first-touch
// faults) is in here; the host's load is too, so judge a change by both orders (A B and B A) and by the
// main-thread CPU as much as by the wall. Linux only (schedstat).
//
//   npm run sim -- --help >/dev/null                       # builds dist-cli/ (this checkout)
//   node scripts/dev/process-ab.mjs <cli-dir-A> <cli-dir-B> [pairs] [scenario.json]
//   (a cli dir holds dist-cli/; defaults: 8 pairs, scenarios/bench-16x1000-agents.json)
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const [dirA, dirB] = process.argv.slice(2, 4).map((d) => resolve(d ?? ''));
if (!process.argv[3])
  throw new Error('usage: node scripts/dev/process-ab.mjs <cli-dir-A> <cli-dir-B> [pairs] [scenario]');
const pairs = Number(process.argv[4] ?? 8);
const scenario = resolve(process.argv[5] ?? join(root, 'scenarios', 'bench-16x1000-agents.json'));

// Imports the bundle as `sim.mjs run <scenario>` would run, and reports its own figures on stderr as it exits.
const WRAPPER = `
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [bundle, ...args] = process.argv.slice(1);
process.argv = [process.argv[0], bundle, ...args];
process.on('exit', () => {
  const u = process.resourceUsage();
  const [run, wait] = readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ').map(Number);
  process.stderr.write('\\nPROCESS_AB ' + JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1000,
    main: run / 1e6, wait: wait / 1e6, faults: u.minorPageFault, rss: u.maxRSS / 1024 }) + '\\n');
});
await import(pathToFileURL(bundle).href);
`;

function run(dir) {
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', WRAPPER, join(dir, 'dist-cli', 'sim.mjs'), 'run', scenario],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const wall = performance.now() - t0;
  const m = /\nPROCESS_AB (.*)\n/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${dir}: the run failed: ${r.stderr}`);
  return { wall, ...JSON.parse(m[1]) };
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

const A = [];
const B = [];
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
const units = { wall: 'ms', cpu: 'ms', main: 'ms', wait: 'ms', faults: '', rss: 'MiB' };
for (const [k, unit] of Object.entries(units)) {
  const a = median(A.map((x) => x[k]));
  const b = median(B.map((x) => x[k]));
  const pairRatio = median(A.map((x, i) => B[i][k] / x[k]));
  console.log(
    `${k.padEnd(7)} A ${a.toFixed(1).padStart(9)} ${unit.padEnd(3)} B ${b.toFixed(1).padStart(9)} ${unit.padEnd(3)}` +
      ` B/A ${(b / a).toFixed(3)}, median of pairs ${pairRatio.toFixed(3)}`,
  );
}
