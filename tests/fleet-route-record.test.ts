/**
 * The fleet records each routing decision with its request (routeReason, routeMatched, routeQueued columns of
 * the per-request table), so a run without frames keeps why every request went where it went.
 */
import { describe, expect, it } from 'vitest';
import { ROUTE_REASONS } from '../src/sim/engine/fleet/router';
import { runScenario } from '../src/sim/engine/fleet/run';
import { labScenario } from '../src/sim/lessons/routing/lab';

const FLEET = { replicas: 3, sessionsPerS: 0.4, arrivalS: 20, seed: 7, loadThreshold: 8 };

describe('routing decisions in the per-request table', () => {
  it('every request has a reason; the tallies equal the run’s routing counts', async () => {
    for (const policy of ['least-load', 'cache-aware', 'session-affinity'] as const) {
      const res = await runScenario(labScenario(policy, FLEET), {
        includeRequests: true,
        includeSeries: false,
      });
      const d = res.requests!.data;
      const n = d.session.length;
      const tally: Record<string, number> = {};
      for (let i = 0; i < n; i++) {
        const name = ROUTE_REASONS[d.routeReason[i]];
        expect(name).toBeDefined();
        tally[name] = (tally[name] ?? 0) + 1;
        expect(d.routeQueued[i]).toBeGreaterThanOrEqual(0);
        if (policy === 'cache-aware') expect(d.routeMatched[i]).toBeGreaterThanOrEqual(0);
        else expect(d.routeMatched[i]).toBe(-1); // these policies do not look at the caches
      }
      expect(tally).toEqual(res.metrics.routing);
    }
  });

  it('the load the router saw is kept: the first request finds an empty fleet, later ones join queued work', async () => {
    // The first request finds an empty fleet: nothing queued on the replica it was given.
    const res = await runScenario(labScenario('least-load', FLEET), {
      includeRequests: true,
      includeSeries: false,
    });
    expect(res.requests!.data.routeQueued[0]).toBe(0);
    // Later ones see the load they joined: some request found work already queued where it went.
    expect(Math.max(...res.requests!.data.routeQueued)).toBeGreaterThan(0);
  });
});
