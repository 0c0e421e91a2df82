/**
 * Context compaction (lesson 07.11), part 2: when a compaction pays back the re-prefill it causes. Over the rest of
 * a session, the cumulative prefill tokens, prefill seconds (cost.ts prefillTime) and dollars (API prices with
 * cache-read and cache-write multipliers) of three policies: never compact, summarise at a threshold, prune old
 * tool results at a threshold; and the turn at which each pays back against never compacting. What one edit does
 * to the prefix cache is compaction.ts.
 *
 * Pure: no DOM, no randomness.
 */
import type { ModelSpec } from '../engine/catalog/models';
import { prefillTime, type HardwareConfig } from '../engine/cost';
import { refuseOutsideEach } from '../engine/limits';
import { PAYBACK_LIMITS, PRICE_LIMITS } from './compactionLimits';


export interface Prices {
  /** Base input price, $ per million tokens. */
  inputPerMTok: number;
  /** Output price, $ per million tokens. */
  outputPerMTok: number;
  /** Cache read as a multiple of the input price (Anthropic: 0.1). */
  cacheReadMultiplier: number;
  /** Cache write as a multiple of the input price (Anthropic, 5-minute TTL: 1.25). */
  cacheWriteMultiplier: number;
}

export interface PaybackParams {
  /** Context at the start (all cached). */
  contextTokens: number;
  /** Head kept by every compaction and still cached after it (system prompt + tool schemas). */
  headTokens: number;
  /** Tokens added per turn: the model's output plus the tool result. */
  growthTokens: number;
  /** Of which the model's output (decoded, billed at the output price). */
  outputTokens: number;
  /** Turns to come. */
  turns: number;
  /** The model's context limit: a policy whose prompt would pass it stops there. */
  limitTokens: number;
  /** Compact (or prune) before a turn whose context is at or above this. */
  thresholdTokens: number;
  /** Summary length. */
  summaryTokens: number;
  /** Pruning keeps the last `keepLast` turns whole and replaces older tool results by `stubTokens` each. */
  keepLast: number;
  stubTokens: number;
}

export type Policy = 'none' | 'summarise' | 'prune';
export const POLICIES: readonly Policy[] = ['none', 'summarise', 'prune'];

export interface TurnCost {
  turn: number;
  /** Prompt tokens of this turn's request. */
  promptTokens: number;
  /** Of which read from the cache. */
  cachedTokens: number;
  /** Prefilled this turn (prompt − cached). */
  prefillTokens: number;
  prefillSeconds: number;
  dollars: number;
  /** A compaction or prune happened before this turn. */
  compacted: boolean;
  /** Context before that compaction (0 when none). */
  compactedFrom: number;
  /** Dollars of the summary call included in `dollars` (0 when none). */
  summaryCallDollars: number;
  cumPrefillTokens: number;
  cumPrefillSeconds: number;
  cumDollars: number;
}

export interface PolicyRun {
  policy: Policy;
  turns: TurnCost[];
  /** First turn that could not be served (the prompt passed the limit), or null. */
  limitTurn: number | null;
  compactions: number;
}

export type Metric = 'dollars' | 'prefillSeconds' | 'prefillTokens';

const PAYBACK_KEYS = Object.keys(PAYBACK_LIMITS) as (keyof typeof PAYBACK_LIMITS)[];
const PRICE_KEYS = Object.keys(PRICE_LIMITS) as (keyof typeof PRICE_LIMITS)[];
const fmt = (n: number) => n.toLocaleString('en-US');

function checkPayback(p: PaybackParams, prices: Prices): void {
  refuseOutsideEach(PAYBACK_LIMITS, p, PAYBACK_KEYS);
  refuseOutsideEach(PRICE_LIMITS, prices, PRICE_KEYS);
  if (p.outputTokens > p.growthTokens)
    throw new RangeError(
      `The model output per turn (${fmt(p.outputTokens)} tokens) is part of the context growth per turn, so it cannot be more than it (${fmt(p.growthTokens)}).`,
    );
  if (p.headTokens > p.contextTokens)
    throw new RangeError(
      `The head kept (${fmt(p.headTokens)} tokens) is part of the context, so it cannot be more than the context now (${fmt(p.contextTokens)}).`,
    );
}

/** Dollars of one request: cached tokens at the read price, new input at the write price, output at its price. */
export function requestDollars(prices: Prices, cached: number, fresh: number, output: number): number {
  const inp = prices.inputPerMTok / 1e6;
  return (
    cached * inp * prices.cacheReadMultiplier +
    fresh * inp * prices.cacheWriteMultiplier +
    output * (prices.outputPerMTok / 1e6)
  );
}

/**
 * One policy over the coming turns. Turn t's request carries the context so far plus the turn's growth g
 * (the previous output and the new tool result), all of it prefilled; the context before it is cached unless a
 * compaction just rewrote it. The summarising policy first asks the model for the summary: a request that reads
 * the whole (cached) context and writes `summaryTokens` (counted in dollars, not in prefill), then re-prefills
 * summary + g after the cached head. Pruning replaces old tool results by stubs in place: the prefix up to the
 * first pruned result stays cached, everything after it is re-prefilled; no model call.
 */
export function runPolicy(
  policy: Policy,
  p: PaybackParams,
  prices: Prices,
  time: (newTokens: number, cachedTokens: number) => number,
): PolicyRun {
  checkPayback(p, prices);
  const g = p.growthTokens;
  const o = p.outputTokens;
  const r = g - o;
  // Pruning state: context = head + stubbed·(o + stub) + live·g (turn-equivalents; real numbers).
  let stubbed = 0;
  let live = (p.contextTokens - p.headTokens) / g;
  let context = p.contextTokens;
  const rows: TurnCost[] = [];
  let cumT = 0;
  let cumS = 0;
  let cumD = 0;
  let limitTurn: number | null = null;
  let compactions = 0;
  for (let t = 1; t <= p.turns; t++) {
    let cached = context;
    let extraDollars = 0;
    let compacted = false;
    const from = context;
    if (policy !== 'none' && context >= p.thresholdTokens) {
      if (policy === 'summarise') {
        extraDollars = requestDollars(prices, context, 0, p.summaryTokens);
        context = p.headTokens + p.summaryTokens;
        cached = p.headTokens;
        compacted = true;
      } else {
        const prunable = Math.max(0, live - p.keepLast);
        if (prunable > 0 && p.stubTokens < r) {
          cached = p.headTokens + stubbed * (o + p.stubTokens) + o;
          stubbed += prunable;
          live -= prunable;
          context = p.headTokens + stubbed * (o + p.stubTokens) + live * g;
          compacted = true;
        }
      }
      if (compacted) compactions++;
    }
    const prompt = context + g;
    if (prompt > p.limitTokens) {
      limitTurn = t;
      break;
    }
    const fresh = prompt - cached;
    const secs = time(fresh, cached);
    const dollars = requestDollars(prices, cached, fresh, o) + extraDollars;
    cumT += fresh;
    cumS += secs;
    cumD += dollars;
    rows.push({
      turn: t,
      promptTokens: prompt,
      cachedTokens: cached,
      prefillTokens: fresh,
      prefillSeconds: secs,
      dollars,
      compacted,
      compactedFrom: compacted ? from : 0,
      summaryCallDollars: extraDollars,
      cumPrefillTokens: cumT,
      cumPrefillSeconds: cumS,
      cumDollars: cumD,
    });
    context = prompt;
    live += 1;
  }
  return { policy, turns: rows, limitTurn, compactions };
}

const CUM: Record<Metric, keyof TurnCost> = {
  dollars: 'cumDollars',
  prefillSeconds: 'cumPrefillSeconds',
  prefillTokens: 'cumPrefillTokens',
};

export function cumulative(run: PolicyRun, metric: Metric): number[] {
  return run.turns.map((x) => x[CUM[metric]] as number);
}

/**
 * The turn from which a policy's cumulative cost stays at or below never compacting (over the turns both
 * served), or null when it never gets there. Turn 0 means it never cost more.
 */
export function breakEvenTurn(policy: PolicyRun, none: PolicyRun, metric: Metric): number | null {
  const a = cumulative(policy, metric);
  const b = cumulative(none, metric);
  const n = Math.min(a.length, b.length);
  if (n === 0) return null;
  let last = -1; // last turn index where the policy cost more
  for (let i = 0; i < n; i++) if (a[i] > b[i] * (1 + 1e-12)) last = i;
  if (last === -1) return 0;
  if (last === n - 1) return null;
  return policy.turns[last + 1].turn;
}

export interface PaybackResult {
  runs: Record<Policy, PolicyRun>;
  breakEven: Record<Exclude<Policy, 'none'>, Record<Metric, number | null>>;
}

export function paybackSeries(
  p: PaybackParams,
  prices: Prices,
  time: (newTokens: number, cachedTokens: number) => number,
): PaybackResult {
  const runs = {
    none: runPolicy('none', p, prices, time),
    summarise: runPolicy('summarise', p, prices, time),
    prune: runPolicy('prune', p, prices, time),
  };
  const be = (pol: PolicyRun) => ({
    dollars: breakEvenTurn(pol, runs.none, 'dollars'),
    prefillSeconds: breakEvenTurn(pol, runs.none, 'prefillSeconds'),
    prefillTokens: breakEvenTurn(pol, runs.none, 'prefillTokens'),
  });
  return { runs, breakEven: { summarise: be(runs.summarise), prune: be(runs.prune) } };
}

/** prefillTime bound to a model and replica, for runPolicy. */
export function prefillClock(model: ModelSpec, hw: HardwareConfig) {
  return (n: number, c: number) => prefillTime(model, hw, n, c);
}
