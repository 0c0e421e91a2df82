/**
 * One fleet bench measurement in a fresh process (so peak RSS is this run's own):
 *   tsx bench/fleetChild.ts <scenario.json> <sessions> <replicas>
 * Scales the scenario's arrival rate with the replica count (same load per replica) and prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { runScenarioSync } from '../src/sim/engine/fleet/run';
import type { Scenario, SessionsWorkload } from '../src/sim/engine/fleet/scenario';

const [file, sessionsArg, replicasArg] = process.argv.slice(2);
const sc = JSON.parse(readFileSync(file, 'utf8')) as Scenario;
const base = sc.replicas;
const wl = sc.workload as SessionsWorkload;
const sessions = Number(sessionsArg ?? wl.sessions);
const replicas = Number(replicasArg ?? base);
sc.replicas = replicas;
wl.sessions = sessions;
if (wl.arrival.kind === 'poisson') wl.arrival.sessionsPerS *= replicas / base;
let heapPeak = 0;
let n = 0;
const t0 = performance.now();
const r = runScenarioSync(sc, {
  includeSeries: false,
  afterEvent: () => {
    if (++n % 20000 === 0) heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  },
});
const ms = performance.now() - t0;
heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
const m = r.metrics;
process.stdout.write(
  JSON.stringify({
    sessions,
    replicas,
    ms,
    requests: m.requests.created,
    finished: m.requests.finished,
    events: m.events,
    simulatedS: m.simulatedS,
    heapPeak,
    maxRSS: process.resourceUsage().maxRSS * 1024,
    ttftP90: m.requests.ttft.p90,
    reuse: m.tokens.reuseRatio,
  }) + '\n',
);
