/**
 * llm-d's scheduler (fleet/llmd.ts): weighted scorers and the picker on hand-made loads and matches, and the
 * scenario validation of the router and view configs.
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../src/sim/engine/rng';
import { createCacheView } from '../src/sim/engine/fleet/view';
import { LlmdRouter, type LlmdScorerConfig } from '../src/sim/engine/fleet/llmd';
import { createRouter, type RouterEnv } from '../src/sim/engine/fleet/router';
import { caches, load, prompt, routeInput } from './fleet-view-helpers';

describe("llm-d's weighted scorers and picker", () => {
  const rng = () => createRng(7);
  const noView = createCacheView({ kind: 'exact' }, caches(3, 4), 4);

  it('adds the scorers weighted, each clamped to [0, 1] (queue min–max, 1 − KV in use)', () => {
    const loads = [
      load({ waitingRequests: 0, kvInUse: 0.9 }),
      load({ waitingRequests: 4, kvInUse: 0.1 }),
      load({ waitingRequests: 8, kvInUse: 0.5 }),
    ];
    const scorers: LlmdScorerConfig[] = [
      { type: 'queue', weight: 2 },
      { type: 'kv-cache-utilization', weight: 1 },
    ];
    const r = new LlmdRouter({ kind: 'llm-d', scorers });
    const env: RouterEnv = { now: 0, loads, view: noView, rng: rng() };
    const s = Array.from(r.scores(routeInput([]), env, new Int32Array(3)));
    // queue: (8 − q) / 8 → 1, 0.5, 0; kv: 0.1, 0.9, 0.5.
    expect(s[0]).toBeCloseTo(2 * 1 + 0.1);
    expect(s[1]).toBeCloseTo(2 * 0.5 + 0.9);
    expect(s[2]).toBeCloseTo(2 * 0 + 0.5);
    expect(r.route(routeInput([]), env).replica).toBe(0);
    // Weight the KV scorer up and the pick moves to the emptiest KV.
    const kvHeavy = new LlmdRouter({
      kind: 'llm-d',
      scorers: [
        { type: 'queue', weight: 1 },
        { type: 'kv-cache-utilization', weight: 4 },
      ],
    });
    expect(kvHeavy.route(routeInput([]), env).replica).toBe(1);
  });

  it('gives every pod 1 on the queue scorer when the queues are equal, and load-aware 0.5 at an empty queue', () => {
    const loads = [load({ waitingRequests: 3 }), load({ waitingRequests: 3 }), load({ waitingRequests: 0 })];
    const env: RouterEnv = { now: 0, loads, view: noView, rng: rng() };
    const q = new LlmdRouter({ kind: 'llm-d', scorers: [{ type: 'queue' }] });
    expect(
      Array.from(q.scores(routeInput([]), { ...env, loads: [loads[0], loads[1]] }, new Int32Array(2))),
    ).toEqual([1, 1]);
    const la = new LlmdRouter({ kind: 'llm-d', scorers: [{ type: 'load-aware', queueThreshold: 6 }] });
    const s = la.scores(routeInput([]), env, new Int32Array(3));
    expect(s[2]).toBe(0.5);
    expect(s[0]).toBeCloseTo(0.5 * (1 - 3 / 6));
  });

  it('scores precise matches absolutely or min–max over the pods that match', () => {
    const env: RouterEnv = { now: 0, loads: [load(), load(), load()], view: noView, rng: rng() };
    const req = routeInput(prompt(1, 10));
    const matched = Int32Array.from([10, 4, 0]);
    const abs = new LlmdRouter({ kind: 'llm-d', scorers: [{ type: 'precise-prefix-cache' }] });
    expect(Array.from(abs.scores(req, env, matched))).toEqual([1, 0.4, 0]);
    const mm = new LlmdRouter({
      kind: 'llm-d',
      scorers: [{ type: 'precise-prefix-cache', normalize: 'min-max' }],
    });
    expect(Array.from(mm.scores(req, env, matched))).toEqual([1, 0, 0]);
    expect(Array.from(mm.scores(req, env, Int32Array.from([4, 0, 0])))).toEqual([1, 0, 0]);
  });

  it('breaks max-score ties at random (every tied pod chosen), or by order', () => {
    const loads = [load(), load(), load()];
    const r = new LlmdRouter({ kind: 'llm-d', scorers: [{ type: 'queue' }] });
    const g = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++)
      seen.add(r.route(routeInput([]), { now: 0, loads, view: noView, rng: g }).replica);
    expect([...seen].sort()).toEqual([0, 1, 2]);
    const ordered = new LlmdRouter({ kind: 'llm-d', scorers: [{ type: 'queue' }], tieBreak: 'order' });
    for (let i = 0; i < 20; i++)
      expect(ordered.route(routeInput([]), { now: 0, loads, view: noView, rng: g }).replica).toBe(0);
  });

  it('reads the cache view only when a prefix scorer has weight', () => {
    expect(
      new LlmdRouter({ kind: 'llm-d', scorers: [{ type: 'queue' }, { type: 'kv-cache-utilization' }] })
        .usesCache,
    ).toBe(false);
    expect(new LlmdRouter({ kind: 'llm-d', scorers: [{ type: 'prefix-cache', weight: 0 }] }).usesCache).toBe(
      false,
    );
    expect(createRouter({ kind: 'llm-d' }).usesCache).toBe(true);
  });
});

describe('scenario validation of the router and its view', () => {
  it('accepts every view kind and llm-d router, and names the field that is wrong', async () => {
    const { validateScenario } = await import('../src/sim/engine/fleet/scenario');
    const base = {
      model: 'llama-3.1-8b',
      hardware: { accelerator: 'h100-sxm' },
      replicas: 2,
      workload: {
        arrival: { kind: 'poisson', sessionsPerS: 1 },
        sessions: 1,
        classes: [{ kind: 'chat', name: 'c' }],
      },
    };
    const ok = (router: unknown) =>
      validateScenario({ ...base, router } as never).filter((e) => e.path.startsWith('router'));
    for (const view of [
      { kind: 'exact' },
      { kind: 'precise', latencyS: 0.05, tiers: 'hbm' },
      { kind: 'delayed', intervalS: 1 },
      { kind: 'approximate', capacityBlocks: 10 },
      { kind: 'llm-d-approximate', blockTokens: 64, maxPrefixBlocks: 256, lruCapacityPerServer: 'auto' },
      { kind: 'sglang-radix', maxTreeSize: 1e6, evictionIntervalS: 60, charsPerToken: 3.5 },
    ])
      expect(ok({ kind: 'cache-aware', view })).toEqual([]);
    expect(
      ok({
        kind: 'llm-d',
        scorers: [
          { type: 'precise-prefix-cache', weight: 3, normalize: 'min-max' },
          { type: 'kv-cache-utilization', weight: 2 },
          { type: 'queue', weight: 2 },
          { type: 'load-aware', queueThreshold: 64 },
        ],
        picker: 'max-score',
        tieBreak: 'order',
        view: { kind: 'precise' },
      }),
    ).toEqual([]);
    expect(ok({ kind: 'cache-aware', onMiss: 'smallest-tree', cacheThreshold: 0.5 })).toEqual([]);
    const paths = (router: unknown) => ok(router).map((e) => e.path);
    expect(paths({ kind: 'llm-d', scorers: [{ type: 'prefix', weight: 1 }] })).toEqual([
      'router.scorers[0].type',
    ]);
    expect(paths({ kind: 'llm-d', scorers: [{ type: 'queue', weight: -1 }] })).toEqual([
      'router.scorers[0].weight',
    ]);
    expect(paths({ kind: 'llm-d', scorers: { type: 'queue' } })).toEqual(['router.scorers']);
    expect(paths({ kind: 'llm-d', picker: 'best' })).toEqual(['router.picker']);
    expect(paths({ kind: 'cache-aware', onMiss: 'most-free' })).toEqual(['router.onMiss']);
    expect(paths({ kind: 'cache-aware', view: { kind: 'sglang-radix', maxTreeChars: 5 } })).toEqual([
      'router.view.maxTreeChars',
    ]);
    expect(
      paths({ kind: 'cache-aware', view: { kind: 'llm-d-approximate', lruCapacityPerServer: 'big' } }),
    ).toEqual(['router.view.lruCapacityPerServer']);
    expect(paths({ kind: 'cache-aware', view: { kind: 'precise', latencyS: -1 } })).toEqual([
      'router.view.latencyS',
    ]);
  });
});
