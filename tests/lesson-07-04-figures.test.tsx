/**
 * 07.04's prose, number by number: the settings it names are the figures the widgets compute with (no number typed
 * by hand where the lab has it), and its qualitative claims hold against the computed values.
 */
import { lessonSource, renderedText } from './lessonText';
import { describe, expect, it } from 'vitest';
import { DpAttentionWeights, figureText } from '../src/widgets/memory-ladder/figures';
import { createElement } from 'react';
import { FIGURES_REQUEST, LADDER_DEFAULTS } from '../src/widgets/memory-ladder/schema';
import { HierarchySetup } from '../src/widgets/kv-hierarchy/figures';
import { hierarchyFigures, LADDER_MEMORY_UTILIZATION } from '../src/worker/hierarchyMethods';
import {
  HIERARCHY_DEFAULTS,
  HIERARCHY_DURATION_S,
  HIERARCHY_PAGE_TOKENS,
  hierarchyScenario,
} from '../src/sim/lessons/hierarchyLab';
import { resolveModel } from '../src/sim/engine/catalog';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { findModel, kvBytesPerToken, MODELS } from '../src/sim/engine/catalog/models';
import { findNode } from '../src/sim/engine/catalog/nodes';
import { footprintKvCopies, footprintWeightBytes } from '../src/sim/engine/footprint';
import { kvCommand } from '../cli/commands/kv';
import { parseArgs } from '../cli/args';

const text = renderedText;
const { prose, flat } = lessonSource('07-04-kv-memory-hierarchy');

const figs = hierarchyFigures(FIGURES_REQUEST);
const r = figs.ladder;
const tier = (x: typeof r, id: string) => x.tiers.find((t) => t.id === id)!;

describe('07.04: the settings the prose names are the widgets’ own', () => {
  it('u, the context length and the DRAM and pool the ladder starts from are figures, not typed numbers', () => {
    expect(r.memoryUtilization).toBe(LADDER_MEMORY_UTILIZATION);
    expect(figureText(r, 'memoryUtilization')).toBe('90%');
    expect(flat).toContain('at $u$ = <LadderFig m="memoryUtilization" />');
    expect(figureText(r, 'contextTokens')).toBe('100,000 tokens');
    expect(figureText(r, 'capacity', 'dram')).toBe('1 TB');
    expect(figureText(r, 'capacity', 'remote')).toBe('4 TB');
    expect(flat).toContain('the widget starts from <LadderFig tier="dram" m="capacity" />, half of it');
    expect(flat).toContain('the widget starts from <LadderFig tier="remote" m="capacity" />.');
    // "half of it": the KV's share of the node's host DRAM.
    expect(tier(r, 'dram').capacityBytes / r.nodeHostDramBytes).toBe(0.5);
    expect(LADDER_DEFAULTS.dramTB * 1e12).toBe(tier(r, 'dram').capacityBytes);
    expect(flat).not.toMatch(/100k-token|four-minute|Qwen3-32B on two|u\$ = 90%/);
  });

  it('the animation’s replica, page and run length are the run’s (hierarchyLab.ts)', () => {
    const sc = hierarchyScenario(HIERARCHY_DEFAULTS);
    expect(sc.hardware).toMatchObject({ accelerator: 'h100-sxm', tp: 2 });
    expect(sc.model).toBe('qwen3-32b');
    expect(sc.kv?.pageTokens).toBe(HIERARCHY_PAGE_TOKENS);
    expect(sc.durationS).toBe(HIERARCHY_DURATION_S);
    expect(text(<HierarchySetup m="replica" />)).toBe(
      `${resolveModel('qwen3-32b').name} on 2 × ${findAccelerator('h100-sxm')!.name}`,
    );
    expect(text(<HierarchySetup m="replica" />)).toBe('Qwen3 32B on 2 × H100 SXM');
    expect(text(<HierarchySetup m="pageTokens" />)).toBe('256 tokens');
    expect(text(<HierarchySetup m="duration" />)).toBe('4 min');
    for (const m of ['replica', 'pageTokens', 'duration'])
      expect(prose).toContain(`<HierarchySetup m="${m}" />`);
  });

  it('the command-line block prints what `sim kv` prints', () => {
    const out = kvCommand.run(parseArgs(['--model', 'llama-3.1-70b', '--dtype', 'bf16'])) as {
      kvBytesPerToken: number;
      formula: string;
    };
    expect(prose).toContain('npm run sim -- kv --model llama-3.1-70b --dtype bf16');
    expect(prose).toContain(`# "kvBytesPerToken": ${out.kvBytesPerToken},`);
    expect(prose).toContain(`# "formula": "${out.formula}"`);
  });

  it('the counts written as words are the node catalog’s: eight GPUs, eight drives, eight NICs', () => {
    const n = findNode('dgx-h100')!;
    expect(n.accelerator).toBe('h100-sxm');
    expect(n.gpuCount).toBe(8);
    expect(n.nvme.drives).toBe(8);
    expect(n.nics[0].count).toBe(8);
    expect(flat).toContain('A DGX H100, a node of eight H100 GPUs');
    expect(flat).toContain('the eight links work in parallel');
    expect(flat).toContain('all eight in parallel deliver');
    // Qwen3-235B-A22B "over 8 GPUs each is kept <KvCopies … gpus={8} /> times": the words and the prop agree.
    expect(flat).toContain('over 8 GPUs each is kept <KvCopies model="qwen3-235b-a22b" gpus={8} /> times');
    expect(footprintKvCopies(findModel('qwen3-235b-a22b')!, 8)).toBe(2);
    // "DeepSeek-V3's <DpAttentionWeights … /> of FP8 attention weights on every GPU": 61 × 187.1 M parameters, a byte
    // each, and the DeepSeek ladder's weights hold them 8 times
    expect(flat).toContain(
      'DeepSeek-V3\'s <DpAttentionWeights model="deepseek-v3" dtype="fp8" /> of FP8 attention',
    );
    expect(text(createElement(DpAttentionWeights, { model: 'deepseek-v3', dtype: 'fp8' }))).toBe('11.4 GB');
    const ds = footprintWeightBytes(findModel('deepseek-v3')!, 'fp8', 8);
    expect(ds - 671e9).toBeCloseTo(7 * 61 * 187_105_280, -3);
  });
});

describe('07.04: the qualitative claims, against the computed values', () => {
  it('"capacity grows and bandwidth falls at every step down": the default ladder, fastest tier first', () => {
    const byBw = [...r.tiers].sort((a, b) => b.bandwidth - a.bandwidth);
    for (let i = 1; i < byBw.length; i++)
      expect(byBw[i].capacityBytes).toBeGreaterThan(byBw[i - 1].capacityBytes);
    // "the host, with far more memory" than a GPU's
    expect(r.nodeHostDramBytes).toBeGreaterThan(20 * findAccelerator('h100-sxm')!.memoryBytes);
  });

  it('"An FP8 KV cache … halves every figure in the table"', () => {
    for (const m of MODELS) expect(2 * kvBytesPerToken(m, 'fp8')).toBe(kvBytesPerToken(m, 'bf16'));
  });

  it('"a DGX B200, with more HBM per GPU"; "none of these is the hundreds of sessions"', () => {
    expect(findAccelerator('b200')!.memoryBytes).toBeGreaterThan(findAccelerator('h100-sxm')!.memoryBytes);
    for (const s of ['ladder', 'fp8', 'b200', 'deepseek'] as const)
      expect(tier(figs[s], 'hbm').contexts).toBeLessThan(100);
    expect(LADDER_DEFAULTS.agents).toBeGreaterThanOrEqual(200);
  });

  it('"a pool … over eight RDMA cards is faster than the node’s own drives"', () => {
    expect(tier(r, 'remote').bandwidth).toBeGreaterThan(tier(r, 'nvme').bandwidth);
    expect(tier(r, 'remote').reloadS).toBeLessThan(tier(r, 'nvme').reloadS);
  });

  it('"every tier above [the red line] wins": each tier below HBM is faster than B* and than recomputing', () => {
    for (const t of ['dram', 'nvme', 'remote']) {
      expect(tier(r, t).bandwidth).toBeGreaterThan(r.breakEvenBandwidth);
      expect(tier(r, t).speedupOverRecompute).toBeGreaterThan(1);
    }
  });
});
