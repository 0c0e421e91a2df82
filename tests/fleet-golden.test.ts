/**
 * Golden metrics, one scenario per router: any change to the engine's numbers shows up as a snapshot diff
 * (review it, then `npx vitest run tests/fleet-golden.test.ts -u`). Plus the orderings the routers exist for.
 */
import { describe, expect, it } from 'vitest';
import { ROUTER_KINDS, type RouterConfig } from '../src/sim/engine/fleet/router';
import { runScenarioSync, type FleetMetrics } from '../src/sim/engine/fleet/run';
import { agentClass, c, scenario } from './fleet-helpers';

function run(router: RouterConfig): FleetMetrics {
  return runScenarioSync(
    scenario({
      name: `golden-${router.kind}`,
      seed: 42,
      replicas: 4,
      durationS: 120,
      router,
      // vLLM's 16-token blocks for reuse, 64-token pages tracked (fleet/tails.ts matches the tails at 16).
      kv: { blockSize: 16, pageTokens: 64, hbmBlocks: 600, dram: { capacityGB: 2 } },
      scheduler: { chunkedPrefill: 1024, tokenBudget: 2048 },
      workload: {
        arrival: { kind: 'poisson', sessionsPerS: 1.5 },
        sessions: 120,
        classes: [
          agentClass({
            apps: 3,
            systemTokens: c(2000),
            toolSchemaTokens: c(3000),
            taskTokens: { kind: 'lognormal', median: 300, sigma: 0.5 },
            turns: { kind: 'uniform', min: 3, max: 10 },
            outputTokens: { kind: 'lognormal', median: 120, sigma: 0.5 },
            toolResultTokens: { kind: 'lognormal', median: 600, sigma: 0.7 },
            toolLatency: {
              mix: [
                { weight: 2, tool: 'local' },
                { weight: 1, tool: 'shell' },
              ],
            },
          }),
        ],
      },
    }),
    { includeSeries: false },
  ).metrics;
}

const results = new Map<string, FleetMetrics>();
for (const kind of ROUTER_KINDS) results.set(kind, run({ kind } as RouterConfig));

describe('golden metrics per router', () => {
  for (const kind of ROUTER_KINDS) {
    it(kind, async () => {
      const m = results.get(kind)!;
      expect(m.requests.finished).toBe(m.requests.created);
      await expect(JSON.stringify(m, null, 1) + '\n').toMatchFileSnapshot(
        `./__snapshots__/fleet-golden-${kind}.json`,
      );
    });
  }

  it('cache-aware and affinity routing reuse more of the prompt than round-robin and random', () => {
    const reuse = (k: string) => results.get(k)!.tokens.reuseRatio;
    for (const smart of ['cache-aware', 'session-affinity']) {
      for (const blind of ['round-robin', 'random', 'least-outstanding', 'power-of-two'])
        expect(reuse(smart)).toBeGreaterThan(reuse(blind));
    }
  });

  it('each router reports its own decision kinds', () => {
    expect(Object.keys(results.get('round-robin')!.routing)).toEqual(['round-robin']);
    expect(Object.keys(results.get('random')!.routing)).toEqual(['random']);
    expect(results.get('session-affinity')!.routing.sticky).toBeGreaterThan(0);
    expect(results.get('cache-aware')!.routing['cache-hit']).toBeGreaterThan(0);
  });
});
