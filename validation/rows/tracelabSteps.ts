/**
 * TraceLab's steps against their calls: how many tool calls a round issues (the count the `coding-step` preset
 * draws, src/sim/engine/fleet/dist.ts CALLS_PER_TOOL_ROUND), and how long a tool step waits, the longest of its
 * parallel calls, where TraceLab publishes it (Codex, in prose). The step's wait is what a paused session's KV
 * sits through; the lessons price a pause with a call (see the `coding-step` preset's note and docs/validation.md).
 */
import type { Dist } from '../../src/sim/engine/fleet/dist';
import { AGENT_TOOL_LATENCY, CALLS_PER_TOOL_ROUND } from '../../src/sim/engine/fleet/dist';
import { TRACELAB_STEP_MIX } from '../../src/sim/engine/catalog/pauses';
import type { ValidationRow } from '../row';
import { row } from './tracelabRow';

const COUNTS = 'TraceLab artifacts/session/session_internal_counts/session_internal_counts.tex';
const IDLE = 'TraceLab artifacts/prefix_cache/cache_hit_idle_relationship/README.md';
const S = TRACELAB_STEP_MIX;

/** Tool calls per round over every round: none in a user-initiated step's round's place, else the fitted count. */
const CALLS_PER_ROUND: Dist = {
  kind: 'mixture',
  components: [
    { weight: S.userStepsPerSession, dist: { kind: 'constant', value: 0 } },
    { weight: S.toolStepsPerSession, dist: CALLS_PER_TOOL_ROUND },
  ],
};

/** A Codex tool step: its round's parallel calls drawn independently from Codex's call fit, the longest. */
const CODEX_STEP: Dist = { kind: 'parallel', calls: CALLS_PER_TOOL_ROUND, each: AGENT_TOOL_LATENCY.codex };

/** Counts are whole numbers: the quantile of a count is exact or wrong. */
const EXACT = { kind: 'relative', value: 0.01 } as const;
const GROUP = 'TraceLab steps: parallel tool calls';

/** A row of a count (its unit is calls, not seconds). */
function countRow(...args: Parameters<typeof row>): ValidationRow {
  return { ...row(...args), unit: 'calls' };
}

export const stepRows: ValidationRow[] = [
  countRow(
    'tracelab-calls-per-round-p90',
    GROUP,
    'tool calls a round issues, 90th percentile (every round)',
    COUNTS,
    S.toolCallsPerRound.p90,
    CALLS_PER_ROUND,
    { kind: 'quantile', p: 0.9 },
    EXACT,
    'a geometric count with mean 101.4 / 73.6 calls a tool round, fitted to the means only',
  ),
  countRow(
    'tracelab-calls-per-round-p99',
    GROUP,
    'tool calls a round issues, 99th percentile (every round)',
    COUNTS,
    S.toolCallsPerRound.p99,
    CALLS_PER_ROUND,
    { kind: 'quantile', p: 0.99 },
    EXACT,
  ),
  {
    ...row(
      'tracelab-codex-tool-step-p90',
      GROUP,
      'Codex tool step’s wait (its longest parallel call), 90th percentile',
      IDLE,
      30,
      CODEX_STEP,
      { kind: 'quantile', p: 0.9 },
      { kind: 'factor', value: 2 },
    ),
    note: 'published "p90 ~30s" in prose; independent calls give the tail its length (one call: 2.4 s)',
  },
  {
    ...row(
      'tracelab-codex-tool-step-median',
      GROUP,
      'Codex tool step’s wait (its longest parallel call), median',
      IDLE,
      0.25,
      CODEX_STEP,
      { kind: 'median' },
      { kind: 'factor', value: 2 },
    ),
    knownGap:
      'TraceLab measures a median Codex tool step of about 0.25 s, under the 0.63 s of its calls (Codex runs long work in the background), so a step is not the longest of independent call draws; the lessons price a pause with one call and offer the step preset as an upper reading',
  },
];
