/**
 * The fleet simulator behind the worker: `runFleet` runs a scenario (src/sim/engine/fleet, docs/scenarios.md),
 * streams its animation frames (transferred, not copied; each awaited, so a slow consumer slows the run rather
 * than piling frames up) and yields every few thousand events so a newer request can cancel it.
 */
import { BadRequest } from './badRequest';
import * as Comlink from 'comlink';
import { transferables, type FleetFrame } from '../sim/engine/fleet/frames';
import { runScenario, type FleetResult } from '../sim/engine/fleet/run';
import { ScenarioError, type Scenario } from '../sim/engine/fleet/scenario';
import { TraceLoadError } from '../sim/engine/fleet/trace';
import { TraceError } from '../sim/engine/trace/errors';
import type { JobContext } from './job';

export interface RunFleetRequest {
  /** A scenario; a trace workload must carry its `text` (or Mooncake `records`), not a `path`. */
  scenario: Scenario;
  /** Include the per-request table (typed arrays). */
  includeRequests?: boolean;
  /** Include the KV-occupancy time series (default true). */
  includeSeries?: boolean;
  /** Events between cooperative yields (default 4,000: a few ms of work). */
  checkpointEvery?: number;
}

export async function runFleet(req: RunFleetRequest, ctx: JobContext<FleetFrame>): Promise<FleetResult> {
  try {
    return await runScenario(req.scenario, {
      onFrame: (f) => ctx.emit(Comlink.transfer(f, transferables(f))),
      checkpoint: () => ctx.checkpoint(),
      checkpointEvery: req.checkpointEvery ?? 4000,
      includeRequests: req.includeRequests,
      includeSeries: req.includeSeries,
    });
  } catch (e) {
    if (e instanceof ScenarioError || e instanceof TraceError || e instanceof TraceLoadError)
      throw new BadRequest(e.message);
    throw e;
  }
}

export const fleetMethods = { runFleet };
