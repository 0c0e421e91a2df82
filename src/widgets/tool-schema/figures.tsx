/**
 * Inline figures for lesson 07.07's prose, computed by the same worker methods as its widgets at the widgets'
 * defaults (or a named variant), so that prose and widgets never disagree.
 */
import { InlineFigure } from '../kit/InlineFigure';
import { replicaName } from '../../sim/engine/catalog/names';
import { useSimulation } from '../kit/useSimulation';
import { formatDuration, formatNumber, formatPercent, formatRatio, formatTokens } from '../../lib/format';
import type { LayoutId } from '../../sim/lessons/toolLayouts';
import type { LayoutsResponse, ToolTaxResult } from '../../worker/schemaMethods';
import { LAYOUT_DEFAULTS, TAX_DEFAULTS, layoutArgs, money, taxArgs, type TaxValues } from './schema';

export const VARIANTS: Record<string, Partial<TaxValues>> = {
  default: {},
  pretty: { pretty: true },
  anthropic: { format: 'anthropic' },
  five: { toolCount: 5 },
  every1: { changeEvery: 1 },
  every5: { changeEvery: 5 },
};
export type TaxVariant = keyof typeof VARIANTS;

const TAX_METRICS = {
  tokens: (r: ToolTaxResult) => `${formatNumber(r.toolTokens, 6)} tokens`,
  count: (r: ToolTaxResult) => formatNumber(r.tools.length),
  perTool: (r: ToolTaxResult) => `${formatNumber(r.toolTokens / Math.max(1, r.tools.length))} tokens`,
  minTool: (r: ToolTaxResult) => {
    const t = [...r.tools].sort((a, b) => a.tokens - b.tokens)[0];
    return t ? `${t.name} (${t.tokens} tokens)` : '—';
  },
  maxTool: (r: ToolTaxResult) => {
    const t = [...r.tools].sort((a, b) => b.tokens - a.tokens)[0];
    return t ? `${t.name} (${t.tokens} tokens)` : '—';
  },
  charsPerToken: (r: ToolTaxResult) => formatNumber(r.toolChars / Math.max(1, r.toolTokens)),
  prefill: (r: ToolTaxResult) => formatDuration(r.prefillSeconds),
  turns: (r: ToolTaxResult) => formatNumber(r.session.turns),
  prefilledNoCache: (r: ToolTaxResult) => `${formatNumber(r.session.prefilledNoCache, 6)} tokens`,
  prefilledCached: (r: ToolTaxResult) => `${formatNumber(r.session.prefilledCached, 6)} tokens`,
  costNoCache: (r: ToolTaxResult) => money(r.session.costNoCache),
  costCached: (r: ToolTaxResult) => money(r.session.costCached),
  saving: (r: ToolTaxResult) => formatPercent(r.session.saving),
  costRatio: (r: ToolTaxResult) => formatRatio(r.session.costCached / r.session.costNoCache),
  writes: (r: ToolTaxResult) => formatNumber(r.session.writes),
} as const;
export type TaxMetric = keyof typeof TAX_METRICS;

/** A figure of the first widget at its defaults (or a variant: pretty JSON, Anthropic shape, 5 tools, …). */
export function TaxFig({ m, v = 'default' }: { m: TaxMetric; v?: TaxVariant }) {
  const sim = useSimulation('toolSchemaTax', taxArgs({ ...TAX_DEFAULTS, ...VARIANTS[v] }));
  return (
    <InlineFigure
      value={sim.result ? TAX_METRICS[m](sim.result) : null}
      title="o200k_base, the first widget's defaults"
    />
  );
}

/**
 * How often a changing-block variant changes its tool block, e.g. "5 turns": the period the prose and the tour name
 * beside that variant's figures, read from VARIANTS so that the words and the figure cannot drift apart.
 */
export function changePeriodText(v: TaxVariant): string {
  const k = VARIANTS[v].changeEvery;
  if (k === undefined) throw new Error(`variant ${v} does not change its tool block`);
  return k === 1 ? 'turn' : `${formatNumber(k)} turns`;
}

/** The change period of a variant, as words ("5 turns"). */
export function ChangePeriod({ v }: { v: TaxVariant }) {
  return <InlineFigure value={changePeriodText(v)} />;
}

/** The pretty-printed block's size relative to the compact one. */
export function PrettyRatio() {
  const a = useSimulation('toolSchemaTax', taxArgs(TAX_DEFAULTS)).result;
  const b = useSimulation('toolSchemaTax', taxArgs({ ...TAX_DEFAULTS, pretty: true })).result;
  return <InlineFigure value={a && b ? formatPercent(b.toolTokens / a.toolTokens - 1, 2) : null} />;
}

const LAYOUT_METRICS = {
  hitRate: (r: LayoutsResponse, l: LayoutId) => formatPercent(pick(r, l).hitRate),
  prefilled: (r: LayoutsResponse, l: LayoutId) => `${formatNumber(pick(r, l).prefillTokens, 6)} tokens`,
  toolPrefilled: (r: LayoutsResponse, l: LayoutId) =>
    `${formatNumber(pick(r, l).toolTokensPrefilled, 6)} tokens`,
  seconds: (r: LayoutsResponse, l: LayoutId) => formatDuration(pick(r, l).totalSeconds),
  ratio: (r: LayoutsResponse, l: LayoutId) =>
    formatRatio(pick(r, l).prefillTokens / pick(r, 'tools-first').prefillTokens),
  spike: (r: LayoutsResponse, l: LayoutId) => {
    const t = pick(r, l).turns;
    return formatTokens(Math.max(...t.slice(1).map((x) => x.prefillTokens)));
  },
  toolTokens: (r: LayoutsResponse) => `${formatNumber(r.toolTokens, 6)} tokens`,
  addedTool: (r: LayoutsResponse) => `${formatNumber(r.addedToolTokens, 6)} tokens`,
  firstTurn: (r: LayoutsResponse, l: LayoutId) =>
    `${formatNumber(pick(r, l).turns[0].prefillTokens, 6)} tokens`,
  lastTurn: (r: LayoutsResponse, l: LayoutId) => {
    const t = pick(r, l).turns;
    return `${formatNumber(t[t.length - 1].prefillTokens, 6)} tokens`;
  },
} as const;
export type LayoutMetric = keyof typeof LAYOUT_METRICS;

function pick(r: LayoutsResponse, l: LayoutId) {
  const x = r.layouts.find((y) => y.layout === l);
  if (!x) throw new Error(`no layout ${l}`);
  return x;
}

/** A figure of the second widget at its defaults. */
export function LayoutFig({ m, l = 'tools-first' }: { m: LayoutMetric; l?: LayoutId }) {
  const sim = useSimulation('toolLayouts', layoutArgs(LAYOUT_DEFAULTS));
  return (
    <InlineFigure
      value={sim.result ? LAYOUT_METRICS[m](sim.result, l) : null}
      title="the second widget's defaults"
    />
  );
}

/** A default of the second widget (an input of the prose's session, e.g. the system prompt's tokens). */
export function LayoutDefault({
  k,
  unit = '',
}: {
  k: 'systemTokens' | 'newTokens' | 'outputTokens' | 'timestampTokens' | 'turns' | 'changeTurn' | 'blockSize';
  unit?: string;
}) {
  const v = Number(LAYOUT_DEFAULTS[k]);
  return <InlineFigure value={`${formatNumber(v, 6)}${unit}`} />;
}

/** The KV blocks a run of `tokens` tokens from the prompt's start spans: "block 0", "blocks 0 and 1", "blocks 0 to 3". */
export function leadingBlocksText(tokens: number, blockSize: number): string {
  const n = Math.ceil(tokens / blockSize);
  return n <= 1 ? 'block 0' : n === 2 ? 'blocks 0 and 1' : `blocks 0 to ${formatNumber(n - 1)}`;
}

/** The blocks the timestamp line spans at the second widget's defaults, where it opens the prompt. */
export function TimestampBlocks() {
  return (
    <InlineFigure
      value={leadingBlocksText(LAYOUT_DEFAULTS.timestampTokens, Number(LAYOUT_DEFAULTS.blockSize))}
    />
  );
}

/** Context growth per turn at the second widget's defaults: new tokens plus output. */
export function LayoutGrowth() {
  return (
    <InlineFigure
      value={`${formatNumber(LAYOUT_DEFAULTS.newTokens + LAYOUT_DEFAULTS.outputTokens, 6)} tokens`}
    />
  );
}

/** The replica a widget times prefill on at its defaults, e.g. "Llama 3.1 70B on 8 × H100 SXM". */
export function Replica({ w = 'tax' }: { w?: 'tax' | 'layout' }) {
  const v = w === 'tax' ? TAX_DEFAULTS : LAYOUT_DEFAULTS;
  return <InlineFigure value={replicaName(v.model, v.gpus, v.accelerator)} />;
}
