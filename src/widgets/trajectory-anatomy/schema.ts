import type { ParamSchema } from '../../state/paramSchema';

export const TRAJECTORY_ID = 'trajectory-anatomy';

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
  medianTurns: {
    kind: 'number',
    label: 'Median turns of an agent session',
    default: 30,
    min: 2,
    max: 100,
    integer: true,
    unit: 'turns',
  },
  toolLatency: {
    kind: 'select',
    label: 'Tool latency (agent)',
    default: 'coding-mix',
    options: [
      { value: 'coding-mix', label: 'Coding-agent mix (median 0.13 s, mean 17 s)' },
      { value: 'local', label: 'Local file tools (median 50 ms)' },
      { value: 'shell', label: 'Shell commands (median 0.45 s)' },
      { value: 'web', label: 'Web / API calls (median 3 s)' },
      { value: 'human', label: 'Human approval (median 86 s)' },
    ],
    help: 'TraceLab and NVIDIA Dynamo figures (src/sim/engine/fleet/dist.ts)',
  },
  seed: { kind: 'seed', label: 'Seed', default: 17 },
} satisfies ParamSchema;
