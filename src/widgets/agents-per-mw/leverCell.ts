/**
 * One cell of the lever grid at the lesson's defaults, as the prose quotes it: read from the widget's own grid job
 * when the grid has it (the shared run, first in line), or computed alone when it is another tool's or a router the
 * grid does not compare (`cellOnly`, after the widgets' first runs). LeverFig and the routers' table read it so.
 */
import { useSimulation } from '../kit/useSimulation';
import { defaultValues } from '../../state/paramSchema';
import { ECON_ROUTERS, type EconPolicyId, type EconRouterId } from '../../sim/lessons/economicsLabSetup';
import type { CapacityResult } from '../../sim/lessons/economicsLab';
import { gridArgs } from './LeverGrid';
import { leverGridSchema } from './schema';

export const GRID_DEFAULTS = defaultValues(leverGridSchema);

export interface LeverCell {
  cell: CapacityResult | undefined;
  failed: boolean;
  node: ReturnType<typeof gridArgs>['node'];
}

export function useLeverCell(router: EconRouterId, policy: EconPolicyId, tool?: 'web' | 'shell'): LeverCell {
  const own = tool !== undefined || !(ECON_ROUTERS as readonly EconRouterId[]).includes(router);
  const args = own
    ? { ...gridArgs({ ...GRID_DEFAULTS, ...(tool ? { tool } : {}), router, policy }), cellOnly: true }
    : gridArgs(GRID_DEFAULTS);
  // A cell of its own is the prose's alone: it waits until the widgets' first runs have had their turn.
  const sim = useSimulation('leverGrid', args, undefined, undefined, own ? 'deferred' : 'initial');
  return {
    cell: sim.result?.cells.find((c) => c.router === router && c.policy === policy),
    failed: sim.status === 'error',
    node: args.node,
  };
}
