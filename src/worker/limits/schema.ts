/**
 * What 07.07's worker methods (src/worker/schemaMethods.ts) accept for each request field a control sets, declared
 * once: the methods check these, the widgets' schemas (src/widgets/tool-schema/schema.ts) spread them or offer a
 * range inside them.
 */
import { limit } from '../../sim/engine/limits';
import { AGENT_TOOLS } from '../../sim/lessons/tools/agentTools';

const tokens = { integer: true, unit: 'tokens' } as const;
const turns = { integer: true, unit: 'turns' } as const;

export const TOOL_TAX_LIMITS = {
  /** The first n of the shipped tools. */
  toolCount: limit('the number of tools', 0, AGENT_TOOLS.length, { integer: true, unit: 'tools' }),
  turns: limit('the turns in the session', 1, 10_000, turns),
  changeEvery: limit('how often the tool block changes', 0, 10_000, turns),
  inputPerMTok: limit('the base input price', 0, 1000, { unit: '$ per million tokens' }),
  /** Cache writes and reads as multiples of the base price (Anthropic's 1.25 and 0.1; OpenAI's 1 and 0.5). */
  writeMultiplier: limit('the cache-write price multiplier', 0, 10, { unit: '× base' }),
  readMultiplier: limit('the cache-read price multiplier', 0, 10, { unit: '× base' }),
} as const;

export const LAYOUT_LIMITS = {
  toolCount: limit('the number of tools', 1, AGENT_TOOLS.length, { integer: true, unit: 'tools' }),
  systemTokens: limit('the system prompt', 0, 200_000, tokens),
  newTokens: limit('the new tokens per turn', 1, 200_000, tokens),
  outputTokens: limit('the model output per turn', 0, 100_000, tokens),
  timestampTokens: limit('the timestamp line', 0, 10_000, tokens),
  turns: limit('the turns in the session', 1, 500, turns),
  changeTurn: limit('the turn the extra tool arrives', 1, 500, { integer: true }),
} as const;
