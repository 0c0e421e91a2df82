/**
 * The router's reason for one decision, in words: "cache-aware: replica 3 holds 12.4k of 13k tokens",
 * "least load: replica 2 had 2 queued". Built from what the fleet router reported for the request (its reason,
 * the prefix it believed the replica held, the requests outstanding there), so the words never claim more than
 * the router knew.
 */
import { formatCount, formatPercent } from '../../lib/format';
import { SGLANG_ROUTER_DEFAULTS } from '../../sim/engine/fleet/routerDefaults';

export interface RouteFacts {
  /** The reason's name (ROUTE_REASONS), or null when the run did not record one. */
  reason: string | null;
  /** Replica chosen, from 0. */
  replica: number;
  /** Prefix the router believed the chosen replica held, in tokens (negative: it did not look). */
  matchedTokens: number;
  promptTokens: number;
  /** Requests outstanding on the chosen replica when the router chose it. */
  queued: number;
}

/** The reason as a short phrase naming the replica (counted from 1) and the figure the policy decided on. */
export function describeRoute(f: RouteFacts): string {
  const rep = `replica ${f.replica + 1}`;
  const q = `${f.queued} queued`;
  const held =
    f.matchedTokens > 0 ? `${formatCount(f.matchedTokens)} of ${formatCount(f.promptTokens)}` : null;
  switch (f.reason) {
    case 'round-robin':
      return `round-robin: ${rep} is next in turn`;
    case 'random':
      return `random: ${rep} drawn`;
    case 'least-load':
      return `least load: ${rep} had ${q}`;
    case 'power-of-two':
      return `power of two: ${rep} the less loaded of two drawn (${q})`;
    case 'sticky':
      return `session affinity: ${rep} is the session's replica`;
    case 'sticky-overflow':
      return `session affinity: its replica overloaded, moved to ${rep} (${q})`;
    case 'cache-hit':
      return `cache-aware: ${rep} holds ${held ?? '0'} tokens`;
    case 'cache-balance':
      return `cache-aware: load imbalanced, to the idlest, ${rep} (${q})`;
    case 'cache-miss':
      // The lab's cache-aware router runs the threshold of sglang-router 0.3.0 (and smg 1.9.0); a miss goes to the least loaded.
      return `cache-aware: no replica holds over ${formatPercent(SGLANG_ROUTER_DEFAULTS.cacheThreshold)} of the prompt; to the least loaded, ${rep} (${q})`;
    case 'weighted-score':
      return `weighted score: ${rep} scored best${held ? ` (holds ${held})` : ''}`;
    default:
      return `to ${rep}`;
  }
}
