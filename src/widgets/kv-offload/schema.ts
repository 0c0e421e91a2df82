/**
 * Parameters of lesson 07.05's widgets, and the argument builders shared by the widgets, the prose figures and
 * the exercises (so that all of them ask the worker the same question for the same settings).
 */
import { DEFAULT_GEMM_EFFICIENCY } from '../../sim/engine/cost';
import { LINKS } from '../../sim/engine/catalog/links';
import { MODELS } from '../../sim/engine/catalog/models';
import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { defaultValues } from '../../state/paramSchema';
import { formatBandwidth, formatDuration, formatTokens } from '../../lib/format';
import { acceleratorParam, dtypeParam, gemmEfficiencyParam, modelParam, tpParam } from '../kit/commonParams';
import { controlRange } from '../kit/controlRange';
import { OFFLOAD_LIMITS } from '../../worker/limits/offload';
import type { LessonSetup, ReloadRecomputeRequest } from '../../worker/offloadMethods';
import type { KvDtypeChoice } from '../../worker/offloadPath';
import type { MinBandwidthRequest } from '../../worker/minBandwidthMethods';

export const RELOAD_ID = 'reload-or-recompute';
export const MIN_BW_ID = 'min-link-bandwidth';

/** Short names for the link picker and the legend (the catalog's names are long; its figures are the numbers). */
const LINK_SHORT: Record<string, string> = {
  'pcie-gen4-x16': 'PCIe Gen4 x16',
  'pcie-gen5-x16': 'PCIe Gen5 x16',
  nvlink3: 'NVLink 3 peer',
  nvlink4: 'NVLink 4 peer',
  nvlink5: 'NVLink 5 peer',
  'nvme-gen4': 'NVMe Gen4 drive',
  'nvme-gen5': 'NVMe Gen5 drive',
  'rdma-100g': 'RDMA 100G NIC',
  'rdma-200g': 'RDMA 200G NIC',
  'rdma-400g-cx7': 'RDMA 400G NIC',
  'rdma-800g-cx8': 'RDMA 800G NIC',
  'mooncake-4x200g': 'Mooncake 4×200G',
  'mooncake-8x400g': 'Mooncake 8×400G',
  'tcp-4x200g': 'TCP 4×200G',
  'tcp-8x400g': 'TCP 8×400G',
};

/** A link's short name, e.g. "NVMe Gen4 drive". */
export function linkShort(id: string): string {
  return LINK_SHORT[id] ?? LINKS.find((x) => x.id === id)?.name ?? id;
}

/** The picker's label: short name and effective bandwidth, e.g. "NVMe Gen4 drive (6.9 GB/s)". */
export function linkLabel(id: string): string {
  const l = LINKS.find((x) => x.id === id);
  if (!l) return id;
  return `${linkShort(id)} (${formatBandwidth(l.effectiveBandwidth)})`;
}

const modelOptions = MODELS.map((m) => ({ value: m.id, label: m.name }));

export const reloadSchema = {
  model: modelParam('llama-3.1-70b'),
  accelerator: acceleratorParam('h100-sxm'),
  gpus: tpParam(8),
  gemmEfficiency: gemmEfficiencyParam(),
  link: {
    kind: 'select',
    label: 'Where the KV comes back from',
    default: 'nvme-gen4',
    options: [
      ...LINKS.map((l) => ({ value: l.id, label: linkLabel(l.id) })),
      { value: 'custom', label: 'Custom (set below)' },
    ],
    help: 'Host DRAM over PCIe, a peer GPU over NVLink, a local NVMe drive, or a remote pool over a NIC; effective bandwidth of a large transfer, one direction (src/sim/engine/catalog/links.ts)',
  },
  linkCount: {
    kind: 'select',
    label: 'Links in parallel',
    default: 'auto',
    options: [
      { value: 'auto', label: 'Auto: per GPU if PCIe' },
      { value: '1', label: '1' },
      { value: '2', label: '2' },
      { value: '4', label: '4' },
      { value: '8', label: '8' },
      { value: '16', label: '16' },
    ],
    help: 'The KV is striped over this many links and their bandwidths add up. Auto: one PCIe link per GPU (each loads its own shard), otherwise one link',
  },
  customGBps: {
    kind: 'number',
    label: 'Custom link bandwidth',
    default: 12.5,
    // From 100 MB/s (a slow disk) to 2 TB/s (past NVLink 5).
    ...controlRange(OFFLOAD_LIMITS.customGBps, { min: 0.1, max: 2000 }),
    scale: 'log',
    unit: 'GB/s',
    format: (v) => `${formatBandwidth(v * 1e9)} = ${formatBandwidth(v * 1e9 * 8).replace('B/s', 'b/s')}`,
  },
  customLatencyUs: {
    kind: 'number',
    label: 'Custom link latency',
    default: 10,
    // From 1 µs (a DMA) to 1 s (a far object store).
    ...controlRange(OFFLOAD_LIMITS.customLatencyUs, { min: 1, max: 1_000_000 }),
    scale: 'log',
    unit: 'µs',
    format: (v) => formatDuration(v * 1e-6),
  },
  prefixTokens: {
    kind: 'number',
    label: 'Prefix for the read-outs',
    default: 32_768,
    // From one KV block (16 tokens) to the catalog's longest window.
    ...controlRange(OFFLOAD_LIMITS.prefixTokens, { min: 16, max: OFFLOAD_LIMITS.prefixTokens.max }),
    integer: true,
    scale: 'log',
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  showSides: {
    kind: 'boolean',
    label: 'Show the two sides of recompute’s roofline',
    default: false,
    help: 'Dashed: GEMM / (TP · peak · e_GEMM) + attention / (TP · peak · e_attn) and bytes / (TP · HBM · MBU); recompute is the larger, plus all-reduce and the per-iteration overhead',
  },
} satisfies ParamSchema;

export type ReloadValues = ParamValues<typeof reloadSchema>;

export function reloadArgs(v: ReloadValues): ReloadRecomputeRequest {
  return {
    modelId: v.model,
    acceleratorId: v.accelerator,
    tp: v.gpus,
    gemmEfficiency: v.gemmEfficiency,
    linkId: v.link,
    linkCount: v.linkCount === 'auto' ? 'auto' : Number(v.linkCount),
    customGBps: v.customGBps,
    customLatencyUs: v.customLatencyUs,
    prefixTokens: v.prefixTokens,
  };
}

export const RELOAD_DEFAULTS = defaultValues(reloadSchema);

export const minBwSchema = {
  prefixTokens: {
    kind: 'number',
    label: 'Prefix length',
    default: 32_768,
    // From 256 tokens to the catalog's longest window.
    ...controlRange(OFFLOAD_LIMITS.prefixTokens, { min: 256, max: OFFLOAD_LIMITS.prefixTokens.max }),
    integer: true,
    scale: 'log',
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  accelerator: acceleratorParam('h100-sxm'),
  gpus: tpParam(8),
  gemmEfficiency: gemmEfficiencyParam(),
  kvDtype: dtypeParam('KV-cache dtype', ['bf16', 'fp8']),
  focus: {
    kind: 'select',
    label: 'Model for the read-outs',
    default: 'llama-3.1-70b',
    options: modelOptions,
  },
} satisfies ParamSchema;

export type MinBwValues = ParamValues<typeof minBwSchema>;

/** Per-transfer latency of the minimum-bandwidth widget: the catalog's 10 µs for DMA and RDMA links. */
export const MIN_BW_LATENCY_US = 10;

export function minBwArgs(v: MinBwValues): MinBandwidthRequest {
  return {
    acceleratorId: v.accelerator,
    tp: v.gpus,
    gemmEfficiency: v.gemmEfficiency,
    kvDtype: v.kvDtype as KvDtypeChoice,
    prefixTokens: v.prefixTokens,
    latencyUs: MIN_BW_LATENCY_US,
  };
}

export const MIN_BW_DEFAULTS = defaultValues(minBwSchema);

// ---------------------------------------------------------------------------------------------------------
// The setups the prose and the exercises quote.

/** The first widget's default setup (Llama 3.1 70B, 8 × H100, one NVMe Gen4 drive). */
export const SETUP_DEFAULT: LessonSetup & { prefixTokens: number } = {
  modelId: RELOAD_DEFAULTS.model,
  acceleratorId: RELOAD_DEFAULTS.accelerator,
  tp: RELOAD_DEFAULTS.gpus,
  gemmEfficiency: RELOAD_DEFAULTS.gemmEfficiency,
  linkId: RELOAD_DEFAULTS.link,
  linkCount: 'auto',
  prefixTokens: RELOAD_DEFAULTS.prefixTokens,
};

/** The setups the prose names, by key (the exercise's is kept apart so the prose cannot give it away). */
export const PROSE_SETUPS = {
  nvme: SETUP_DEFAULT,
  pcie5: { ...SETUP_DEFAULT, linkId: 'pcie-gen5-x16' },
  nic100: { ...SETUP_DEFAULT, linkId: 'rdma-100g' },
  nvme5: { ...SETUP_DEFAULT, linkId: 'nvme-gen5' },
  tp16nvme: { ...SETUP_DEFAULT, tp: 16 },
} satisfies Record<string, LessonSetup & { prefixTokens: number }>;

export type ProseSetup = keyof typeof PROSE_SETUPS;

/**
 * Per-request latencies of an object store, set on the first widget's custom link (its default bandwidth): the
 * storage-tier bullet quotes where recompute stops winning at each, and the Try this item sets the slower one. The
 * two span "tens of milliseconds" so that the bullet can say how far the band of lost prefixes moves with it.
 */
export const OBJECT_STORE_LATENCY_US = { low: 20_000, high: 50_000 } as const;

/** The first widget's arguments with its custom link set to an object store's latency (its bandwidth left at the default). */
export function objectStoreArgs(at: keyof typeof OBJECT_STORE_LATENCY_US): ReloadRecomputeRequest {
  return reloadArgs({ ...RELOAD_DEFAULTS, link: 'custom', customLatencyUs: OBJECT_STORE_LATENCY_US[at] });
}

/**
 * The first widget's fourth Try this item: the smallest model on one GPU of the B200s the item before set (kept, so
 * that "Show me", which resets the other controls, shows what the item describes). On one H100 the drive wins at every
 * length; a B200 recomputes fast enough to open a band again.
 */
export const SMALL_MODEL_ITEM = { model: 'llama-3.1-8b', accelerator: 'b200', gpus: 1 } as const;

/** The first widget with the small-model item's settings over its defaults, as "Show me" sets them. */
export function smallModelArgs(accelerator: string = SMALL_MODEL_ITEM.accelerator): ReloadRecomputeRequest {
  return reloadArgs({ ...RELOAD_DEFAULTS, ...SMALL_MODEL_ITEM, accelerator });
}

/** Mooncake's Table 1 comparison is quoted at this prefix length. */
export const MOONCAKE_PREFIX = 8192;

export const FIGURES_REQUEST = { setups: PROSE_SETUPS, mooncakePrefix: MOONCAKE_PREFIX };

/** Exercise 1: where reload over one 100 Gb/s NIC wins again, Llama 3.1 70B on 8 × B200. */
export const EXERCISE_CROSSING: ReloadRecomputeRequest = {
  modelId: 'llama-3.1-70b',
  acceleratorId: 'b200',
  tp: 8,
  gemmEfficiency: DEFAULT_GEMM_EFFICIENCY,
  linkId: 'rdma-100g',
  linkCount: 'auto',
  customGBps: 12.5,
  customLatencyUs: 10,
  prefixTokens: 32_768,
};

/** Exercise 2: the minimum link bandwidth for a 32k prefix of Llama 3.1 8B on one H100. */
export const EXERCISE_MIN_BW: MinBandwidthRequest = {
  acceleratorId: 'h100-sxm',
  tp: 1,
  gemmEfficiency: DEFAULT_GEMM_EFFICIENCY,
  kvDtype: 'bf16',
  prefixTokens: 32_768,
  latencyUs: MIN_BW_LATENCY_US,
};
export const EXERCISE_MIN_BW_MODEL = 'llama-3.1-8b';
/** The exercise's closing aside: the same model on this many GPUs (recompute faster, B* past one drive). */
export const EXERCISE_MIN_BW_MORE_GPUS = 8;
/** The one drive the exercise asks about (one Gen4 NVMe drive). */
export const EXERCISE_MIN_BW_DRIVE = 'nvme-gen4';
