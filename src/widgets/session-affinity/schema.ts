import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { formatCount, formatNumber, formatTokens } from '../../lib/format';
import { acceleratorParam, modelParam, tpParam } from '../kit/commonParams';
import { SESSION_PICKER_MAX } from '../../sim/lessons/affinityTrace';
import { AFFINITY_LIMITS, DEFAULT_TRAJECTORY } from '../../sim/lessons/affinityModel';
import { controlRange } from '../kit/controlRange';
import type { AffinityReplayRequest, AffinitySweepRequest } from '../../worker/affinityMethods';

export const AFFINITY_REPLAY_ID = 'affinity-replay';
export const AFFINITY_FLEET_ID = 'affinity-fleet';

const routingOptions = [
  { value: 'round-robin', label: 'Round-robin' },
  { value: 'random', label: 'Random' },
];

/** The recorded trajectory the replay loads by default (public/traces/README.md says where it comes from). */
export const SHIPPED_TRAJECTORY_PATH = 'traces/swe-agent-marshmallow-1867.jsonl';

/** What the synthetic trajectory appends a turn at its defaults: the model's output and a tool result. */
const SYNTHETIC_GROWTH = DEFAULT_TRAJECTORY.outputTokens + DEFAULT_TRAJECTORY.toolResultTokens;

export const affinityReplaySchema = {
  source: {
    kind: 'select',
    label: 'Trajectory',
    default: 'trace',
    options: [
      { value: 'trace', label: 'Recorded (trace below)' },
      { value: 'synthetic', label: `Synthetic (+${formatCount(SYNTHETIC_GROWTH)} a turn)` },
    ],
    help: 'A session of the trace below (by default a real SWE-agent run), or the lesson’s synthetic trajectory.',
  },
  session: {
    kind: 'number',
    label: 'Session, by turns (1 = the longest)',
    default: 1,
    min: 1,
    max: SESSION_PICKER_MAX,
    integer: true,
    help: 'Which session of the trace to replay: its rank among the trace’s sessions, most turns first.',
  },
  affinity: {
    kind: 'boolean',
    label: 'Session affinity',
    default: false,
    help: 'On: every turn of the session goes to the replica that served its first turn. Off: each request is routed on its own.',
  },
  routing: {
    kind: 'select',
    label: 'Without affinity, route by',
    default: 'round-robin',
    options: routingOptions,
  },
  replicas: {
    kind: 'number',
    label: 'Replicas',
    default: 4,
    ...controlRange(AFFINITY_LIMITS.replicas),
    integer: true,
    unit: 'replicas',
  },
  turns: {
    kind: 'number',
    label: 'Turns in the trajectory',
    default: DEFAULT_TRAJECTORY.turns,
    ...controlRange(AFFINITY_LIMITS.turns),
    integer: true,
    unit: 'turns',
  },
  toolResultTokens: {
    kind: 'number',
    label: 'Tool result per turn',
    default: DEFAULT_TRAJECTORY.toolResultTokens,
    ...controlRange(AFFINITY_LIMITS.toolResultTokens),
    step: 100,
    unit: 'tokens',
    format: (v) => formatTokens(v),
    help: `Tokens each tool result appends to the context (the model’s ${formatNumber(DEFAULT_TRAJECTORY.outputTokens)}-token output is appended too).`,
  },
  blockSize: {
    kind: 'select',
    label: 'Engine block size',
    default: '16',
    options: [
      { value: '1', label: '1 token (SGLang radix tree)' },
      { value: '16', label: '16 tokens (vLLM default)' },
      { value: '64', label: '64 tokens' },
      { value: '256', label: '256 tokens' },
    ],
    help: 'The unit in which the engine caches and reuses a prefix: a turn reuses what the previous one computed, rounded down to whole blocks.',
  },
  model: modelParam('llama-3.1-70b'),
  accelerator: acceleratorParam('h100-sxm'),
  gpus: tpParam(8),
  lower: {
    kind: 'select',
    label: 'Lower chart',
    default: 'ttft',
    options: [
      { value: 'ttft', label: 'TTFT per turn' },
      { value: 'cumulative', label: 'Tokens re-prefilled, cumulative' },
    ],
  },
  seed: { kind: 'seed', label: 'Seed (random routing)', default: 1 },
} satisfies ParamSchema;

export const affinityFleetSchema = {
  routing: {
    kind: 'select',
    label: 'Request-level routing',
    default: 'round-robin',
    options: routingOptions,
  },
  agentsPerReplica: {
    kind: 'number',
    label: 'Agents in flight per replica',
    default: 6,
    ...controlRange(AFFINITY_LIMITS.agentsPerReplica),
    integer: true,
    unit: 'agents',
    help: 'Closed loop: R × this many sessions run at once; a fleet of R replicas serves R times the agents.',
  },
  model: modelParam('llama-3.1-8b'),
  accelerator: acceleratorParam('h100-sxm'),
  gpus: tpParam(1),
  seed: { kind: 'seed', label: 'Seed', default: 1 },
} satisfies ParamSchema;

/** What the replay asks the worker (affinityReplay) for its settings; `session` is the picked recorded session. */
export function affinityReplayArgs(
  v: ParamValues<typeof affinityReplaySchema>,
  session?: AffinityReplayRequest['session'],
): AffinityReplayRequest {
  return {
    modelId: v.model,
    acceleratorId: v.accelerator,
    gpus: v.gpus,
    replicas: v.replicas,
    routing: v.routing as AffinityReplayRequest['routing'],
    turns: v.turns,
    toolResultTokens: v.toolResultTokens,
    seed: v.seed,
    blockSize: Number(v.blockSize),
    ...(session ? { session } : {}),
  };
}

/** What the fleet view asks the worker (affinitySweep) for its settings. */
export function affinityFleetArgs(v: ParamValues<typeof affinityFleetSchema>): AffinitySweepRequest {
  return {
    modelId: v.model,
    acceleratorId: v.accelerator,
    gpus: v.gpus,
    agentsPerReplica: v.agentsPerReplica,
    routing: v.routing as AffinitySweepRequest['routing'],
    seed: v.seed,
  };
}
