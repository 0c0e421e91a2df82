/**
 * What 07.11's models (compaction.ts) accept for each setting, declared once: the model checks these and refuses
 * anything outside them in the reader's words, the widgets' schemas (src/widgets/context-compaction/schema.ts) offer
 * ranges inside them. A module of its own so the page imports the ranges without the model.
 *
 * Why these ends. The edit model hashes every block of the prompt before and after the edit, so its cost is the
 * prompt's blocks: at the session limits below (200 turns of 32,000 output and 64,000 result tokens, a head of
 * 3 × 200,000: 19.8 million tokens) and blocks of 16 tokens it takes 0.2–0.4 s in Node under this project's load;
 * blocks of one token at the same session took 7–10 s, so blocks start at vLLM's default of 16 (the lesson offers
 * 16–256). The payback model walks its turns once per policy (three policies): any length is cheap, so its ends
 * are where the figures stop meaning anything: a context of a million tokens is 7.6× the catalog's longest window
 * (131,072), past which every policy stops at its first turn; 10,000 turns is 300× the median coding-agent
 * session (33 turns, the vLLM/Mooncake traces 07.01 follows).
 */
import { limit } from '../engine/limits';

const tokens = { integer: true, unit: 'tokens' } as const;
const turns = { integer: true, unit: 'turns' } as const;

/** Lengths both models share: a summary and a pruned result's stub. */
const summaryTokens = limit('the summary', 0, 200_000, tokens);
const stubTokens = limit('the stub per pruned result', 0, 10_000, tokens);

/** The session an edit is applied to (SessionShape). */
export const SESSION_LIMITS = {
  systemTokens: limit('the system prompt', 0, 200_000, tokens),
  toolTokens: limit('the tool schemas', 0, 200_000, tokens),
  taskTokens: limit('the task statement', 0, 200_000, tokens),
  turns: limit('the turns so far', 1, 200, turns),
  outputTokens: limit('the output per turn', 0, 32_000, tokens),
  resultTokens: limit('the tool result per turn', 0, 64_000, tokens),
} as const;

/** The edit's own settings (Edit); turn indices past the session are clamped to it, as the model always did. */
export const EDIT_LIMITS = {
  fromTurn: limit('the turn the edit starts at', 0, SESSION_LIMITS.turns.max - 1, { integer: true }),
  atTurn: limit('the turn the document goes before', 0, SESSION_LIMITS.turns.max - 1, { integer: true }),
  span: limit('the turns summarised', 1, SESSION_LIMITS.turns.max, turns),
  summaryTokens,
  keepLast: limit('the recent turns kept whole', 1, SESSION_LIMITS.turns.max, turns),
  stubTokens,
  docTokens: limit('the retrieved document', 0, 200_000, tokens),
  /** Past the longest prompt the session limits allow (clamped to the prompt's last token). */
  position: limit('the changed token’s position', 0, 20_000_000, { integer: true }),
  /** KV block size: vLLM's default 16 and up (see above for why not smaller). */
  blockSize: limit('the KV block size', 16, 4096, tokens),
} as const;

/** When compaction pays back (PaybackParams). */
export const PAYBACK_LIMITS = {
  contextTokens: limit('the context now', 0, 1_000_000, tokens),
  headTokens: limit('the head kept', 0, 1_000_000, tokens),
  growthTokens: limit('the context growth per turn', 1, 1_000_000, tokens),
  outputTokens: limit('the model output per turn', 0, 1_000_000, tokens),
  turns: limit('the turns to come', 1, 10_000, turns),
  /** The model's context window by default (every catalog model's is 131,072). */
  limitTokens: limit('the context limit', 1, 10_000_000, tokens),
  thresholdTokens: limit('the compaction threshold', 0, 1_000_000, tokens),
  summaryTokens,
  keepLast: limit('the turns pruning keeps', 0, 10_000, turns),
  stubTokens,
} as const;

/**
 * Prices (Prices): up to $1,000 per million tokens (as 07.07's input price); a cache read never costs more than
 * fresh input, and no provider charges a cache write below it (OpenAI 1×, Anthropic 1.25× for
 * its 5-minute cache and 2× for an hour).
 */
export const PRICE_LIMITS = {
  inputPerMTok: limit('the input price', 0, 1000, { unit: '$ per million tokens' }),
  outputPerMTok: limit('the output price', 0, 1000, { unit: '$ per million tokens' }),
  cacheReadMultiplier: limit('the cache read multiplier', 0, 1, { unit: '× the input price' }),
  cacheWriteMultiplier: limit('the cache write multiplier', 1, 10, { unit: '× the input price' }),
} as const;
