/** The lever grid's capacity search says when its answer is only a floor (07.12). */
import { describe, expect, it } from 'vitest';
import { searchCapacity, type EconPoint } from '../src/sim/lessons/economicsLab';
import { LEVER_GRID } from '../src/sim/lessons/economicsLabSetup';

const args = {
  node: 'dgx-h100',
  tool: 'coding-mix',
  slo: { ttftP90S: 2, tpotP90S: 0.1 },
  seed: 1,
  router: 'cache-aware',
  policy: 'hold',
} as const;

// A stand-in run that meets the SLOs up to `limit` agents per replica: the search's logic alone, no simulation.
const upTo = (limit: number) => async (c: number) =>
  ({ concurrency: c, meetsSlo: c <= limit }) as unknown as EconPoint;

describe('searchCapacity: a floor is marked as one', () => {
  const top = LEVER_GRID[LEVER_GRID.length - 1];

  it('every concurrency it tries meets the SLOs: the top of the grid, marked "at least"', async () => {
    const r = await searchCapacity(args, upTo(10_000));
    expect(r.agentsPerReplica).toBe(top);
    expect(r.atLeast).toBe(true);
  });

  it('the SLOs bind inside the grid: the capacity itself', async () => {
    const limit = LEVER_GRID[LEVER_GRID.length - 2];
    const r = await searchCapacity(args, upTo(limit));
    expect(r.agentsPerReplica).toBe(limit);
    expect(r.atLeast).toBe(false);
    const none = await searchCapacity(args, upTo(0));
    expect(none.agentsPerReplica).toBe(0);
    expect(none.atLeast).toBe(false);
  });
});
