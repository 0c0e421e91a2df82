/**
 * Where a generation step stands in the reply, read from the text alone (not from the mask), so that the
 * lesson's claims about the mask ("nearly all dark at punctuation, nearly all lit in a free string") are
 * tested against a labelling that does not already know the answer. Pure.
 *
 * A step's context is the state after the text generated before it: the mask at a step depends only on that
 * prefix. The step that writes `","` after `"Lisbon` is therefore still inside the free string.
 */

export type StepContext =
  /** Outside the constrained span (structural-tag mode): prose before the trigger or after the end tag. */
  | 'free-text'
  /** Writing the trigger: still prose, but tokens that would complete it into a wrong tag are masked. */
  | 'trigger'
  /** Inside the begin or end tag, after the trigger: the rest of the tag is forced. */
  | 'tag'
  /** JSON structure: punctuation, keys, an enum or const value, a literal, where the schema fixes the text. */
  | 'fixed'
  /** Inside a number. */
  | 'number'
  /** Inside a string value the schema leaves free (type string, no enum, const or pattern). */
  | 'free-string';

/** Where the JSON sits in the reply; the tags only exist in structural-tag mode. */
export interface ReplyLayout {
  /** Characters before the JSON (0 when the whole reply is the JSON). */
  jsonStart: number;
  jsonEnd: number;
  /** Structural-tag mode: the preamble's length, trigger length and end-tag length. */
  tagged?: { preambleEnd: number; triggerLength: number; endLength: number };
}

type Schema = Record<string, unknown>;

/** Every subschema that a value at `path` may have to match (anyOf branches flattened). */
function schemasAt(root: Schema, path: readonly string[]): Schema[] {
  const flatten = (s: Schema): Schema[] =>
    Array.isArray(s.anyOf) ? (s.anyOf as Schema[]).flatMap(flatten) : [s];
  let here = flatten(root);
  for (const key of path) {
    here = here.flatMap((s) => {
      const props = s.properties as Record<string, Schema> | undefined;
      return props && props[key] ? flatten(props[key]) : [];
    });
  }
  return here;
}

function isFreeString(s: Schema): boolean {
  return s.type === 'string' && s.enum === undefined && s.const === undefined && s.pattern === undefined;
}

interface Frame {
  kind: 'object' | 'array';
  key: string | null;
}

/** The context after reading `json.slice(0, upTo)`. */
export function jsonContext(json: string, upTo: number, schema: Schema): StepContext {
  const stack: Frame[] = [];
  let inString = false;
  let stringIsKey = false;
  let escaped = false;
  let buf = '';
  let lastKey: string | null = null;
  let inNumber = false;
  for (let i = 0; i < upTo; i++) {
    const c = json[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') {
        inString = false;
        if (stringIsKey) lastKey = buf;
      } else buf += c;
      continue;
    }
    inNumber = /[-0-9.eE+]/.test(c);
    if (c === '"') {
      inString = true;
      buf = '';
      const top = stack[stack.length - 1];
      // In an object a string is a key unless it follows the key's colon.
      stringIsKey = top?.kind === 'object' && top.key === null;
    } else if (c === '{' || c === '[') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.key = top.key ?? lastKey;
      stack.push({ kind: c === '{' ? 'object' : 'array', key: null });
    } else if (c === '}' || c === ']') {
      stack.pop();
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.key = null;
    } else if (c === ':') {
      const top = stack[stack.length - 1];
      if (top) top.key = lastKey;
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.kind === 'object') top.key = null;
    }
  }
  if (inString) {
    if (stringIsKey) return 'fixed';
    const path = stack.map((f) => f.key).filter((k): k is string => k !== null);
    return schemasAt(schema, path).some(isFreeString) ? 'free-string' : 'fixed';
  }
  return inNumber ? 'number' : 'fixed';
}

/** The context of each step, given the character offset at which each step's token starts. */
export function stepContexts(
  text: string,
  tokenStarts: readonly number[],
  layout: ReplyLayout,
  schema: Schema,
): StepContext[] {
  const json = text.slice(layout.jsonStart, layout.jsonEnd);
  return tokenStarts.map((pos) => {
    const t = layout.tagged;
    if (t) {
      if (pos <= t.preambleEnd) return 'free-text';
      if (pos < t.preambleEnd + t.triggerLength) return 'trigger';
      if (pos < layout.jsonStart) return 'tag';
      if (pos > layout.jsonEnd && pos < layout.jsonEnd + t.endLength) return 'tag';
      if (pos >= layout.jsonEnd + t.endLength) return 'free-text';
    }
    return jsonContext(json, Math.min(pos, layout.jsonEnd) - layout.jsonStart, schema);
  });
}
