import type { ParamSchema } from '../../state/paramSchema';
import { formatDuration, formatNumber } from '../../lib/format';
import {
  DEFAULT_GPU_HOUR_USD,
  DEFAULT_KWH_USD,
  DEFAULT_PUE,
  ECON_NODES,
  ECON_NODE_LABELS,
  ECON_POLICIES,
  ECON_POLICY_LABELS,
  ECON_ROUTERS,
  ECON_ROUTER_LABELS,
  ECON_LIMITS,
  ECON_TOOLS,
  ECON_TP,
} from '../../sim/lessons/economicsLabSetup';
import { ECON_MODEL_NAME } from './econSetup';
import { controlRange } from '../kit/controlRange';
import { TOOL_PRESET_LABELS } from '../../sim/lessons/pauseLabSetup';

export const SLO_SWEEP_ID = 'slo-sweep';
export const LEVER_GRID_ID = 'cost-levers';

const ttft = {
  kind: 'number',
  label: 'TTFT p90 objective',
  default: 2,
  ...controlRange(ECON_LIMITS.ttftP90S, { min: 0.25, max: 10 }),
  step: 0.05,
  scale: 'log',
  unit: 's',
  format: (v: number) => formatDuration(v, 3),
  help: 'Time to first token, 90th percentile over every turn (including resumes after a tool call).',
} as const;

const tpot = {
  kind: 'number',
  label: 'TPOT p90 objective',
  default: 0.1,
  ...controlRange(ECON_LIMITS.tpotP90S, { min: 0.02, max: 0.5 }),
  step: 0.005,
  scale: 'log',
  unit: 's',
  format: (v: number) => formatDuration(v, 3),
  help: 'Time per output token after the first, 90th percentile.',
} as const;

const node = {
  kind: 'select',
  label: 'Node',
  default: 'dgx-h100',
  options: ECON_NODES.map((n) => ({ value: n, label: ECON_NODE_LABELS[n] })),
  help: `An 8-GPU node of the catalog (src/sim/engine/catalog/nodes.ts), split into replicas of ${ECON_MODEL_NAME} on ${ECON_TP} GPUs.`,
} as const;

const tool = {
  kind: 'select',
  label: 'Tools the agents call',
  default: 'coding-mix',
  options: ECON_TOOLS.map((t) => ({ value: t, label: TOOL_PRESET_LABELS[t] })),
  help: 'How long a session waits between turns (fits to TraceLab and NVIDIA Dynamo, src/sim/engine/fleet/dist.ts).',
} as const;

const pue = {
  kind: 'number',
  label: 'PUE (assumption)',
  default: DEFAULT_PUE,
  min: 1,
  max: 2,
  step: 0.01,
  unit: '×',
  format: (v: number) => `${formatNumber(v, 3)}×`,
  help: 'Power usage effectiveness: facility power / IT power. An assumption: set your data centre’s.',
} as const;

export const sloSweepSchema = {
  ttftP90S: ttft,
  tpotP90S: tpot,
  node,
  policy: {
    kind: 'select',
    label: 'Idle-KV policy',
    default: 'ttl-offload',
    options: ECON_POLICIES.map((p) => ({ value: p, label: ECON_POLICY_LABELS[p] })),
    help: 'What happens to a session’s KV while its tool runs (lesson 07.06).',
  },
  tool,
  pue,
  seed: { kind: 'seed', label: 'Seed', default: 1 },
} satisfies ParamSchema;

export const leverGridSchema = {
  router: {
    kind: 'select',
    label: 'Router',
    default: 'cache-aware',
    options: ECON_ROUTERS.map((r) => ({ value: r, label: ECON_ROUTER_LABELS[r] })),
    help: 'Round-robin sends each turn to the next replica; cache-aware scores replicas by cached prefix, load and free KV.',
  },
  policy: {
    kind: 'select',
    label: 'Idle-KV policy',
    default: 'ttl-offload',
    options: ECON_POLICIES.map((p) => ({ value: p, label: ECON_POLICY_LABELS[p] })),
  },
  gpuHourUSD: {
    kind: 'number',
    label: 'Price of a GPU-hour (assumption)',
    default: DEFAULT_GPU_HOUR_USD,
    min: 0.25,
    max: 10,
    step: 0.05,
    unit: '$/GPU-h',
    format: (v: number) => `$${v.toFixed(2)}/GPU-h`,
    help: 'What one GPU costs per hour, owned or rented. An assumption: set your own.',
  },
  kwhUSD: {
    kind: 'number',
    label: 'Price of electricity (assumption)',
    default: DEFAULT_KWH_USD,
    min: 0,
    max: 0.5,
    step: 0.01,
    unit: '$/kWh',
    format: (v: number) => `$${v.toFixed(2)}/kWh`,
    help: 'Set it to 0 if the GPU-hour price already includes power.',
  },
  pue,
  ttftP90S: ttft,
  tpotP90S: tpot,
  node,
  tool,
  seed: { kind: 'seed', label: 'Seed', default: 1 },
} satisfies ParamSchema;
