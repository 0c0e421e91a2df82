/**
 * Lesson 07.01's "Try this" items (which its guided tour plays): each direction an item claims, computed by the core
 * with the state the item sets (the widgets' TRY_THIS over their schema defaults).
 */
import { describe, expect, it } from 'vitest';
import { LESSONS } from '../src/app/lessons';
import { generateWorkload, workloadTable } from '../src/sim/lessons/agentWorkload';
import { generateTrajectory } from '../src/sim/lessons/agentSession';
import type { ToolLatencyPreset } from '../src/sim/engine/fleet/dist';
import { trafficShape } from '../src/sim/lessons/trafficShape';
import { MOONCAKE_CONVERSATION, MOONCAKE_TOOL_AGENT } from '../src/sim/engine/catalog/traces';
import { TRY_THIS as TRAJECTORY_TRY } from '../src/widgets/trajectory-anatomy/TrajectoryAnatomy';
import { trajectorySchema } from '../src/widgets/trajectory-anatomy/schema';
import { TRY_THIS as SHAPE_TRY } from '../src/widgets/traffic-shape/TrafficShape';
import { GENERATED_SESSION_RATE_PER_S, trafficShapeSchema } from '../src/widgets/traffic-shape/schema';
import type { TryItem } from '../src/widgets/kit/stage';
import { valuesOf } from './try-this';
import type { WorkloadMix } from '../src/sim/lessons/agentWorkload';

function session(item?: TryItem) {
  const v = valuesOf(trajectorySchema, item);
  const kind = v.kind === 'chat' ? 'chat' : 'agent';
  const agent = generateTrajectory('agent', v.seed, {
    toolLatency: v.toolLatency as ToolLatencyPreset,
    medianTurns: v.medianTurns,
  });
  const t = kind === 'chat' ? generateTrajectory('chat', v.seed) : agent;
  const gaps = t.turns.slice(0, -1).map((x) => x.gapS);
  const sorted = [...gaps].sort((a, b) => a - b);
  return { totals: t.totals, medianGapS: sorted[Math.floor(sorted.length / 2)] };
}

function shape(item?: TryItem) {
  const v = valuesOf(trafficShapeSchema, item);
  return trafficShape(
    workloadTable(
      generateWorkload({
        mix: v.mix as WorkloadMix,
        sessions: v.sessions,
        seed: v.seed,
        medianTurns: v.medianTurns,
      }),
    ),
  );
}

describe('Trajectory anatomy: Try this', () => {
  const base = session();
  it('every item sets only parameters of the widget’s schema', () => {
    for (const item of TRAJECTORY_TRY)
      for (const k of Object.keys(item.set ?? {})) expect(Object.keys(trajectorySchema)).toContain(k);
  });

  it('0 · chat: ρ drops by well over an order of magnitude; gaps grow from under a second to a minute and more', () => {
    const chat = session(TRAJECTORY_TRY[0]);
    expect(TRAJECTORY_TRY[0].set).toEqual({ kind: 'chat' });
    expect(base.totals.ioRatio / chat.totals.ioRatio).toBeGreaterThan(20);
    expect(base.medianGapS).toBeLessThan(1);
    expect(chat.medianGapS).toBeGreaterThan(60);
  });

  it('1 · 80 turns: Σ I grows faster than the turns, Σ O about with them, and ρ climbs', () => {
    const long = session(TRAJECTORY_TRY[1]);
    const turns = long.totals.turns / base.totals.turns;
    const input = long.totals.inputTokens / base.totals.inputTokens;
    const output = long.totals.outputTokens / base.totals.outputTokens;
    expect(turns).toBeGreaterThan(2);
    // "roughly with the square": well above linear, toward turns².
    expect(input).toBeGreaterThan(1.5 * turns);
    expect(output / turns).toBeGreaterThan(0.7);
    expect(output / turns).toBeLessThan(1.4);
    expect(long.totals.ioRatio).toBeGreaterThan(base.totals.ioRatio);
  });

  it('2 · human approval: the model’s work is the same, the wall time goes from minutes to days', () => {
    const human = session(TRAJECTORY_TRY[2]);
    expect(human.totals.modelS).toBeCloseTo(base.totals.modelS, 9);
    expect(human.totals.inputTokens).toBe(base.totals.inputTokens);
    expect(base.totals.wallS).toBeGreaterThan(60);
    expect(base.totals.wallS).toBeLessThan(3600);
    expect(human.totals.wallS).toBeGreaterThan(24 * 3600);
  });
});

describe('Traffic shape: Try this', () => {
  const base = shape();
  it('the objective’s “input around a hundred times the output”: one default session and the default traffic', () => {
    expect(LESSONS.find((l) => l.slug === '07-01-the-agent-workload')!.objectives.join(' ')).toContain(
      'input around a hundred times the output',
    );
    for (const rho of [session().totals.ioRatio, base.ioRatio]) {
      expect(rho).toBeGreaterThan(50);
      expect(rho).toBeLessThan(200);
    }
  });

  it('0 · chat: ρ falls from the hundreds to a few; the prompts sit left of both Mooncake means', () => {
    const chat = shape(SHAPE_TRY[0]);
    expect(base.ioRatio).toBeGreaterThan(100);
    expect(chat.ioRatio).toBeLessThan(10);
    const means = Math.min(MOONCAKE_CONVERSATION.avgInputTokens, MOONCAKE_TOOL_AGENT.avgInputTokens);
    expect(chat.inputTokens.p90).toBeLessThan(means);
  });

  it('1 · 5 turns: prompts shrink and ρ falls, the hit ratio stays high', () => {
    const short = shape(SHAPE_TRY[1]);
    expect(short.inputTokens.median).toBeLessThan(base.inputTokens.median);
    expect(short.ioRatio).toBeLessThan(base.ioRatio);
    expect(short.idealHitRatio.tokens).toBeGreaterThan(0.85);
  });

  it('2 · loading a trace is a button, not a parameter: the item sets no state', () => {
    expect(SHAPE_TRY[2].set).toBeUndefined();
  });
});

describe('Traffic shape: the figures its read-outs state', () => {
  it('the arrival rate the read-out names is the generator’s default', () => {
    const opts = { mix: 'agent' as const, sessions: 40, seed: 3, medianTurns: 5 };
    expect(generateWorkload({ ...opts, sessionRatePerS: GENERATED_SESSION_RATE_PER_S })).toEqual(
      generateWorkload(opts),
    );
    expect(generateWorkload({ ...opts, sessionRatePerS: 2 * GENERATED_SESSION_RATE_PER_S })).not.toEqual(
      generateWorkload(opts),
    );
  });
});
