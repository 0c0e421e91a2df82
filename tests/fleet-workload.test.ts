/** The fleet's workload generator (src/sim/engine/fleet/workload.ts): contexts grown in place or copied. */
import { describe, expect, it } from 'vitest';
import { WorkloadGenerator, type SessionClass } from '../src/sim/engine/fleet/workload';
import { agentClass, c, chatClass } from './fleet-helpers';

const CLASSES: SessionClass[] = [
  agentClass({
    apps: 2,
    systemTokens: c(300),
    toolSchemaTokens: c(500),
    taskTokens: { kind: 'lognormal', median: 100, sigma: 0.5 },
    turns: { kind: 'uniform', min: 5, max: 12 },
    outputTokens: { kind: 'lognormal', median: 80, sigma: 0.6 },
    toolResultTokens: { kind: 'lognormal', median: 300, sigma: 0.8 },
    nonExtension: { compaction: { thresholdTokens: 3000, summaryTokens: 200 }, reorderToolsProb: 0.2 },
  }),
  chatClass({
    systemTokens: c(200),
    userTokens: { kind: 'lognormal', median: 50, sigma: 0.5 },
    outputTokens: { kind: 'lognormal', median: 120, sigma: 0.5 },
    turns: { kind: 'uniform', min: 3, max: 6 },
  }),
];

/** Every request of `sessions` sessions, turn by turn, as plain data read when each request is made. */
function play(inPlace: boolean, sessions: number) {
  const gen = new WorkloadGenerator(CLASSES, 7, inPlace);
  const out: unknown[] = [];
  const specs: { segments: readonly unknown[]; length: number }[] = [];
  for (let i = 0; i < sessions; i++) {
    const s = gen.createSession(i);
    for (;;) {
      const spec = gen.nextRequest(s);
      out.push({ ...spec, segments: spec.segments.map((x) => ({ ...x })) });
      specs.push({ segments: spec.segments, length: spec.segments.length });
      const after = gen.afterTurn(s, spec);
      out.push(after);
      if (after.kind === 'end') break;
    }
  }
  return { out, specs };
}

describe('the workload generator', () => {
  it('makes the same requests whether contexts grow in place or are copied each turn', () => {
    expect(play(true, 12).out).toEqual(play(false, 12).out);
  });

  it('copied, an earlier request’s segments stay as they were; in place, later turns extend them', () => {
    const copied = play(false, 6).specs;
    expect(copied.every((s) => s.segments.length === s.length)).toBe(true);
    const inPlace = play(true, 6).specs;
    expect(inPlace.some((s) => s.segments.length > s.length)).toBe(true);
  });
});
