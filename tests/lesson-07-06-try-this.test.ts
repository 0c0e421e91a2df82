/**
 * Lesson 07.06's "Try this" items (which its guided tour plays): each direction an item claims, computed by the core
 * with the state the item sets (the widgets' TRY_THIS over their schema defaults).
 */
import { describe, expect, it } from 'vitest';
import { runPausePolicy, type PauseArenaArgs } from '../src/sim/lessons/pauseLab';
import type { PausePolicyId } from '../src/sim/lessons/pauseLabSetup';
import { cdf } from '../src/sim/lessons/toolLatency';
import { TOOL_LATENCY_PRESETS } from '../src/sim/engine/fleet/dist';
import { methods } from '../src/worker/methods';
import type { ToolLatencyRequest, ToolLatencyResponse } from '../src/worker/pauseMethods';
import { pauseArenaSchema, toolLatencySchema } from '../src/widgets/tool-pause/schema';
import { TRY_THIS as LATENCY_TRY } from '../src/widgets/tool-pause/ToolLatency';
import { TRY_THIS as ARENA_TRY } from '../src/widgets/tool-pause/PauseArena';
import type { TryItem } from '../src/widgets/kit/stage';
import { defaultValues } from '../src/state/paramSchema';

const latency = (item?: TryItem, extra: Partial<ToolLatencyRequest> = {}): ToolLatencyResponse =>
  (methods.toolLatency as (r: ToolLatencyRequest) => ToolLatencyResponse)({
    ...(defaultValues(toolLatencySchema) as unknown as ToolLatencyRequest),
    ...(item?.set ?? {}),
    ...extra,
  });

/** The arena's run of the item's policy (or `policy`) with the item's workload. */
async function arena(item: TryItem | undefined, policy?: PausePolicyId, extra: Partial<PauseArenaArgs> = {}) {
  const v = {
    ...defaultValues(pauseArenaSchema),
    ...(item?.set ?? {}),
    ...extra,
  } as unknown as PauseArenaArgs & {
    policy: PausePolicyId;
  };
  const args: PauseArenaArgs = { ttlS: v.ttlS, tool: v.tool, agents: v.agents, seed: v.seed };
  return (await runPausePolicy(policy ?? v.policy, args)).summary;
}

describe('Tool latency: Try this', () => {
  it('every item sets only parameters of the widget’s schema', () => {
    for (const item of LATENCY_TRY)
      for (const k of Object.keys(item.set ?? {})) expect(Object.keys(toolLatencySchema)).toContain(k);
  });

  it('0 · τ from 10 ms to 1 h: F(τ) climbs fast then crawls, the byte-seconds held keep growing', () => {
    const taus = [0.01, 0.1, 1, 10, 60, 600, LATENCY_TRY[0].set!.ttlS as number];
    const at = taus.map((t) => latency(undefined, { ttlS: t }).costs);
    const f = at.map((c) => c.resumedInHbm);
    // the first two decades of τ gain more than the last two
    expect(f[2] - f[0]).toBeGreaterThan(4 * (f[6] - f[4]));
    for (let i = 1; i < at.length; i++)
      expect(at[i].heldByteSeconds).toBeGreaterThan(at[i - 1].heldByteSeconds);
  });

  it('1 · at 1 min almost every call is over, yet most of the tool time is still to come', () => {
    const s = latency(LATENCY_TRY[1]).selected;
    expect(1 - s.callsOver1min).toBeGreaterThan(0.9);
    expect(s.timeOver1min).toBeGreaterThan(0.5);
  });

  it('2 · offload after the TTL: a miss of tens of ms instead of seconds, and a shorter cheapest TTL', () => {
    const evict = latency().costs;
    const off = latency(LATENCY_TRY[2]).costs;
    expect(evict.missS).toBeGreaterThan(1);
    expect(off.missS).toBeGreaterThan(0.01);
    expect(off.missS).toBeLessThan(0.1);
    expect(off.optimal.ttlS).toBeLessThan(evict.optimal.ttlS);
  });

  it('3 · the human in the loop: the cheapest TTL is to let go at once', () => {
    expect(latency(LATENCY_TRY[3]).costs.optimal.ttlS).toBe(0);
    expect(latency(LATENCY_TRY[3], { after: 'evict' }).costs.optimal.ttlS).toBe(0);
  });
});

describe('Pause arena: Try this', async () => {
  it('every item sets only parameters of the widget’s schema', () => {
    for (const item of ARENA_TRY)
      for (const k of Object.keys(item.set ?? {})) expect(Object.keys(pauseArenaSchema)).toContain(k);
  });

  const hold = await arena(undefined);
  it('0 · evict: nothing pinned, and the resume TTFT goes from a fraction of a second to seconds', async () => {
    const evict = await arena(ARENA_TRY[0]);
    expect(hold.idlePinnedBlocks).toBeGreaterThan(0);
    expect(evict.idlePinnedBlocks).toBe(0);
    expect(hold.resumes.ttft.p50).toBeLessThan(1);
    expect(evict.resumes.ttft.p50).toBeGreaterThan(1);
  });

  it('1 · offload reloads on every resume; write-through copies once and resumes from HBM', async () => {
    const wt = await arena(ARENA_TRY[1]);
    const off = await arena(ARENA_TRY[1], 'offload');
    expect(off.resumes.inHbmShare).toBeLessThan(0.05);
    expect(off.resumes.source.dram).toBeGreaterThan(0.5);
    expect(wt.resumes.inHbmShare).toBeGreaterThan(0.9);
    expect(wt.pcieUpBytes + wt.pcieDownBytes).toBeLessThan(off.pcieUpBytes + off.pcieDownBytes);
  });

  it('2 · TTL then offload, τ from 0.1 s to 60 s: the HBM share follows F(τ), the pinned KV grows', async () => {
    const d = TOOL_LATENCY_PRESETS['coding-mix'];
    const short = await arena(ARENA_TRY[2], undefined, { ttlS: 0.1 });
    const long = await arena(ARENA_TRY[2]);
    expect(Math.abs(short.resumes.inHbmShare - cdf(d, 0.1))).toBeLessThan(0.06);
    expect(Math.abs(long.resumes.inHbmShare - cdf(d, ARENA_TRY[2].set!.ttlS as number))).toBeLessThan(0.06);
    expect(long.idlePinnedBlocks).toBeGreaterThan(10 * short.idlePinnedBlocks);
  });

  it('3 · 16 agents: held sessions are released under pressure, and hold, LRU and TTL draw closer', async () => {
    const policies: PausePolicyId[] = ['hold', 'lru', 'ttl-offload'];
    const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
    const few = await Promise.all(policies.map((p) => arena(undefined, p)));
    const many = await Promise.all(policies.map((p) => arena(ARENA_TRY[3], p)));
    expect(many[0].resumes.inHbmShare).toBeLessThan(hold.resumes.inHbmShare - 0.1);
    expect(spread(many.map((s) => s.resumes.inHbmShare))).toBeLessThan(
      spread(few.map((s) => s.resumes.inHbmShare)),
    );
  });

  it('4 · the human in the loop: LRU resumes as fast as holding with nothing pinned; a TTL of seconds catches almost none', async () => {
    const [h, lru, ttl] = await Promise.all(
      (['hold', 'lru', 'ttl-offload'] as const).map((p) => arena(ARENA_TRY[4], p)),
    );
    expect(h.idlePinnedBlocks).toBeGreaterThan(0);
    expect(lru.idlePinnedBlocks).toBe(0);
    expect(Math.abs(lru.resumes.ttft.p50 / h.resumes.ttft.p50 - 1)).toBeLessThan(0.05);
    expect(ttl.resumes.inHbmShare).toBeLessThan(0.05);
  });
});
