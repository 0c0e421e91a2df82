/**
 * 07.05's prose, number by number: the settings it names are the widgets' own, the figures it adds render the
 * computed values, and its qualitative claims hold against them (the claims lesson-07-05.test.ts does not cover).
 */
import { lessonSource, renderedText } from './lessonText';
import { describe, expect, it } from 'vitest';
import { offloadFigures, reloadVsRecompute } from '../src/worker/offloadMethods';
import { minBandwidthByModel } from '../src/worker/minBandwidthMethods';
import {
  FIGURES_REQUEST,
  MIN_BW_DEFAULTS,
  PROSE_SETUPS,
  RELOAD_DEFAULTS,
  minBwArgs,
  reloadArgs,
} from '../src/widgets/kv-offload/schema';
import { reloadFigureText } from '../src/widgets/kv-offload/figures';
import { MhaKv } from '../src/widgets/memory-ladder/figures';
import { defaultHardware, prefillCost } from '../src/sim/engine/cost';
import { minLinkBandwidth } from '../src/sim/engine/breakeven';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { findLink } from '../src/sim/engine/catalog/links';
import { findModel, MODELS } from '../src/sim/engine/catalog/models';
import { findNode } from '../src/sim/engine/catalog/nodes';

const text = renderedText;
const { flat } = lessonSource('07-05-kv-offload-and-reload');
const rel = (a: number, b: number) => Math.abs(a / b - 1);

const defaults = reloadVsRecompute(reloadArgs(RELOAD_DEFAULTS));
const f = offloadFigures(FIGURES_REQUEST);
const n = f.setups.nvme;
const m70 = findModel('llama-3.1-70b')!;
const hw = defaultHardware(findAccelerator('h100-sxm')!, 8);
const bars = minBandwidthByModel(minBwArgs(MIN_BW_DEFAULTS)).rows;
const bar = (id: string) => bars.find((x) => x.id === id)!;
const DRIVE = findLink('nvme-gen4')!.effectiveBandwidth;

describe('07.05: the settings the prose names are the widgets’ own', () => {
  it('the second widget runs on eight GPUs; 16 H100s are two of the catalog’s 8-GPU nodes', () => {
    expect(MIN_BW_DEFAULTS.gpus).toBe(8);
    expect(RELOAD_DEFAULTS.gpus).toBe(8);
    expect(flat).toContain('on 8 GPUs are each kept on <ModelBwFig model="qwen3-235b-a22b" m="copies" />');
    expect(PROSE_SETUPS.tp16nvme.tp).toBe(16);
    expect(findNode('dgx-h100')!.gpuCount).toBe(8);
    expect(flat).toContain('16 H100s are two 8-GPU nodes');
    expect(n.allReduce.scope).toBe('intra-node');
    expect(f.setups.tp16nvme.allReduce.scope).toBe('inter-node');
    // "A DGX has eight data drives"
    expect(findNode('dgx-h100')!.nvme.drives).toBe(8);
    expect(flat).toContain(
      'A DGX has eight data drives; read in parallel they deliver <LinkFig id="nvme-gen4" count={8} />',
    );
  });

  it('the head counts are the catalog’s: Llama 3.1 shares 8 KV heads among up to 128 query heads; Qwen3 235B has 4', () => {
    expect(text(<MhaKv model="llama-3.1-70b" m="kvHeads" />)).toBe('8');
    expect(text(<MhaKv model="llama-3.1-405b" m="heads" />)).toBe('128');
    expect(text(<MhaKv model="qwen3-235b-a22b" m="kvHeads" />)).toBe('4');
    const llama = MODELS.filter((m) => m.id.startsWith('llama-3.1-'));
    expect(llama.length).toBe(3);
    for (const m of llama) expect(m.kvHeads).toBe(8);
    expect(Math.max(...llama.map((m) => m.attentionHeads))).toBe(findModel('llama-3.1-405b')!.attentionHeads);
    expect(flat).not.toMatch(/uses 8 KV heads|128 query heads|4 KV heads/);
  });

  it('Mooncake’s 2.4 and 4.6 times TCP (Fig. 12) are the ratios the link catalog holds', () => {
    const ratio = (a: string, b: string) => findLink(a)!.effectiveBandwidth / findLink(b)!.effectiveBandwidth;
    expect(ratio('mooncake-4x200g', 'tcp-4x200g')).toBeCloseTo(2.4, 12);
    expect(ratio('mooncake-8x400g', 'tcp-8x400g')).toBeCloseTo(4.6, 12);
    expect(flat).toContain('2.4 and 4.6 times TCP on the same ports');
  });
});

describe('07.05: the qualitative claims, against the computed values', () => {
  it('"Recompute cannot go below its floor, while a reload shrinks toward its latency"', () => {
    const reload1 = n.latency + n.reloadPerToken;
    expect(reload1).toBeLessThan(n.floor / 100);
    // λ plus one token's bytes: toward λ as the prefix shrinks
    expect(reload1 - n.latency).toBeCloseTo(n.kvBytesPerToken / n.bandwidth, 15);
    expect(defaults.segments[0].faster).toBe('reload');
    for (const p of [1, 10, 100, 1000])
      expect(prefillCost(m70, hw, p, 0).time).toBeGreaterThanOrEqual(n.floor);
  });

  it('on a slow link the lower break-even is memory-bound, p = (W/M + t_fix − λ)/(k/B − k/M − β); on the default drive it is compute-bound', () => {
    const slow = reloadVsRecompute({
      ...reloadArgs(RELOAD_DEFAULTS),
      linkId: 'custom',
      customGBps: 3,
      customLatencyUs: 90,
    });
    const lo = slow.breakEven.crossings[0];
    expect(prefillCost(m70, hw, lo, 0).bound).toBe('memory');
    const k = n.kvBytesPerToken;
    const tFix = n.allReduce.fixed + n.iterationOverheadS;
    const num = n.streamedWeightBytes / n.memBandwidth + tFix - 90e-6;
    expect(rel(lo, num / (k / 3e9 - k / n.memBandwidth - n.allReduce.perToken))).toBeLessThan(1e-6);
    // The prose's form drops k/M (a ten-thousandth of k/B here)
    expect(rel(lo, num / (k / 3e9 - n.allReduce.perToken))).toBeLessThan(0.001);
    // … and the default drive's lower crossing is compute-bound (the quadratic's other root)
    expect(prefillCost(m70, hw, n.crossings[0], 0).bound).toBe('compute');
    expect(flat).toContain('On a slow link the lower break-even lies on the memory-bound side');
  });

  it('B*(p) peaks where t_fix/p equals attention’s A·p/2G_a, rises before it and falls after it', () => {
    const at = defaults.alwaysWins.atTokens!;
    expect(reloadFigureText(defaults, 'alwaysWinsAt')).toBe(
      `${Math.round(at).toLocaleString('en-US')} tokens`,
    );
    expect(reloadFigureText(defaults, 'alwaysWinsAt')).toBe('5,342 tokens');
    expect(prefillCost(m70, hw, at, 0).bound).toBe('compute');
    // The fixed part of t_recompute − λ (all-reduce latencies, t_o, the LM head, less λ) over p equals A·p/(2G_a).
    const fixed = n.allReduce.fixed + n.iterationOverheadS + n.headFlops / n.flops - n.latency;
    const attention = (n.attentionFlopsPerPair * at) / (2 * n.attentionFlops);
    expect(rel(fixed / at, attention)).toBeLessThan(0.01);
    const B = (p: number) => minLinkBandwidth(m70, hw, p, n.latency);
    expect(B(at)).toBeCloseTo(defaults.alwaysWins.bandwidth!, 0);
    expect(B(1000)).toBeLessThan(B(at));
    expect(B(32_768)).toBeLessThan(B(at));
    expect(B(131_072)).toBeLessThan(B(32_768));
    // "dropping both bounds it from above"
    expect(defaults.alwaysWins.bandwidth!).toBeLessThan(n.criticalBandwidth);
    expect(flat).toContain('<ReloadFig m="alwaysWinsAt" />');
  });

  it('"One 100 Gb/s RDMA NIC … also wins at every length, but by only" a fraction of PCIe’s margin', () => {
    expect(f.setups.nic100.regime).toBe('reload-always-wins');
    expect(f.setups.nic100.prefix.speedup).toBeLessThan(2);
    expect(f.setups.nic100.prefix.speedup).toBeLessThan(f.setups.pcie5.prefix.speedup / 10);
  });

  it('Mooncake: "either way" (their bar and ours) the paper’s links clear it by more than an order of magnitude', () => {
    for (const b of [f.mooncake.theirs, f.mooncake.ours]) {
      expect(f.mooncake.h2d / b).toBeGreaterThan(10);
      expect(f.mooncake.nic / b).toBeGreaterThan(10);
    }
  });

  it('"bigger models produce fewer KV bytes per FLOP": 8B > 70B > 405B', () => {
    expect(bar('llama-3.1-8b').kvBytesPerFlop).toBeGreaterThan(bar('llama-3.1-70b').kvBytesPerFlop);
    expect(bar('llama-3.1-70b').kvBytesPerFlop).toBeGreaterThan(bar('llama-3.1-405b').kvBytesPerFlop);
  });

  it('a MoE’s recompute "stays memory-bound longer" than any dense model’s', () => {
    /** The shortest prefix at which recompute is compute-bound. */
    const knee = (id: string) => {
      const m = findModel(id)!;
      let lo = 1;
      let hi = 131_072;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (prefillCost(m, hw, mid, 0).bound === 'compute') hi = mid;
        else lo = mid;
      }
      return hi;
    };
    const dense = MODELS.filter((m) => !m.moe).map((m) => knee(m.id));
    expect(dense.length).toBeGreaterThan(0);
    expect(knee('qwen3-235b-a22b')).toBeGreaterThan(Math.max(...dense));
  });

  it('"a faster replica (a faster GPU …) raises the bar": every model’s, B200 against H100', () => {
    const on = minBandwidthByModel({ ...minBwArgs(MIN_BW_DEFAULTS), acceleratorId: 'b200' }).rows;
    expect(on.length).toBe(bars.length);
    for (const m of bars)
      expect(on.find((x) => x.id === m.id)!.minBandwidth!).toBeGreaterThan(m.minBandwidth!);
  });

  it('"One drive barely clears the 70B’s bar on eight GPUs, clears the 405B’s and misses the rest"', () => {
    expect(DRIVE).toBeGreaterThan(bar('llama-3.1-70b').minBandwidth!);
    expect(DRIVE).toBeLessThan(1.1 * bar('llama-3.1-70b').minBandwidth!);
    expect(DRIVE).toBeGreaterThan(bar('llama-3.1-405b').minBandwidth!);
    for (const m of bars)
      if (m.id !== 'llama-3.1-70b' && m.id !== 'llama-3.1-405b') expect(DRIVE).toBeLessThan(m.minBandwidth!);
  });
});
