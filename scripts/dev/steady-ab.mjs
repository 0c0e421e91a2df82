// Two builds' steady state side by side (docs/performance.md, "Eleventh round"): both bundles loaded in one
// process, each run twice to warm up, then N runs alternating between them (which goes first alternates too), so
// the host's load, which moves whole-process figures by more than most changes do, falls on both alike. Prints the
// median and the fastest run of each and their ratios. A whole-process run is mostly the JIT's warm-up; this
// measures the code's own speed, which the warm-up does not hide from the steady part of every run.
//
//   npm run sim -- --help >/dev/null                       # builds dist-cli/ (this checkout)
//   node scripts/dev/steady-ab.mjs <cli-dir-A> <cli-dir-B> [runs] [scenario.json]
//   (a cli dir holds dist-cli/; defaults: 8 runs each, scenarios/bench-16x1000-agents.json)
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..', '..');
const [dirA, dirB] = process.argv.slice(2, 4).map((d) => resolve(d ?? ''));
if (!process.argv[3])
  throw new Error('usage: node scripts/dev/steady-ab.mjs <cli-dir-A> <cli-dir-B> [runs] [scenario]');
const runs = Number(process.argv[4] ?? 8);
const file = process.argv[5] ?? join(root, 'scenarios', 'bench-16x1000-agents.json');

async function load(dir) {
  const chunk = readdirSync(join(dir, 'dist-cli', 'chunks')).find((f) => f.startsWith('run-'));
  if (!chunk)
    throw new Error(`no dist-cli/chunks/run-*.mjs under ${dir}: build it with npm run sim -- --help`);
  return (await import(pathToFileURL(join(dir, 'dist-cli', 'chunks', chunk)).href)).runCommand;
}

const write = process.stdout.write.bind(process.stdout);
async function time(command) {
  process.stdout.write = () => true; // the report is not what is timed here
  const start = performance.now();
  try {
    await command.run({ positionals: [file], flags: new Map() });
  } finally {
    process.stdout.write = write;
  }
  return performance.now() - start;
}

const a = await load(dirA);
const b = await load(dirB);
for (let i = 0; i < 2; i++) {
  await time(a);
  await time(b);
}
const ta = [];
const tb = [];
for (let i = 0; i < runs; i++) {
  if (i % 2) {
    tb.push(await time(b));
    ta.push(await time(a));
  } else {
    ta.push(await time(a));
    tb.push(await time(b));
  }
}
const median = (x) => [...x].sort((p, q) => p - q)[x.length >> 1];
const ms = (x) => `${Math.round(x)} ms`;
console.log(`A ${dirA}: median ${ms(median(ta))}, fastest ${ms(Math.min(...ta))}`);
console.log(`B ${dirB}: median ${ms(median(tb))}, fastest ${ms(Math.min(...tb))}`);
console.log(
  `B/A: median ${(median(tb) / median(ta)).toFixed(3)}, fastest ${(Math.min(...tb) / Math.min(...ta)).toFixed(3)}; ` +
    `pairs ${ta.map((x, i) => (tb[i] / x).toFixed(3)).join(' ')}`,
);
