/**
 * Fleet simulator speed and memory: the 16-replica, 1,000-session agent fleet of
 * scenarios/bench-16x1000-agents.json (≈40,000 requests, tool pauses, chunked prefill), and how the cost grows
 * with the fleet (sessions and replicas scaled together, same load per replica). Each size runs in a fresh
 * process so its peak RSS is its own. Target: the full size under 5 s and 500 MB on the project's 2-core machine.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mib } from '../util';
import type { BenchSuite } from './index';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCENARIO = 'scenarios/bench-16x1000-agents.json';
const SIZES: [sessions: number, replicas: number][] = [
  [250, 4],
  [500, 8],
  [1000, 16],
];

interface Child {
  sessions: number;
  replicas: number;
  ms: number;
  requests: number;
  finished: number;
  events: number;
  simulatedS: number;
  heapPeak: number;
  maxRSS: number;
  ttftP90: number;
  reuse: number;
}

function measure(sessions: number, replicas: number): Child {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/fleetChild.ts', SCENARIO, String(sessions), String(replicas)],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  if (r.status !== 0) throw new Error(`fleet bench child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Child;
}

export const fleetSuite: BenchSuite = {
  name: 'fleet',
  description: `fleet simulation (${SCENARIO}) at three sizes, sessions and replicas scaled together`,
  run() {
    const rows: Child[] = [];
    for (const [s, r] of SIZES) {
      const c = measure(s, r);
      rows.push(c);
      console.log(
        `${String(s).padStart(5)} sessions × ${String(r).padStart(2)} replicas: ${c.requests} requests, ${c.events} events, ` +
          `${(c.ms / 1000).toFixed(2)} s (${((c.ms * 1000) / c.events).toFixed(1)} µs/event, ${((c.ms * 1000) / c.requests).toFixed(0)} µs/request), ` +
          `heap peak ${mib(c.heapPeak)}, peak RSS ${mib(c.maxRSS)}; simulated ${c.simulatedS.toFixed(0)} s, TTFT p90 ${c.ttftP90.toFixed(3)} s, reuse ${(c.reuse * 100).toFixed(1)}%`,
      );
    }
    const a = rows[0];
    const z = rows[rows.length - 1];
    console.log(
      `growth ${a.sessions}→${z.sessions} sessions (×${z.sessions / a.sessions}): time ×${(z.ms / a.ms).toFixed(2)}, events ×${(z.events / a.events).toFixed(2)}, ` +
        `peak RSS ×${(z.maxRSS / a.maxRSS).toFixed(2)}`,
    );
    const ok = z.ms < 5000 && z.maxRSS < 500 * 1024 * 1024;
    console.log(`target (1,000 sessions × 16 replicas < 5 s and < 500 MB): ${ok ? 'met' : 'NOT met'}`);
  },
};
