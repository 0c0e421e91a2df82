/**
 * Lesson 07.07's tool definitions as text: `renderTool` writes a definition as the JSON an API request carries
 * (OpenAI or Anthropic shape); `parseToolDefinitions` reads a learner's pasted JSON into definitions, or an error
 * with its line and column. No tokenizer here: the worker counts tokens (gpt-tokenizer's o200k_base).
 */
import type { JsonSchema, ToolDefinition } from './tools/jsonSchema';

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
