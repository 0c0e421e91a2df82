/**
 * Lesson 07.12, "A third lever: disaggregated prefill": the split node's scenario (src/sim/lessons/economicsDisagg.ts),
 * the worker's disaggLever at the lesson's defaults, and every claim the section makes about its figures.
 */
import { describe, expect, it } from 'vitest';
import { findNode } from '../src/sim/engine/catalog/nodes';
import { DISAGG_DEFAULTS } from '../src/sim/engine/fleet/disagg';
import { validateScenario } from '../src/sim/engine/fleet/scenario';
import { agentsPerMW } from '../src/sim/lessons/economics';
import { econDisaggScenario } from '../src/sim/lessons/economicsDisagg';
import { ECON_PREFILL_REPLICAS } from '../src/sim/lessons/economicsLabSetup';
import { arenaSetup } from '../src/widgets/tool-pause/arenaData';
import { directContext } from '../src/worker/job';
import { methods } from '../src/worker/methods';
import {
  DISAGG_LEVER_REQUEST,
  LEVER_NODE,
  summarizeLayout,
  TIGHT_TPOT_S,
} from '../src/widgets/agents-per-mw/DisaggLever';

describe('the split node', () => {
  it('is the lab’s node with one prefill and three decode replicas, the agents per decode replica', () => {
    const s = econDisaggScenario({
      node: 'dgx-h100',
      concurrency: 5,
      scope: 'node',
      router: 'cache-aware',
      policy: 'ttl-offload',
      tool: 'coding-mix',
      slo: { ttftP90S: 2, tpotP90S: 0.1 },
      seed: 1,
    });
    expect(validateScenario(s)).toEqual([]);
    expect(s.replicas).toBe(4);
    expect(s.disaggregation).toEqual({ prefillReplicas: ECON_PREFILL_REPLICAS, decodeReplicas: 3 });
    // The lever's caption and table name the same split of the same node.
    expect(DISAGG_LEVER_REQUEST.node).toBe('dgx-h100');
    expect(LEVER_NODE).toMatchObject({ replicas: s.replicas, prefill: 1, decode: 3 });
    // The SLO sweep's caption names the agents by the arena's setup: the same class runs here.
    const cls = 'classes' in s.workload ? s.workload.classes[0] : null;
    if (!cls || cls.kind !== 'agent' || cls.turns.kind !== 'uniform')
      throw new Error('an agent class, uniform turns');
    expect(arenaSetup.turns).toBe(`${cls.turns.min}–${cls.turns.max}`);
    expect('arrival' in s.workload && s.workload.arrival).toMatchObject({
      kind: 'closed',
      concurrency: 15,
    });
  });

  it('prefills a turn on its decode replica under 1,000 uncached tokens, Dynamo’s first router’s default (the prose)', () => {
    expect(DISAGG_DEFAULTS.localPrefillBelow).toBe(1000);
  });
});

describe('disaggLever at the lesson’s defaults', async () => {
  const frames: unknown[] = [];
  const r = await methods.disaggLever(
    DISAGG_LEVER_REQUEST,
    directContext((f) => frames.push(f)),
  );
  const [loose, tight] = r.rows;
  const pue = 1.3;
  const at = (row: typeof loose, layout: 'aggregated' | 'disaggregated') => summarizeLayout(row, layout, pue);

  it('runs both SLOs, streaming a row each; the tight one only tightens TPOT', () => {
    expect(frames.length).toBe(2);
    expect(tight.slo.tpotP90S).toBe(TIGHT_TPOT_S);
    expect(tight.slo.ttftP90S).toBe(loose.slo.ttftP90S);
    expect(TIGHT_TPOT_S).toBeLessThan(loose.slo.tpotP90S);
    expect(loose.aggregatedReplicas).toBe(4);
    expect(loose.decodeReplicas).toBe(3);
  });

  it('agents per node and per MW: agents per (decode) replica × replicas carrying them, priced as the grid is', () => {
    const node = findNode('dgx-h100')!;
    const s = at(loose, 'disaggregated');
    expect(s.perNode).toBe(loose.disaggregated.agentsPerReplica * 3);
    expect(s.perMW).toBeCloseTo(agentsPerMW(s.perNode, node.powerW, pue), 9);
    expect(at(loose, 'aggregated').perNode).toBe(loose.aggregated.agentsPerReplica * 4);
  });

  it('under the lesson’s SLOs the split costs capacity; TTFT binds and is higher; TPOT is lower', () => {
    const a = at(loose, 'aggregated');
    const d = at(loose, 'disaggregated');
    expect(d.perNode).toBeLessThan(a.perNode);
    expect(d.perMW).toBeLessThan(a.perMW);
    expect(d.ttftP90S).toBeGreaterThan(a.ttftP90S);
    expect(d.tpotP90S).toBeLessThan(a.tpotP90S);
    // "TTFT, the objective that binds": the first concurrency above capacity fails on TTFT, not TPOT.
    const next = loose.disaggregated.tried.find((p) => p.concurrency > loose.disaggregated.agentsPerReplica)!;
    expect(next.ttftP90S).toBeGreaterThan(loose.slo.ttftP90S);
    expect(next.tpotP90S).toBeLessThanOrEqual(loose.slo.tpotP90S);
  });

  it('"mostly warm", yet many turns travel to the prefill replica, which is busy a good part of the time', () => {
    expect(loose.disaggregated.point.reuseRatio).toBeGreaterThan(0.5);
    const d = at(loose, 'disaggregated');
    expect(d.remoteShare).toBeGreaterThan(0.25);
    expect(d.prefillBusy).toBeGreaterThan(0.2);
    expect(d.prefillBusy).toBeLessThan(1);
  });

  it('with a tight TPOT the aggregated node falls behind the split one, its TPOT binding', () => {
    const a = at(tight, 'aggregated');
    const d = at(tight, 'disaggregated');
    expect(d.perNode).toBeGreaterThan(a.perNode);
    expect(d.perMW).toBeGreaterThan(a.perMW);
    const next = tight.aggregated.tried.find((p) => p.concurrency > tight.aggregated.agentsPerReplica)!;
    expect(next.tpotP90S).toBeGreaterThan(TIGHT_TPOT_S);
    expect(a.tpotP90S).toBeLessThanOrEqual(TIGHT_TPOT_S);
  });

  it('refuses an empty SLO list', async () => {
    await expect(methods.disaggLever({ ...DISAGG_LEVER_REQUEST, slos: [] }, directContext())).rejects.toThrow(
      /at least one SLO/,
    );
  });
});
