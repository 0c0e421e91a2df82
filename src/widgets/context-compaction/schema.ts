/**
 * Parameters of lesson 07.11's widgets, and the argument builders shared by the widgets, the prose figures and
 * the exercise (so all of them ask the worker the same question for the same settings).
 */
import type { Edit } from '../../sim/lessons/compaction';
import type { Prices } from '../../sim/lessons/compactionPayback';
import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { defaultValues } from '../../state/paramSchema';
import { formatMoney, formatNumber, formatTokens } from '../../lib/format';
import type { EditRequest, PaybackRequest } from '../../worker/compactionMethods';
import {
  acceleratorParam,
  formatTurnNumber,
  gemmEfficiencyParam,
  modelParam,
  tpParam,
} from '../kit/commonParams';
import { controlRange } from '../kit/controlRange';
import {
  EDIT_LIMITS,
  PAYBACK_LIMITS,
  PRICE_LIMITS,
  SESSION_LIMITS,
} from '../../sim/lessons/compactionLimits';

export const EDIT_ID = 'edit-the-prompt';
export const PAYBACK_ID = 'compaction-payback';

/** The fixed head of the lesson's session: system prompt, tool schemas, task statement. */
export const HEAD = { systemTokens: 2_000, toolTokens: 6_000, taskTokens: 2_000 } as const;

const replicaParams = {
  model: modelParam('llama-3.1-70b'),
  accelerator: acceleratorParam('h100-sxm'),
  gpus: tpParam(8),
  gemmEfficiency: gemmEfficiencyParam(),
} satisfies ParamSchema;

export const editSchema = {
  edit: {
    kind: 'select',
    label: 'Edit',
    default: 'summarise',
    options: [
      { value: 'summarise', label: 'Summarise turns into a summary' },
      { value: 'prune', label: 'Prune old tool results (keep a stub)' },
      { value: 'retrieve', label: 'Insert a retrieved document' },
      { value: 'token', label: 'Change one token' },
      { value: 'none', label: 'No edit (append only)' },
    ],
  },
  editTurn: {
    kind: 'number',
    label: 'Edit at turn',
    default: 10,
    ...controlRange(EDIT_LIMITS.fromTurn, { min: 0, max: 58 }),
    integer: true,
    format: formatTurnNumber,
    help: 'Summarise from this turn, prune tool results from this turn, or insert the document before it',
  },
  span: {
    kind: 'number',
    label: 'Turns summarised',
    default: 10,
    ...controlRange(EDIT_LIMITS.span, { min: 1, max: 58 }),
    integer: true,
    unit: 'turns',
  },
  summaryTokens: {
    kind: 'number',
    label: 'Summary length',
    default: 2_000,
    ...controlRange(EDIT_LIMITS.summaryTokens, { min: 50, max: 20_000 }),
    integer: true,
    scale: 'log',
    unit: 'tokens',
  },
  keepLast: {
    kind: 'number',
    label: 'Recent turns kept whole',
    default: 5,
    ...controlRange(EDIT_LIMITS.keepLast, { min: 1, max: 59 }),
    integer: true,
    unit: 'turns',
  },
  stubTokens: {
    kind: 'number',
    label: 'Stub per pruned result',
    default: 20,
    ...controlRange(EDIT_LIMITS.stubTokens, { min: 0, max: 500 }),
    integer: true,
    unit: 'tokens',
    help: 'What is left of a pruned result, e.g. the path of the file it was saved to',
  },
  docTokens: {
    kind: 'number',
    label: 'Retrieved document',
    default: 3_000,
    ...controlRange(EDIT_LIMITS.docTokens, { min: 50, max: 32_000 }),
    integer: true,
    scale: 'log',
    unit: 'tokens',
  },
  tokenPosition: {
    kind: 'number',
    label: 'Changed token at position',
    default: 100,
    ...controlRange(EDIT_LIMITS.position, { min: 0, max: 200_000 }),
    integer: true,
    unit: 'tokens',
    help: 'A timestamp in the system prompt sits near 0',
  },
  turns: {
    kind: 'number',
    label: 'Turns so far',
    default: 40,
    ...controlRange(SESSION_LIMITS.turns, { min: 2, max: 60 }),
    integer: true,
    unit: 'turns',
  },
  outputTokens: {
    kind: 'number',
    label: 'Output per turn',
    default: 300,
    ...controlRange(SESSION_LIMITS.outputTokens, { min: 10, max: 4_000 }),
    integer: true,
    unit: 'tokens',
  },
  resultTokens: {
    kind: 'number',
    label: 'Tool result per turn',
    default: 1_450,
    ...controlRange(SESSION_LIMITS.resultTokens, { min: 10, max: 16_000 }),
    integer: true,
    unit: 'tokens',
  },
  blockSize: {
    kind: 'select',
    label: 'KV block size',
    default: '16',
    options: ['16', '32', '64', '128', '256'].map((v) => ({ value: v, label: `${v} tokens` })),
    help: 'vLLM’s default is 16; only full blocks are cached',
  },
  ...replicaParams,
} satisfies ParamSchema;

export type EditValues = ParamValues<typeof editSchema>;
export const EDIT_DEFAULTS = defaultValues(editSchema);

export function editOf(v: EditValues): Edit {
  switch (v.edit) {
    case 'summarise':
      return { kind: 'summarise', fromTurn: v.editTurn, span: v.span, summaryTokens: v.summaryTokens };
    case 'prune':
      return { kind: 'prune', fromTurn: v.editTurn, keepLast: v.keepLast, stubTokens: v.stubTokens };
    case 'retrieve':
      return { kind: 'retrieve', atTurn: v.editTurn, docTokens: v.docTokens };
    case 'token':
      return { kind: 'token', position: v.tokenPosition };
    default:
      return { kind: 'none' };
  }
}

/** The controls each edit uses (the rest are hidden). */
export const EDIT_CONTROLS: Record<string, (keyof typeof editSchema)[]> = {
  summarise: ['editTurn', 'span', 'summaryTokens'],
  prune: ['editTurn', 'keepLast', 'stubTokens'],
  retrieve: ['editTurn', 'docTokens'],
  token: ['tokenPosition'],
  none: [],
};

export function editArgs(v: EditValues): EditRequest {
  return {
    modelId: v.model,
    acceleratorId: v.accelerator,
    tp: v.gpus,
    gemmEfficiency: v.gemmEfficiency,
    shape: { ...HEAD, turns: v.turns, outputTokens: v.outputTokens, resultTokens: v.resultTokens },
    edit: editOf(v),
    blockSize: Number(v.blockSize),
  };
}

// ---------------------------------------------------------------------------------------------------------

/** Anthropic's published price of Claude Sonnet 4 and its prompt-caching multipliers (5-minute cache). */
export const ANTHROPIC_PRICES: Prices = {
  inputPerMTok: 3,
  outputPerMTok: 15,
  cacheReadMultiplier: 0.1,
  cacheWriteMultiplier: 1.25,
};

export const paybackSchema = {
  metric: {
    kind: 'select',
    label: 'Cost counted',
    default: 'dollars',
    options: [
      { value: 'dollars', label: 'Dollars (API prices, cache multipliers)' },
      { value: 'prefillSeconds', label: 'Prefill GPU time (cost model)' },
      { value: 'prefillTokens', label: 'Prefilled tokens' },
    ],
  },
  contextTokens: {
    kind: 'number',
    label: 'Context now',
    default: 80_000,
    ...controlRange(PAYBACK_LIMITS.contextTokens, { min: 10_000, max: 200_000 }),
    integer: true,
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  thresholdTokens: {
    kind: 'number',
    label: 'Compact at',
    default: 80_000,
    ...controlRange(PAYBACK_LIMITS.thresholdTokens, { min: 10_000, max: 200_000 }),
    integer: true,
    unit: 'tokens',
    format: (v) => formatTokens(v),
    help: 'Compact or prune before a turn whose context is at least this',
  },
  summaryTokens: {
    kind: 'number',
    label: 'Summary length',
    default: 10_000,
    ...controlRange(PAYBACK_LIMITS.summaryTokens, { min: 500, max: 40_000 }),
    integer: true,
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  keepLast: {
    kind: 'number',
    label: 'Pruning keeps the last',
    default: 5,
    ...controlRange(PAYBACK_LIMITS.keepLast, { min: 1, max: 50 }),
    integer: true,
    unit: 'turns',
  },
  stubTokens: {
    kind: 'number',
    label: 'Stub per pruned result',
    default: 20,
    ...controlRange(PAYBACK_LIMITS.stubTokens, { min: 0, max: 500 }),
    integer: true,
    unit: 'tokens',
  },
  turns: {
    kind: 'number',
    label: 'Turns to come',
    default: 40,
    ...controlRange(PAYBACK_LIMITS.turns, { min: 2, max: 200 }),
    integer: true,
    unit: 'turns',
  },
  growthTokens: {
    kind: 'number',
    label: 'Context growth per turn',
    default: 1_750,
    ...controlRange(PAYBACK_LIMITS.growthTokens, { min: 100, max: 20_000 }),
    integer: true,
    unit: 'tokens',
    help: 'Output plus tool result; TraceLab measured about 1.7–1.8k tokens per step',
  },
  outputTokens: {
    kind: 'number',
    label: 'Of which model output',
    default: 300,
    ...controlRange(PAYBACK_LIMITS.outputTokens, { min: 0, max: 4_000 }),
    integer: true,
    unit: 'tokens',
  },
  headTokens: {
    kind: 'number',
    label: 'Head kept (system + tools)',
    default: 8_000,
    ...controlRange(PAYBACK_LIMITS.headTokens, { min: 0, max: 40_000 }),
    integer: true,
    unit: 'tokens',
  },
  inputPrice: {
    kind: 'number',
    label: 'Input price',
    default: ANTHROPIC_PRICES.inputPerMTok,
    ...controlRange(PRICE_LIMITS.inputPerMTok, { min: 0.05, max: 30 }),
    step: 0.05,
    unit: '$/MTok',
    format: (v) => formatMoney(v),
  },
  outputPrice: {
    kind: 'number',
    label: 'Output price',
    default: ANTHROPIC_PRICES.outputPerMTok,
    ...controlRange(PRICE_LIMITS.outputPerMTok, { min: 0.1, max: 150 }),
    step: 0.1,
    unit: '$/MTok',
    format: (v) => formatMoney(v),
  },
  readMultiplier: {
    kind: 'number',
    label: 'Cache read ÷ input price',
    default: ANTHROPIC_PRICES.cacheReadMultiplier,
    ...controlRange(PRICE_LIMITS.cacheReadMultiplier),
    step: 0.05,
    unit: '×',
  },
  writeMultiplier: {
    kind: 'number',
    label: 'Cache write ÷ input price',
    default: ANTHROPIC_PRICES.cacheWriteMultiplier,
    ...controlRange(PRICE_LIMITS.cacheWriteMultiplier, { min: 1, max: 2 }),
    step: 0.05,
    unit: '×',
  },
  ...replicaParams,
} satisfies ParamSchema;

export type PaybackValues = ParamValues<typeof paybackSchema>;
export const PAYBACK_DEFAULTS = defaultValues(paybackSchema);

export function paybackArgs(v: PaybackValues): PaybackRequest {
  return {
    modelId: v.model,
    acceleratorId: v.accelerator,
    tp: v.gpus,
    gemmEfficiency: v.gemmEfficiency,
    params: {
      contextTokens: v.contextTokens,
      headTokens: Math.min(v.headTokens, v.contextTokens),
      growthTokens: v.growthTokens,
      outputTokens: Math.min(v.outputTokens, v.growthTokens),
      turns: v.turns,
      thresholdTokens: v.thresholdTokens,
      summaryTokens: v.summaryTokens,
      keepLast: v.keepLast,
      stubTokens: v.stubTokens,
    },
    prices: {
      inputPerMTok: v.inputPrice,
      outputPerMTok: v.outputPrice,
      cacheReadMultiplier: v.readMultiplier,
      cacheWriteMultiplier: v.writeMultiplier,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// What the prose and the exercise quote.

export const EDIT_DEFAULT_ARGS = editArgs(EDIT_DEFAULTS);
/** The prose's edits on the default session. */
export const PROSE_EDITS = {
  default: EDIT_DEFAULT_ARGS,
  none: editArgs({ ...EDIT_DEFAULTS, edit: 'none' }),
  summariseLate: editArgs({ ...EDIT_DEFAULTS, editTurn: 25 }),
  all: editArgs({ ...EDIT_DEFAULTS, editTurn: 0, span: 39, summaryTokens: 10_000 }),
  prune: editArgs({ ...EDIT_DEFAULTS, edit: 'prune', editTurn: 0 }),
  retrieve: editArgs({ ...EDIT_DEFAULTS, edit: 'retrieve', editTurn: 20 }),
  timestamp: editArgs({ ...EDIT_DEFAULTS, edit: 'token', tokenPosition: 10 }),
} satisfies Record<string, EditRequest>;
export type ProseEdit = keyof typeof PROSE_EDITS;

export const PAYBACK_DEFAULT_ARGS = paybackArgs(PAYBACK_DEFAULTS);

/** Exercise: the re-prefill of compacting 80k → 10k for Llama 3.1 8B on one H100. */
export const EXERCISE_ARGS: PaybackRequest = paybackArgs({
  ...PAYBACK_DEFAULTS,
  model: 'llama-3.1-8b',
  gpus: 1,
});

/** Dollars to three significant figures below $10 ("$0.0186", "$1.23"), else formatMoney. */
export const money = (v: number) =>
  Math.abs(v) < 10 ? `${v < 0 ? '-' : ''}$${formatNumber(Math.abs(v), 3)}` : formatMoney(v);
