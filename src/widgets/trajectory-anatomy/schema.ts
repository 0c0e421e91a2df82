import type { NumberParam, ParamSchema, ParamValues } from '../../state/paramSchema';
import { formatDuration } from '../../lib/format';
import { TOOL_LATENCY_PRESETS, type ToolLatencyPreset } from '../../sim/engine/fleet/dist';
import { mean, quantile } from '../../sim/lessons/toolLatency';
import { WORKLOAD_LIMITS } from '../../sim/lessons/agentWorkloadSetup';
import { controlRange } from '../kit/controlRange';

/** A preset's median (and mean), in closed form from the fit in dist.ts. */
function stats(id: ToolLatencyPreset, withMean = false): string {
  const d = TOOL_LATENCY_PRESETS[id];
  const m = `median ${formatDuration(quantile(d, 0.5), 2)}`;
  return withMean ? `${m}, mean ${formatDuration(mean(d), 2)}` : m;
}

export const TRAJECTORY_ID = 'trajectory-anatomy';

/**
 * Lesson 07.01's "median turns" control, the same in both its widgets: the generator's target, around which each
 * session draws its own number of turns, so the read-out beside it (`help` says which) gives what was drawn.
 */
export function medianTurnsParam(help: string): NumberParam {
  return {
    kind: 'number',
    label: 'Median turns of an agent session (target)',
    default: 30,
    // A median of one turn is a chat session, not an agent's.
    ...controlRange(WORKLOAD_LIMITS.medianTurns, { min: 2, max: 100 }),
    integer: true,
    unit: 'turns',
    help,
  };
}

export const trajectorySchema = {
  kind: {
    kind: 'select',
    label: 'Session',
    default: 'agent',
    options: [
      { value: 'agent', label: 'Coding agent' },
      { value: 'chat', label: 'Chat' },
    ],
  },
  sameAxes: {
    kind: 'boolean',
    label: 'Same token axis for agent and chat',
    default: true,
    help: 'Off: the token axis fits the shown session alone',
  },
  medianTurns: medianTurnsParam(
    'The generator draws the session’s turns around this median; the read-out gives the turns drawn',
  ),
  toolLatency: {
    kind: 'select',
    label: 'Tool latency (agent)',
    default: 'coding-mix',
    options: [
      { value: 'coding-mix', label: `Coding-agent mix (${stats('coding-mix', true)})` },
      { value: 'local', label: `Local file tools (${stats('local')})` },
      { value: 'shell', label: `Shell commands (${stats('shell')})` },
      { value: 'web', label: `Web / API calls (${stats('web')})` },
      { value: 'human', label: `Human approval (${stats('human')})` },
    ],
    help: 'TraceLab and NVIDIA Dynamo figures (src/sim/engine/fleet/dist.ts)',
  },
  seed: { kind: 'seed', label: 'Seed', default: 17 },
} satisfies ParamSchema;

/** What the widget asks the worker (agentTrajectory) for its settings. */
export function trajectoryArgs(v: ParamValues<typeof trajectorySchema>) {
  return { seed: v.seed, toolLatency: v.toolLatency as ToolLatencyPreset, medianTurns: v.medianTurns };
}
