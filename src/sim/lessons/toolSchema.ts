/**
 * Lesson 07.07, the tool schema tax. Pure functions, no tokenizer: the worker counts tokens (gpt-tokenizer's
 * o200k_base, loaded lazily there) and passes counts in.
 *
 *  - `renderTool`: a tool definition as the JSON text an API request carries (OpenAI or Anthropic shape).
 *  - `parseToolDefinitions`: a learner's pasted JSON → tool definitions, or an error with its line and column.
 *  - `sessionToolCost`: tokens prefilled and dollars paid for a tool block over a session, with and without a
 *    prefix cache, when the block is rewritten every `changeEvery` turns (cache-write and cache-read multipliers).
 *  - `simulateLayout`: a session of turns whose prompts are content segments in a given order; chained block
 *    hashes (kvcache/hash.ts segmentBlockHashes) against the blocks earlier turns left in the cache give the
 *    tokens each turn hits and re-prefills.
 */
import { PromptHasher, type Segment } from '../engine/kvcache/hash';
import { BlockHashSet } from '../engine/kvcache/blockHashSet';
import { finish, Pace, type Steps } from '../engine/cooperative';
import { createRng } from '../engine/rng';
import type { JsonSchema, ToolDefinition } from './tools/agentTools';

export type ToolFormat = 'openai' | 'anthropic';

/** The definition as the request's JSON carries it. Compact unless `pretty` (two-space indent). */
export function renderTool(
  tool: Pick<ToolDefinition, 'name' | 'description' | 'parameters'>,
  format: ToolFormat,
  pretty = false,
): string {
  const body =
    format === 'openai'
      ? {
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        }
      : { name: tool.name, description: tool.description, input_schema: tool.parameters };
  return pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body);
}

// ---------------------------------------------------------------------------------------------------------
// Pasted tool definitions

export interface ParsedTool {
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ParseError {
  message: string;
  /** 0-based character offset, when the error is at a place in the text. */
  position: number | null;
  /** 1-based line and column of `position`. */
  line: number | null;
  column: number | null;
}

export type ParseResult = { ok: true; tools: ParsedTool[] } | { ok: false; error: ParseError };

export const MAX_PASTE_CHARS = 400_000;
export const MAX_PASTE_TOOLS = 200;
/** Both the OpenAI and the Anthropic API restrict tool names to this pattern. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, position: number): { line: number; column: number } {
  const p = Math.max(0, Math.min(position, text.length));
  let line = 1;
  let last = -1;
  for (let i = 0; i < p; i++)
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  return { line, column: p - last };
}

function failAt(text: string, message: string, position: number | null): ParseResult {
  const lc = position === null ? null : lineColumn(text, position);
  return { ok: false, error: { message, position, line: lc?.line ?? null, column: lc?.column ?? null } };
}

/** Where JSON.parse stopped, from its message (V8: "… at position 42", "… (line 3 column 5)"). */
export function jsonErrorPosition(text: string, message: string): number | null {
  const pos = /position (\d+)/.exec(message);
  if (pos) return Number(pos[1]);
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) {
    const lines = text.split('\n');
    const line = Math.min(Number(lc[1]), lines.length);
    let p = 0;
    for (let i = 0; i < line - 1; i++) p += lines[i].length + 1;
    return p + Number(lc[2]) - 1;
  }
  if (/end of (JSON )?input|Unterminated/i.test(message)) return text.length;
  return null;
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Parse pasted tool definitions: a JSON array of tools, an object with a `tools` array, or one tool. A tool is
 * OpenAI's `{type: "function", function: {name, description, parameters}}` or the flat
 * `{name, description, parameters | input_schema}` (Anthropic, OpenAI Responses). Never throws.
 */
export function parseToolDefinitions(text: string): ParseResult {
  if (typeof text !== 'string' || text.trim() === '')
    return failAt('', 'Nothing to count: paste a JSON array of tool definitions.', null);
  if (text.length > MAX_PASTE_CHARS)
    return failAt(
      text,
      `The paste is ${text.length.toLocaleString('en-US')} characters; the limit is ${MAX_PASTE_CHARS.toLocaleString('en-US')}.`,
      null,
    );
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const raw = e instanceof Error ? e.message : String(e);
    const position = jsonErrorPosition(text, raw);
    const clean = raw
      .replace(/^JSON\.parse: /, '')
      .replace(/ in JSON at position \d+.*$/, '')
      .replace(/ \(line \d+ column \d+\)$/, '');
    const where =
      position === null
        ? ''
        : (() => {
            const { line, column } = lineColumn(text, position);
            return ` at line ${line}, column ${column}`;
          })();
    return failAt(text, `Invalid JSON${where}: ${clean}.`, position);
  }
  const list: unknown[] = Array.isArray(data)
    ? data
    : isObject(data) && Array.isArray(data.tools)
      ? data.tools
      : isObject(data)
        ? [data]
        : [];
  if (!Array.isArray(data) && !isObject(data))
    return failAt(
      text,
      'Expected a JSON array of tool definitions (or an object with a "tools" array).',
      null,
    );
  if (list.length === 0) return failAt(text, 'The array holds no tool definitions.', null);
  if (list.length > MAX_PASTE_TOOLS)
    return failAt(text, `${list.length} tools: the limit is ${MAX_PASTE_TOOLS}.`, null);
  const tools: ParsedTool[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    const where = `Tool ${i + 1}`;
    const el = list[i];
    if (!isObject(el)) return failAt(text, `${where} is not an object.`, null);
    const t = el.type === 'function' && isObject(el.function) ? el.function : el;
    const name = t.name;
    if (typeof name !== 'string' || name === '') return failAt(text, `${where} has no "name" string.`, null);
    if (!TOOL_NAME_PATTERN.test(name))
      return failAt(
        text,
        `${where} ("${name.slice(0, 40)}"): a name may only hold letters, digits, "_" and "-", at most 64.`,
        null,
      );
    if (seen.has(name)) return failAt(text, `${where}: the name "${name}" is used twice.`, null);
    seen.add(name);
    const description = t.description ?? '';
    if (typeof description !== 'string')
      return failAt(text, `${where} ("${name}"): "description" must be a string.`, null);
    const params = t.parameters ?? t.input_schema ?? { type: 'object', properties: {} };
    if (!isObject(params))
      return failAt(
        text,
        `${where} ("${name}"): "parameters" / "input_schema" must be a JSON Schema object.`,
        null,
      );
    if (params.type !== undefined && params.type !== 'object')
      return failAt(
        text,
        `${where} ("${name}"): the argument schema's "type" must be "object", got ${JSON.stringify(params.type)}.`,
        null,
      );
    if (params.properties !== undefined && !isObject(params.properties))
      return failAt(text, `${where} ("${name}"): "properties" must be an object.`, null);
    tools.push({ name, description, parameters: params as JsonSchema });
  }
  return { ok: true, tools };
}

// ---------------------------------------------------------------------------------------------------------
// The tool block over a session: tokens and dollars

export interface CachePricing {
  /** Base input price, $ per million tokens. */
  inputPerMTok: number;
  /** Cache-write multiplier on the base price (Anthropic 5-minute TTL: 1.25). */
  writeMultiplier: number;
  /** Cache-read multiplier (Anthropic: 0.1). */
  readMultiplier: number;
}

export interface SessionToolCost {
  turns: number;
  toolTokens: number;
  /** Turns on which the tool block is (re)written to the cache: the first, and every change. */
  writes: number;
  reads: number;
  prefilledNoCache: number;
  prefilledCached: number;
  costNoCache: number;
  costCached: number;
  /** 1 − costCached / costNoCache. */
  saving: number;
}

/**
 * The tool block of `toolTokens` tokens over `turns` requests. Without a cache it is prefilled (and billed at
 * the base price) every turn. With one it is written on turn 1 and on every change (every `changeEvery` turns;
 * 0 = never changes), billed at the write multiplier, and read from the cache on the other turns.
 */
export function sessionToolCost(
  toolTokens: number,
  turns: number,
  changeEvery: number,
  price: CachePricing,
): SessionToolCost {
  if (!(Number.isFinite(toolTokens) && toolTokens >= 0))
    throw new RangeError(`toolTokens must be ≥ 0, got ${toolTokens}`);
  if (!(Number.isInteger(turns) && turns >= 1))
    throw new RangeError(`turns must be a whole number ≥ 1, got ${turns}`);
  if (!(Number.isInteger(changeEvery) && changeEvery >= 0))
    throw new RangeError(`changeEvery must be a whole number ≥ 0, got ${changeEvery}`);
  const writes = changeEvery > 0 ? Math.ceil(turns / changeEvery) : 1;
  const reads = turns - writes;
  const perTok = price.inputPerMTok / 1e6;
  const costNoCache = turns * toolTokens * perTok;
  const costCached = toolTokens * perTok * (price.writeMultiplier * writes + price.readMultiplier * reads);
  return {
    turns,
    toolTokens,
    writes,
    reads,
    prefilledNoCache: turns * toolTokens,
    prefilledCached: writes * toolTokens,
    costNoCache,
    costCached,
    saving: costNoCache > 0 ? 1 - costCached / costNoCache : 0,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Where the tool block sits: a session's prompts as segments, and what the prefix cache hits

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

/** Cumulative tool-block tokens prefilled and dollars paid after each turn, without and with the cache. */
export function sessionToolSeries(
  toolTokens: number,
  turns: number,
  changeEvery: number,
  price: CachePricing,
): {
  turn: number;
  prefilledNoCache: number;
  prefilledCached: number;
  costNoCache: number;
  costCached: number;
}[] {
  const perTok = price.inputPerMTok / 1e6;
  const out = [];
  let pc = 0;
  let cc = 0;
  for (let t = 1; t <= turns; t++) {
    const write = t === 1 || (changeEvery > 0 && (t - 1) % changeEvery === 0);
    if (write) pc += toolTokens;
    cc += toolTokens * perTok * (write ? price.writeMultiplier : price.readMultiplier);
    out.push({
      turn: t,
      prefilledNoCache: t * toolTokens,
      prefilledCached: pc,
      costNoCache: t * toolTokens * perTok,
      costCached: cc,
    });
  }
  return out;
}
