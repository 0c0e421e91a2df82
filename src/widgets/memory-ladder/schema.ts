/**
 * Parameters of lesson 07.04's memory-ladder widget, and the argument builders shared by the widget, the prose
 * figures and the tests (so that all of them ask the worker the same question for the same settings).
 */
import { findLink } from '../../sim/engine/catalog/links';
import { NODES } from '../../sim/engine/catalog/nodes';
import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { defaultValues } from '../../state/paramSchema';
import { formatBandwidth, formatBytesDecimal, formatCount, formatTokens } from '../../lib/format';
import { dtypeParam, modelParam } from '../kit/commonParams';
import { controlRange } from '../kit/controlRange';
import { LADDER_LIMITS } from '../../worker/limits/hierarchy';
import type {
  HierarchyFiguresRequest,
  LadderDtype,
  LadderRequest,
  NvmeChoice,
} from '../../worker/hierarchyMethods';

export const LADDER_ID = 'memory-ladder';

const bw = (id: string) => formatBandwidth(findLink(id)?.effectiveBandwidth);

/** Remote paths offered: catalog links that reach another machine, named with their effective bandwidth. */
const REMOTE_OPTIONS = [
  { value: 'mooncake-8x400g', label: `Mooncake TE 8×400G: ${bw('mooncake-8x400g')}` },
  { value: 'mooncake-4x200g', label: `Mooncake TE 4×200G: ${bw('mooncake-4x200g')}` },
  { value: 'node-nics', label: "Node's NICs × 0.87 (derived)" },
  { value: 'tcp-8x400g', label: `TCP 8×400G: ${bw('tcp-8x400g')}` },
  { value: 'rdma-400g-cx7', label: `1 NIC, 400 Gb/s: ${bw('rdma-400g-cx7')}` },
  { value: 'rdma-100g', label: `1 NIC, 100 Gb/s: ${bw('rdma-100g')}` },
] as const;

export const ladderSchema = {
  node: {
    kind: 'select',
    label: 'Node',
    default: 'dgx-h100',
    options: NODES.map((n) => ({ value: n.id, label: n.name })),
    help: 'Its GPUs serve one replica; host DRAM, drives and NICs from the DGX datasheets',
  },
  model: modelParam('llama-3.1-70b'),
  weightDtype: dtypeParam('Weight dtype', ['bf16', 'fp8']),
  kvDtype: dtypeParam('KV-cache dtype', ['bf16', 'fp8']),
  contextTokens: {
    kind: 'number',
    label: 'Agent context',
    default: 100_000,
    ...controlRange(LADDER_LIMITS.contextTokens, { min: 1_000, max: 1_000_000 }),
    integer: true,
    scale: 'log',
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  agents: {
    kind: 'number',
    label: 'Agents on the node',
    default: 200,
    ...controlRange(LADDER_LIMITS.agents, { min: 1, max: 10_000 }),
    integer: true,
    scale: 'log',
    unit: 'agents',
    format: (v) => `${formatCount(v)} agents`,
    help: 'Concurrent sessions, each with one context of the length above',
  },
  dramTB: {
    kind: 'number',
    label: 'Host DRAM for KV',
    default: 1,
    // Up to the B200 node's 4 TB (more would be a node the catalog does not have).
    ...controlRange(LADDER_LIMITS.dramTB, { min: 0, max: 4 }),
    step: 0.125,
    unit: 'TB',
    format: (v) => formatBytesDecimal(v * 1e12),
    help: 'A DGX has 2 TB (the B200 up to 4 TB); the rest serves the OS, the engine and staging buffers',
  },
  nvme: {
    kind: 'select',
    label: 'Local NVMe',
    default: 'node',
    options: [
      { value: 'node', label: `8 × Gen4, ${bw('nvme-gen4')} each` },
      { value: 'one-drive', label: `1 Gen4 drive, ${bw('nvme-gen4')}` },
      { value: 'gen5', label: `8 × Gen5, ${bw('nvme-gen5')} each` },
    ],
    help: "The DGX's data drives are 8 × Gen4; sequential-read specs, all drives read in parallel",
  },
  remote: {
    kind: 'select',
    label: 'Path to the remote pool',
    default: 'mooncake-8x400g',
    options: REMOTE_OPTIONS,
    help: 'Effective bandwidth of a large transfer, one direction; TE = Mooncake’s Transfer Engine over RDMA, measured (FAST’25)',
  },
  poolTB: {
    kind: 'number',
    label: 'Remote pool for this node',
    default: 4,
    // A log slider: from 100 GB to a petabyte.
    ...controlRange(LADDER_LIMITS.poolTB, { min: 0.1, max: 1000 }),
    scale: 'log',
    unit: 'TB',
    format: (v) => formatBytesDecimal(v * 1e12),
    help: "This node's share of a pooled store (other machines' DRAM or flash)",
  },
} satisfies ParamSchema;

export type LadderValues = ParamValues<typeof ladderSchema>;
export const LADDER_DEFAULTS: LadderValues = defaultValues(ladderSchema);

export function ladderArgs(v: LadderValues): LadderRequest {
  return {
    nodeId: v.node,
    modelId: v.model,
    kvDtype: v.kvDtype as LadderDtype,
    weightDtype: v.weightDtype as LadderDtype,
    contextTokens: v.contextTokens,
    agents: v.agents,
    dramTB: v.dramTB,
    nvme: v.nvme as NvmeChoice,
    remote: v.remote,
    poolTB: v.poolTB,
  };
}

/** Setups the prose quotes; `ladder` is the widget's default. */
export const PROSE_SETUPS = {
  ladder: ladderArgs(LADDER_DEFAULTS),
  fp8: ladderArgs({ ...LADDER_DEFAULTS, kvDtype: 'fp8' }),
  b200: ladderArgs({ ...LADDER_DEFAULTS, node: 'dgx-b200' }),
  a100: ladderArgs({ ...LADDER_DEFAULTS, node: 'dgx-a100-640gb' }),
  oneDrive: ladderArgs({ ...LADDER_DEFAULTS, nvme: 'one-drive' }),
  tcp: ladderArgs({ ...LADDER_DEFAULTS, remote: 'tcp-8x400g' }),
  nodeNics: ladderArgs({ ...LADDER_DEFAULTS, remote: 'node-nics' }),
  deepseek: ladderArgs({ ...LADDER_DEFAULTS, node: 'dgx-h200', model: 'deepseek-v3', weightDtype: 'fp8' }),
  shortOneDrive: ladderArgs({ ...LADDER_DEFAULTS, contextTokens: 10_000, nvme: 'one-drive' }),
} as const;

export type ProseSetup = keyof typeof PROSE_SETUPS;

export const FIGURES_REQUEST: HierarchyFiguresRequest = { setups: PROSE_SETUPS };
