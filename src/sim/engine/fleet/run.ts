/**
 * Running a scenario: `runScenario(scenario, options)` validates it, simulates it, streams frames (awaiting
 * each delivery: backpressure) and returns the metrics. Cooperative: `checkpoint` is awaited every
 * `checkpointEvery` events so a worker can yield and cancel. What the run reports is report.ts's.
 */
import type { Checkpoint } from '../cooperative';
import { FleetSim } from './engine';
import type { FleetFrame } from './frames';
import { reportRun, type FleetResult } from './report';
import { resolveScenario, type Scenario } from './scenario';
export type {
  ClassMetrics,
  FleetMetrics,
  FleetResult,
  ReplicaMetrics,
  RequestTable,
  TierTokens,
} from './report';

export interface RunOptions {
  /** Receives each frame; the run waits for the returned promise before going on. */
  onFrame?: (frame: FleetFrame) => void | Promise<void>;
  /**
   * Awaited every `checkpointEvery` events (default 5,000): a worker yields here and may throw to cancel. It is
   * passed how far the run is in simulated seconds (`done`; `total` 0: a run ends when its last session has, which
   * is not known before).
   */
  checkpoint?: Checkpoint;
  checkpointEvery?: number;
  /** Include the per-request table (typed arrays) in the result. */
  includeRequests?: boolean;
  /** Include the KV occupancy time series. Default true. */
  includeSeries?: boolean;
  /** Called after every event with the simulator (tests: invariants, monotonic time). */
  afterEvent?: (sim: FleetSim) => void;
}

/** Validate, simulate, report. Throws ScenarioError (with every problem, path + message) on a bad scenario. */
export async function runScenario(
  scenario: Scenario | unknown,
  options: RunOptions = {},
): Promise<FleetResult> {
  const rs = resolveScenario(scenario);
  const sim = new FleetSim(rs);
  const every = Math.max(1, options.checkpointEvery ?? 5000);
  let n = 0;
  for (;;) {
    const more = sim.step();
    options.afterEvent?.(sim);
    if (sim.pendingFrame) {
      const f = sim.pendingFrame;
      sim.pendingFrame = null;
      if (options.onFrame) await options.onFrame(f);
    }
    if (!more) break;
    if (options.checkpoint && ++n % every === 0) await options.checkpoint({ done: sim.now, total: 0 });
  }
  return reportRun(sim, rs, options);
}

/** The same without frames or checkpoints, synchronously (benches, tests). */
export function runScenarioSync(
  scenario: Scenario | unknown,
  options: Omit<RunOptions, 'onFrame' | 'checkpoint'> = {},
): FleetResult {
  const rs = resolveScenario(scenario);
  const sim = new FleetSim(rs);
  while (sim.step()) options.afterEvent?.(sim);
  sim.pendingFrame = null;
  return reportRun(sim, rs, options);
}
