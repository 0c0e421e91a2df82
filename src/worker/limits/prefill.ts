/**
 * What 07.10's worker methods (src/worker/prefillMethods.ts) accept for each request field a control sets, declared
 * once: the methods check these, the widgets' schemas (src/widgets/long-prefill/schema.ts) spread them or offer a
 * range inside them. A small module of its own so the page imports the ranges without the methods.
 */
import { limit } from '../../sim/engine/limits';

const tokens = { integer: true, unit: 'tokens' } as const;

export const PREFILL_LIMITS = {
  promptTokens: limit('the long prompt', 1_000, 1_000_000, tokens),
  decodes: limit('the sessions decoding', 0, 1024, { integer: true, unit: 'sessions' }),
  decodeContext: limit('the context of each decoding session', 0, 1_000_000, tokens),
  /** A prefill chunk: vLLM's scheduler takes any positive budget; below 16 tokens an iteration is all overhead. */
  chunk: limit('the prefill chunk', 16, 1_000_000, tokens),
  ttftSloS: limit('the TTFT SLO', 0.01, 3600, { unit: 's' }),
  itlSloS: limit('the inter-token SLO', 1e-4, 60, { unit: 's' }),
  /** The agent turn of the hit-rate section. */
  contextTokens: limit('the agent context', 1_000, 1_000_000, tokens),
  hitRate: limit('a prefix hit rate', 0, 0.999),
  speedup: limit('the attention kernel speed-up', 1, 100, { unit: '×' }),
} as const;
