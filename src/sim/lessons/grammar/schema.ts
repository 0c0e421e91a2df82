/**
 * Checking a JSON Schema typed by a learner before the grammar engine sees it: parse errors become a sentence
 * with the position, and string-length bounds (maxLength/minLength) are removed, because XGrammar unrolls them
 * into the grammar and compiling then takes seconds to minutes (lesson 07.09 measures it).
 */

import { schemaDepth, schemaDepthMessage } from './limits';

export class SchemaError extends Error {
  constructor(
    message: string,
    /** Which of the learner's texts the message is about (the widget shows it under that editor). */
    readonly field: 'schema' | 'document' = 'schema',
  ) {
    super(message);
    this.name = 'SchemaError';
  }
}

export interface PreparedSchema {
  /** The schema text handed to the compiler. */
  compiled: string;
  /** JSON pointers of the string-length bounds that were removed. */
  removedBounds: string[];
}

const BOUND_KEYS = ['maxLength', 'minLength'] as const;

function strip(node: unknown, path: string, removed: string[]): unknown {
  if (Array.isArray(node)) return node.map((v, i) => strip(v, `${path}/${i}`, removed));
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if ((BOUND_KEYS as readonly string[]).includes(k) && typeof v === 'number') {
        removed.push(`${path}/${k}`);
        continue;
      }
      out[k] = strip(v, `${path}/${k}`, removed);
    }
    return out;
  }
  return node;
}

/**
 * Parse and check a schema; throws SchemaError with a learner-readable message. String-length bounds are
 * removed unless `keepBounds` (lesson 07.09 compiles them on purpose, with small bounds).
 */
export function prepareSchema(text: string, keepBounds = false): PreparedSchema {
  if (text.trim() === '') throw new SchemaError('The schema is empty: paste or pick a JSON Schema.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new SchemaError(`The schema is not valid JSON (${msg}).`);
  }
  if (typeof parsed === 'boolean') return { compiled: JSON.stringify(parsed), removedBounds: [] };
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SchemaError('A JSON Schema must be an object such as {"type": "object", "properties": {…}}.');
  }
  try {
    if (keepBounds) return { compiled: JSON.stringify(parsed), removedBounds: [] };
    const removed: string[] = [];
    const clean = strip(parsed, '', removed);
    return { compiled: JSON.stringify(clean), removedBounds: removed };
  } catch (e) {
    // Walking and writing the schema back recurse once per level: a schema thousands of levels deep runs out
    // of stack here ("Maximum call stack size exceeded"), which is the depth limit's message in other words.
    if (e instanceof RangeError) throw new SchemaError(schemaDepthMessage(schemaDepth(parsed)));
    throw e;
  }
}
