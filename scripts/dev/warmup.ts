// How much of a fleet run is the JIT's warm-up (docs/performance.md, "Eighth round"): the same scenario run several
// times in one process, each run's wall time and its time per 10,000 events. The first run pays for the optimizing
// compiler; the later ones show the steady state.
//
//   npx tsx scripts/dev/warmup.ts [scenario.json] [runs]   (default: scenarios/bench-16x1000-agents.json, 3 runs)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FleetSim } from '../../src/sim/engine/fleet/engine';
import { resolveScenario } from '../../src/sim/engine/fleet/scenario';

const root = join(import.meta.dirname, '..', '..');
const file = process.argv[2] ?? join(root, 'scenarios', 'bench-16x1000-agents.json');
const runs = Number(process.argv[3] ?? 3);
const scenario: unknown = JSON.parse(readFileSync(file, 'utf8'));
const EVERY = 10_000;

for (let run = 1; run <= runs; run++) {
  const start = performance.now();
  const sim = new FleetSim(resolveScenario(scenario));
  const per: number[] = [];
  let events = 0;
  let last = start;
  while (sim.step()) {
    if (++events % EVERY === 0) {
      const now = performance.now();
      per.push(Math.round(now - last));
      last = now;
    }
  }
  const total = Math.round(performance.now() - start);
  console.log(`run ${run}: ${total} ms, ${events} events; ms per ${EVERY} events: ${per.join(' ')}`);
}
