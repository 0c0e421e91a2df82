// The fleet speed work's identity check (docs/performance.md): the 31 reference runs, the JSON report and the
// `--requests` CSV of every scenario under scenarios/ plus the 16 × 1,000 bench fleet with a cache-aware router on a
// 1 s delayed view, made with one CLI build and compared byte for byte with another's.
//
//   node scripts/dev/reference-runs.mjs run <cli-dir> <out-dir>   (cli-dir holds dist-cli/ and package.json)
//   node scripts/dev/reference-runs.mjs compare <out-dir-a> <out-dir-b>
//
// A speed change is kept only when `compare` finds no difference against the session's first build.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const [cmd, a, b] = process.argv.slice(2);

function scenarios(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...scenarios(p));
    else if (e.name.endsWith('.json')) out.push(p);
  }
  return out.sort();
}

async function runAll(cliDir, outDir) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const bench = JSON.parse(readFileSync(join(root, 'scenarios', 'bench-16x1000-agents.json'), 'utf8'));
  const delayed = {
    ...bench,
    name: 'bench-16x1000-delayed',
    router: { kind: 'cache-aware', view: { kind: 'delayed', intervalS: 1 } },
  };
  const delayedFile = join(outDir, 'delayed-view.scenario.json');
  writeFileSync(delayedFile, JSON.stringify(delayed, null, 2));
  const files = [...scenarios(join(root, 'scenarios')), delayedFile];
  const cli = join(cliDir, 'dist-cli', 'sim.mjs');
  const queue = files.slice();
  const worker = async () => {
    for (let f = queue.shift(); f; f = queue.shift()) {
      const name = (f === delayedFile ? 'delayed-view' : relative(root, f)).replace(/[\\/]/g, '_');
      const csv = join(outDir, `${name}.csv`);
      const { stdout } = await run(process.execPath, [cli, 'run', f, '--requests', csv], {
        cwd: root,
        maxBuffer: 256 << 20,
      });
      // The report names the CSV's path, which differs between output folders.
      writeFileSync(join(outDir, `${name}.out.json`), stdout.replaceAll(outDir, '<out>'));
    }
  };
  await Promise.all([worker(), worker()]);
  console.log(`${files.length} runs into ${outDir}`);
}

function sameFile(p, q) {
  try {
    return statSync(p).size === statSync(q).size && readFileSync(p).equals(readFileSync(q));
  } catch {
    return false; // missing on one side
  }
}

function compare(x, y) {
  const names = readdirSync(x).filter((n) => n.endsWith('.csv') || n.endsWith('.out.json'));
  let diffs = 0;
  for (const n of names) {
    const same = sameFile(join(x, n), join(y, n));
    if (!same) {
      diffs++;
      console.log(`differs: ${n}`);
    }
  }
  console.log(`${names.length} files compared, ${diffs} differ`);
  process.exitCode = diffs ? 1 : 0;
}

if (cmd === 'run' && a && b) await runAll(a, b);
else if (cmd === 'compare' && a && b) compare(a, b);
else {
  console.error('usage: reference-runs.mjs run <cli-dir> <out-dir> | compare <out-dir-a> <out-dir-b>');
  process.exitCode = 2;
}
