/**
 * The animated router's residency (who holds what in HBM) kept current from the caches' HBM slots
 * (ResidencyTracker) equals the snapshot of every cache (residency, the oracle) at every frame of a run:
 * for every policy, with and without a shared pool, with the cache-aware router's approximate view, and for
 * fleets and loads fast-check picks.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runScenarioSync } from '../src/sim/engine/fleet/run';
import type { FleetSim } from '../src/sim/engine/fleet/engine';
import {
  labScenario,
  residency,
  ResidencyTracker,
  ROUTER_POLICIES,
  sharedPrefixHashes,
  type LabFleet,
  type Residency,
  type RouterPolicy,
} from '../src/sim/lessons/routing/lab';

function sorted(m: ReadonlyMap<number, number>): [number, number][] {
  return [...m.entries()].sort((a, b) => a[0] - b[0]);
}

function plain(r: Residency) {
  return {
    bySession: r.bySession.map(sorted),
    duplicateBlocks: r.duplicateBlocks,
    copiesPerSession: r.copiesPerSession,
  };
}

/** Run the lab's fleet with frames, comparing tracker and snapshot at every frame; returns what was compared. */
function compareAtEveryFrame(policy: RouterPolicy, f: LabFleet, interval = 0.5) {
  const shared = sharedPrefixHashes();
  let tracker: ResidencyTracker | null = null;
  let frames = 0;
  let mismatches = 0;
  let first: { frame: number; tracked: unknown; snapshot: unknown } | null = null;
  let duplicated = 0;
  let held = 0;
  runScenarioSync(labScenario(policy, f, interval), {
    includeSeries: false,
    afterEvent: (sim: FleetSim) => {
      tracker ??= new ResidencyTracker(sim.caches, shared);
      if (!sim.pendingFrame) return;
      frames++;
      sim.pendingFrame = null;
      const tracked = plain(tracker.current());
      const snapshot = plain(residency(sim, shared));
      if (JSON.stringify(tracked) !== JSON.stringify(snapshot)) {
        mismatches++;
        first ??= { frame: frames, tracked, snapshot };
      }
      if (snapshot.duplicateBlocks > 0) duplicated++;
      held += snapshot.bySession.reduce((a, m) => a + m.length, 0);
    },
  });
  return { frames, mismatches, first, duplicated, held };
}

const FLEET: LabFleet = { replicas: 4, sessionsPerS: 1, arrivalS: 30, seed: 4, loadThreshold: 8 };

describe('ResidencyTracker (incremental) against residency (snapshots)', () => {
  it.each(ROUTER_POLICIES)('%s: equal at every frame', (policy) => {
    const r = compareAtEveryFrame(policy, FLEET);
    expect(r.first).toBeNull();
    expect(r.mismatches).toBe(0);
    expect(r.frames).toBeGreaterThan(100);
    expect(r.held).toBeGreaterThan(0);
  });

  it('with a shared pool (blocks come back from it) and an approximate view: equal at every frame', () => {
    const pooled = compareAtEveryFrame('round-robin', { ...FLEET, sessionsPerS: 1.5, poolGB: 500 });
    expect(pooled.first).toBeNull();
    // Round-robin scatters sessions: some frames hold session KV in duplicate, so that count is exercised.
    expect(pooled.duplicated).toBeGreaterThan(0);
    const approx = compareAtEveryFrame('cache-aware', { ...FLEET, cacheView: 'approximate' });
    expect(approx.first).toBeNull();
  });

  it('fleets, loads and seeds fast-check picks: equal at every frame', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ROUTER_POLICIES),
        fc.integer({ min: 1, max: 6 }),
        fc.double({ min: 0.2, max: 1.5, noNaN: true }),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom(0, 200),
        (policy, replicas, sessionsPerS, seed, poolGB) => {
          const r = compareAtEveryFrame(
            policy,
            { replicas, sessionsPerS, arrivalS: 12, seed, loadThreshold: 8, poolGB },
            1,
          );
          return r.mismatches === 0 && r.frames > 0;
        },
      ),
      { numRuns: 12, seed: 7 },
    );
  });
});
