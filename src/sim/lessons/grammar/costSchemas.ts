/**
 * Schema families for lesson 07.09 ("What grammars cost"): a tool-choice schema that grows by whole tools
 * (anyOf of n tool calls, each with a name constant and typed arguments), and one string argument with a
 * maxLength bound, the feature that makes XGrammar's compile time explode. Each comes with a valid instance.
 */

const VERBS = ['search', 'read', 'write', 'list', 'delete', 'move', 'fetch', 'run'] as const;
const NOUNS = ['file', 'issue', 'page', 'ticket', 'branch', 'table', 'user', 'job'] as const;

export function toolName(i: number): string {
  return `${VERBS[i % VERBS.length]}_${NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]}${i >= 64 ? `_${Math.floor(i / 64)}` : ''}`;
}

function tool(i: number): object {
  return {
    type: 'object',
    properties: {
      name: { const: toolName(i) },
      arguments: {
        type: 'object',
        properties: {
          target: { type: 'string' },
          limit: { type: 'integer', minimum: 1, maximum: 1000 },
          mode: { type: 'string', enum: ['fast', 'full', 'dry_run'] },
        },
        required: ['target', 'limit', 'mode'],
        additionalProperties: false,
      },
    },
    required: ['name', 'arguments'],
    additionalProperties: false,
  };
}

/** A schema allowing a call to any one of n tools. */
export function toolsSchema(n: number): object {
  if (n === 1) return tool(0);
  return { anyOf: Array.from({ length: n }, (_, i) => tool(i)) };
}

/** A valid call of the last tool of toolsSchema(n). */
export function toolsDocument(n: number): object {
  return { name: toolName(n - 1), arguments: { target: 'src/server/routes.ts', limit: 50, mode: 'full' } };
}

/** One string argument, bounded to at most `maxLength` characters (null: unbounded). */
export function boundedSchema(maxLength: number | null): object {
  const q: Record<string, unknown> = { type: 'string' };
  if (maxLength !== null) q.maxLength = maxLength;
  return { type: 'object', properties: { query: q }, required: ['query'], additionalProperties: false };
}

export function boundedDocument(): object {
  return { query: 'kv' }; // fits every bound of MAX_LENGTHS
}

export const TOOL_COUNTS = [1, 2, 8, 32, 64, 128] as const;
/** Small bounds only: compile time grows steeply with the bound (0.6 s at 10, 2 s at 20, 20 s at 200 in Node). */
export const MAX_LENGTHS = [null, 4, 8, 12, 16] as const;

/** Percentile by linear interpolation between order statistics (q in [0, 1]). */
export function percentile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = q * (s.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
