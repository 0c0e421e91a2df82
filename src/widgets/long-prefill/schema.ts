/**
 * Lesson 07.10 (long-context prefill): parameter schemas of its three widgets, the setups its prose and
 * exercises quote, and how each becomes a worker request. One setup throughout unless the learner changes it:
 * Llama 3.1 70B on 8 × H100 SXM, 32 sessions decoding at 8,000 tokens of context, a 100,000-token prompt.
 */
import { ACCELERATORS } from '../../sim/engine/catalog/accelerators';
import { MODELS } from '../../sim/engine/catalog/models';
import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { tpParam } from '../kit/commonParams';
import { controlRange } from '../kit/controlRange';
import { PREFILL_LIMITS } from '../../worker/limits/prefill';
import { formatDuration, formatNumber, formatPercent, formatRatio, formatTokens } from '../../lib/format';
import type { PrefillDisaggRequest } from '../../worker/prefillDisaggMethods';
import { DISAGG_DEFAULTS } from '../../sim/engine/fleet/disaggSpec';
import type { HitKernelRequest, TradeoffRequest } from '../../worker/prefillMethods';
import type { PrefillFiguresRequest } from '../../worker/prefillFigureMethods';
import type { TimelineRequest } from '../../worker/prefillTimelineMethods';

export const TIMELINE_ID = 'chunked-prefill-timeline';
export const TRADEOFF_ID = 'chunk-size-tradeoff';
export const HIT_KERNEL_ID = 'hit-rate-vs-kernel';

const modelOptions = MODELS.map((m) => ({ value: m.id, label: m.name }));
const acceleratorOptions = ACCELERATORS.map((a) => ({ value: a.id, label: a.name }));

/** The lesson's replica and traffic. */
export const SETUP = {
  modelId: 'llama-3.1-70b',
  acceleratorId: 'h100-sxm',
  gpus: 8,
  promptTokens: 100_000,
  decodes: 32,
  decodeContext: 8_000,
} as const;

const replicaParams = {
  model: { kind: 'select', label: 'Model', default: SETUP.modelId, options: modelOptions },
  accelerator: {
    kind: 'select',
    label: 'Accelerator',
    default: SETUP.acceleratorId,
    options: acceleratorOptions,
  },
  gpus: tpParam(SETUP.gpus),
} satisfies ParamSchema;

const trafficParams = {
  decodes: {
    kind: 'number',
    label: 'Sessions decoding',
    default: SETUP.decodes,
    ...controlRange(PREFILL_LIMITS.decodes, { min: 1, max: 256 }),
    integer: true,
    unit: 'sessions',
    help: 'Sequences already generating tokens on the replica when the long prompt arrives.',
  },
  decodeContext: {
    kind: 'number',
    label: 'Context of each decoding session',
    default: SETUP.decodeContext,
    ...controlRange(PREFILL_LIMITS.decodeContext, { min: 500, max: 64_000 }),
    integer: true,
    scale: 'log',
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  promptTokens: {
    kind: 'number',
    label: 'Long prompt',
    default: SETUP.promptTokens,
    ...controlRange(PREFILL_LIMITS.promptTokens, { min: 10_000, max: 128_000 }),
    integer: true,
    step: 1_000,
    unit: 'tokens',
    format: (v) => formatTokens(v),
    help: 'Tokens of the arriving prompt, none of them cached (a cold agent turn, or a long document).',
  },
} satisfies ParamSchema;

export const timelineSchema = {
  chunked: {
    kind: 'boolean',
    label: 'Chunked prefill',
    default: true,
    help: 'On: each iteration runs every decode plus at most one chunk of the prompt. Off: the whole prompt runs in one iteration and the decodes wait.',
  },
  chunk: {
    kind: 'number',
    label: 'Prefill chunk per iteration',
    default: 512,
    ...controlRange(PREFILL_LIMITS.chunk, { min: 256, max: 16_384 }),
    integer: true,
    scale: 'log',
    unit: 'tokens',
    format: (v) => formatTokens(v),
    help: 'Prompt tokens an iteration may compute; the token budget (vLLM max_num_batched_tokens) is this plus one per decode.',
  },
  ...trafficParams,
  ...replicaParams,
} satisfies ParamSchema;

export const tradeoffSchema = {
  chunk: {
    kind: 'number',
    label: 'Chunk to read out',
    default: 512,
    ...controlRange(PREFILL_LIMITS.chunk, { min: 32, max: 32_768 }),
    integer: true,
    scale: 'log',
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  ttftSlo: {
    kind: 'number',
    label: 'TTFT SLO of the long prompt',
    default: 10,
    ...controlRange(PREFILL_LIMITS.ttftSloS, { min: 1, max: 60 }),
    step: 0.5,
    unit: 's',
    format: (v) => formatDuration(v),
  },
  itlSlo: {
    kind: 'number',
    label: 'p99 inter-token SLO of the decodes',
    default: 100,
    // In ms over the core's seconds.
    ...controlRange(PREFILL_LIMITS.itlSloS, { min: 0.01, max: 2 }, 1000),
    integer: true,
    scale: 'log',
    unit: 'ms',
    format: (v) => formatDuration(v / 1000),
  },
  ...trafficParams,
  ...replicaParams,
} satisfies ParamSchema;

export const hitKernelSchema = {
  hitFrom: {
    kind: 'number',
    label: 'Prefix hit rate today',
    default: 0.9,
    ...controlRange(PREFILL_LIMITS.hitRate, { min: 0.5, max: 0.99 }),
    step: 0.005,
    format: (v) => formatPercent(v),
  },
  hitTo: {
    kind: 'number',
    label: 'Prefix hit rate you could reach',
    default: 0.95,
    ...controlRange(PREFILL_LIMITS.hitRate, { min: 0.5, max: 0.995 }),
    step: 0.005,
    format: (v) => formatPercent(v),
  },
  speedup: {
    kind: 'number',
    label: 'Attention kernel speed-up',
    default: 2,
    ...controlRange(PREFILL_LIMITS.speedup, { min: 1, max: 8 }),
    step: 0.1,
    unit: '×',
    format: (v) => formatRatio(v),
    help: 'How much faster a new attention kernel computes the attention FLOPs (the matmuls stay as they are).',
  },
  contextTokens: {
    kind: 'number',
    label: 'Agent context (turn prompt)',
    default: 100_000,
    ...controlRange(PREFILL_LIMITS.contextTokens, { min: 10_000, max: 128_000 }),
    integer: true,
    step: 1_000,
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  ...replicaParams,
} satisfies ParamSchema;

export function timelineArgs(v: ParamValues<typeof timelineSchema>): TimelineRequest {
  return {
    modelId: v.model,
    acceleratorId: v.accelerator,
    gpus: v.gpus,
    promptTokens: v.promptTokens,
    decodes: v.decodes,
    decodeContext: v.decodeContext,
    chunk: v.chunk,
    chunked: v.chunked,
  };
}

export function tradeoffArgs(v: ParamValues<typeof tradeoffSchema>): TradeoffRequest {
  return {
    modelId: v.model,
    acceleratorId: v.accelerator,
    gpus: v.gpus,
    promptTokens: v.promptTokens,
    decodes: v.decodes,
    decodeContext: v.decodeContext,
    ttftSloS: v.ttftSlo,
    itlSloS: v.itlSlo / 1000,
    chunk: v.chunk,
  };
}

export function hitKernelArgs(v: ParamValues<typeof hitKernelSchema>): HitKernelRequest {
  return {
    modelId: v.model,
    acceleratorId: v.accelerator,
    gpus: v.gpus,
    contextTokens: v.contextTokens,
    hitFrom: v.hitFrom,
    hitTo: v.hitTo,
    speedup: v.speedup,
  };
}

/** Chunk sizes the prose quotes: Sarathi-Serve's strict and relaxed budgets, and vLLM's 8,192. */
export const PROSE_CHUNKS = [256, 512, 2048, 8192] as const;

export const FIGURES_REQUEST: PrefillFiguresRequest = {
  ...SETUP,
  chunks: [...PROSE_CHUNKS],
  turnContext: 100_000,
  hitFrom: 0.9,
  hitTo: 0.95,
  speedup: 2,
};

/**
 * The comparison of chunked and disaggregated prefill in the prose: the lesson's replica, the prose's chunks of 512
 * and 2,048, the KV over the fleet simulator's default transfer link with one NIC per GPU (fleet/disaggSpec.ts:
 * the DGX H100's eight ConnectX-7), against TCP at what Mooncake measured it on its testbed's 4 × 200 Gb/s Ethernet
 * (links.ts tcp-4x200g), as one link; one 100k-token
 * prompt a minute per decode replica (an illustrative rate: the prose says what a prefill replica does at it).
 */
export const DISAGG_REQUEST: PrefillDisaggRequest = {
  ...SETUP,
  chunks: [512, 2048],
  fast: { linkId: DISAGG_DEFAULTS.transfer, nics: SETUP.gpus },
  slow: { linkId: 'tcp-4x200g', nics: 1 },
  longPromptsPerMinute: 1,
};

/** Exercise 1: the largest gap the decodes see with 2,000-token chunks (50 chunks of a 100k prompt). */
export const GAP_EXERCISE: TimelineRequest = { ...SETUP, chunk: 2_000, chunked: true };

/** Exercise 2: the attention speed-up that would match raising the hit rate from 90% to 95%. */
export const MATCH_EXERCISE: HitKernelRequest = {
  modelId: SETUP.modelId,
  acceleratorId: SETUP.acceleratorId,
  gpus: SETUP.gpus,
  contextTokens: 100_000,
  hitFrom: 0.9,
  hitTo: 0.95,
  speedup: 2,
};

export const chunkLabel = (c: number | false) =>
  c === false ? 'no chunking' : `${formatNumber(c)}-token chunks`;
