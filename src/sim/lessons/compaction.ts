/**
 * Context compaction (lesson 07.11): what an edit to an agent's prompt does to its prefix cache, and when a
 * compaction pays back the re-prefill it causes.
 *
 * 1. `editPrompt` + `cacheAfterEdit`: an agent prompt as content segments (the same layout as the fleet
 *    workload, src/sim/engine/fleet/workload.ts: system, tools, task, out₀ res₀ … out_{n−1} res_{n−1}); an edit
 *    (summarise turns a..b, prune old tool results, insert a retrieved document, change one token) gives the next
 *    prompt. The cache holds the full blocks of everything before the latest tool result (the previous turn's
 *    prompt and its decoded output); a lookup walks the next prompt's chained block hashes
 *    (kvcache/hash.ts segmentBlockHashes) until the first miss. Because a block's hash covers every token before
 *    it, every block from the edit point on misses, even blocks whose own content did not change.
 *
 * 2. `paybackSeries`: over the rest of a session, the cumulative prefill tokens, prefill seconds (cost.ts
 *    prefillTime) and dollars (API prices with cache-read and cache-write multipliers) of three policies: never
 *    compact, summarise at a threshold, prune old tool results at a threshold; and the turn at which each pays
 *    back against never compacting.
 *
 * Pure: no DOM, no randomness.
 */
import { BlockChain, type Segment } from '../engine/kvcache/hash';
import { finish, Pace, type Steps } from '../engine/cooperative';
import { BlockHashSet } from '../engine/kvcache/blockHashSet';
import { SEG, segId } from '../engine/fleet/workload';
import type { ModelSpec } from '../engine/catalog/models';
import { prefillTime, type HardwareConfig } from '../engine/cost';
import { limitRefusal, type Limit } from '../engine/limits';
import { EDIT_LIMITS, PAYBACK_LIMITS, PRICE_LIMITS, SESSION_LIMITS } from './compactionLimits';

// ---------------------------------------------------------------------------------------------------------
// 1. An edit and the cache

export type SegKind = 'system' | 'tools' | 'task' | 'out' | 'result' | 'summary' | 'stub' | 'doc' | 'edited';

export interface PromptSeg extends Segment {
  id: number;
  kind: SegKind;
  /** The turn the segment belongs to (out, result, stub), or the first turn it replaces (summary), else −1. */
  turn: number;
}

export interface SessionShape {
  systemTokens: number;
  toolTokens: number;
  taskTokens: number;
  /** Turns so far; the last one's tool result has just arrived and is not yet cached. */
  turns: number;
  /** Tokens the model writes per turn (reasoning + a tool call). */
  outputTokens: number;
  /** Tokens of a tool result. */
  resultTokens: number;
}

/** Session index used in the segment ids of the lesson's single session. */
const SESSION = 0;
/** Extra segment kinds (beyond the workload's SEG), folded into ids the same way. */
const KIND_STUB = 10;
const KIND_DOC = 11;
const KIND_EDITED = 12;
const KIND_TAIL = 13;

/** The prompt of the next turn before any edit: system, tools, task, then (output, tool result) per turn. */
export function buildPrompt(s: SessionShape): PromptSeg[] {
  checkShape(s);
  const out: PromptSeg[] = [
    { id: segId(SEG.system, 0, 0), kind: 'system', tokens: s.systemTokens, turn: -1 },
    { id: segId(SEG.tools, 0, 0), kind: 'tools', tokens: s.toolTokens, turn: -1 },
    { id: segId(SEG.task, SESSION, 0), kind: 'task', tokens: s.taskTokens, turn: -1 },
  ];
  for (let t = 0; t < s.turns; t++) {
    out.push({ id: segId(SEG.out, SESSION, t), kind: 'out', tokens: s.outputTokens, turn: t });
    out.push({ id: segId(SEG.result, SESSION, t), kind: 'result', tokens: s.resultTokens, turn: t });
  }
  return out;
}

/** Each field of `x` named in `limits` inside its limit (compactionLimits.ts), else the refusal in words. */
function refuseOutside<K extends string>(limits: Record<K, Limit>, x: Record<K, unknown>, keys: readonly K[]): void {
  for (const k of keys) {
    const why = limitRefusal(limits[k], x[k]);
    if (why) throw new RangeError(why);
  }
}

const SHAPE_KEYS = ['systemTokens', 'toolTokens', 'taskTokens', 'turns', 'outputTokens', 'resultTokens'] as const;

function checkShape(s: SessionShape): void {
  refuseOutside(SESSION_LIMITS, s, SHAPE_KEYS);
}

/** The fields each kind of edit carries. */
const EDIT_KEYS = {
  none: [],
  summarise: ['fromTurn', 'span', 'summaryTokens'],
  prune: ['fromTurn', 'keepLast', 'stubTokens'],
  retrieve: ['atTurn', 'docTokens'],
  token: ['position'],
} as const satisfies Record<Edit['kind'], readonly (keyof typeof EDIT_LIMITS)[]>;

function checkEdit(edit: Edit): void {
  const keys: readonly (keyof typeof EDIT_LIMITS)[] | undefined = EDIT_KEYS[edit.kind];
  if (!keys) throw new RangeError(`There is no edit called "${String(edit.kind)}".`);
  refuseOutside(EDIT_LIMITS, edit as unknown as Record<keyof typeof EDIT_LIMITS, unknown>, keys);
}

export type Edit =
  | { kind: 'none' }
  /** Replace `span` turns from turn a (outputs and results) by one summary of `summaryTokens`, where turn a stood. */
  | { kind: 'summarise'; fromTurn: number; span: number; summaryTokens: number }
  /** Replace the tool result of every turn from `fromTurn` up to the last `keepLast` by a stub of `stubTokens`. */
  | { kind: 'prune'; fromTurn: number; keepLast: number; stubTokens: number }
  /** Insert a retrieved document of `docTokens` just before turn `atTurn`. */
  | { kind: 'retrieve'; atTurn: number; docTokens: number }
  /** Change the one token at position `position` (0-based; e.g. a timestamp in the system prompt). */
  | { kind: 'token'; position: number };

const clampInt = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.round(v)));

/** Index of turn t's output segment in a prompt from buildPrompt. */
const outIndex = (t: number) => 3 + 2 * t;

/**
 * The next prompt after an edit. Turn indices are clamped so the latest turn (whose tool result just arrived)
 * is never summarised or pruned; the returned edit says what was applied.
 */
export function editPrompt(
  prompt: readonly PromptSeg[],
  turns: number,
  edit: Edit,
): { prompt: PromptSeg[]; applied: Edit } {
  checkEdit(edit);
  const p = prompt.slice();
  switch (edit.kind) {
    case 'none':
      return { prompt: p, applied: edit };
    case 'summarise': {
      const last = Math.max(0, turns - 2);
      if (turns < 2) return { prompt: p, applied: { kind: 'none' } };
      const a = clampInt(edit.fromTurn, 0, last);
      const b = clampInt(a + edit.span - 1, a, last);
      const summary: PromptSeg = {
        id: segId(SEG.summary, SESSION, a * 4096 + b),
        kind: 'summary',
        tokens: Math.max(0, Math.round(edit.summaryTokens)),
        turn: a,
      };
      p.splice(outIndex(a), 2 * (b - a + 1), summary);
      return { prompt: p, applied: { ...edit, fromTurn: a, span: b - a + 1 } };
    }
    case 'prune': {
      const keep = clampInt(edit.keepLast, 1, turns);
      const a = clampInt(edit.fromTurn, 0, turns - 1);
      for (let t = a; t < turns - keep; t++)
        p[outIndex(t) + 1] = {
          id: segId(KIND_STUB, SESSION, t),
          kind: 'stub',
          tokens: Math.max(0, Math.round(edit.stubTokens)),
          turn: t,
        };
      return { prompt: p, applied: { ...edit, fromTurn: a, keepLast: keep } };
    }
    case 'retrieve': {
      const at = clampInt(edit.atTurn, 0, turns - 1);
      p.splice(outIndex(at), 0, {
        id: segId(KIND_DOC, SESSION, at),
        kind: 'doc',
        tokens: Math.max(0, Math.round(edit.docTokens)),
        turn: at,
      });
      return { prompt: p, applied: { ...edit, atTurn: at } };
    }
    case 'token': {
      const total = p.reduce((s, x) => s + x.tokens, 0);
      const pos = clampInt(edit.position, 0, Math.max(0, total - 1));
      let start = 0;
      for (let i = 0; i < p.length; i++) {
        const seg = p[i];
        if (pos < start + seg.tokens) {
          const off = pos - start;
          const parts: PromptSeg[] = [];
          if (off > 0) parts.push({ ...seg, tokens: off });
          parts.push({
            id: segId(KIND_EDITED, SESSION, pos % 16777216),
            kind: 'edited',
            tokens: 1,
            turn: seg.turn,
          });
          if (seg.tokens - off - 1 > 0)
            parts.push({
              id: segId(KIND_TAIL, i, pos % 16777216),
              kind: seg.kind,
              tokens: seg.tokens - off - 1,
              turn: seg.turn,
            });
          p.splice(i, 1, ...parts);
          break;
        }
        start += seg.tokens;
      }
      return { prompt: p, applied: { kind: 'token', position: pos } };
    }
  }
}

export interface DrawnSeg {
  kind: SegKind;
  turn: number;
  start: number;
  tokens: number;
}

export interface CacheAfterEdit {
  blockSize: number;
  /** Tokens of the prompt before the edit (the latest result included) and after it. */
  tokensBefore: number;
  tokensAfter: number;
  /** Tokens whose KV is cached when the request arrives: full blocks before the latest tool result. */
  cachedBefore: number;
  /** First token where the edited prompt differs from the unedited one (= tokensBefore when it does not). */
  editPoint: number;
  /** Prefix-cache hit of the edited prompt: blocks whose chained hash is in the cache, × block size. */
  hitTokens: number;
  /** Tokens to prefill for the edited prompt: tokensAfter − hitTokens. */
  reprefillTokens: number;
  /** The same without any edit (the latest tool result and the partial block before it). */
  baselineReprefillTokens: number;
  /** Cached tokens the edited prompt no longer uses (dead KV until evicted): cachedBefore − hitTokens. */
  deadTokens: number;
  /** Blocks of the edited prompt that hit, that miss, and how many of the misses hold content the cache had at
   *  another position (same segment, moved): the blocks a position shift alone invalidated. */
  blocksHit: number;
  blocksMiss: number;
  movedTokens: number;
  before: DrawnSeg[];
  after: DrawnSeg[];
}

function layout(p: readonly PromptSeg[]): DrawnSeg[] {
  let start = 0;
  return p.map((s) => {
    const d = { kind: s.kind, turn: s.turn, start, tokens: s.tokens };
    start += s.tokens;
    return d;
  });
}

/**
 * What the prefix cache holds for the next request after an edit. The cache holds the full blocks of the
 * prompt without its last segment (the tool result that just arrived); the lookup walks the edited prompt's
 * block hashes while each is in the cache (chained hashes: the first miss ends the walk).
 */
export function cacheAfterEdit(
  before: readonly PromptSeg[],
  after: readonly PromptSeg[],
  blockSize: number,
): CacheAfterEdit {
  return finish(cacheAfterEditSteps(before, after, blockSize));
}

/** Blocks hashed, added or looked up between yields of cacheAfterEditSteps (a few ms of work). */
const EDIT_BLOCKS_PER_YIELD = 50_000;

/**
 * Hash `segments` as segmentBlockHashes does (the same BlockChain, segment by segment), yielding between segments
 * when `pace` is due: at one-token blocks a long prompt is hundreds of thousands of blocks.
 */
function* hashSteps(segments: readonly Segment[], blockSize: number, fullBlocksOnly: boolean, pace: Pace) {
  const chain = new BlockChain(blockSize);
  for (const seg of segments) {
    const had = chain.full.length;
    chain.push(seg);
    if (pace.due(chain.full.length - had + 1)) yield;
  }
  return chain.list(fullBlocksOnly);
}

/**
 * cacheAfterEdit as a cooperative computation (engine/cooperative.ts): hashing both prompts, filling the cache and
 * walking the lookup yield every few ms of blocks, so a newer request cancels it there (07.11's edit widget at its
 * maxima: 60 ms warm, up to 0.36 s cold under load).
 */
export function* cacheAfterEditSteps(
  before: readonly PromptSeg[],
  after: readonly PromptSeg[],
  blockSize: number,
): Steps<CacheAfterEdit> {
  const pace = new Pace(EDIT_BLOCKS_PER_YIELD);
  const cachedSegs = before.slice(0, -1);
  // A typed-array set (blockHashSet.ts): at one-token blocks a Set of a long prompt's hashes took ~0.2 s.
  const cache = new BlockHashSet();
  const cached = yield* hashSteps(cachedSegs, blockSize, true, pace);
  for (const h of cached.hashes) {
    cache.add(h);
    if (pace.due()) yield;
  }
  const cachedBefore = cache.size * blockSize;
  const next = yield* hashSteps(after, blockSize, false, pace);
  let hit = 0;
  while (hit < next.hashes.length && cache.has(next.hashes[hit])) {
    hit++;
    if (pace.due()) yield;
  }
  const tokensAfter = next.tokens;
  const hitTokens = Math.min(hit * blockSize, tokensAfter);
  const tokensBefore = before.reduce((s, x) => s + x.tokens, 0);
  const baseHit =
    Math.floor((tokensBefore - (before[before.length - 1]?.tokens ?? 0)) / blockSize) * blockSize;
  // First differing token: walk both segment lists.
  let editPoint = 0;
  {
    let i = 0;
    let j = 0;
    let oi = 0;
    let oj = 0;
    while (i < before.length && j < after.length) {
      const a = before[i];
      const b = after[j];
      if (a.id !== b.id || oi !== oj) break;
      const take = Math.min(a.tokens - oi, b.tokens - oj);
      editPoint += take;
      oi += take;
      oj += take;
      if (oi === a.tokens) {
        i++;
        oi = 0;
      }
      if (oj === b.tokens) {
        j++;
        oj = 0;
      }
    }
    if (i >= before.length || j >= after.length) editPoint = Math.min(tokensBefore, tokensAfter);
  }
  // Content the cache had (same segment id) but that now sits in a missed block, i.e. moved.
  const beforeIds = new Set(cachedSegs.map((s) => s.id));
  let movedTokens = 0;
  let pos = 0;
  for (const s of after) {
    const missFrom = Math.max(pos, hitTokens);
    const end = pos + s.tokens;
    if (end > missFrom && beforeIds.has(s.id) && s.kind !== 'edited') movedTokens += end - missFrom;
    pos = end;
  }
  return {
    blockSize,
    tokensBefore,
    tokensAfter,
    cachedBefore,
    editPoint,
    hitTokens,
    reprefillTokens: tokensAfter - hitTokens,
    baselineReprefillTokens: tokensBefore - baseHit,
    deadTokens: Math.max(0, cachedBefore - hitTokens),
    blocksHit: hit,
    blocksMiss: next.hashes.length - hit,
    movedTokens,
    before: layout(before),
    after: layout(after),
  };
}

// ---------------------------------------------------------------------------------------------------------
// 2. When does a compaction pay back?

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
  refuseOutside(PAYBACK_LIMITS, p, PAYBACK_KEYS);
  refuseOutside(PRICE_LIMITS, prices, PRICE_KEYS);
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
