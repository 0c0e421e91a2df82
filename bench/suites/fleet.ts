/**
 * Fleet simulator speed and memory, as a whole process (`node dist-cli/sim.mjs run <scenario>`, what
 * `npm run sim -- run` runs), at three fleet sizes of the same agent workload with the same load per replica:
 * 250 sessions × 4 replicas (scaled from the 16-replica file), scenarios/bench-16x1000-agents.json and
 * scenarios/bench-64x4000-agents.json. Each size runs BENCH_RUNS times (default 3) in fresh processes; the
 * figures are medians. Goals (issue 9): ≥ 1,000 simulated seconds per wall second on 16 × 1,000, and the
 * 64 × 4,000 fleet in under 10 s.
 *
 * Each run also reports its CPU time (user + system, all threads): on a shared host a run that waits for a core
 * takes longer in wall time but no more CPU, so CPU is the steadier figure of the code. On Linux it also reports the
 * main thread's CPU and its wait for a core: the simulation runs there, the compiler and the collector on the other
 * threads, so the wall is the main thread's CPU plus its wait (docs/performance.md, twelfth round). With
 * BENCH_BASE_CLI=<folder> (a copy of dist-cli/ built at another commit, with package.json copied beside the
 * folder), that build runs too, interleaved run by run with this one, and each size prints both medians and the
 * ratio: the comparison that holds on a noisy host.
 *
 * The host's memory latency and arithmetic speed are printed before and after the runs (bench/hostProbe.ts): the
 * simulator waits on memory, and a shared host's memory latency moves its figures by up to 2× from hour to hour.
 *
 * The scaling exponent is the least-squares slope of log wall time against log events and against log
 * (sessions × replicas). Events are the work (≈ 4× per step here, as sessions are 4× per step at the same
 * load per replica), so a slope near 1 against events is linear cost; sessions × replicas grows 16× per step,
 * so linear cost shows as a slope near 0.5 against it.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { median, mib } from '../util';
import { runFleetProcess, scaledScenario, type FleetRun } from '../fleetChild';
import { describeProbe, probeHost } from '../hostProbe';
import type { BenchSuite } from './index';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BASE = 'scenarios/bench-16x1000-agents.json';
const SIZES: { sessions: number; replicas: number; file: () => string }[] = [
  { sessions: 250, replicas: 4, file: () => scaledScenario(join(ROOT, BASE), 250, 4) },
  { sessions: 1000, replicas: 16, file: () => join(ROOT, BASE) },
  { sessions: 4000, replicas: 64, file: () => join(ROOT, 'scenarios/bench-64x4000-agents.json') },
];
const GOAL_SPEED = 1000; // simulated seconds per wall second on 16 × 1,000
const GOAL_LARGE_S = 10; // wall seconds for 64 × 4,000

/** Least-squares slope of log y against log x. */
function logSlope(xs: number[], ys: number[]): number {
  const lx = xs.map(Math.log);
  const ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i] - mx) * (ly[i] - my);
    den += (lx[i] - mx) ** 2;
  }
  return num / den;
}

interface Times {
  wallS: number;
  cpuS: number;
  /** The main thread's CPU and its wait for a core (NaN off Linux). */
  mainS: number;
  waitS: number;
}

/** Median wall and CPU seconds of a build's runs. */
function medianTimes(runs: FleetRun[]): Times {
  return {
    wallS: median(runs.map((s) => s.wallMs)) / 1000,
    cpuS: median(runs.map((s) => s.cpuMs)) / 1000,
    mainS: median(runs.map((s) => s.mainMs)) / 1000,
    waitS: median(runs.map((s) => s.waitMs)) / 1000,
  };
}

/** ", main thread X s (waited Y s for a core)", or nothing where the platform does not say. */
function mainThread(t: Times): string {
  return Number.isFinite(t.mainS)
    ? `, main thread ${t.mainS.toFixed(2)} s (waited ${t.waitS.toFixed(2)} s for a core)`
    : '';
}

interface Row extends Times {
  sessions: number;
  replicas: number;
  runsS: number[];
  maxRSS: number;
  run: FleetRun;
  /** The base build's medians (BENCH_BASE_CLI), run interleaved with these. */
  base?: Times;
}

export const fleetSuite: BenchSuite = {
  name: 'fleet',
  description: `fleet simulation as a whole process (bundled CLI) at 250 × 4, 1,000 × 16 and 4,000 × 64 (sessions × replicas), same load per replica`,
  run() {
    const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
    const build = spawnSync(process.execPath, ['scripts/sim.mjs', '--build-only'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`could not build the CLI bundle: ${build.stderr}`);
    console.log(`host before the runs: ${describeProbe(probeHost())}`);
    const rows: Row[] = [];
    const baseCli = process.env.BENCH_BASE_CLI;
    for (const size of SIZES) {
      const file = size.file();
      const samples: FleetRun[] = [];
      const baseSamples: FleetRun[] = [];
      for (let i = 0; i < runs; i++) {
        samples.push(runFleetProcess(ROOT, file));
        if (baseCli) baseSamples.push(runFleetProcess(ROOT, file, baseCli));
      }
      const times = medianTimes(samples);
      const { wallS } = times;
      const row: Row = {
        ...size,
        ...times,
        runsS: samples.map((s) => s.wallMs / 1000),
        maxRSS: median(samples.map((s) => s.maxRSS)),
        run: samples[0], // simulated figures are the same every run (seeded)
        base: baseCli ? medianTimes(baseSamples) : undefined,
      };
      rows.push(row);
      const r = row.run;
      console.log(
        `${String(size.sessions).padStart(5)} sessions × ${String(size.replicas).padStart(2)} replicas: ` +
          `${wallS.toFixed(2)} s wall (median of ${runs}: ${row.runsS.map((x) => x.toFixed(2)).join(', ')}), ` +
          `${(r.simulatedS / wallS).toFixed(0)} simulated s per wall s (${r.simulatedS.toFixed(0)} s simulated), ` +
          `${(r.events / wallS / 1000).toFixed(0)}k events/s (${r.events} events, ${r.requests} requests), ` +
          `peak RSS ${mib(row.maxRSS)}, CPU ${row.cpuS.toFixed(2)} s${mainThread(row)}; TTFT p90 ${r.ttftP90.toFixed(3)} s`,
      );
      if (row.base)
        console.log(
          `      | before (${baseCli}): ${row.base.wallS.toFixed(2)} s wall, CPU ${row.base.cpuS.toFixed(2)} s${mainThread(row.base)}; ` +
            `this build takes ${(row.wallS / row.base.wallS).toFixed(3)}× the wall time, ${(row.cpuS / row.base.cpuS).toFixed(3)}× the CPU` +
            (Number.isFinite(row.mainS)
              ? `, ${(row.mainS / row.base.mainS).toFixed(3)}× the main thread's`
              : ''),
        );
    }
    console.log(`host after the runs: ${describeProbe(probeHost())}`);
    const walls = rows.map((r) => r.wallS);
    console.log(
      `scaling exponent of wall time: ${logSlope(
        rows.map((r) => r.run.events),
        walls,
      ).toFixed(2)} against events (1 = linear), ${logSlope(
        rows.map((r) => r.sessions * r.replicas),
        walls,
      ).toFixed(2)} against sessions × replicas (0.5 = linear in events here)`,
    );
    const mid = rows[1];
    const big = rows[2];
    const speed = mid.run.simulatedS / mid.wallS;
    console.log(
      `goal 16 × 1,000 ≥ ${GOAL_SPEED} simulated s per wall s: ${speed.toFixed(0)} (${speed >= GOAL_SPEED ? 'met' : 'NOT met'})`,
    );
    console.log(
      `goal 64 × 4,000 < ${GOAL_LARGE_S} s: ${big.wallS.toFixed(2)} s (${big.wallS < GOAL_LARGE_S ? 'met' : 'NOT met'})`,
    );
  },
};
