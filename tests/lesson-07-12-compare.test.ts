/**
 * Lesson 07.12: the note that sets the lever grid's GPU-seconds per session beside the first widget's (one replica
 * without a router against a node of replicas behind one), each of its claims checked on the runs behind the two
 * widgets; and the wording the review fixed (the module batching is recapped from, the captions' tool clauses).
 */
import { describe, expect, it } from 'vitest';
import { lessonSource } from './lessonText';
import { maxFeasible } from '../src/sim/lessons/economics';
import { runEconPoint, searchCapacity, sweepConcurrency } from '../src/sim/lessons/economicsLab';
import { ECON_TOOLS } from '../src/sim/lessons/economicsLabSetup';
import { TOOL_CLAUSES } from '../src/widgets/agents-per-mw/econSetup';

const SLO = { ttftP90S: 2, tpotP90S: 0.1 };
const BASE = { node: 'dgx-h100', tool: 'coding-mix', slo: SLO, policy: 'ttl-offload' } as const;
const { flat } = lessonSource('07-12-agents-per-megawatt');

describe('07.12: the first widget’s GPU-seconds per session against the lever grid’s', () => {
  it('at the defaults: the same capacity, a lower reuse behind the router, and other sessions finishing', async () => {
    const pts = await sweepConcurrency({ ...BASE, seed: 1 });
    const n = maxFeasible(pts, SLO);
    const one = pts.find((p) => p.concurrency === n)!;
    const grid = await searchCapacity({ ...BASE, seed: 1, router: 'cache-aware' });
    expect(n).toBe(16);
    expect(one.replicas).toBe(1);
    expect(grid.point.replicas).toBeGreaterThan(1);
    // the figures the note sets side by side differ, at the same concurrency per replica
    expect(grid.agentsPerReplica).toBe(n);
    expect(Math.abs(grid.point.gpuSecondsPerSession - one.gpuSecondsPerSession)).toBeGreaterThan(1);
    // "the router sends a few turns away from the replica holding their context"
    expect(grid.point.reuseRatio).toBeLessThan(one.reuseRatio);
    expect(one.reuseRatio - grid.point.reuseRatio).toBeLessThan(0.05);
    // "a mean over the sessions that finish within the run": few on one replica, more on the node
    expect(one.sessionsFinished).toBeLessThan(30);
    expect(grid.point.sessionsFinished).toBeGreaterThan(2 * one.sessionsFinished);
  }, 60_000);

  it('“it moves by several GPU-seconds from seed to seed”, on one replica and on the node; the reuse gap holds', async () => {
    // 16 agents per replica: both widgets' capacity at the defaults (the test above)
    const at = (seed: number, scope: 'replica' | 'node') =>
      runEconPoint({ ...BASE, router: 'cache-aware', concurrency: 16, scope, seed });
    const seeds = [1, 2, 3, 4];
    const one = await Promise.all(seeds.map((s) => at(s, 'replica')));
    const node = await Promise.all(seeds.map((s) => at(s, 'node')));
    const spread = (xs: { gpuSecondsPerSession: number }[]) =>
      Math.max(...xs.map((x) => x.gpuSecondsPerSession)) - Math.min(...xs.map((x) => x.gpuSecondsPerSession));
    expect(spread(one)).toBeGreaterThan(3);
    expect(spread(node)).toBeGreaterThan(3);
    seeds.forEach((_, i) => expect(node[i].reuseRatio).toBeLessThan(one[i].reuseRatio));
  }, 120_000);

  it('the note is in the lesson, after the grid', () => {
    expect(flat).toContain(
      'The first widget runs one replica, which needs no router; the grid runs the whole node',
    );
    expect(flat.indexOf('<LeverGrid />')).toBeLessThan(
      flat.indexOf('Compare the grid with the first widget'),
    );
  });
});

describe('07.12: wording the review fixed', () => {
  it('batching is recapped from module 4, where lessons 07.02 and 07.10 put it', () => {
    expect(flat).toContain('from batching in module 4');
    expect(flat).toContain('**Batching** (module 4)');
    expect(flat).not.toMatch(/module 3/);
  });
  it('every tool the widgets offer has a clause that reads after “agents …, ” and before “between turns”', () => {
    for (const t of ECON_TOOLS) {
      expect(TOOL_CLAUSES[t]).toMatch(/^(calling|running|making|waiting) /);
      // the menu labels lower-cased ("coding-agent mix", "web / api calls") do not read after a verb
      expect(TOOL_CLAUSES[t]).not.toMatch(/^calling (coding-agent mix|web \/ api)/i);
    }
    expect(TOOL_CLAUSES['coding-mix']).toBe('calling tools from the coding-agent mix');
  });
});
