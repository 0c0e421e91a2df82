/**
 * Lesson 07.04's hierarchy animation: the claims its prose and its "Try this" list make about the run, asserted on
 * the computed values (src/sim/lessons/hierarchyLab.ts, the setups of src/widgets/kv-hierarchy/figures.tsx).
 */
import { describe, expect, it } from 'vitest';
import {
  checkHierarchyArgs,
  hierarchyCannotRun,
  HIERARCHY_DEFAULTS,
  HIERARCHY_PAGE_TOKENS,
  hierarchySummary,
  pageBytes,
  sharedHeadHashes,
} from '../src/sim/lessons/hierarchyLab';
import { HIERARCHY_SETUPS } from '../src/widgets/kv-hierarchy/figures';
import { kvHierarchySchema } from '../src/widgets/kv-hierarchy/schema';
import { PAUSE_SYSTEM_TOKENS, PAUSE_TOOL_TOKENS } from '../src/sim/lessons/pauseLabSetup';
import { hierarchyScenario } from '../src/sim/lessons/hierarchyLab';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { formatDuration } from '../src/lib/format';
import { TIER_ORDER } from '../src/sim/engine/kvcache/types';
import { memoryLadderMethod } from '../src/worker/hierarchyMethods';
import { LADDER_DEFAULTS, ladderArgs } from '../src/widgets/memory-ladder/schema';

const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);

describe('07.04 hierarchy animation', () => {
  const base = hierarchySummary(HIERARCHY_SETUPS.default);
  const bigHbm = hierarchySummary(HIERARCHY_SETUPS.bigHbm);
  const evict = hierarchySummary(HIERARCHY_SETUPS.evict);
  const small = hierarchySummary(HIERARCHY_SETUPS.small);

  it('the controls’ help names the replica and the TTL the scenario runs with', () => {
    const sc = hierarchyScenario({ ...HIERARCHY_DEFAULTS, policy: 'ttl-offload' });
    const gpu = findAccelerator(sc.hardware.accelerator as string)!.name.split(' (')[0];
    expect(sc.hardware.tp).toBe(2);
    expect(kvHierarchySchema.hbmGB.help).toContain(`Capped at what two ${gpu}s leave after the weights`);
    const pause = sc.policies?.toolPause;
    expect(pause?.kind).toBe('ttl');
    const ttl = pause && 'ttlS' in pause ? pause.ttlS : NaN;
    expect(kvHierarchySchema.policy.help).toContain(`(TTL policies: ${formatDuration(ttl)})`);
  });

  it('the default is the widget’s default', () => {
    for (const [k, p] of Object.entries(kvHierarchySchema))
      expect(p.default).toBe(HIERARCHY_DEFAULTS[k as keyof typeof HIERARCHY_DEFAULTS]);
  });

  it('a page is 256 tokens of Qwen3-32B KV, and the bands hold the chosen gigabytes', () => {
    expect(base.pageBytes).toBe(64 * 8 * 128 * 2 * 2 * HIERARCHY_PAGE_TOKENS);
    expect(base.capacityPages[0]).toBe(Math.floor((HIERARCHY_DEFAULTS.hbmGB * 1e9) / base.pageBytes));
    expect(base.capacityPages[1]).toBe(Math.floor((HIERARCHY_DEFAULTS.dramGB * 1e9) / base.pageBytes));
  });

  it('with the defaults every tier serves part of the reuse, and DRAM, the drives and the pool all fill', () => {
    for (let t = 0; t < 4; t++) expect(base.hitTokens[t]).toBeGreaterThan(0);
    // Written down into DRAM, then from DRAM to the drives and on to the pool …
    for (let t = 1; t < 4; t++) expect(base.bytesDown[t]).toBeGreaterThan(0);
    // … and read back up from each when a session returns.
    for (let t = 1; t < 4; t++) expect(base.bytesUp[t]).toBeGreaterThan(0);
    expect(base.belowHbmShare).toBeGreaterThan(0.2);
  });

  it('more HBM: more reuse found in HBM itself, a smaller share from below', () => {
    expect(bigHbm.hitTokens[0]).toBeGreaterThan(base.hitTokens[0]);
    expect(bigHbm.belowHbmShare).toBeLessThan(base.belowHbmShare);
  });

  it('evicting on pause: almost nothing is written down, almost no reuse from below HBM', () => {
    expect(sum(evict.bytesDown)).toBeLessThan(0.01 * sum(base.bytesDown));
    expect(evict.belowHbmShare).toBeLessThan(0.01);
  });

  it('Llama 3.1 8B: half the KV per token, twice the pages in the same gigabytes', () => {
    expect(pageBytes('llama-3.1-8b') * 2).toBe(pageBytes('qwen3-32b'));
    for (let t = 0; t < 4; t++) expect(small.capacityPages[t]).toBe(2 * base.capacityPages[t]);
  });

  it('the shared head is whole pages of the system prompt and tool schemas', () => {
    expect(sharedHeadHashes().length).toBe(
      Math.floor((PAUSE_SYSTEM_TOKENS + PAUSE_TOOL_TOKENS) / HIERARCHY_PAGE_TOKENS),
    );
  });

  it('the animation spills in the engines’ order (DRAM, drives, pool); the ladder ranks by speed, pool before drives', () => {
    // The cache's tiers, in the order a page evicted from one goes down to the next.
    expect(TIER_ORDER).toEqual(['hbm', 'dram', 'nvme', 'remote']);
    // The ladder at its defaults: the pool is faster than the drives, so it takes its contexts first.
    const r = memoryLadderMethod(ladderArgs(LADDER_DEFAULTS));
    const tier = (id: string) => r.tiers.find((t) => t.id === id)!;
    expect(tier('remote').bandwidth).toBeGreaterThan(tier('nvme').bandwidth);
    const order = r.placement.map((p) => p.tier);
    expect(order.indexOf('remote')).toBeLessThan(order.indexOf('nvme'));
  });

  it('refuses what the controls cannot offer, in the reader’s words', () => {
    expect(() => checkHierarchyArgs({ ...HIERARCHY_DEFAULTS, dramGB: 0 })).toThrow(/host DRAM/);
    expect(() => checkHierarchyArgs({ ...HIERARCHY_DEFAULTS, sessions: 0 })).toThrow(/sessions/);
    expect(() => checkHierarchyArgs({ ...HIERARCHY_DEFAULTS, dramGB: 0, policy: 'lru' })).not.toThrow();
  });

  it('a DRAM policy with no DRAM cannot run: an outcome with the two changes that would', () => {
    expect(hierarchyCannotRun(HIERARCHY_DEFAULTS)).toBeNull();
    const c = hierarchyCannotRun({ ...HIERARCHY_DEFAULTS, dramGB: 0 });
    expect(c?.kind).toBe('cannot-run');
    expect(c?.reason).toMatch(/Write through to DRAM, LRU.*no DRAM \(0 GB\)/);
    expect(c?.fixes.map((f) => f.set)).toEqual([{ dramGB: HIERARCHY_DEFAULTS.dramGB }, { policy: 'lru' }]);
    for (const f of c?.fixes ?? [])
      expect(hierarchyCannotRun({ ...HIERARCHY_DEFAULTS, dramGB: 0, ...f.set })).toBeNull();
  });
});
