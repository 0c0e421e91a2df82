/**
 * Parameters of lesson 07.07's widgets, and the argument builders shared by the widgets, the prose figures and
 * the exercise (so that all of them ask the worker the same question for the same settings).
 */
import { MODELS } from '../../sim/engine/catalog/models';
import { AGENT_TOOLS } from '../../sim/lessons/tools/agentTools';
import { LAYOUTS, LAYOUT_LABELS } from '../../sim/lessons/toolLayouts';
import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { defaultValues } from '../../state/paramSchema';
import { formatMoney, formatNumber, formatTokens } from '../../lib/format';
import type { LayoutRequest, ToolTaxRequest } from '../../worker/schemaMethods';
import { acceleratorParam, formatTurnNumber, tpParam } from '../kit/commonParams';
import { controlRange } from '../kit/controlRange';
import { LAYOUT_LIMITS, TOOL_TAX_LIMITS } from '../../worker/limits/schema';

/** Dollars: three significant digits below $1 (a tool block's bill is cents), cents above. */
export function money(x: number): string {
  return Number.isFinite(x) && Math.abs(x) < 1 && x !== 0 ? `$${formatNumber(x, 3)}` : formatMoney(x);
}

export const TAX_ID = 'tool-schema-tax';
export const LAYOUT_ID = 'tool-block-layout';

/** Anthropic prompt caching: a 5-minute cache write costs 1.25× the base input price, a 1-hour one 2×, a read 0.1×. */
export const CACHE_WRITE = { '5m': 1.25, '1h': 2 } as const;
export const CACHE_READ = 0.1;

const modelOptions = MODELS.map((m) => ({ value: m.id, label: m.name }));

export const taxSchema = {
  toolCount: {
    kind: 'number',
    label: 'Tools in the request',
    default: AGENT_TOOLS.length,
    ...controlRange(TOOL_TAX_LIMITS.toolCount),
    integer: true,
    unit: 'tools',
    help: 'The first n tools of the shipped coding-agent set (files, search, shell, git, web, issues, CI, chat)',
  },
  format: {
    kind: 'select',
    label: 'Request format',
    default: 'openai',
    options: [
      { value: 'openai', label: 'OpenAI (function, parameters)' },
      { value: 'anthropic', label: 'Anthropic (input_schema)' },
    ],
  },
  pretty: { kind: 'boolean', label: 'Pretty-printed JSON (2-space indent)', default: false },
  turns: {
    kind: 'number',
    label: 'Turns in the session',
    default: 20,
    ...controlRange(TOOL_TAX_LIMITS.turns, { min: 1, max: 200 }),
    integer: true,
    unit: 'turns',
  },
  changeEvery: {
    kind: 'number',
    label: 'Tool block changes every',
    default: 0,
    ...controlRange(TOOL_TAX_LIMITS.changeEvery, { min: 0, max: 50 }),
    integer: true,
    unit: 'turns',
    format: (v) => (v === 0 ? 'never' : v === 1 ? 'every turn' : `${v} turns`),
    help: '0 = the same tools on every turn; k = the block is rewritten on turn 1, k+1, 2k+1, …',
  },
  inputPerMTok: {
    kind: 'number',
    label: 'Base input price',
    default: 3,
    ...controlRange(TOOL_TAX_LIMITS.inputPerMTok, { min: 0.1, max: 30 }),
    step: 0.05,
    scale: 'log',
    unit: '$/MTok',
    format: (v) => `${formatMoney(v)} per million tokens`,
    help: 'Claude Sonnet 4.x lists $3 per million input tokens',
  },
  cacheTtl: {
    kind: 'select',
    label: 'Cache write',
    default: '5m',
    options: [
      { value: '5m', label: `5-minute TTL: write ${CACHE_WRITE['5m']}× base` },
      { value: '1h', label: `1-hour TTL: write ${CACHE_WRITE['1h']}× base` },
    ],
  },
  model: { kind: 'select', label: 'Model (prefill time)', default: 'llama-3.1-70b', options: modelOptions },
  accelerator: acceleratorParam('h100-sxm'),
  gpus: tpParam(8),
} satisfies ParamSchema;

export type TaxValues = ParamValues<typeof taxSchema>;
export const TAX_DEFAULTS = defaultValues(taxSchema);

export function taxArgs(v: TaxValues, custom: string | null = null): ToolTaxRequest {
  return {
    toolCount: v.toolCount,
    format: v.format,
    pretty: v.pretty,
    turns: v.turns,
    changeEvery: v.changeEvery,
    inputPerMTok: v.inputPerMTok,
    writeMultiplier: CACHE_WRITE[v.cacheTtl as keyof typeof CACHE_WRITE] ?? 1.25,
    readMultiplier: CACHE_READ,
    modelId: v.model,
    acceleratorId: v.accelerator,
    gpus: v.gpus,
    custom,
  };
}

export const layoutSchema = {
  layout: {
    kind: 'select',
    label: 'Prompt layout (read-outs)',
    default: 'tools-first',
    options: LAYOUTS.map((l) => ({ value: l, label: LAYOUT_LABELS[l] })),
  },
  toolCount: {
    kind: 'number',
    label: 'Tools in the block',
    default: AGENT_TOOLS.length,
    ...controlRange(LAYOUT_LIMITS.toolCount),
    integer: true,
    unit: 'tools',
  },
  systemTokens: {
    kind: 'number',
    label: 'System prompt',
    default: 2000,
    ...controlRange(LAYOUT_LIMITS.systemTokens, { min: 0, max: 20_000 }),
    step: 100,
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  newTokens: {
    kind: 'number',
    label: 'New tokens per turn (user message or tool result)',
    default: 1500,
    ...controlRange(LAYOUT_LIMITS.newTokens, { min: 10, max: 20_000 }),
    step: 10,
    scale: 'log',
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  outputTokens: {
    kind: 'number',
    label: 'Model output per turn',
    default: 300,
    ...controlRange(LAYOUT_LIMITS.outputTokens, { min: 0, max: 5000 }),
    step: 10,
    unit: 'tokens',
    format: (v) => formatTokens(v),
  },
  timestampTokens: {
    kind: 'number',
    label: 'Timestamp line',
    default: 20,
    ...controlRange(LAYOUT_LIMITS.timestampTokens, { min: 1, max: 200 }),
    integer: true,
    unit: 'tokens',
    help: 'e.g. "Current time: 2026-11-29T10:31:07Z, session 8f3a…", different on every turn',
  },
  turns: {
    kind: 'number',
    label: 'Turns in the session',
    default: 20,
    ...controlRange(LAYOUT_LIMITS.turns, { min: 2, max: 100 }),
    integer: true,
    unit: 'turns',
  },
  changeTurn: {
    kind: 'number',
    label: 'Turn the extra tool arrives',
    default: 10,
    ...controlRange(LAYOUT_LIMITS.changeTurn, { min: 2, max: 100 }),
    integer: true,
    format: formatTurnNumber,
    help: 'For the "one tool added mid-session" layout: an MCP server connects and its tool joins the block before the first tool whose name sorts after it',
  },
  blockSize: {
    kind: 'select',
    label: 'KV block size',
    default: '16',
    options: ['16', '32', '64', '256'].map((b) => ({
      value: b,
      label: `${b} tokens${b === '16' ? ' (vLLM default)' : ''}`,
    })),
  },
  model: { kind: 'select', label: 'Model (prefill time)', default: 'llama-3.1-70b', options: modelOptions },
  accelerator: acceleratorParam('h100-sxm'),
  gpus: tpParam(8),
} satisfies ParamSchema;

export type LayoutValues = ParamValues<typeof layoutSchema>;
export const LAYOUT_DEFAULTS = defaultValues(layoutSchema);

export function layoutArgs(v: LayoutValues): LayoutRequest {
  return {
    toolCount: v.toolCount,
    format: 'openai',
    systemTokens: v.systemTokens,
    newTokens: v.newTokens,
    outputTokens: v.outputTokens,
    timestampTokens: v.timestampTokens,
    turns: v.turns,
    blockSize: Number(v.blockSize),
    changeTurn: v.changeTurn,
    seed: 1,
    modelId: v.model,
    acceleratorId: v.accelerator,
    gpus: v.gpus,
  };
}
