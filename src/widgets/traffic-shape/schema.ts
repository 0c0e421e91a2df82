import type { ParamSchema, ParamValues } from '../../state/paramSchema';
import { formatCount } from '../../lib/format';
import type { WorkloadMix } from '../../sim/lessons/agentWorkload';
import { WORKLOAD_LIMITS } from '../../sim/lessons/agentWorkloadSetup';
import { controlRange } from '../kit/controlRange';
import { medianTurnsParam } from '../trajectory-anatomy/schema';

export const TRAFFIC_SHAPE_ID = 'traffic-shape';

export const trafficShapeSchema = {
  mix: {
    kind: 'select',
    label: 'Generated workload',
    default: 'agent',
    options: [
      { value: 'agent', label: 'Coding agents' },
      { value: 'chat', label: 'Chat' },
      { value: 'mix', label: 'Half agents, half chat (by session)' },
    ],
  },
  sessions: {
    kind: 'number',
    label: 'Sessions',
    default: 200,
    // Fewer than 20 sessions is too few for the distributions the widget draws.
    ...controlRange(WORKLOAD_LIMITS.sessions, { min: 20, max: 1000 }),
    integer: true,
    scale: 'log',
    unit: 'sessions',
    format: (v) => `${formatCount(v)} sessions`,
  },
  medianTurns: medianTurnsParam(
    'The generator draws each session’s turns around this median; the read-out gives the median drawn',
  ),
  seed: { kind: 'seed', label: 'Seed', default: 1 },
} satisfies ParamSchema;

/** The workload the lesson's prose and table quote: the widget's defaults, for agents and for chat. */
export const LESSON_WORKLOAD = {
  sessions: trafficShapeSchema.sessions.default,
  medianTurns: trafficShapeSchema.medianTurns.default,
  seed: trafficShapeSchema.seed.default,
};

/**
 * New sessions per second of the generated workload: generateWorkload's default (sessionRatePerS), which the
 * widget's read-out states; tests/lesson-07-01-try-this.test.ts asserts the two agree.
 */
export const GENERATED_SESSION_RATE_PER_S = 0.5;

/** What the widget asks the worker (workloadShape) for its settings. */
export function trafficShapeArgs(v: ParamValues<typeof trafficShapeSchema>) {
  return { mix: v.mix as WorkloadMix, sessions: v.sessions, medianTurns: v.medianTurns, seed: v.seed };
}
