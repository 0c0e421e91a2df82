/** The fleet's workload generator (src/sim/engine/fleet/workload.ts): contexts grown in place or copied. */
import { describe, expect, it } from 'vitest';
import { FleetSim } from '../src/sim/engine/fleet/engine';
import { REQUEST_COLUMNS } from '../src/sim/engine/fleet/requestColumns';
import { resolveScenario } from '../src/sim/engine/fleet/scenario';
import { WorkloadGenerator, type SessionClass } from '../src/sim/engine/fleet/workload';
import { agentClass, c, chatClass, scenario } from './fleet-helpers';

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

  it('gives each request the tokens of its segments, through compaction, reordered tools and per-turn headers', () => {
    const withHeader = CLASSES.map((k) =>
      k.kind === 'agent' ? { ...k, nonExtension: { ...k.nonExtension, timestampTokens: 12 } } : k,
    );
    let requests = 0;
    let compacted = 0;
    for (const classes of [CLASSES, withHeader]) {
      const gen = new WorkloadGenerator(classes, 11, true);
      for (let i = 0; i < 20; i++) {
        const s = gen.createSession(i);
        for (;;) {
          const spec = gen.nextRequest(s);
          expect(spec.promptTokens).toBe(spec.segments.reduce((t, x) => t + x.tokens, 0));
          requests++;
          const after = gen.afterTurn(s, spec);
          if (s.compactions > 0) compacted++;
          if (after.kind === 'end') break;
        }
      }
    }
    expect(requests).toBeGreaterThan(200);
    expect(compacted).toBeGreaterThan(0);
  });

  it('copied, an earlier request’s segments stay as they were; in place, later turns extend them', () => {
    const copied = play(false, 6).specs;
    expect(copied.every((s) => s.segments.length === s.length)).toBe(true);
    const inPlace = play(true, 6).specs;
    expect(inPlace.some((s) => s.segments.length > s.length)).toBe(true);
  });
});

describe('the fleet with contexts grown in place', () => {
  it('runs every request as with contexts copied each turn (compaction, reordered tools, engine-block tails)', () => {
    // 512-token pages over 16-token engine blocks, so tails are matched (fleet/tails.ts reads Req.segs); two
    // replicas under pressure, so sessions are held, offloaded and read back.
    const run = (contextInPlace: boolean) => {
      const rs = resolveScenario(
        scenario({
          replicas: 2,
          router: { kind: 'session-affinity' },
          kv: { pageTokens: 512, dram: { capacityGB: 20 } },
          policies: { toolPause: { kind: 'ttl', ttlS: 2, then: 'offload', tier: 'dram' } },
          durationS: 600,
          workload: { arrival: { kind: 'poisson', sessionsPerS: 0.5 }, sessions: 24, classes: CLASSES },
        }),
      );
      const sim = new FleetSim(rs, { contextInPlace });
      while (sim.step());
      const arrays = sim.columnArrays();
      const cols = Object.fromEntries(REQUEST_COLUMNS.map((k) => [k, Array.from(arrays[k])]));
      return { cols, counters: sim.caches.map((x) => x.counters()) };
    };
    const inPlace = run(true);
    expect(inPlace.cols.session.length).toBeGreaterThan(100);
    expect(inPlace).toEqual(run(false));
  });
});
