import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { formatBytes, formatDuration, formatTokens } from '../../lib/format';
import { labReplica } from '../../sim/lessons/pauseCosts';
import {
  PAUSE_ARENA_LIMITS,
  PAUSE_POLICIES,
  PAUSE_POLICY_LABELS,
  TOOL_PRESET_LABELS,
} from '../../sim/lessons/pauseLabSetup';
import { TOOL_LATENCY_LIMITS } from '../../worker/limits/pause';
import { controlRange } from '../kit/controlRange';
import type { ToolLatencyRequest } from '../../worker/pauseMethods';

export const TOOL_LATENCY_ID = 'tool-latency';
export const PAUSE_ARENA_ID = 'pause-arena';

const toolOptions = (Object.keys(TOOL_PRESET_LABELS) as (keyof typeof TOOL_PRESET_LABELS)[]).map((k) => ({
  value: k,
  label: TOOL_PRESET_LABELS[k],
}));

/** The lab's replica (pauseCosts.ts), whose KV the paused session holds: the arena's, the control's help and the exercises'. */
export const PAUSE_REPLICA = labReplica();

const ttl = {
  kind: 'number',
  label: 'Time-to-live τ',
  default: 2,
  ...controlRange(PAUSE_ARENA_LIMITS.ttlS),
  scale: 'log',
  unit: 's',
  format: (v: number) => formatDuration(v),
  help: 'How long a paused session’s KV stays pinned in HBM before it is let go.',
} as const;

export const toolLatencySchema = {
  tool: {
    kind: 'select',
    label: 'Tool',
    default: 'coding-mix',
    options: toolOptions,
    help: 'Fitted to published figures (TraceLab per agent, NVIDIA Dynamo); src/sim/engine/fleet/dist.ts.',
  },
  ttlS: { ...ttl, ...controlRange(TOOL_LATENCY_LIMITS.ttlS, PAUSE_ARENA_LIMITS.ttlS) },
  contextTokens: {
    kind: 'number',
    label: 'Session context',
    default: 30_000,
    ...controlRange(TOOL_LATENCY_LIMITS.contextTokens, { min: 1_000, max: 128_000 }),
    integer: true,
    scale: 'log',
    unit: 'tokens',
    format: (v) => formatTokens(v),
    help: `Tokens of KV the paused session holds (${PAUSE_REPLICA.modelName}: ${formatBytes(PAUSE_REPLICA.kvBytesPerToken)} per token).`,
  },
  after: {
    kind: 'select',
    label: 'When the TTL runs out',
    default: 'evict',
    options: [
      { value: 'evict', label: 'Evict (a late resume recomputes)' },
      { value: 'offload', label: 'Offload to DRAM (a late resume reloads)' },
    ],
  },
} satisfies ParamSchema;

export const pauseArenaSchema = {
  policy: {
    kind: 'select',
    label: 'Pause policy',
    default: 'hold',
    options: PAUSE_POLICIES.map((p) => ({ value: p, label: PAUSE_POLICY_LABELS[p] })),
    help: 'What happens to a session’s KV when its turn ends and its tool starts.',
  },
  ttlS: { ...ttl, label: 'TTL τ (TTL policies)' },
  tool: { kind: 'select', label: 'Tools the agents call', default: 'coding-mix', options: toolOptions },
  agents: {
    kind: 'number',
    label: 'Agents in flight',
    default: 8,
    ...controlRange(PAUSE_ARENA_LIMITS.agents, { min: 2, max: 24 }),
    integer: true,
    unit: 'agents',
    help: 'Closed loop: this many sessions run at once; a new one starts when one ends.',
  },
  seed: { kind: 'seed', label: 'Seed', default: 1 },
} satisfies ParamSchema;

/** What the widget asks the worker (toolLatency) for its settings. */
export function toolLatencyArgs(v: ParamValues<typeof toolLatencySchema>): ToolLatencyRequest {
  return {
    tool: v.tool as ToolLatencyRequest['tool'],
    ttlS: v.ttlS,
    contextTokens: v.contextTokens,
    after: v.after as ToolLatencyRequest['after'],
  };
}
