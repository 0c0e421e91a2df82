import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { formatBytes, formatCount, formatDuration } from '../../lib/format';
import { countWord } from '../../lib/numberWords';
import { acceleratorName, shortName } from '../../sim/engine/catalog/names';
import { resolveModel } from '../../sim/engine/catalog';
import { kvBytesPerToken } from '../../sim/engine/catalog/models';
import {
  HIERARCHY_DEFAULTS,
  HIERARCHY_LIMITS,
  HIERARCHY_MODELS,
  HIERARCHY_TTL_S,
} from '../../sim/lessons/hierarchyLab';
import { controlRange } from '../kit/controlRange';
import {
  PAUSE_ACCELERATOR,
  PAUSE_POLICIES,
  PAUSE_POLICY_LABELS,
  PAUSE_TP,
  TOOL_PRESET_LABELS,
} from '../../sim/lessons/pauseLabSetup';
import type { HierarchyArgs } from '../../sim/lessons/hierarchyLab';

export const KV_HIERARCHY_ID = 'kv-hierarchy';

/** "Qwen3-32B (256 KiB/token)": the name and the BF16 KV per token, from the catalog. */
function modelLabel(id: string): string {
  const m = resolveModel(id);
  return `${m.name} (${formatBytes(kvBytesPerToken(m, 'bf16'))}/token)`;
}

const gb = (label: string, k: 'hbmGB' | 'dramGB' | 'nvmeGB' | 'poolGB', help: string) =>
  ({
    kind: 'number',
    label,
    default: HIERARCHY_DEFAULTS[k],
    ...controlRange(HIERARCHY_LIMITS[k]),
    integer: true,
    unit: 'GB',
    format: (v: number) => `${formatCount(v)} GB`,
    help,
  }) as const;

export const kvHierarchySchema = {
  hbmGB: gb(
    'HBM for KV',
    'hbmGB',
    `Capped at what ${countWord(PAUSE_TP)} ${shortName(acceleratorName(PAUSE_ACCELERATOR))}s leave after the weights and vLLM’s profiled reserve.`,
  ),
  dramGB: gb('Host DRAM', 'dramGB', 'Over PCIe, one link per GPU. 0: no DRAM tier.'),
  nvmeGB: gb('Local NVMe', 'nvmeGB', 'Over the node’s NVMe drives. 0: none.'),
  poolGB: gb('Remote pool', 'poolGB', 'A shared store over the NIC (RDMA). 0: none.'),
  sessions: {
    kind: 'number',
    label: 'Agent sessions',
    default: HIERARCHY_DEFAULTS.sessions,
    ...controlRange(HIERARCHY_LIMITS.sessions),
    integer: true,
    help: 'Sessions in flight; a new one starts when one ends.',
  },
  modelId: {
    kind: 'select',
    label: 'Model',
    default: HIERARCHY_DEFAULTS.modelId,
    options: HIERARCHY_MODELS.map((m) => ({ value: m, label: modelLabel(m) })),
  },
  policy: {
    kind: 'select',
    label: 'Pause policy',
    default: HIERARCHY_DEFAULTS.policy,
    options: PAUSE_POLICIES.map((p) => ({ value: p, label: PAUSE_POLICY_LABELS[p] })),
    help: `What happens to a session’s KV while its tool runs (TTL policies: ${formatDuration(HIERARCHY_TTL_S)}).`,
  },
  tool: {
    kind: 'select',
    label: 'Tool latency',
    default: HIERARCHY_DEFAULTS.tool,
    options: (Object.keys(TOOL_PRESET_LABELS) as (keyof typeof TOOL_PRESET_LABELS)[]).map((k) => ({
      value: k,
      label: TOOL_PRESET_LABELS[k],
    })),
  },
} satisfies ParamSchema;

/** What the widget asks the worker (kvHierarchyRun) for its settings. */
export function hierarchyArgs(v: ParamValues<typeof kvHierarchySchema>): HierarchyArgs {
  return {
    modelId: v.modelId as HierarchyArgs['modelId'],
    sessions: v.sessions,
    policy: v.policy as HierarchyArgs['policy'],
    tool: v.tool as HierarchyArgs['tool'],
    hbmGB: v.hbmGB,
    dramGB: v.dramGB,
    nvmeGB: v.nvmeGB,
    poolGB: v.poolGB,
    seed: 1,
  };
}
