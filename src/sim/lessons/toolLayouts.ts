/**
 * Lesson 07.07, where the tool block sits: `simulateLayout` runs a session of turns whose prompts are content
 * segments in a given order; chained block hashes (kvcache/hash.ts segmentBlockHashes) against the blocks earlier
 * turns left in the cache give the tokens each turn hits and re-prefills. Token counts come in from the worker.
 */
import { PromptHasher, type Segment } from '../engine/kvcache/hash';
import { BlockHashSet } from '../engine/kvcache/blockHashSet';
import { finish, Pace, type Steps } from '../engine/cooperative';
import { createRng } from '../engine/rng';

export const LAYOUTS = [
  'tools-first',
  'timestamp-top',
  'timestamp-after-tools',
  'tool-added',
  'tools-resorted',
  'tools-after-history',
] as const;
export type LayoutId = (typeof LAYOUTS)[number];

export const LAYOUT_LABELS: Record<LayoutId, string> = {
  'tools-first': 'Tools → system → history',
  'timestamp-top': 'Timestamp above the tools',
  'timestamp-after-tools': 'Timestamp between system and history',
  'tool-added': 'One tool added mid-session',
  'tools-resorted': 'Tools re-sorted every turn',
  'tools-after-history': 'Tools after the history',
};

export type SegmentKind = 'timestamp' | 'tools' | 'system' | 'history' | 'new';

export interface LayoutSetup {
  /** The tool block, one entry per tool, in its canonical order. */
  tools: { name: string; tokens: number }[];
  /** The tool added at `changeTurn` by the 'tool-added' layout (inserted in name order). */
  addedTool: { name: string; tokens: number };
  systemTokens: number;
  /** New tokens each turn brings (the user's message or the previous tool's result). */
  newTokens: number;
  outputTokens: number;
  timestampTokens: number;
  turns: number;
  blockSize: number;
  /** Turn (1-based) at which 'tool-added' adds its tool. */
  changeTurn: number;
  /** Seed of the per-turn order of 'tools-resorted'. */
  seed: number;
}

interface KSegment extends Segment {
  kind: SegmentKind;
}

export interface TurnResult {
  turn: number;
  promptTokens: number;
  hitTokens: number;
  prefillTokens: number;
  /** Tokens of the tool block among the re-prefilled ones. */
  toolTokensPrefilled: number;
  /** Per kind of content: its tokens in the prompt and how many of them hit. */
  groups: { kind: SegmentKind; tokens: number; hit: number }[];
}

export interface LayoutResult {
  layout: LayoutId;
  turns: TurnResult[];
  promptTokens: number;
  hitTokens: number;
  prefillTokens: number;
  toolTokensPrefilled: number;
  hitRate: number;
}

function toolOrder(setup: LayoutSetup, layout: LayoutId, turn: number): { name: string; tokens: number }[] {
  const tools = setup.tools.slice();
  if (layout === 'tool-added' && turn >= setup.changeTurn) {
    const at = tools.findIndex((t) => t.name > setup.addedTool.name);
    tools.splice(at < 0 ? tools.length : at, 0, setup.addedTool);
  }
  if (layout === 'tools-resorted' && turn > 1) {
    const rng = createRng(setup.seed * 1000 + turn);
    for (let i = tools.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [tools[i], tools[j]] = [tools[j], tools[i]];
    }
  }
  return tools;
}

/** The prompt of turn `turn` (1-based) in a layout, as content segments. */
export function layoutPrompt(setup: LayoutSetup, layout: LayoutId, turn: number): KSegment[] {
  const tools: KSegment[] = toolOrder(setup, layout, turn).map((t) => ({
    id: `tool:${t.name}`,
    tokens: t.tokens,
    kind: 'tools',
  }));
  const system: KSegment = { id: 'system', tokens: setup.systemTokens, kind: 'system' };
  const ts: KSegment = { id: `timestamp:${turn}`, tokens: setup.timestampTokens, kind: 'timestamp' };
  const history: KSegment[] = [];
  for (let k = 1; k < turn; k++) {
    history.push({ id: `new:${k}`, tokens: setup.newTokens, kind: 'history' });
    history.push({ id: `out:${k}`, tokens: setup.outputTokens, kind: 'history' });
  }
  const fresh: KSegment = { id: `new:${turn}`, tokens: setup.newTokens, kind: 'new' };
  switch (layout) {
    case 'timestamp-top':
      return [ts, ...tools, system, ...history, fresh];
    case 'timestamp-after-tools':
      return [...tools, system, ts, ...history, fresh];
    case 'tools-after-history':
      return [system, ...history, ...tools, fresh];
    default:
      return [...tools, system, ...history, fresh];
  }
}

function checkSetup(s: LayoutSetup): void {
  const whole = (name: string, v: number, min: number) => {
    if (!(Number.isInteger(v) && v >= min))
      throw new RangeError(`${name} must be a whole number ≥ ${min}, got ${v}`);
  };
  whole('turns', s.turns, 1);
  whole('blockSize', s.blockSize, 1);
  whole('newTokens', s.newTokens, 1);
  whole('outputTokens', s.outputTokens, 0);
  whole('systemTokens', s.systemTokens, 0);
  whole('timestampTokens', s.timestampTokens, 0);
  whole('changeTurn', s.changeTurn, 1);
  for (const t of s.tools) whole(`tokens of ${t.name}`, t.tokens, 0);
}

/**
 * One session in one layout. The cache starts empty and keeps every full block any earlier turn produced (its
 * prompt and its output; no eviction, no expiry). A turn hits the longest run of leading blocks whose chained
 * hashes are cached, and prefills the rest (at least its last token).
 */
export function simulateLayout(setup: LayoutSetup, layout: LayoutId): LayoutResult {
  return finish(simulateLayoutSteps(setup, layout));
}

/**
 * Blocks looked up or added between yields of simulateLayoutSteps: at about 0.1–0.3 µs a block (a lookup or an
 * insert in a set of millions), a few ms of work.
 */
const LAYOUT_BLOCKS_PER_YIELD = 20_000;

/**
 * Prompt tokens of every turn of a layout's session, summed: the total of simulateLayoutSteps's progress (the
 * work of a turn, hashing and looking up its blocks, grows with its prompt). Builds each turn's segments once.
 */
export function layoutPromptTokens(setup: LayoutSetup, layout: LayoutId): number {
  let sum = 0;
  for (let t = 1; t <= setup.turns; t++) for (const seg of layoutPrompt(setup, layout, t)) sum += seg.tokens;
  return sum;
}

/**
 * simulateLayout as a cooperative computation (cooperative.ts). Its yields say how far it is in prompt tokens:
 * the prompts of the turns done, of the session's total (layoutPromptTokens). A session hashes each prompt once: the output
 * appended after the turn, and the next turn's prompt when it only appends to the last one, extend the hashes
 * already made (PromptHasher), and only blocks past the turn's hit are added to the cache (the ones before it
 * are there already): the same hashes and hits as hashing every prompt afresh into a `Set`, in a fraction of the
 * time and memory (blockHashSet.ts).
 */
export function* simulateLayoutSteps(setup: LayoutSetup, layout: LayoutId): Steps<LayoutResult> {
  checkSetup(setup);
  const bs = setup.blockSize;
  const cached = new BlockHashSet();
  const hasher = new PromptHasher(bs);
  const pace = new Pace(LAYOUT_BLOCKS_PER_YIELD);
  const turns: TurnResult[] = [];
  let promptSum = 0;
  let hitSum = 0;
  let toolSum = 0;
  const total = layoutPromptTokens(setup, layout);
  const progress = () => ({ done: promptSum, total });
  for (let t = 1; t <= setup.turns; t++) {
    const prompt = layoutPrompt(setup, layout, t);
    // vLLM caches full blocks only.
    const { full: hashes, tokens: promptTokens } = hasher.hashFullBlocks(prompt);
    const fullBlocks = hashes.length;
    let k = 0;
    while (k < fullBlocks && cached.has(hashes[k])) {
      k++;
      if (pace.due()) yield progress();
    }
    const hitTokens = Math.min(k * bs, promptTokens - 1);
    // Per kind, how many of its tokens lie before the hit boundary.
    const groups: TurnResult['groups'] = [];
    let pos = 0;
    let toolPrefilled = 0;
    for (const seg of prompt) {
      const hit = Math.max(0, Math.min(seg.tokens, hitTokens - pos));
      const last = groups[groups.length - 1];
      if (last && last.kind === seg.kind) {
        last.tokens += seg.tokens;
        last.hit += hit;
      } else groups.push({ kind: seg.kind, tokens: seg.tokens, hit });
      if (seg.kind === 'tools') toolPrefilled += seg.tokens - hit;
      pos += seg.tokens;
    }
    turns.push({
      turn: t,
      promptTokens,
      hitTokens,
      prefillTokens: promptTokens - hitTokens,
      toolTokensPrefilled: toolPrefilled,
      groups,
    });
    promptSum += promptTokens;
    hitSum += hitTokens;
    toolSum += toolPrefilled;
    // After the turn, its prompt and its output sit in the cache (full blocks only). The first k are there.
    const after = hasher.hashFullBlocks(prompt, { id: `out:${t}`, tokens: setup.outputTokens }).full;
    const afterFull = after.length;
    for (let i = k; i < afterFull; i++) {
      cached.add(after[i]);
      if (pace.due()) yield progress();
    }
    // Hashing the turn's prompt (at most one prompt's blocks, a few ms) counts too.
    if (pace.due(afterFull - k)) yield progress();
  }
  yield progress();
  return {
    layout,
    turns,
    promptTokens: promptSum,
    hitTokens: hitSum,
    prefillTokens: promptSum - hitSum,
    toolTokensPrefilled: toolSum,
    hitRate: promptSum > 0 ? hitSum / promptSum : 0,
  };
}
