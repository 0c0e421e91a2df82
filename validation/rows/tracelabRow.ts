/**
 * What the TraceLab rows (tracelab.ts, tracelabWaits.ts) share: the artifacts they cite, their tolerances, and a
 * row built from a preset distribution and one statistic of it, computed in closed form
 * (src/sim/lessons/toolLatency.ts).
 */
import type { Tolerance, ValidationRow } from '../row';
import { TOOL_LATENCY_PRESETS, type Dist } from '../../src/sim/engine/fleet/dist';
import { cdf, mean, quantile, timeShare } from '../../src/sim/lessons/toolLatency';

export const TOOLS = 'TraceLab artifacts/tool_calls/tool_latency_distribution/README.md';
export const TIMING =
  'TraceLab artifacts/session/session_timing_distribution/session_timing_distribution.tex';
export const MACROS = 'TraceLab artifacts/trace_facts/paper_macros/paper_macros.tex';
export const CATEGORY = 'TraceLab artifacts/tool_calls/tool_category_distribution/README.md';
export const HUMAN = 'TraceLab artifacts/human_in_the_loop/human_input_wait/README.md';
export const EVICTION = 'TraceLab artifacts/prefix_cache/eviction_tradeoff/README.md';

/**
 * ±10% for medians, means and shares: the README quotes them rounded ("~4.9%", "~92%"), the fit has six or
 * more targets for eight parameters per agent, and a tenth is the resolution at which the lessons read them.
 */
export const TEN: Tolerance = { kind: 'relative', value: 0.1 };
/** ±15% for tail quantiles (p90, p99): one rounded figure each, where a small change of shape moves them most. */
export const TAIL: Tolerance = { kind: 'relative', value: 0.15 };

export type Stat =
  | { kind: 'median' }
  | { kind: 'mean' }
  | { kind: 'quantile'; p: number }
  | { kind: 'callsUnder'; t: number }
  | { kind: 'callsOver'; t: number }
  | { kind: 'timeUnder'; t: number }
  | { kind: 'timeOver'; t: number };

export function stat(d: Dist, s: Stat): number {
  switch (s.kind) {
    case 'median':
      return quantile(d, 0.5);
    case 'mean':
      return mean(d);
    case 'quantile':
      return quantile(d, s.p);
    case 'callsUnder':
      return cdf(d, s.t);
    case 'callsOver':
      return 1 - cdf(d, s.t);
    case 'timeUnder':
      return timeShare(d, s.t);
    case 'timeOver':
      return 1 - timeShare(d, s.t);
  }
}

export function unitOf(s: Stat): string {
  return s.kind === 'median' || s.kind === 'mean' || s.kind === 'quantile' ? 's' : 'share';
}

export function row(
  id: string,
  group: string,
  what: string,
  source: string,
  published: number,
  d: Dist,
  s: Stat,
  tolerance: Tolerance,
  note?: string,
): ValidationRow {
  return { id, group, what, source, published, unit: unitOf(s), ours: () => stat(d, s), tolerance, note };
}

/** The simulator's coding-agent tool mix, the preset both the tool-call rows and the idle-timeout replay read. */
export const CODING_MIX = TOOL_LATENCY_PRESETS['coding-mix'];
