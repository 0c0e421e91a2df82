/**
 * TraceLab's human waits against the simulator's human presets, and its idle-timeout sweep replayed from the tool
 * and human presets (src/sim/lessons/ttlPolicy.ts). Apart from the tool-call rows (tracelab.ts), which gathers
 * them in this order.
 */
import type { ValidationRow } from '../row';
import { AGENT_HUMAN_WAIT, TOOL_LATENCY_PRESETS } from '../../src/sim/engine/fleet/dist';
import {
  TRACELAB_EVICTION_SWEEP,
  TRACELAB_HUMAN_WAIT,
  TRACELAB_STEP_MIX,
} from '../../src/sim/engine/catalog/pauses';
import { idleTimeoutHitRate } from '../../src/sim/lessons/ttlPolicy';
import { EVICTION, HUMAN, row, TAIL, TEN, TIMING } from './tracelabRow';

const H = TRACELAB_HUMAN_WAIT;
const HUMAN_ALL = TOOL_LATENCY_PRESETS.human;

function humanAgentRows(agent: 'claude' | 'codex'): ValidationRow[] {
  const d = AGENT_HUMAN_WAIT[agent === 'claude' ? 'claude-code' : 'codex'];
  const p = H[agent];
  const name = agent === 'claude' ? 'Claude Code' : 'Codex';
  const group = `TraceLab human waits: ${name}`;
  return [
    row(
      `tracelab-${agent}-human-median`,
      group,
      `${name} human wait, median`,
      HUMAN,
      p.medianS,
      d,
      { kind: 'median' },
      TEN,
    ),
    row(
      `tracelab-${agent}-human-mean`,
      group,
      `${name} human wait, mean`,
      HUMAN,
      p.meanS,
      d,
      { kind: 'mean' },
      TEN,
    ),
    // The share of waits, and of idle time, in waits within each of TraceLab's two horizons.
    ...(
      [
        ['5min', '5 min', 300, p.withinFiveMinutes],
        ['1h', '1 h', 3600, p.withinOneHour],
      ] as const
    ).flatMap(([id, words, t, within]) => [
      row(
        `tracelab-${agent}-human-within-${id}`,
        group,
        `${name}, share of waits within ${words}`,
        HUMAN,
        within.waits,
        d,
        { kind: 'callsUnder', t },
        TEN,
      ),
      row(
        `tracelab-${agent}-human-time-within-${id}`,
        group,
        `${name}, share of idle time in waits within ${words}`,
        HUMAN,
        within.time,
        d,
        { kind: 'timeUnder', t },
        TEN,
      ),
    ]),
  ];
}

export const humanRows: ValidationRow[] = [
  ...humanAgentRows('claude'),
  ...humanAgentRows('codex'),
  row(
    'tracelab-human-median',
    'TraceLab human waits: both agents (human preset)',
    'human preset, median wait',
    HUMAN,
    H.medianS,
    HUMAN_ALL,
    { kind: 'median' },
    TEN,
  ),
  row(
    'tracelab-human-p90',
    'TraceLab human waits: both agents (human preset)',
    'human preset, 90th percentile wait',
    TIMING,
    H.p90S,
    HUMAN_ALL,
    { kind: 'quantile', p: 0.9 },
    TAIL,
  ),
  row(
    'tracelab-human-p99',
    'TraceLab human waits: both agents (human preset)',
    'human preset, 99th percentile wait',
    TIMING,
    H.p99S,
    HUMAN_ALL,
    { kind: 'quantile', p: 0.99 },
    TAIL,
  ),
  row(
    'tracelab-human-mean',
    'TraceLab human waits: both agents (human preset)',
    'human preset, mean wait',
    TIMING,
    H.meanS,
    HUMAN_ALL,
    { kind: 'mean' },
    TEN,
  ),
];

/** The trace's step mix and cache ceiling (catalog/pauses.ts), for the idle-timeout replay. */
const S = TRACELAB_STEP_MIX;
const IDLE_MIX = {
  human: HUMAN_ALL,
  // A tool step's gap is its longest parallel call, as the trace takes it (eviction_tradeoff README).
  tool: TOOL_LATENCY_PRESETS['coding-step'],
  userStepShare: S.userStepsPerSession / (S.userStepsPerSession + S.toolStepsPerSession),
  // Fresh tokens / all prompt tokens = (1 − deployed hit rate) · fresh share of the appended tokens.
  ceiling: 1 - (1 - S.deployedHitRate) * S.freshShareOfAppend,
};

export const evictionRows: ValidationRow[] = TRACELAB_EVICTION_SWEEP.points.map((pt) => {
  const label = pt.timeoutS >= 3600 ? `${pt.timeoutS / 3600} h` : `${pt.timeoutS / 60} min`;
  const ours = () => idleTimeoutHitRate(pt.timeoutS, IDLE_MIX);
  return {
    id: `tracelab-idle-timeout-hit-${pt.timeoutS}s`,
    group: 'TraceLab idle-timeout sweep (ideal cache, replayed from the presets)',
    what: `achievable prefix hit rate, idle timeout ${label}`,
    source: EVICTION,
    published: pt.hitRate,
    unit: 'share',
    ours,
    // ±5%: the replay weighs every step equally, where the trace weighs by tokens, and draws a step's parallel
    // calls independently (tracelabSteps.ts: that overstates Codex's median step); the miss share (1 − hit) is
    // reported in the note.
    tolerance: { kind: 'relative', value: 0.05 },
    note: `miss share ours / published = ${((1 - ours()) / (1 - pt.hitRate)).toFixed(2)} (see docs/validation.md)`,
  };
});
