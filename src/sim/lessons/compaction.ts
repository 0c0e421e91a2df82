/**
 * Context compaction (lesson 07.11), part 1: what an edit to an agent's prompt does to its prefix cache. When a
 * compaction pays back the re-prefill it causes is compactionPayback.ts.
 *
 * `editPrompt` + `cacheAfterEdit`: an agent prompt as content segments (the same layout as the fleet
 *    workload, src/sim/engine/fleet/workload.ts: system, tools, task, out₀ res₀ … out_{n−1} res_{n−1}); an edit
 *    (summarise turns a..b, prune old tool results, insert a retrieved document, change one token) gives the next
 *    prompt. The cache holds the full blocks of everything before the latest tool result (the previous turn's
 *    prompt and its decoded output); a lookup walks the next prompt's chained block hashes
 *    (kvcache/hash.ts segmentBlockHashes) until the first miss. Because a block's hash covers every token before
 *    it, every block from the edit point on misses, even blocks whose own content did not change.
 *
 * Pure: no DOM, no randomness.
 */
import { BlockChain, type Segment } from '../engine/kvcache/hash';
import { finish, Pace, type Steps } from '../engine/cooperative';
import { BlockHashSet } from '../engine/kvcache/blockHashSet';
import { SEG, segId } from '../engine/fleet/workload';
import { refuseOutsideEach } from '../engine/limits';
import { EDIT_LIMITS, SESSION_LIMITS } from './compactionLimits';

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

const SHAPE_KEYS = ['systemTokens', 'toolTokens', 'taskTokens', 'turns', 'outputTokens', 'resultTokens'] as const;

function checkShape(s: SessionShape): void {
  refuseOutsideEach(SESSION_LIMITS, s, SHAPE_KEYS);
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
  refuseOutsideEach(EDIT_LIMITS, edit as unknown as Record<keyof typeof EDIT_LIMITS, unknown>, keys);
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
