/**
 * Lesson 07.06: the arena's own run, page by page (worker method pauseHierarchyRun, drawn by the hierarchy
 * animation). The prose's claims about the pictures of write-through, evict and hold, on the arena's defaults.
 */
import { describe, expect, it } from 'vitest';
import type { FleetFrame } from '../src/sim/engine/fleet/frames';
import { directContext } from '../src/worker/job';
import { methods } from '../src/worker/methods';
import type { PausePolicyId } from '../src/sim/lessons/pauseLabSetup';
import { pauseArenaSchema } from '../src/widgets/tool-pause/schema';

const DEFAULTS = {
  ttlS: pauseArenaSchema.ttlS.default,
  tool: pauseArenaSchema.tool.default as 'coding-mix',
  agents: pauseArenaSchema.agents.default,
  seed: pauseArenaSchema.seed.default,
};

async function frames(policy: PausePolicyId): Promise<FleetFrame[]> {
  const out: FleetFrame[] = [];
  const r = await methods.pauseHierarchyRun(
    { ...DEFAULTS, policy },
    directContext<FleetFrame>((f) => out.push(f)),
  );
  expect(r.frames).toBe(out.length);
  return out;
}

/** Pages with an HBM copy, of those also in DRAM, and pages in DRAM, in one frame. */
function copies(f: FleetFrame) {
  let hbm = 0;
  let both = 0;
  let dram = 0;
  for (let i = 0; i < f.blocks.count; i++) {
    const r = f.blocks.resident[i];
    if (r & 1) hbm++;
    if ((r & 3) === 3) both++;
    if (r & 2) dram++;
  }
  return { hbm, both, dram };
}

describe('07.06 arena, page by page', async () => {
  const [wt, ev, hold] = await Promise.all([frames('write-through'), frames('evict'), frames('hold')]);
  const mid = (fs: FleetFrame[]) => fs[Math.floor(fs.length / 2)];

  it('write-through: nearly every page in HBM also has its copy in DRAM', () => {
    const c = copies(mid(wt));
    expect(c.hbm).toBeGreaterThan(0);
    expect(c.both / c.hbm).toBeGreaterThan(0.95);
  });

  it('evict: a paused session leaves nothing in DRAM, which holds at most a fraction of write-through’s', () => {
    const evictMax = Math.max(...ev.map((f) => copies(f).dram));
    // "at most a fraction": under half of write-through's DRAM, at any moment of the run
    expect(evictMax).toBeLessThan(0.5 * copies(mid(wt)).dram);
  });

  it('hold: only what a running request pushes out goes down (few pages in both bands, unlike write-through)', () => {
    const c = copies(mid(hold));
    const w = copies(mid(wt));
    expect(c.dram).toBeGreaterThan(0);
    expect(c.dram).toBeLessThan(w.dram);
    // pages in both bands under hold are the ones promoted back from DRAM, which keeps its copy (inclusive tiers)
    expect(c.both / c.hbm).toBeLessThan(0.25);
  });

  it('refuses an unknown policy in the reader’s words', async () => {
    await expect(
      methods.pauseHierarchyRun({ ...DEFAULTS, policy: 'nope' as PausePolicyId }, directContext()),
    ).rejects.toThrow(/Unknown pause policy/);
  });
});
