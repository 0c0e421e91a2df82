// The bundled `run` command several times in one process (docs/performance.md, "Ninth round"): the first run pays
// the optimizing compiler's warm-up, the later ones show the bundle's steady state. Unlike warmup.ts (source, under
// tsx) this measures the very code the bench times.
//
//   npm run sim -- --help >/dev/null   # builds dist-cli/
//   node scripts/dev/bundle-runs.mjs [cli-dir] [runs] [scenario.json]
//   (defaults: this checkout, 3 runs, scenarios/bench-16x1000-agents.json)
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..', '..');
const dir = resolve(process.argv[2] ?? root);
const runs = Number(process.argv[3] ?? 3);
const file = process.argv[4] ?? join(root, 'scenarios', 'bench-16x1000-agents.json');
const chunk = readdirSync(join(dir, 'dist-cli', 'chunks')).find((f) => f.startsWith('run-'));
if (!chunk) throw new Error(`no dist-cli/chunks/run-*.mjs under ${dir}: build it with npm run sim -- --help`);
const { runCommand } = await import(pathToFileURL(join(dir, 'dist-cli', 'chunks', chunk)).href);
for (let i = 1; i <= runs; i++) {
  const start = performance.now();
  await runCommand.run({ positionals: [file], flags: new Map() });
  console.log(`run ${i}: ${Math.round(performance.now() - start)} ms`);
}
