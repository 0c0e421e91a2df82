/**
 * What 07.06's toolLatency (src/worker/pauseMethods.ts) accepts for the fields its controls set, declared once: the
 * method checks these, the widget's schema (src/widgets/tool-pause/schema.ts) offers ranges inside them. The pause
 * arena's own limits sit beside its core check (PAUSE_ARENA_LIMITS, src/sim/lessons/pauseLabSetup.ts).
 */
import { limit } from '../../sim/engine/limits';

export const TOOL_LATENCY_LIMITS = {
  ttlS: limit('the time-to-live', 0.001, 86_400, { unit: 's' }),
  contextTokens: limit('the session context', 1, 1_000_000, { integer: true, unit: 'tokens' }),
} as const;
