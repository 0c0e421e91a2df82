/**
 * 07.02's figures for the fleet view's workload and the lab's affinity escape: what the prose prints is what the
 * sweep runs and what the router does.
 */
import { lessonSource, renderedText } from './lessonText';
import { describe, expect, it } from 'vitest';
import {
  AffinityEscape,
  SweepShape,
  TrajKnown,
  TrajNew,
  TrajPrompt,
} from '../src/widgets/session-affinity/Figures';
import { SWEEP_SHAPE } from '../src/sim/lessons/affinityModel';
import { sweepScenario } from '../src/sim/lessons/affinitySweep';
import { createRouter, type ReplicaLoad, type RouterEnv } from '../src/sim/engine/fleet/router';
import { LAB_AFFINITY_ESCAPE } from '../src/sim/engine/fleet/routerDefaults';

const text = renderedText;
const { prose } = lessonSource('07-02-session-affinity');

describe('07.02: the fleet view’s workload as the prose states it', () => {
  it('prints the turns and apps the sweep runs', () => {
    expect(text(<SweepShape m="turns" />)).toBe('12 to 32');
    expect(text(<SweepShape m="apps" />)).toBe('4');
    const workload = sweepScenario(
      { model: 'qwen3-32b', accelerator: 'h100-sxm', tp: 2 },
      { agentsPerReplica: 8 },
      2,
      'session-affinity',
    ).workload;
    if (!('classes' in workload)) throw new Error('the sweep runs a sessions workload');
    const cls = workload.classes[0] as { apps: number; turns: { min: number; max: number } };
    expect(cls.apps).toBe(SWEEP_SHAPE.apps);
    expect([cls.turns.min, cls.turns.max]).toEqual([SWEEP_SHAPE.turnsMin, SWEEP_SHAPE.turnsMax]);
    expect(prose).toContain('<SweepShape m="turns" />');
    expect(prose).not.toMatch(/12 to 32 turns|four apps/);
  });
});

describe('07.02: a warm turn’s new tokens', () => {
  const n = (el: React.ReactElement) => Number(text(el).replace(/,/g, ''));
  it('are the prompt less what the turn before left computed, for every turn the prose could quote', () => {
    for (const turn of [1, 5, 20]) {
      expect(n(<TrajNew turn={turn} />)).toBe(n(<TrajPrompt turn={turn} />) - n(<TrajKnown turn={turn} />));
      expect(n(<TrajNew turn={turn} />)).toBeGreaterThan(0);
    }
    expect(prose).toContain('prefills its <TrajNew turn={1} /> new tokens');
  });
});

describe('07.02: the lab’s affinity escape as the prose states it', () => {
  const load = (outstandingTokens: number): ReplicaLoad => ({
    outstandingTokens,
    outstandingRequests: 1,
    kvUsage: 0,
    waitingRequests: 0,
    kvInUse: 0,
  });
  const route = (loads: ReplicaLoad[]) => {
    const router = createRouter({ kind: 'session-affinity' });
    const env = { now: 0, loads: [load(0), load(0), load(0), load(0)], rng: null } as unknown as RouterEnv;
    const req = {
      session: 7,
      request: 1,
      hashes: new Float64Array(0),
      promptBlocks: 0,
      promptTokens: 0,
      blockSize: 16,
    };
    const first = router.route(req, env).replica; // least loaded: replica 0, sticky from here
    return { first, next: router.route({ ...req, request: 2 }, { ...env, loads }) };
  };

  it('prints the ratio and floor the router applies', () => {
    expect(text(<AffinityEscape m="ratio" />)).toBe('2×');
    expect(text(<AffinityEscape m="minTokens" />)).toBe('16,384');
    expect(prose).toContain(
      '<AffinityEscape m="ratio" /> the fleet mean (and at least <AffinityEscape m="minTokens" /> tokens)',
    );
  });

  it('keeps a session up to the floor, however far above the mean', () => {
    const floor = LAB_AFFINITY_ESCAPE.overloadMinTokens;
    const { first, next } = route([load(floor), load(0), load(0), load(0)]);
    expect(first).toBe(0);
    expect(next).toMatchObject({ replica: 0, reason: 'sticky' });
    expect(route([load(floor + 1), load(0), load(0), load(0)]).next).toMatchObject({
      reason: 'sticky-overflow',
    });
  });

  it('above the floor, moves a session when its replica passes the ratio times the fleet mean', () => {
    const base = 40_000; // mean over four replicas of [x, base, base, base]
    const r = LAB_AFFINITY_ESCAPE.overloadRatio;
    // x ≤ r · (x + 3·base)/4  ⇔  x ≤ 3·r·base / (4 − r)
    const limit = (3 * r * base) / (4 - r);
    expect(route([load(limit), load(base), load(base), load(base)]).next.reason).toBe('sticky');
    expect(route([load(limit + 1), load(base), load(base), load(base)]).next.reason).toBe('sticky-overflow');
  });
});

describe('07.02: SGLang’s `manual` policy as the prose states it', () => {
  // smg v1.9.0 model_gateway/src/policies/manual.rs (ManualConfig) and src/main.rs: a routing key's worker is
  // dropped when that worker is unhealthy or after `--max-idle-secs` (default 14400 s) without a request.
  it('keeps a key on its worker until the worker is unhealthy or the key has idled 4 h, never for load', () => {
    const flat = prose.replace(/\s+/g, ' ');
    expect(flat).toContain('until that worker is unhealthy or the key has been idle for 4 h');
    expect(flat).toContain('until the key has been idle for 4 h (`--max-idle-secs`, default 14400;');
    expect(flat).toContain(
      "neither vLLM's session router nor SGLang's `manual` policy moves a session off a busy",
    );
  });
});
