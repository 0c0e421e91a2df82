/** The fleet simulator through the worker method: frames with backpressure, cancellation, clear errors. */
import { describe, expect, it } from 'vitest';
import type { FleetFrame } from '../src/sim/engine/fleet/frames';
import { JobCancelled, directContext, type JobContext } from '../src/worker/job';
import { methods } from '../src/worker/methods';
import { agentClass, scenario } from './fleet-helpers';

const sc = () =>
  scenario({
    replicas: 2,
    router: { kind: 'cache-aware' },
    output: { frameIntervalS: 0.5 },
    workload: { arrival: { kind: 'poisson', sessionsPerS: 2 }, sessions: 10, classes: [agentClass()] },
  });

describe('runFleet worker method', () => {
  it('streams frames one at a time (each delivery awaited) and returns the metrics', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const frames: FleetFrame[] = [];
    const ctx: JobContext<FleetFrame> = {
      isCancelled: () => false,
      checkpoint: async () => {},
      emit: async (f) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 0));
        frames.push(f);
        inFlight--;
      },
    };
    const r = await methods.runFleet({ scenario: sc() }, ctx);
    expect(r.metrics.requests.finished).toBe(r.metrics.requests.created);
    expect(maxInFlight).toBe(1);
    expect(frames.length).toBeGreaterThan(5);
    frames.forEach((f, i) => expect(f.index).toBe(i));
    for (let i = 1; i < frames.length; i++) expect(frames[i].t).toBeCloseTo(frames[i - 1].t + 0.5, 9);
    // Routing decisions appear in exactly one frame each.
    const routed = frames.reduce((n, f) => n + f.routes.count, 0);
    expect(routed).toBeLessThanOrEqual(r.metrics.requests.created);
    expect(routed).toBeGreaterThan(0);
    // KV blocks appear in frames, with their replica and tier.
    const withBlocks = frames.find((f) => f.blocks.count > 0)!;
    expect(withBlocks.blocks.replica.length).toBe(withBlocks.blocks.count);
    expect(Math.max(...withBlocks.blocks.replica)).toBeLessThan(2);
  });

  it('stops at a checkpoint when cancelled', async () => {
    let calls = 0;
    const ctx: JobContext<FleetFrame> = {
      isCancelled: () => calls > 2,
      checkpoint: async () => {
        if (++calls > 2) throw new JobCancelled();
      },
      emit: async () => {},
    };
    await expect(methods.runFleet({ scenario: sc(), checkpointEvery: 10 }, ctx)).rejects.toBeInstanceOf(
      JobCancelled,
    );
    expect(calls).toBe(3);
  });

  it('rejects a bad scenario with every problem named by path', async () => {
    const bad = { ...sc(), replicas: 0, router: { kind: 'nope' } } as unknown as ReturnType<typeof sc>;
    const p = methods.runFleet({ scenario: bad }, directContext());
    await expect(p).rejects.toThrow(/replicas: must be ≥ 1/);
    await expect(p).rejects.toThrow(/router.kind: must be one of/);
    await expect(p).rejects.toMatchObject({ name: 'BadRequest' });
  });
});
