import { describe, expect, it } from 'vitest';
import {
  ACCELERATORS,
  CatalogError,
  customLink,
  LINKS,
  MODELS,
  NODES,
  resolveAccelerator,
  resolveLink,
  resolveModel,
  resolveNode,
} from '../src/sim/engine/catalog/index';
import { findLink } from '../src/sim/engine/catalog/links';
import { nodeTotals } from '../src/sim/engine/catalog/nodes';
import { kvBytesPerToken, type MlaAttention } from '../src/sim/engine/catalog/models';
import { weightSplit } from '../src/sim/engine/flopsAndBytes';

const GB = 1e9;

describe('links', () => {
  it('PCIe x16 line rates: 16 GT/s × 16 × 128/130 / 8 = 31.5 GB/s (Gen4), 63.0 GB/s (Gen5)', () => {
    expect(findLink('pcie-gen4-x16')!.lineRate).toBeCloseTo((16e9 * 16 * 128) / 130 / 8, 0);
    expect(findLink('pcie-gen4-x16')!.lineRate / GB).toBeCloseTo(31.51, 2);
    expect(findLink('pcie-gen5-x16')!.lineRate / GB).toBeCloseTo(63.02, 2);
  });

  it('measured and derived effective figures', () => {
    const g5 = findLink('pcie-gen5-x16')!;
    expect(g5.effectiveBandwidth).toBe(50 * GB); // vLLM offloading-connector blog
    expect(g5.effectiveBasis).toBe('measured');
    const g4 = findLink('pcie-gen4-x16')!;
    expect(g4.effectiveBasis).toBe('derived');
    expect(g4.effectiveBandwidth / GB).toBeCloseTo(31.508 * (50 / 63.015), 2); // ≈ 25.0
    expect(findLink('mooncake-4x200g')!.effectiveBandwidth).toBe(87 * GB);
    expect(findLink('mooncake-8x400g')!.effectiveBandwidth).toBe(190 * GB);
    expect(findLink('rdma-400g-cx7')!.lineRate).toBe(50 * GB);
    expect(findLink('rdma-800g-cx8')!.lineRate).toBe(100 * GB);
    expect(findLink('rdma-100g')!.effectiveBandwidth / GB).toBeCloseTo(12.5 * 0.87, 6);
    expect(findLink('nvlink4')!.lineRate).toBe(450 * GB);
    expect(findLink('nvlink4')!.effectiveBandwidth).toBe(380 * GB);
    expect(findLink('nvlink5')!.lineRate).toBe(900 * GB);
    expect(findLink('nvme-gen5')!.effectiveBandwidth).toBe(14 * GB);
  });

  it('every link is consistent and sourced', () => {
    const kinds = new Set(LINKS.map((l) => l.kind));
    for (const k of ['pcie', 'nvlink', 'nvme', 'rdma', 'ethernet']) expect(kinds.has(k as never)).toBe(true);
    for (const l of LINKS) {
      expect(l.effectiveBandwidth).toBeGreaterThan(0);
      expect(l.effectiveBandwidth).toBeLessThanOrEqual(l.lineRate);
      expect(l.latency).toBeGreaterThanOrEqual(0);
      expect(l.latency).toBeLessThan(1e-3);
      expect(l.source.length).toBeGreaterThan(30);
      if (l.effectiveBasis === 'derived') expect(l.source).toMatch(/[Dd]erived/);
      if (l.latencyBasis === 'assumed') expect(l.source).toMatch(/assumed/);
    }
    expect(new Set(LINKS.map((l) => l.id)).size).toBe(LINKS.length);
  });
});

describe('accelerators and nodes', () => {
  it('every accelerator host link is in the link catalog', () => {
    for (const a of ACCELERATORS) expect(findLink(a.hostLink), a.id).toBeDefined();
  });

  it('node figures: DGX H100 10.2 kW, DGX B200 14.3 kW, 8 GPUs each, links resolve', () => {
    expect(NODES.find((n) => n.id === 'dgx-h100')!.powerW).toBe(10_200);
    expect(NODES.find((n) => n.id === 'dgx-b200')!.powerW).toBe(14_300);
    for (const n of NODES) {
      expect(n.gpuCount).toBe(8);
      expect(() => resolveNode(n.id)).not.toThrow();
    }
  });

  it('node totals are derived from the parts', () => {
    const t = nodeTotals(NODES.find((n) => n.id === 'dgx-h100')!);
    expect(t.hbmBytes).toBe(8 * 81_559 * 2 ** 20); // nvidia-smi's 81,559 MiB per H100, not the datasheet's 80 GB
    expect(t.hbmBandwidth).toBeCloseTo(8 * 3.35e12, 0);
    expect(t.nicLineRate).toBe(8 * 50 * GB); // 8 × 400 Gb/s
    expect(t.nvmeBytes).toBeCloseTo(8 * 3.84e12, 0);
    expect(t.nvmeReadBandwidth).toBeCloseTo(8 * 6.9 * GB, 0);
    expect(t.hostLinkEffectiveBandwidth).toBe(8 * 50 * GB);
    expect(t.powerWPerGpu).toBe(1275);
    expect(t.hostDramPeakBandwidth).toBeCloseTo(16 * 4400e6 * 8, 0); // 563.2 GB/s: 16 DDR5 channels, two DIMMs each
  });

  it("a DGX H100's GPU-to-PCIe figure as NVIDIA publishes it is eight x16 Gen5 links' line rate, one per GPU", () => {
    // MLPerf Inference v4.1 system description: 'Data bandwidth for GPU-PCIe: 504GB/s'.
    expect((8 * findLink('pcie-gen5-x16')!.lineRate) / GB).toBeCloseTo(504, 0);
  });

  it('where the host memory is published, every GPU reading host DRAM at once stays under its peak, and reading while writing at full speed would not', () => {
    const published = NODES.filter((n) => n.hostMemory);
    expect(published.map((n) => n.id)).toEqual(['dgx-h100', 'dgx-h200']);
    for (const n of published) {
      const t = nodeTotals(n);
      expect(t.hostLinkEffectiveBandwidth, n.id).toBeLessThan(t.hostDramPeakBandwidth!);
      expect(2 * t.hostLinkEffectiveBandwidth, n.id).toBeGreaterThan(t.hostDramPeakBandwidth!);
    }
    expect(nodeTotals(NODES.find((n) => n.id === 'dgx-b200')!).hostDramPeakBandwidth).toBeUndefined();
  });
});

describe('models: KV bytes per token derived from the architecture', () => {
  it.each([
    ['llama-3.1-8b', 131_072],
    ['llama-3.1-70b', 327_680],
    ['llama-3.1-405b', 516_096],
    ['qwen3-32b', 262_144],
    ['qwen3-235b-a22b', 192_512], // 2 × 94 × 4 × 128 × 2
    ['deepseek-v3', 70_272], // 61 × (512 + 64) × 2 (MLA)
  ])('%s: %i B/token in BF16, half in FP8', (id, bytes) => {
    const m = resolveModel(id);
    expect(kvBytesPerToken(m, 'bf16')).toBe(bytes);
    expect(kvBytesPerToken(m, 'fp8')).toBe(bytes / 2);
  });

  it('MoE catalog entries split into a positive always-active part and routed experts', () => {
    for (const m of MODELS.filter((x) => x.moe)) {
      const s = weightSplit(m);
      expect(s.always).toBeGreaterThan(0);
      expect(s.always + s.routed).toBeCloseTo(m.totalParams - m.vocabSize * m.hiddenSize, -3);
    }
  });
});

describe('resolvers', () => {
  it('unknown ids name the id and list the valid ones', () => {
    expect(() => resolveModel('llama-9')).toThrow(CatalogError);
    expect(() => resolveModel('llama-9')).toThrow(
      /unknown model "llama-9" \(valid ids: llama-3\.1-8b, .*deepseek-v3\)/,
    );
    expect(() => resolveAccelerator('tpu-v9')).toThrow(/unknown accelerator "tpu-v9" \(valid ids: a100-80gb/);
    expect(() => resolveLink('carrier-pigeon')).toThrow(
      /unknown link "carrier-pigeon" \(valid ids: pcie-gen4-x16/,
    );
  });

  it('overrides any field and returns a copy', () => {
    const m = resolveModel('llama-3.1-70b', { layers: 40 });
    expect(m.layers).toBe(40);
    expect(kvBytesPerToken(m, 'bf16')).toBe(327_680 / 2);
    expect(resolveModel('llama-3.1-70b').layers).toBe(80);
    const a = resolveAccelerator('h100-sxm', { memBandwidth: 4e12 });
    expect(a.memBandwidth).toBe(4e12);
    expect(resolveLink('pcie-gen5-x16', { latency: 0 }).latency).toBe(0);
  });

  it('a dense model stays dense when only totalParams is overridden; MoE keeps its active count', () => {
    const m = resolveModel('llama-3.1-8b', { totalParams: 9e9 });
    expect(m.activeParams).toBe(9e9);
    const q = resolveModel('qwen3-235b-a22b', { totalParams: 240e9 });
    expect(q.activeParams).toBe(22e9);
  });

  it('accepts a user-defined object anywhere a catalog entry is', () => {
    const user = { ...resolveModel('llama-3.1-8b'), id: 'my-model', name: 'Mine', layers: 16 };
    expect(resolveModel(user).id).toBe('my-model');
    const acc = { ...resolveAccelerator('h100-sxm'), id: 'my-gpu', bf16Flops: 2e15 };
    expect(resolveAccelerator(acc, { powerW: 800 }).powerW).toBe(800);
    expect(customLink(5e9, 20e-6).effectiveBandwidth).toBe(5e9);
  });

  it('validates overrides: positive finite numbers, whole counts, consistent shapes', () => {
    expect(() => resolveModel('llama-3.1-70b', { layers: 0 })).toThrow(/layers must be positive/);
    expect(() => resolveModel('llama-3.1-70b', { layers: 2.5 })).toThrow(/layers must be a whole number/);
    expect(() => resolveModel('llama-3.1-70b', { hiddenSize: Number.NaN })).toThrow(
      /hiddenSize must be a finite number/,
    );
    expect(() => resolveModel('llama-3.1-70b', { kvHeads: 128 })).toThrow(
      /kvHeads \(128\) cannot exceed attentionHeads \(64\)/,
    );
    expect(() => resolveModel('llama-3.1-70b', { activeParams: 80e9 })).toThrow(/cannot exceed totalParams/);
    const mla = resolveModel('deepseek-v3').attention as MlaAttention;
    expect(() => resolveModel('deepseek-v3', { attention: { ...mla, qLoraRank: 0 } })).toThrow(
      /attention\.qLoraRank must be positive/,
    );
    expect(
      resolveModel('deepseek-v3', { attention: { ...mla, qLoraRank: undefined } }).attention,
    ).toMatchObject({
      kind: 'mla',
    });
    expect(() => resolveModel('llama-3.1-70b', { totalParams: 1e6, activeParams: 1e6 })).toThrow(/embedding/);
    expect(() => resolveAccelerator('h100-sxm', { bf16Flops: -1 })).toThrow(/bf16Flops must be positive/);
    expect(() => resolveAccelerator('h100-sxm', { memBandwidth: Infinity })).toThrow(/finite/);
    expect(() => resolveLink('pcie-gen5-x16', { effectiveBandwidth: 0 })).toThrow(
      /effectiveBandwidth must be positive/,
    );
    expect(() => resolveLink('pcie-gen5-x16', { latency: -1 })).toThrow(/latency must be zero or more/);
    expect(() => resolveModel({ ...resolveModel('llama-3.1-8b'), layerz: 3 } as never)).toThrow(
      /unknown field "layerz"/,
    );
    expect(() => resolveModel('qwen3-235b-a22b', { moe: { experts: 8, activeExperts: 9 } })).toThrow(
      /activeExperts must be at most 8/,
    );
  });
});

describe('node resolver', () => {
  it('validates overrides of a node', () => {
    expect(resolveNode('dgx-h100', { gpuCount: 4 }).gpuCount).toBe(4);
    expect(() => resolveNode('dgx-h100', { gpuCount: 0 })).toThrow(/gpuCount must be positive/);
    expect(() => resolveNode('dgx-h100', { accelerator: 'tpu' })).toThrow(/unknown accelerator "tpu"/);
    expect(() =>
      resolveNode('dgx-h100', { nvme: { link: 'nvme-gen4', drives: -1, capacityBytes: 1 } }),
    ).toThrow(/nvme.drives/);
    expect(() =>
      resolveNode('dgx-h100', { hostMemory: { channels: 16, transfersPerS: 0, source: 'typed' } }),
    ).toThrow(/hostMemory.transfersPerS must be positive/);
    expect(() => resolveNode('dgx-x')).toThrow(/unknown node "dgx-x" \(valid ids: dgx-a100-640gb/);
  });
});
