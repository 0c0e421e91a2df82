/**
 * How large a schema and a document 07.08's mask stepper takes, checked before any work (the widget checks
 * before it sends; the worker again before it compiles), with the message the learner reads under the editor.
 *
 * Measured with the real engine (XGrammar WASM over o200k) in Node on this project's 2-core machine, under the
 * load of parallel work (load average 5–14, so a quiet machine or a laptop is several times faster):
 *
 * - Compile time grows faster than the schema: an object of 100 properties (6.8 KB) compiled in 0.18 s, 150 (10 KB)
 *   in 0.9–1.6 s, 300 (20 KB) in 0.9 s, 1,000 (68 KB) in 4.2 s, 4,000 (276 KB) in 75 s. One compile is a single call into the engine that nothing can interrupt, so the limit keeps it near
 *   a second: MAX_SCHEMA_CHARS.
 * - Nesting: the engine's schema converter recurses once per nested subschema and, past its stack, corrupts
 *   its memory ("memory access out of bounds"): every later compile in that worker fails too. Objects nested
 *   through `properties` compiled at 52 levels and failed at 54; arrays through `items` at 60 and failed at 70;
 *   `anyOf` alternatives compiled at 60 levels. MAX_SCHEMA_DEPTH stays well below all of them. Plain JSON nesting inside a
 *   schema (a deep `examples` value) compiled at 200 levels and failed at 400: MAX_JSON_DEPTH.
 * - A document costs per token: every step fills the mask (repeated until 2 ms have passed, for a measurable
 *   time), counts the 200,019 bits and samples the allowed tokens: 16–27 ms a step under that load, linearly
 *   (81 tokens 1.6 s, 802 tokens 17 s, 1,281 tokens 35 s, 5,121 tokens 107 s). MAX_DOCUMENT_TOKENS keeps a
 *   trace to about 20 s at worst there (a few seconds on a quiet machine), with progress and Cancel;
 *   MAX_DOCUMENT_CHARS (o200k averaged 3.7 characters a token on these JSON documents) refuses a pasted
 *   megabyte before it is even tokenized. The lesson's presets are under 150 tokens.
 */

import { limit, withinLimit, type Limit } from '../../engine/limits';

const chars = { integer: true, unit: 'characters' } as const;
const levels = { integer: true, unit: 'levels' } as const;

/**
 * The mask stepper's limits as Limits (src/sim/engine/limits.ts), declared once for the page (MaskStepper checks
 * before sending) and the worker (grammarMethods.ts, again before compiling). Their refusals are the messages
 * below, which say why each limit is there and what to do, under the editor the text was typed in.
 */
export const GRAMMAR_TEXT_LIMITS = {
  schemaChars: limit('the schema', 0, 20_000, chars),
  schemaDepth: limit('the nesting of subschemas', 0, 32, levels),
  jsonDepth: limit('the JSON nesting of a schema', 0, 128, levels),
  documentChars: limit('the document', 0, 4_000, chars),
  documentTokens: limit('the document', 0, 1_000, { integer: true, unit: 'tokens' }),
} as const;

export const MAX_SCHEMA_CHARS = GRAMMAR_TEXT_LIMITS.schemaChars.max;
export const MAX_SCHEMA_DEPTH = GRAMMAR_TEXT_LIMITS.schemaDepth.max;
export const MAX_JSON_DEPTH = GRAMMAR_TEXT_LIMITS.jsonDepth.max;
export const MAX_DOCUMENT_TOKENS = GRAMMAR_TEXT_LIMITS.documentTokens.max;
export const MAX_DOCUMENT_CHARS = GRAMMAR_TEXT_LIMITS.documentChars.max;

/**
 * "Asking nicely" (slip.ts): the sampler draws every token of a session twice (without and with the mask), calls ×
 * tokens of each: 0.19 s at the widget's maxima (2,000 calls of 2,000 tokens) and 0.7–0.8 s at these (5,000 calls
 * of 4,000 tokens), in Node under this project's load. A slip probability from one in a million tokens to one in two (past that the
 * format is noise; at 1 the toy distribution has no legal token left).
 */
export const ASK_NICELY_LIMITS = {
  eps: limit('the per-token slip probability', 1e-6, 0.5),
  tokens: limit('the tokens per tool call', 1, 4_000, { integer: true, unit: 'tokens' }),
  calls: limit('the tool calls per session', 1, 5_000, { integer: true, unit: 'calls' }),
} as const;

const fmt = (n: number) => n.toLocaleString('en-US');
const over = (l: Limit, v: number) => !withinLimit(l, v);

/** Deepest nesting of objects and arrays in a JSON text, by a scan (no parse, no recursion; strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** Keywords whose value is one subschema, a map of subschemas, or a list of subschemas (JSON Schema 2020-12). */
const ONE = [
  'items',
  'additionalProperties',
  'additionalItems',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items'];

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/** Deepest chain of subschemas in a parsed schema (the root alone is 1), iteratively. */
export function schemaDepth(schema: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[schema, 1]];
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    if (!isObject(node)) continue;
    if (d > max) max = d;
    for (const k of ONE) if (isObject(node[k])) stack.push([node[k], d + 1]);
    for (const k of MAP) {
      const m = node[k];
      if (isObject(m)) for (const v of Object.values(m)) stack.push([v, d + 1]);
    }
    for (const k of LIST) {
      const l = node[k];
      if (Array.isArray(l)) for (const v of l) stack.push([v, d + 1]);
    }
  }
  return max;
}

/** Why the engine will not be given this schema text, in the learner's words; null when it is within limits. */
export function schemaLimitMessage(text: string): string | null {
  if (over(GRAMMAR_TEXT_LIMITS.schemaChars, text.length))
    return (
      `This schema is ${fmt(text.length)} characters; the mask stepper compiles schemas of up to ` +
      `${fmt(MAX_SCHEMA_CHARS)} (compile time grows faster than the schema, and one compile cannot be stopped). ` +
      'Trim it to the tool you want to trace.'
    );
  // JSON.parse does not recurse (V8), so even a text nested thousands deep parses; what the engine recurses on,
  // and what the learner thinks of as depth, is subschemas, so that is what is said when both are over.
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null; // not JSON: prepareSchema says where it breaks
  }
  const depth = schemaDepth(parsed);
  if (over(GRAMMAR_TEXT_LIMITS.schemaDepth, depth)) return schemaDepthMessage(depth);
  const brackets = jsonDepth(text);
  if (over(GRAMMAR_TEXT_LIMITS.jsonDepth, brackets))
    return (
      `This schema's JSON nests ${fmt(brackets)} levels deep; the grammar engine reads up to ${MAX_JSON_DEPTH}. ` +
      'Flatten it and compile again.'
    );
  return null;
}

export function schemaDepthMessage(depth: number | null): string {
  return (
    `${depth === null ? 'This schema nests too deeply' : `This schema nests ${fmt(depth)} levels deep`}; the grammar ` +
    `engine handles up to ${MAX_SCHEMA_DEPTH} levels of subschemas (properties, items, anyOf, …). Flatten it, for ` +
    'example by moving repeated parts to "$defs" and pointing at them with "$ref", and compile again.'
  );
}

/** Why this document will not be traced (by its characters, before tokenizing); null when within limits. */
export function documentLimitMessage(text: string): string | null {
  if (over(GRAMMAR_TEXT_LIMITS.documentChars, text.length))
    return (
      `This document is ${fmt(text.length)} characters; the mask stepper traces documents of up to ` +
      `${fmt(MAX_DOCUMENT_CHARS)} characters (${fmt(MAX_DOCUMENT_TOKENS)} tokens): every token is a step that ` +
      'fills and counts a 200,019-token mask. Trace a shorter document, such as one tool call.'
    );
  return null;
}

/** The same by tokens, once the document has been tokenized (compact). */
export function documentTokensMessage(tokens: number): string | null {
  if (over(GRAMMAR_TEXT_LIMITS.documentTokens, tokens))
    return (
      `This document is ${fmt(tokens)} tokens; the mask stepper traces up to ${fmt(MAX_DOCUMENT_TOKENS)}, ` +
      'one mask per token. Trace a shorter document, such as one tool call.'
    );
  return null;
}
