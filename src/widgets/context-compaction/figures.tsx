/**
 * Inline figures for lesson 07.11's prose, computed by the same worker methods as its widgets (schema.ts
 * PROSE_EDITS, the first of which is the first widget's default; PAYBACK_DEFAULT_ARGS is the second widget's
 * default), so prose and widgets never disagree.
 */
import { InlineFigure } from '../kit/InlineFigure';
import { useSimulation } from '../kit/useSimulation';
import {
  formatBytesDecimal,
  formatDuration,
  formatFlops,
  formatNumber,
  formatRatio,
  formatTokens,
} from '../../lib/format';
import type { EditResult, PaybackResponse } from '../../worker/compactionMethods';
import { money, PAYBACK_DEFAULT_ARGS, PROSE_EDITS, type ProseEdit } from './schema';
import { breakEvenText } from './Payback';

const tok = (x: number) => `${formatNumber(x, 6)} tokens`;

const EDIT_METRICS = {
  tokensBefore: (r: EditResult) => tok(r.tokensBefore),
  tokensAfter: (r: EditResult) => tok(r.tokensAfter),
  editPoint: (r: EditResult) => `token ${formatNumber(r.editPoint, 6)}`,
  hit: (r: EditResult) => tok(r.hitTokens),
  reprefill: (r: EditResult) => tok(r.reprefillTokens),
  baseline: (r: EditResult) => tok(r.baselineReprefillTokens),
  moved: (r: EditResult) => tok(r.movedTokens),
  saved: (r: EditResult) => tok(r.tokensBefore - r.tokensAfter),
  dead: (r: EditResult) => tok(r.deadTokens),
  deadBytes: (r: EditResult) => formatBytesDecimal(r.deadBytes),
  time: (r: EditResult) => formatDuration(r.reprefillSeconds),
  baselineTime: (r: EditResult) => formatDuration(r.baselineSeconds),
  timeRatio: (r: EditResult) => formatRatio(r.reprefillSeconds / r.baselineSeconds, 2),
  flops: (r: EditResult) => formatFlops(r.reprefillFlops),
  G: (r: EditResult) => formatFlops(r.replica.effectiveFlops, true),
  GA: (r: EditResult) => formatFlops(r.replica.attentionFlops, true),
  arPerToken: (r: EditResult) => formatDuration(r.replica.allReducePerTokenS),
  bodyFlops: (r: EditResult) => formatFlops(r.replica.bodyFlopsPerToken),
  attnPair: (r: EditResult) => formatFlops(r.replica.attentionFlopsPerPair),
  kv: (r: EditResult) => formatBytesDecimal(r.replica.kvBytesPerToken),
} as const;
export type EditMetric = keyof typeof EDIT_METRICS;
export const EDIT_METRIC_KEYS = Object.keys(EDIT_METRICS) as EditMetric[];

/** A figure of one of the prose's edits on the default session. */
export function EditFig({ e, m }: { e: ProseEdit; m: EditMetric }) {
  const sim = useSimulation('compactionEdit', PROSE_EDITS[e]);
  return <InlineFigure value={sim.result ? EDIT_METRICS[m](sim.result) : null} />;
}

const PAY_METRICS = {
  summaryBreakEvenDollars: (r: PaybackResponse) =>
    breakEvenText(r.breakEven.summarise.dollars, r, 'summarise'),
  summaryBreakEvenSeconds: (r: PaybackResponse) =>
    breakEvenText(r.breakEven.summarise.prefillSeconds, r, 'summarise'),
  pruneBreakEvenDollars: (r: PaybackResponse) => breakEvenText(r.breakEven.prune.dollars, r, 'prune'),
  pruneBreakEvenSeconds: (r: PaybackResponse) => breakEvenText(r.breakEven.prune.prefillSeconds, r, 'prune'),
  limitTurn: (r: PaybackResponse) => `turn ${r.runs.none.limitTurn ?? '—'}`,
  firstTurnNone: (r: PaybackResponse) => money(r.runs.none.turns[0].dollars),
  firstTurnSummary: (r: PaybackResponse) => money(r.runs.summarise.turns[0].dollars),
  summaryCall: (r: PaybackResponse) => money(r.runs.summarise.turns[0].summaryCallDollars),
  firstTurnPrune: (r: PaybackResponse) => money(r.runs.prune.turns[0].dollars),
  savingPerTurn: (r: PaybackResponse) =>
    money(r.runs.none.turns[1].dollars - r.runs.summarise.turns[1].dollars),
  reprefillSummary: (r: PaybackResponse) => formatDuration(r.runs.summarise.turns[0].prefillSeconds),
  reprefillPruneTokens: (r: PaybackResponse) => formatTokens(r.runs.prune.turns[0].prefillTokens),
  reprefillPrune: (r: PaybackResponse) => formatDuration(r.runs.prune.turns[0].prefillSeconds),
  turnNone: (r: PaybackResponse) => formatDuration(r.runs.none.turns[0].prefillSeconds),
  turnAfterSummary: (r: PaybackResponse) => formatDuration(r.runs.summarise.turns[1].prefillSeconds),
  summaryCompactions: (r: PaybackResponse) => formatNumber(r.runs.summarise.compactions),
  /** The context the second widget starts from, all of it cached. */
  contextNow: (r: PaybackResponse) => tok(r.params.contextTokens),
  /** What carrying that cached context costs a turn: its tokens at the cache-read price. */
  carryCost: (r: PaybackResponse) =>
    money((r.params.contextTokens * r.prices.inputPerMTok * r.prices.cacheReadMultiplier) / 1e6),
} as const;
export type PayMetric = keyof typeof PAY_METRICS;
export const PAY_METRIC_KEYS = Object.keys(PAY_METRICS) as PayMetric[];

/** A figure of the second widget's default run. */
export function PayFig({ m }: { m: PayMetric }) {
  const sim = useSimulation('compactionPayback', PAYBACK_DEFAULT_ARGS);
  return <InlineFigure value={sim.result ? PAY_METRICS[m](sim.result) : null} />;
}
