/**
 * One fleet bench measurement as a whole process, the way a user runs it: `node dist-cli/sim.mjs run <file>`
 * (the bundled CLI that `npm run sim` runs), started fresh so that its start-up, module load, simulation, report
 * and peak RSS are its own. The parent times the process from spawn to exit; the process reports its peak RSS
 * on stderr as it exits.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario, SessionsWorkload } from '../src/sim/engine/fleet/scenario';

/**
 * Loads the CLI bundle with the given arguments and prints its peak RSS and CPU time (user + system, every thread)
 * when the process exits, and on Linux the main thread's CPU time and its wait for a core (schedstat). CPU time is
 * what the shared host's load disturbs least: a run waiting for a core takes longer but uses no more CPU. The main
 * thread runs the simulation; the other threads compile and collect, so the wall waits on the main thread, and its
 * wait says how much a busy host (or the compiler's threads) took from it.
 */
const WRAPPER = `
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [bundle, ...args] = process.argv.slice(1);
process.argv = [process.argv[0], bundle, ...args];
process.on('exit', () => {
  const u = process.resourceUsage();
  let main = '';
  try {
    const [run, wait] = readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ');
    main = ' BENCH_MAIN_NS ' + run + ' BENCH_WAIT_NS ' + wait;
  } catch {}
  process.stderr.write('\\nBENCH_MAXRSS ' + u.maxRSS * 1024 + ' BENCH_CPU_US ' + (u.userCPUTime + u.systemCPUTime) + ' BENCH_FAULTS ' + u.minorPageFault + main + '\\n');
});
await import(pathToFileURL(bundle).href);
`;

export interface FleetRun {
  /** Whole process, spawn to exit. */
  wallMs: number;
  /** CPU time of the process, user + system, all threads. */
  cpuMs: number;
  /** The main thread's CPU time and its wait for a core (Linux schedstat; NaN elsewhere). */
  mainMs: number;
  waitMs: number;
  maxRSS: number;
  /** Minor page faults of the process (every thread): each first touch of a page. */
  faults: number;
  simulatedS: number;
  events: number;
  requests: number;
  finished: number;
  ttftP90: number;
}

/** Run `scenarioFile` with the bundled CLI (`cliDir`, default the checkout's dist-cli/) in a fresh process. */
export function runFleetProcess(
  root: string,
  scenarioFile: string,
  cliDir = join(root, 'dist-cli'),
): FleetRun {
  const bundle = join(cliDir, 'sim.mjs');
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', WRAPPER, bundle, 'run', scenarioFile], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const wallMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`fleet bench run of ${scenarioFile} failed: ${r.stderr}`);
  const rss = /BENCH_MAXRSS (\d+)/.exec(r.stderr);
  const cpu = /BENCH_CPU_US (\d+)/.exec(r.stderr);
  const faults = /BENCH_FAULTS (\d+)/.exec(r.stderr);
  const main = /BENCH_MAIN_NS (\d+) BENCH_WAIT_NS (\d+)/.exec(r.stderr);
  const m = JSON.parse(r.stdout) as {
    simulatedS: number;
    events: number;
    requests: { created: number; finished: number; ttft: { p90: number } };
  };
  return {
    wallMs,
    cpuMs: cpu ? Number(cpu[1]) / 1000 : NaN,
    mainMs: main ? Number(main[1]) / 1e6 : NaN,
    waitMs: main ? Number(main[2]) / 1e6 : NaN,
    maxRSS: rss ? Number(rss[1]) : NaN,
    faults: faults ? Number(faults[1]) : NaN,
    simulatedS: m.simulatedS,
    events: m.events,
    requests: m.requests.created,
    finished: m.requests.finished,
    ttftP90: m.requests.ttft.p90,
  };
}

/**
 * `base` scaled to `sessions` sessions on `replicas` replicas with the same load per replica (the arrival rate
 * scales with the replica count), written to a temporary file; returns its path.
 */
export function scaledScenario(baseFile: string, sessions: number, replicas: number): string {
  const sc = JSON.parse(readFileSync(baseFile, 'utf8')) as Scenario;
  const wl = sc.workload as SessionsWorkload;
  const k = replicas / sc.replicas;
  sc.name = `${sc.name}-scaled-${sessions}x${replicas}`;
  sc.replicas = replicas;
  wl.sessions = sessions;
  if (wl.arrival.kind === 'poisson') wl.arrival.sessionsPerS *= k;
  const file = join(mkdtempSync(join(tmpdir(), 'fleet-bench-')), 'scenario.json');
  writeFileSync(file, JSON.stringify(sc));
  return file;
}
