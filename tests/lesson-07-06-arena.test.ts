/**
 * Lesson 07.06: the pause-policy arena (the fleet simulator under each policy on the lab's replica) and its
 * worker methods. The resume accounting is pinned on a hand-made request table; the runs are checked for the
 * effects the lesson teaches.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RequestTable } from '../src/sim/engine/fleet/run';
import {
  pauseScenario,
  resumeStats,
  runPausePolicy,
  toolPausePolicy,
  type PauseArenaArgs,
  type PauseRun,
} from '../src/sim/lessons/pauseLab';
import { validateScenario } from '../src/sim/engine/fleet/scenario';
import { arenaSetup } from '../src/widgets/tool-pause/arenaData';
import { findModel } from '../src/sim/engine/catalog/models';
import { PAUSE_BLOCK_SIZE, PAUSE_POLICIES } from '../src/sim/lessons/pauseLabSetup';
import { cdf } from '../src/sim/lessons/toolLatency';
import { TOOL_LATENCY_PRESETS } from '../src/sim/engine/fleet/dist';
import { directContext, type JobContext } from '../src/worker/job';
import { methods } from '../src/worker/methods';

const DEFAULTS: PauseArenaArgs = { ttlS: 2, tool: 'coding-mix', agents: 8, seed: 1 };

function table(rows: Record<string, number>[]): RequestTable {
  const cols = [
    'session',
    'turn',
    'status',
    'ttft',
    'promptTokens',
    'outputTokens',
    'reusedHbm',
    'reusedDram',
    'reusedNvme',
    'reusedRemote',
  ];
  const data: Record<string, Float64Array> = {};
  for (const c of cols) data[c] = Float64Array.from(rows.map((r) => r[c] ?? 0));
  return { columns: cols, data };
}

describe('resume accounting', () => {
  it('splits each resumed context into HBM, DRAM and recomputed tokens (hand-made table, 256-token blocks)', () => {
    const t = table([
      // session 0: turn 0 prompt 1,000 + output 100 → K = ⌊1,099 / 256⌋ · 256 = 1,024 reusable tokens
      { session: 0, turn: 0, status: 1, ttft: 0.5, promptTokens: 1000, outputTokens: 100 },
      // turn 1 finds all 1,024 in HBM; its own context: 2,000 + 100 − 1 → 2,048
      { session: 0, turn: 1, status: 1, ttft: 0.1, promptTokens: 2000, outputTokens: 100, reusedHbm: 1024 },
      // turn 2 finds 512 in HBM and 1,024 in DRAM: 512 of K = 2,048 recomputed
      {
        session: 0,
        turn: 2,
        status: 1,
        ttft: 0.3,
        promptTokens: 3000,
        outputTokens: 100,
        reusedHbm: 512,
        reusedDram: 1024,
      },
      // session 1: turn 1 recomputes everything
      { session: 1, turn: 0, status: 1, ttft: 0.4, promptTokens: 512, outputTokens: 1 },
      { session: 1, turn: 1, status: 1, ttft: 0.9, promptTokens: 1000, outputTokens: 50 },
      // an unfinished resume is not counted
      { session: 1, turn: 2, status: 0, ttft: NaN, promptTokens: 1200, outputTokens: 0 },
    ]);
    const r = resumeStats(t, 256);
    expect(r.count).toBe(3);
    expect(r.inHbmShare).toBeCloseTo(1 / 3, 12);
    // K: 1,024 + 2,048 + 512 = 3,584; HBM 1,024 + 512 = 1,536; DRAM 1,024; recomputed 512 + 512 = 1,024
    expect(r.source.hbm).toBeCloseTo(1536 / 3584, 12);
    expect(r.source.dram).toBeCloseTo(1024 / 3584, 12);
    expect(r.source.recomputed).toBeCloseTo(1024 / 3584, 12);
    expect(r.ttft.p50).toBeCloseTo(0.3, 12);
  });
});

describe('the arena scenarios', () => {
  it('are valid for every policy, and map to the simulator’s pause policies', () => {
    for (const p of PAUSE_POLICIES) expect(validateScenario(pauseScenario(p, DEFAULTS))).toEqual([]);
    expect(toolPausePolicy('ttl-offload', 7)).toEqual({
      kind: 'ttl',
      ttlS: 7,
      then: 'offload',
      tier: 'dram',
    });
    expect(toolPausePolicy('ttl-evict', 7)).toEqual({ kind: 'ttl', ttlS: 7, then: 'evict' });
  });

  it('are what the caption says they are', () => {
    const s = pauseScenario('hold', DEFAULTS);
    const cls = s.workload.kind === undefined && 'classes' in s.workload ? s.workload.classes[0] : null;
    expect(arenaSetup.replica).toBe(`${findModel(s.model as string)!.name} on ${s.hardware.tp} × H100 SXM`);
    expect(arenaSetup.blockTokens).toBe(s.kv?.blockSize);
    expect(arenaSetup.dram).toBe(`${s.kv?.dram?.capacityGB} GB`);
    expect(arenaSetup.hostLinks).toBe(s.hardware.tp);
    if (!cls || cls.kind !== 'agent' || cls.turns.kind !== 'uniform')
      throw new Error('an agent class, uniform turns');
    expect(arenaSetup.turns).toBe(`${cls.turns.min}–${cls.turns.max}`);
    const head =
      (cls.systemTokens as { value: number }).value + (cls.toolSchemaTokens as { value: number }).value;
    expect(arenaSetup.sharedPrompt).toBe(`${head / 1000}k-token`);
  });
});

describe('the arena at its defaults (coding-agent tools, 8 agents, TTL 2 s)', async () => {
  const runs = new Map<string, PauseRun>();
  for (const p of PAUSE_POLICIES) runs.set(p, await runPausePolicy(p, DEFAULTS));
  const s = (p: string) => runs.get(p)!.summary;

  it('holding keeps every resume in HBM and pins idle sessions’ KV; evicting pins nothing and recomputes', () => {
    expect(s('hold').resumes.inHbmShare).toBeGreaterThan(0.95);
    expect(s('hold').resumes.source.recomputed).toBeLessThan(0.01);
    expect(s('hold').idlePinnedBlocks).toBeGreaterThan(40); // > 10 GB of 1,168 blocks × 64 MiB
    expect(s('evict').idlePinnedBlocks + s('evict').idleCachedBlocks).toBe(0);
    expect(s('evict').resumes.source.recomputed).toBeGreaterThan(0.5);
    expect(s('evict').resumes.ttft.p50).toBeGreaterThan(4 * s('hold').resumes.ttft.p50);
    expect(s('evict').outputTokensPerS).toBeLessThan(0.7 * s('hold').outputTokensPerS);
  });

  it('the tour and the prose quote, for hold, the quantity the highlighted read-out shows: idle KV in HBM, pinned plus cached, most of it pinned', () => {
    // The read-out "Idle sessions’ KV in HBM" (data-readout="idle-hbm") and the figure stat="idleHbm" are both
    // idleHbmBytes: pinned + cached. "of it pinned, the rest merely cached": hold's cached share is small but not nil.
    const h = s('hold');
    expect(h.idlePinnedBlocks).toBeGreaterThan(0.9 * (h.idlePinnedBlocks + h.idleCachedBlocks));
    expect(h.idleCachedBlocks).toBeGreaterThan(0);
    const mdx = readFileSync(
      fileURLToPath(new URL('../lessons/07-06-tool-calls-in-the-loop.mdx', import.meta.url)),
      'utf8',
    );
    const step = mdx.match(
      /<TourStep widget="pause-arena" highlight="idle-hbm"[^>]*>(.*?)<\/TourStep>/s,
    )?.[1];
    expect(step).toBeDefined();
    expect(step).toMatch(
      /Holding keeps <ArenaFig policy="hold" stat="idleHbm" \/> of idle sessions' KV in HBM/,
    );
  });

  it('LRU gives about hold’s latencies and demotes little (its idle KV in DRAM is a fraction of that cached)', () => {
    for (const q of ['p50', 'p90'] as const)
      expect(Math.abs(s('lru').resumes.ttft[q] / s('hold').resumes.ttft[q] - 1)).toBeLessThan(0.1);
    expect(s('lru').idleDramBlocks).toBeLessThan(0.5 * s('lru').idleCachedBlocks);
  });

  it('LRU leaves idle sessions cached, not pinned; offloading moves them to DRAM over PCIe', () => {
    expect(s('lru').idlePinnedBlocks).toBe(0);
    expect(s('lru').idleCachedBlocks).toBeGreaterThan(0);
    expect(s('offload').idlePinnedBlocks + s('offload').idleCachedBlocks).toBe(0);
    expect(s('offload').idleDramBlocks).toBeGreaterThan(0);
    expect(s('offload').resumes.source.dram).toBeGreaterThan(0.5);
    expect(s('offload').pcieUpBytes + s('offload').pcieDownBytes).toBeGreaterThan(
      10 * (s('hold').pcieUpBytes + s('hold').pcieDownBytes),
    );
  });

  // The prose's verdict on offloading (lessons/07-06, "Offloading at once" and "Writing through").
  const pcie = (p: string) => s(p).pcieUpBytes + s(p).pcieDownBytes;

  it('offloading at once pays in reloads: DRAM keeps each block, so most of its PCIe traffic goes up', () => {
    expect(s('offload').pcieDownBytes).toBeLessThan(0.2 * s('offload').pcieUpBytes);
    // the pauses send down only new blocks: about what writing every block through sends
    expect(s('offload').pcieDownBytes).toBeLessThan(1.2 * s('write-through').pcieDownBytes);
    // "adds a reload to each resume" against the context staying in HBM
    expect(s('offload').resumes.ttft.p50).toBeGreaterThan(s('lru').resumes.ttft.p50 + 0.02);
    expect(pcie('offload')).toBeGreaterThan(10 * pcie('hold'));
  });

  it('writing through keeps LRU’s resumes for one copy of each block: more than LRU moves, a fraction of offload’s', () => {
    const wt = s('write-through');
    expect(wt.idlePinnedBlocks).toBe(0);
    expect(wt.idleDramBlocks).toBeGreaterThan(s('lru').idleDramBlocks); // every idle session has a DRAM copy
    expect(wt.resumes.inHbmShare).toBeGreaterThan(0.9); // "the sessions stay in HBM while there is room"
    expect(wt.resumes.source.recomputed).toBeLessThan(0.01);
    expect(Math.abs(wt.resumes.ttft.p50 / s('lru').resumes.ttft.p50 - 1)).toBeLessThan(0.15);
    expect(wt.pcieDownBytes).toBeGreaterThan(s('lru').pcieDownBytes); // "the extra copies over LRU"
    expect(pcie('write-through')).toBeGreaterThan(pcie('lru'));
    expect(pcie('write-through')).toBeLessThan(2 * pcie('lru'));
    expect(pcie('write-through')).toBeLessThan(0.2 * pcie('offload'));
    // "every full block crosses PCIe once": no more than the KV of every token computed (prefilled or decoded)
    const computed = wt.prefilledTokens + wt.outputTokensPerS * wt.simulatedS;
    const perToken = runs.get('write-through')!.bytesPerBlock / PAUSE_BLOCK_SIZE;
    expect(wt.pcieDownBytes).toBeLessThanOrEqual(computed * perToken);
    expect(wt.pcieDownBytes).toBeGreaterThan(0.8 * computed * perToken); // and nearly all of it
  });

  it('a TTL keeps most of hold’s resumes in HBM for a fraction of its idle HBM; the share follows F(τ)', () => {
    const f = cdf(TOOL_LATENCY_PRESETS['coding-mix'], 2);
    for (const p of ['ttl-offload', 'ttl-evict']) {
      expect(s(p).idlePinnedBlocks).toBeLessThan(0.3 * s('hold').idlePinnedBlocks);
      expect(Math.abs(s(p).resumes.inHbmShare - f)).toBeLessThan(0.06);
    }
    expect(s('ttl-offload').resumes.ttft.p90).toBeLessThan(1.5 * s('hold').resumes.ttft.p90);
  });

  it('tracks stay within the replica’s HBM', () => {
    for (const r of runs.values()) {
      const t = r.track;
      expect(t.t.length).toBeGreaterThan(100);
      for (let i = 0; i < t.t.length; i++)
        expect(t.hbmActive[i] + t.hbmIdlePinned[i] + t.hbmIdleCached[i] + t.hbmDone[i]).toBeLessThanOrEqual(
          r.hbmCapacityBlocks,
        );
    }
  });

  it('with three times the agents HBM is short: both resume medians grow several-fold, write-through’s stays lower', async () => {
    const crowd = { ...DEFAULTS, agents: 3 * DEFAULTS.agents };
    const lru = (await runPausePolicy('lru', crowd)).summary;
    const wt = (await runPausePolicy('write-through', crowd)).summary;
    expect(lru.resumes.source.dram).toBeGreaterThan(0.3); // HBM is short: many resumes reload
    // "grow several-fold": against the default crowd's medians
    expect(lru.resumes.ttft.p50).toBeGreaterThan(3 * runs.get('lru')!.summary.resumes.ttft.p50);
    expect(wt.resumes.ttft.p50).toBeGreaterThan(3 * runs.get('write-through')!.summary.resumes.ttft.p50);
    // "write-through's stays the lower of the two"
    expect(wt.resumes.ttft.p50).toBeLessThan(lru.resumes.ttft.p50);
  });

  it('a longer TTL resumes more pauses in HBM', async () => {
    const long = await runPausePolicy('ttl-offload', { ...DEFAULTS, ttlS: 30 });
    expect(long.summary.resumes.inHbmShare).toBeGreaterThan(s('ttl-offload').resumes.inHbmShare + 0.05);
    expect(long.summary.idlePinnedBlocks).toBeGreaterThan(s('ttl-offload').idlePinnedBlocks);
  });
});

describe('whatever the tools, writing through moves less than offloading at once and its median resume is at least as fast', async () => {
  for (const tool of ['coding-mix', 'local', 'shell', 'web', 'human'] as const) {
    it(tool, async () => {
      const a = { ...DEFAULTS, tool };
      const wt = (await runPausePolicy('write-through', a)).summary;
      const off = (await runPausePolicy('offload', a)).summary;
      expect(wt.pcieUpBytes + wt.pcieDownBytes).toBeLessThan(off.pcieUpBytes + off.pcieDownBytes);
      expect(wt.resumes.ttft.p50).toBeLessThanOrEqual(off.resumes.ttft.p50);
    });
  }
});

describe('worker methods', () => {
  it('toolLatency: curves on the grid, the chosen preset’s costs, argument checks', () => {
    const r = methods.toolLatency({ tool: 'web', ttlS: 16.3313, contextTokens: 30_000, after: 'evict' });
    expect(r.presets).toHaveLength(Object.keys(TOOL_LATENCY_PRESETS).length);
    expect(r.presets[0].cdf).toHaveLength(r.grid.length);
    expect(r.selected.id).toBe('web');
    expect(r.selected.p90S).toBeCloseTo(16.3313, 3);
    expect(r.costs.resumedInHbm).toBeCloseTo(0.9, 4);
    expect(r.marks.length).toBeGreaterThan(0);
    expect(() =>
      methods.toolLatency({ tool: 'teleport' as never, ttlS: 1, contextTokens: 1, after: 'evict' }),
    ).toThrow(/preset/);
    expect(() => methods.toolLatency({ tool: 'web', ttlS: -1, contextTokens: 1, after: 'evict' })).toThrow(
      /^The time-to-live takes values from 0\.001 to 86,400 s, not -1\.$/,
    );
  });

  it('pauseArena streams the chosen policy first, then the others; shares runs between callers', async () => {
    const frames: string[] = [];
    const args = { ...DEFAULTS, agents: 4, policy: 'evict' as const };
    const r = await methods.pauseArena(
      args,
      directContext((f) => frames.push(f.summary.policy)),
    );
    expect(frames[0]).toBe('evict');
    expect(new Set(frames)).toEqual(new Set(PAUSE_POLICIES));
    expect(r.runs.map((x) => x.summary.policy)).toEqual([...PAUSE_POLICIES]);
    expect(r.selected.summary.policy).toBe('evict');
    // a second caller gets the memoised runs (the very same objects)
    const again = await methods.pauseArena({ ...args, policy: 'hold' }, directContext());
    expect(again.runs[0]).toBe(r.runs[0]);
    await expect(methods.pauseArena({ ...args, agents: 0 }, directContext())).rejects.toThrow(/agents/);
  });

  it('a run every caller has cancelled stops at its next checkpoint', async () => {
    let cancelled = false;
    const ctx: JobContext<never> = {
      isCancelled: () => cancelled,
      checkpoint: async () => {
        if (cancelled) throw new Error('cancelled');
      },
      emit: async () => {},
    };
    const p = methods.pauseArena({ ...DEFAULTS, seed: 99, policy: 'hold' }, ctx);
    cancelled = true;
    await expect(p).rejects.toThrow(/cancelled/);
  });
});
