/**
 * Lesson 07.04 (the KV memory hierarchy): the memory ladder pinned to values computed by hand from the catalog
 * figures (DGX H100 node, Llama 3.1 70B), the placement of N agents, the worker methods and the prose figures.
 */
import { describe, expect, it } from 'vitest';
import { memoryLadder, pathTime, placeAgents, type LadderInput } from '../src/sim/lessons/memoryLadder';
import {
  contextsPerModel,
  hierarchyFigures,
  memoryLadderMethod,
  type LadderRequest,
} from '../src/worker/hierarchyMethods';
import { methods } from '../src/worker/methods';
import {
  FIGURES_REQUEST,
  LADDER_DEFAULTS,
  PROSE_SETUPS,
  ladderArgs,
  ladderSchema,
} from '../src/widgets/memory-ladder/schema';
import { figureText, TIER_METRIC_KEYS, WHOLE_METRIC_KEYS } from '../src/widgets/memory-ladder/figures';
import { placementText } from '../src/widgets/memory-ladder/MemoryLadder';
import { findModel, kvBytesPerToken } from '../src/sim/engine/catalog/models';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { findLink } from '../src/sim/engine/catalog/links';
import { findNode } from '../src/sim/engine/catalog/nodes';
import { limitRefusal } from '../src/sim/engine/limits';
import { LADDER_LIMITS } from '../src/worker/limits/hierarchy';

const rel = (a: number, b: number) => Math.abs(a / b - 1);

// Hand computations. Llama 3.1 70B: 80 layers, 8 KV heads of 128, BF16; 70.6 B parameters, vocabulary 128,256,
// hidden 8,192, 64 query heads. DGX H100: 8 × H100 SXM (81,559 MiB as nvidia-smi reports it, 3.35 TB/s, 989 TFLOP/s
// BF16), 2 TB DRAM,
// 8 × 3.84 TB Gen4 NVMe (6.9 GB/s, 90 µs), PCIe Gen5 host links (50 GB/s measured, 10 µs), 8 × 400 Gb/s NICs.
const K = 2 * 80 * 8 * 128 * 2; // 327,680 B per token
const C = 100_000;
const CTX = K * C; // 32,768,000,000 B
const MiB = 2 ** 20;
const GiB = 2 ** 30;
// vLLM's profiled reserve per GPU at TP > 1: 1.26 GiB activation peak + 3.58 GiB outside PyTorch (PR #10511).
const RESERVE = 8 * (1.26 + 3.58) * GiB; // 41.6 GB
const BUDGET = 8 * 81_559 * MiB * 0.9 - RESERVE - 70.6e9 * 2; // 615.8 GB − 41.6 GB − 141.2 GB = 433.0 GB
const HOST = 8 * 50e9; // 400 GB/s: one Gen5 x16 per GPU
const NVME_BW = 8 * 6.9e9; // 55.2 GB/s
const POOL_BW = 190e9; // Mooncake TE on 8 × 400 Gb/s, measured
const RELOAD_DRAM = 10e-6 + CTX / HOST; // 81.93 ms
const RELOAD_NVME = 90e-6 + 10e-6 + CTX / NVME_BW; // 593.7 ms
const RELOAD_POOL = 10e-6 + 10e-6 + CTX / POOL_BW; // 172.5 ms
// Prefill of 100k tokens, compute-bound: (2·body·n + 2·V·D) over 8 × 989 TFLOP/s × 0.64 (GEMMs),
// A·n(n+1)/2 over 8 × 989 TFLOP/s × 0.56 (attention), plus 160 all-reduces of n × 8,192 × 2 B over NVLink 4
// (2·7/8 of it over 380 GB/s × (1 − 0.86/64), 37.7 µs each) and the 2.5 ms iteration overhead.
const EMBED = 128_256 * 8192;
const BODY = 70.6e9 - 2 * EMBED;
const A = 2 * 80 * 64 * (128 + 128);
const FLOPS = 2 * BODY * C + 2 * EMBED + (A * C * (C + 1)) / 2; // 2.6807e16
const G = 8 * 989e12 * 0.64; // 5.06368e15 FLOP/s
const GA = 8 * 989e12 * 0.56; // 4.43072e15 FLOP/s
const ALL_REDUCE = 160 * ((1.75 * C * 16_384) / (380e9 * (1 - 0.86 / 64)) + 37.7e-6); // 1.230 s
const RECOMPUTE = (2 * BODY * C + 2 * EMBED) / G + (A * C * (C + 1)) / 2 / GA + ALL_REDUCE + 2.5e-3; // 6.896 s

const defaults = memoryLadderMethod(ladderArgs(LADDER_DEFAULTS));
const tier = (r: { tiers: { id: string }[] }, id: string) =>
  r.tiers.find((t) => t.id === id) as (typeof defaults.tiers)[number];

describe('the memory ladder of a DGX H100 for Llama 3.1 70B, 100k-token contexts (the widget’s defaults)', () => {
  it('uses the setup the prose describes', () => {
    expect(LADDER_DEFAULTS).toMatchObject({
      node: 'dgx-h100',
      model: 'llama-3.1-70b',
      kvDtype: 'bf16',
      weightDtype: 'bf16',
      contextTokens: 100_000,
      agents: 200,
      dramTB: 1,
      nvme: 'node',
      remote: 'mooncake-8x400g',
      poolTB: 4,
    });
    expect(defaults.kvBytesPerToken).toBe(K);
    expect(defaults.contextBytes).toBe(32_768_000_000);
    expect(defaults.demandBytes).toBe(200 * CTX);
  });

  it('HBM: the KV budget after the weights holds 13 contexts, read at 26.8 TB/s', () => {
    const h = tier(defaults, 'hbm');
    expect(rel(h.capacityBytes, BUDGET)).toBeLessThan(1e-12);
    expect(h.contexts).toBe(13); // 433.0 / 32.768 = 13.21
    expect(h.bandwidth).toBeCloseTo(26.8e12, -3);
    expect(h.reloadS).toBe(0);
    expect(h.hops).toEqual([]);
  });

  it('host DRAM: 1 TB holds 30 contexts; 8 PCIe Gen5 links bring one back in 81.9 ms', () => {
    const d = tier(defaults, 'dram');
    expect(d.capacityBytes).toBe(1e12);
    expect(d.contexts).toBe(30); // 1000 / 32.768 = 30.5
    expect(d.bandwidth).toBeCloseTo(HOST, -3);
    expect(rel(d.reloadS, RELOAD_DRAM)).toBeLessThan(1e-9);
    expect(d.reloadS).toBeCloseTo(0.08193, 5);
    expect(d.hops.map((h) => [h.linkId, h.count])).toEqual([['pcie-gen5-x16', 8]]);
  });

  it('local NVMe: 8 × 3.84 TB hold 937 contexts; 8 drives at 6.9 GB/s bring one back in 594 ms', () => {
    const n = tier(defaults, 'nvme');
    expect(n.capacityBytes).toBeCloseTo(30.72e12, -3);
    expect(n.contexts).toBe(937); // 30,720 / 32.768 = 937.5
    expect(n.bandwidth).toBeCloseTo(NVME_BW, -3); // the drives, not the 400 GB/s of PCIe, are the slowest hop
    expect(n.latency).toBeCloseTo(100e-6, 12);
    expect(rel(n.reloadS, RELOAD_NVME)).toBeLessThan(1e-9);
    expect(n.reloadS).toBeCloseTo(0.5937, 4);
  });

  it('remote pool: 4 TB hold 122 contexts; Mooncake’s 190 GB/s brings one back in 172 ms', () => {
    const p = tier(defaults, 'remote');
    expect(p.contexts).toBe(122); // 4000 / 32.768 = 122.07
    expect(p.bandwidth).toBe(POOL_BW);
    expect(rel(p.reloadS, RELOAD_POOL)).toBeLessThan(1e-9);
    expect(p.reloadS).toBeCloseTo(0.17248, 5);
  });

  it('recompute: prefilling 100k tokens takes 6.90 s, compute-bound; break-even bandwidth 4.75 GB/s', () => {
    expect(rel(defaults.recomputeS, RECOMPUTE)).toBeLessThan(1e-9);
    expect(defaults.recomputeS).toBeCloseTo(6.896, 3);
    expect(defaults.recomputeBound).toBe('compute');
    expect(rel(defaults.recomputeFlops, FLOPS)).toBeLessThan(1e-12);
    expect(rel(defaults.breakEvenBandwidth, CTX / RECOMPUTE)).toBeLessThan(1e-12);
    expect(defaults.breakEvenBandwidth / 1e9).toBeCloseTo(4.752, 3);
    // Every tier below HBM beats recompute for a 100k context, DRAM by 84×.
    expect(tier(defaults, 'dram').speedupOverRecompute).toBeCloseTo(RECOMPUTE / RELOAD_DRAM, 9);
    expect(tier(defaults, 'dram').speedupOverRecompute).toBeCloseTo(84.2, 1);
    expect(tier(defaults, 'nvme').speedupOverRecompute).toBeCloseTo(11.61, 2);
  });

  it('where 200 agents wait: 13 in HBM, 30 in DRAM, 122 in the pool, 35 on NVMe (fastest reload first)', () => {
    expect(defaults.placement).toEqual([
      { tier: 'hbm', agents: 13 },
      { tier: 'dram', agents: 30 },
      { tier: 'remote', agents: 122 },
      { tier: 'nvme', agents: 35 },
    ]);
    expect(defaults.unplaced).toBe(0);
    expect(placementText(defaults)).toBe('13 HBM · 30 DRAM · 122 pool · 35 NVMe');
    expect(defaults.notes).toEqual([]);
  });
});

describe('each control moves its output the way the lesson teaches', () => {
  const at = (patch: Partial<typeof LADDER_DEFAULTS>) =>
    memoryLadderMethod(ladderArgs({ ...LADDER_DEFAULTS, ...patch }));

  it('more host DRAM holds more contexts, at the same reload time', () => {
    const two = at({ dramTB: 2 });
    expect(tier(two, 'dram').contexts).toBe(61); // 2000 / 32.768 = 61.04
    expect(tier(two, 'dram').reloadS).toBe(tier(defaults, 'dram').reloadS);
    expect(two.placement.find((p) => p.tier === 'dram')!.agents).toBe(61);
    // More DRAM: agents move up from the drives, the pool staying full (the Try this item: lesson-07-04-ladder-exercise)
    const agentsIn = (r: typeof two, t: string) => r.placement.find((p) => p.tier === t)!.agents;
    expect(agentsIn(two, 'remote')).toBe(agentsIn(defaults, 'remote'));
    expect(agentsIn(two, 'nvme')).toBe(agentsIn(defaults, 'nvme') - (61 - 30));
    expect(tier(at({ dramTB: 0 }), 'dram').contexts).toBe(0);
  });

  it('a slower path to the pool raises its reload time and sends the agents to NVMe instead', () => {
    const tcp = at({ remote: 'tcp-8x400g' });
    const bw = 190e9 / 4.6; // Mooncake: Transfer Engine 4.6× faster than TCP on 8 × 400 Gb/s
    expect(tier(tcp, 'remote').bandwidth).toBeCloseTo(bw, -3);
    expect(rel(tier(tcp, 'remote').reloadS, 50e-6 + 10e-6 + CTX / bw)).toBeLessThan(1e-9); // 793 ms
    expect(tier(tcp, 'remote').reloadS).toBeGreaterThan(tier(tcp, 'nvme').reloadS);
    expect(tcp.placement).toEqual([
      { tier: 'hbm', agents: 13 },
      { tier: 'dram', agents: 30 },
      { tier: 'nvme', agents: 157 },
      { tier: 'remote', agents: 0 },
    ]);
  });

  it("the node's own NICs at line × 0.87 (derived) are faster than Mooncake's measured 190 GB/s", () => {
    const nics = at({ remote: 'node-nics' });
    const bw = 8 * 50e9 * (87 / 100); // 348 GB/s
    expect(rel(tier(nics, 'remote').bandwidth, bw)).toBeLessThan(1e-12);
    expect(tier(nics, 'remote').hops[0]).toMatchObject({ linkId: 'rdma-400g-cx7', count: 8 });
    expect(tier(nics, 'remote').reloadS).toBeLessThan(tier(defaults, 'remote').reloadS);
  });

  it('one Gen4 drive: 3.84 TB, 117 contexts, 4.75 s per context; eight Gen5 drives: 293 ms', () => {
    const one = at({ nvme: 'one-drive' });
    expect(tier(one, 'nvme').contexts).toBe(117); // 3840 / 32.768 = 117.2
    expect(rel(tier(one, 'nvme').reloadS, 100e-6 + CTX / 6.9e9)).toBeLessThan(1e-9);
    expect(tier(one, 'nvme').reloadS).toBeCloseTo(4.749, 3);
    expect(tier(one, 'nvme').reloadS).toBeLessThan(one.recomputeS); // still beats recompute at 100k tokens
    const gen5 = at({ nvme: 'gen5' });
    expect(rel(tier(gen5, 'nvme').reloadS, 70e-6 + 10e-6 + CTX / (8 * 14e9))).toBeLessThan(1e-9);
    expect(tier(gen5, 'nvme').contexts).toBe(937);
  });

  it('FP8 KV halves the bytes: twice the contexts everywhere, half the reload time', () => {
    const fp8 = at({ kvDtype: 'fp8' });
    expect(fp8.kvBytesPerToken).toBe(K / 2);
    expect(tier(fp8, 'hbm').contexts).toBe(26); // 434.8 / 16.384 = 26.5
    expect(tier(fp8, 'dram').contexts).toBe(61);
    expect(rel(tier(fp8, 'dram').reloadS, 10e-6 + CTX / 2 / HOST)).toBeLessThan(1e-9);
  });

  it('DGX B200: 36 contexts in HBM, recompute 2.3× faster, the same host links', () => {
    const b = at({ node: 'dgx-b200' });
    // (8 × (183,359 MiB × 0.9 − 4.84 GiB) − 141.2 GB) / 32.768 GB = 36.7
    expect(tier(b, 'hbm').contexts).toBe(36);
    expect(tier(b, 'dram').reloadS).toBe(tier(defaults, 'dram').reloadS);
    expect(b.recomputeS).toBeLessThan(defaults.recomputeS / 2);
  });

  it('DGX A100: PCIe Gen4 halves the host links (200 GB/s), and Mooncake’s 8 × 400 Gb/s exceeds its NICs', () => {
    const a = at({ node: 'dgx-a100-640gb' });
    expect(tier(a, 'dram').bandwidth).toBeCloseTo(200e9, -3); // 8 × 31.5 GB/s × (50 / 63.0)
    expect(rel(tier(a, 'dram').reloadS, 10e-6 + CTX / 200e9)).toBeLessThan(1e-9);
    expect(a.notes.join(' ')).toMatch(/more than this node's NICs carry \(8 × 200 Gb\/s\)/);
  });

  it('DeepSeek-V3 (MLA) with FP8 weights on a DGX H200: 70,272 B per token, 41 contexts in HBM (data-parallel attention: every GPU holds the attention weights)', () => {
    const d = memoryLadderMethod(PROSE_SETUPS.deepseek);
    expect(d.kvBytesPerToken).toBe(61 * (512 + 64) * 2);
    // (8 × (143,771 MiB × 0.9 − 4.84 GiB) − 671 GB − 7 × 61 × 187,105,280 B) / 7.0272 GB = 41.69
    expect(tier(d, 'hbm').contexts).toBe(41);
    expect(tier(d, 'dram').contexts).toBe(142); // 1000 / 7.0272
  });

  it('weights that do not fit leave HBM empty and say so', () => {
    const d = at({ model: 'deepseek-v3' });
    expect(d.weightsFit).toBe(false);
    expect(tier(d, 'hbm').contexts).toBe(0);
    expect(d.notes[0]).toMatch(/do not fit/);
  });

  it('longer contexts than the model holds, and more DRAM than the node has, are flagged', () => {
    expect(at({ contextTokens: 1_000_000 }).notes.join(' ')).toMatch(
      /longer than Llama 3\.1 70B's 131,072-token context/,
    );
    expect(at({ dramTB: 3 }).notes.join(' ')).toMatch(/More host DRAM than the DGX H100 has \(2 TB\)/);
  });

  it('agents beyond every tier wait nowhere: they must be recomputed', () => {
    const many = at({ agents: 10_000 });
    const held = 13 + 30 + 122 + 937;
    expect(many.unplaced).toBe(10_000 - held);
    expect(placementText(many)).toBe(`13 HBM · 30 DRAM · 122 pool · 937 NVMe · 8,898 nowhere`);
  });
});

describe('the core pieces', () => {
  it('pathTime: Σ latency + bytes / slowest hop (pipelined, as transferTimeS)', () => {
    const hop = (bandwidth: number, latency: number) => ({
      name: 'x',
      linkId: 'x',
      count: 1,
      perLinkBandwidth: bandwidth,
      bandwidth,
      latency,
      basis: 'spec' as const,
      source: '',
    });
    expect(pathTime(1e9, [hop(10e9, 1e-3), hop(2e9, 2e-3)])).toBeCloseTo(3e-3 + 0.5, 12);
    expect(pathTime(0, [hop(1e9, 1)])).toBe(0);
  });

  it('placeAgents fills tiers in the order given, whole contexts only', () => {
    expect(
      placeAgents(10, [
        { id: 'hbm', contexts: 3 },
        { id: 'dram', contexts: 4 },
        { id: 'nvme', contexts: 0 },
      ]),
    ).toEqual({
      placement: [
        { tier: 'hbm', agents: 3 },
        { tier: 'dram', agents: 4 },
        { tier: 'nvme', agents: 0 },
      ],
      unplaced: 3,
    });
    expect(placeAgents(2.7, [{ id: 'hbm', contexts: 5 }]).placement[0].agents).toBe(2);
  });

  it('memoryLadder takes catalog objects directly, and rejects nonsense', () => {
    const node = findNode('dgx-h100')!;
    const input: LadderInput = {
      node,
      accelerator: findAccelerator('h100-sxm')!,
      model: findModel('llama-3.1-70b')!,
      kvDtype: 'bf16',
      weightDtype: 'bf16',
      memoryUtilization: 0.9,
      gemmEfficiency: 0.64,
      contextTokens: C,
      agents: 200,
      dramForKvBytes: 1e12,
      hostLink: findLink('pcie-gen5-x16')!,
      nvmeLink: findLink('nvme-gen4')!,
      nvmeDrives: 8,
      nvmeCapacityBytes: 8 * 3.84e12,
      remoteLink: findLink('mooncake-8x400g')!,
      remoteCount: 1,
      poolBytes: 4e12,
    };
    const r = memoryLadder(input);
    expect(r.tiers.map((t) => t.contexts)).toEqual([13, 30, 937, 122]);
    expect(() => memoryLadder({ ...input, contextTokens: 0 })).toThrow(RangeError);
    expect(() => memoryLadder({ ...input, remoteCount: 0 })).toThrow(RangeError);
    expect(() => memoryLadder({ ...input, memoryUtilization: 1.5 })).toThrow(RangeError);
    // Qwen3-235B-A22B's 4 KV heads over the node's 8 GPUs: each stored twice, in HBM and in every tier below.
    const qwen = findModel('qwen3-235b-a22b')!;
    const q = memoryLadder({ ...input, model: qwen });
    expect(q.kvCopies).toBe(2);
    expect(q.contextBytes).toBe(2 * kvBytesPerToken(qwen, 'bf16') * C);
    expect(q.tiers[1].contexts).toBe(Math.floor(1e12 / q.contextBytes));
  });

  it('the H100’s datasheet “80 GB” are 80 GiB, of which the driver keeps a little (the prose)', () => {
    const mem = findAccelerator('h100-sxm')!.memoryBytes;
    expect(mem).toBeLessThan(80 * 2 ** 30);
    expect(mem).toBeGreaterThan(79.5 * 2 ** 30);
    expect(mem).toBeGreaterThan(85e9); // 85.5 GB in SI units: more than the datasheet's number, not its bytes
  });

  it('the footprint calculator’s Try this: FP8 KV doubles the contexts here; DeepSeek-V3’s context is ~7× smaller than 405B’s, neither fitting on 8 × H100 in BF16', () => {
    const base = {
      modelId: 'llama-3.1-70b',
      acceleratorId: 'h100-sxm',
      kvDtype: 'bf16' as const,
      weightDtype: 'bf16' as const,
      contextTokens: 100_000,
      gpus: 8,
      memoryUtilization: 0.9,
    };
    const bf16 = methods.kvFootprint(base);
    const fp8 = methods.kvFootprint({ ...base, kvDtype: 'fp8' });
    expect([bf16.concurrentContexts, fp8.concurrentContexts]).toEqual([13, 26]);
    const ds = methods.kvFootprint({ ...base, modelId: 'deepseek-v3' });
    const big = methods.kvFootprint({ ...base, modelId: 'llama-3.1-405b' });
    expect(Math.round(big.contextBytes / ds.contextBytes)).toBe(7);
    expect(ds.weightsFit).toBe(false);
    expect(big.weightsFit).toBe(false);
  });

  it('Mooncake’s 40 GB of KV for LLaMA3-70B at 128k tokens is 40 GiB: 131,072 × 320 KiB', () => {
    expect(kvBytesPerToken(findModel('llama-3.1-70b')!, 'bf16') * 131_072).toBe(40 * 2 ** 30);
  });
});

describe('worker methods', () => {
  it('are registered in methods.ts', () => {
    expect(methods.memoryLadder).toBe(memoryLadderMethod);
    expect(methods.hierarchyFigures).toBe(hierarchyFigures);
    expect(methods.contextsPerModel).toBe(contextsPerModel);
  });

  it('reject bad requests with a message naming the field', () => {
    const bad = (patch: Partial<LadderRequest>) => () =>
      memoryLadderMethod({ ...ladderArgs(LADDER_DEFAULTS), ...patch });
    expect(bad({ nodeId: 'dgx-z9' })).toThrow(/unknown node "dgx-z9"/);
    expect(bad({ modelId: 'gpt-9' })).toThrow(/unknown model/);
    expect(bad({ agents: -1 })).toThrow(limitRefusal(LADDER_LIMITS.agents, -1)!);
    expect(bad({ contextTokens: 1.5 })).toThrow(
      /^The agent context takes whole numbers from 1 to 10,000,000 tokens, not 1\.5\.$/,
    );
    expect(bad({ kvDtype: 'fp32' as never })).toThrow(/kvDtype must be bf16 or fp8/);
    expect(bad({ remote: 'pcie-gen5-x16' })).toThrow(/RDMA or Ethernet/);
    expect(bad({ nvme: 'floppy' as never })).toThrow(/nvme must be/);
    try {
      bad({ nodeId: 'x' })();
    } catch (e) {
      expect((e as Error).name).toBe('BadRequest');
    }
  });

  it('the ladder’s HBM count is the calculator’s: the exercise’s 13', () => {
    const calc = methods.kvFootprint({
      modelId: 'llama-3.1-70b',
      acceleratorId: 'h100-sxm',
      kvDtype: 'bf16',
      weightDtype: 'bf16',
      contextTokens: 100_000,
      gpus: 8,
      memoryUtilization: 0.9,
    });
    expect(calc.concurrentContexts).toBe(13);
    expect(tier(defaults, 'hbm').contexts).toBe(calc.concurrentContexts);
    expect(tier(defaults, 'hbm').capacityBytes).toBe(calc.kvBudgetBytes);
  });

  it('contextsPerModel: every catalog model on 8 × H100 at 100k tokens', () => {
    const rows = contextsPerModel({
      acceleratorId: 'h100-sxm',
      gpus: 8,
      kvDtype: 'bf16',
      weightDtype: 'bf16',
      contextTokens: 100_000,
      memoryUtilization: 0.9,
    });
    const by = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(by['llama-3.1-70b'].contexts).toBe(13);
    expect(by['llama-3.1-8b'].contexts).toBe(Math.floor((576e9 - 8.03e9 * 2) / (131_072 * C))); // 42
    expect(by['deepseek-v3']).toMatchObject({ weightsFit: false, contexts: 0, mla: true });
    expect(by['llama-3.1-405b'].weightsFit).toBe(false);
  });
});

describe('the prose figures', () => {
  const figs = hierarchyFigures(FIGURES_REQUEST);

  it('the default setup is the widget’s default', () => {
    expect(figs.ladder).toEqual(defaults);
  });

  it('render the hand-computed values', () => {
    const r = figs.ladder;
    expect(figureText(r, 'contextBytes')).toBe('32.8 GB');
    expect(figureText(r, 'kv')).toBe('320 KiB');
    expect(figureText(r, 'recompute')).toBe('6.9 s');
    expect(figureText(r, 'breakEven')).toBe('4.75 GB/s');
    expect(figureText(r, 'contexts', 'hbm')).toBe('13');
    expect(figureText(r, 'contexts', 'dram')).toBe('30');
    expect(figureText(r, 'reload', 'dram')).toBe('81.9 ms');
    expect(figureText(r, 'reload', 'nvme')).toBe('594 ms');
    expect(figureText(r, 'reload', 'remote')).toBe('172 ms');
    expect(figureText(r, 'bandwidth', 'dram')).toBe('400 GB/s');
    expect(figureText(r, 'bandwidth', 'hbm')).toBe('26.8 TB/s');
    expect(figureText(r, 'dramStepDown')).toBe('67×');
    expect(figureText(r, 'placement')).toBe('13 HBM · 30 DRAM · 122 pool · 35 NVMe');
    expect(figureText(r, 'perSecond', 'dram')).toBe('12 per second');
    expect(figureText(figs.oneDrive, 'reload', 'nvme')).toBe('4.75 s');
    expect(figureText(figs.tcp, 'reload', 'remote')).toBe('793 ms');
    expect(figureText(figs.fp8, 'contexts', 'hbm')).toBe('26');
    expect(figureText(figs.b200, 'contexts', 'hbm')).toBe('36');
    expect(figureText(figs.deepseek, 'contexts', 'hbm')).toBe('41');
    expect(figureText(r, 'reserve')).toBe('41.6 GB');
    expect(figureText(r, 'usableHbm')).toBe('616 GB');
    // A 10k context: recompute is cheap, and one Gen4 drive falls below the break-even bandwidth.
    const short = figs.shortOneDrive;
    const n = 10_000;
    const ar10 = 160 * ((1.75 * n * 16_384) / (380e9 * (1 - 0.86 / 64)) + 37.7e-6);
    expect(
      rel(short.recomputeS, (2 * BODY * n + 2 * EMBED) / G + (A * n * (n + 1)) / 2 / GA + ar10 + 2.5e-3),
    ).toBeLessThan(1e-9); // 0.431 s, compute-bound
    expect(rel(tier(short, 'nvme').reloadS, 100e-6 + (K * n) / 6.9e9)).toBeLessThan(1e-9); // 0.475 s
    expect(tier(short, 'nvme').reloadS).toBeGreaterThan(short.recomputeS);
    expect(tier(short, 'nvme').bandwidth).toBeLessThan(short.breakEvenBandwidth);
    expect(figureText(short, 'breakEven')).toBe('7.6 GB/s');
    expect(figureText(short, 'reload', 'nvme')).toBe('475 ms');
    expect(figureText(short, 'recompute')).toBe('431 ms');
  });

  it('every metric renders for every setup without NaN', () => {
    for (const s of Object.keys(PROSE_SETUPS) as (keyof typeof PROSE_SETUPS)[]) {
      for (const m of WHOLE_METRIC_KEYS) expect(figureText(figs[s], m)).not.toMatch(/NaN|undefined/);
      for (const m of TIER_METRIC_KEYS)
        for (const t of ['dram', 'nvme', 'remote'] as const)
          expect(figureText(figs[s], m, t)).not.toMatch(/NaN|undefined|—/);
    }
  });

  it('the schema’s defaults lie inside its ranges', () => {
    for (const spec of Object.values(ladderSchema))
      if (spec.kind === 'number') {
        expect(spec.default).toBeGreaterThanOrEqual(spec.min);
        expect(spec.default).toBeLessThanOrEqual(spec.max);
      }
  });
});

describe('the calculator’s Try-this claim about the bars', () => {
  it('on 8 × H200 with FP8 weights DeepSeek-V3 fits and keeps more 100k contexts than any model but the 8B', () => {
    const rows = contextsPerModel({
      acceleratorId: 'h200',
      gpus: 8,
      kvDtype: 'bf16',
      weightDtype: 'fp8',
      contextTokens: 100_000,
      memoryUtilization: 0.9,
    });
    const by = Object.fromEntries(rows.map((r) => [r.id, r.contexts]));
    expect(by['deepseek-v3']).toBe(41); // (1,085.6 − 41.6 − 671 − 79.9) GB / 7.0272 GB
    for (const r of rows)
      if (r.id !== 'deepseek-v3' && r.id !== 'llama-3.1-8b') expect(r.contexts).toBeLessThan(41);
    expect(by['llama-3.1-8b']).toBeGreaterThan(41);
  });
});
