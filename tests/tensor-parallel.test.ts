/**
 * Tensor-parallel all-reduce (src/sim/engine/tensorParallel.ts): which link a ring runs on, the ring formula by
 * hand, and the scenario fields that set the efficiencies, the overhead and the node size.
 */
import { describe, expect, it } from 'vitest';
import { resolveAccelerator, resolveModel } from '../src/sim/engine/catalog/index';
import {
  ALL_REDUCES_PER_LAYER,
  allReduceMessageBytes,
  allReducePath,
  allReduceTime,
  ringBusBandwidth,
  tensorParallelComm,
} from '../src/sim/engine/tensorParallel';
import {
  DEFAULT_ATTENTION_EFFICIENCY,
  DEFAULT_GEMM_EFFICIENCY,
  DEFAULT_ITERATION_OVERHEAD_S,
  prefillCost,
} from '../src/sim/engine/cost';
import { resolveScenario, validateScenario } from '../src/sim/engine/fleet/scenario';
import base from '../scenarios/chat-vs-agent-1-replica.json';

const h100 = resolveAccelerator('h100-sxm');
const llama70 = resolveModel('llama-3.1-70b');

describe('the link a ring runs on', () => {
  it('inside a DGX: the node catalog’s NVLink generation', () => {
    expect(allReducePath(h100, 8)).toMatchObject({
      scope: 'intra-node',
      linkId: 'nvlink4',
      busBandwidth: 380e9,
    });
    expect(allReducePath(resolveAccelerator('a100-80gb'), 4)).toMatchObject({ linkId: 'nvlink3' });
    expect(allReducePath(resolveAccelerator('b200'), 8).linkId).toBe('nvlink5');
    expect(allReducePath(h100, 1)).toMatchObject({ scope: 'none', latency: 0 });
  });

  it('an accelerator without NVLink all-reduces over PCIe; one with no catalog node scales NVLink 4', () => {
    expect(allReducePath(resolveAccelerator('l40s'), 2)).toMatchObject({
      scope: 'intra-node',
      linkId: 'pcie-gen4-x16',
    });
    // MI300X: 896 GB/s Infinity Fabric (both directions) → 448 GB/s × NVLink 4's achieved 380/450
    const mi = allReducePath(resolveAccelerator('mi300x'), 8);
    expect(mi.scope).toBe('intra-node');
    expect(mi.busBandwidth).toBeCloseTo(448e9 * (380 / 450), -3);
  });

  it('past one node: the node’s NICs together (one ring per NIC), at most the scale-up link’s, plus the NIC’s latency', () => {
    const p = allReducePath(h100, 16);
    expect(p.scope).toBe('inter-node');
    expect(p.linkId).toBe('rdma-400g-cx7');
    // eight ConnectX-7 a DGX H100, 0.87 achieved each (Mooncake): 348 GB/s, under NVLink 4's 380
    expect(p.busBandwidth).toBeCloseTo(8 * 50e9 * 0.87, -3);
    expect(p.busBandwidth).toBeLessThan(allReducePath(h100, 8).busBandwidth);
    expect(p.latency).toBeCloseTo(16.7e-6 + 30 * 1.5e-6 + 10e-6, 15);
    // a ring with 4 GPUs on one of its nodes crosses through those 4 GPUs' NICs only
    expect(allReducePath(h100, 12).busBandwidth).toBeCloseTo(4 * 50e9 * 0.87, -3);
    // a smaller node moves the boundary, and has fewer NICs
    const small = allReducePath(h100, 8, 4);
    expect(small.scope).toBe('inter-node');
    expect(small.busBandwidth).toBeCloseTo(4 * 50e9 * 0.87, -3);
    // NICs faster than the GPUs' scale-up links cannot speed the ring past those links
    const slowLinks = { ...h100, id: 'test-slow-nvlink', scaleUpBandwidth: 200e9 };
    const inside = allReducePath(slowLinks, 8).busBandwidth;
    expect(inside).toBeLessThan(8 * 50e9 * 0.87);
    expect(allReducePath(slowLinks, 16).busBandwidth).toBe(inside);
  });
});

describe('the ring formula, by hand', () => {
  it('t = 2(n−1)/n · bytes / (link · (1 − 0.86/n²)) + 16.7 µs + 2(n−1) · 1.5 µs', () => {
    const p8 = allReducePath(h100, 8);
    expect(ringBusBandwidth(p8, 8)).toBeCloseTo(380e9 * (1 - 0.86 / 64), -3);
    const bytes = allReduceMessageBytes(llama70, 4096); // 4,096 × 8,192 × 2 = 67,108,864
    expect(bytes).toBe(67_108_864);
    const hand = (1.75 * bytes) / (380e9 * (1 - 0.86 / 64)) + 37.7e-6; // 0.3510 ms
    expect(allReduceTime(p8, 8, bytes)).toBeCloseTo(hand, 15);
    expect(allReduceTime(p8, 8, bytes) * 1e3).toBeCloseTo(0.351, 3);
    // TP2 falls further short of the link: 380 × (1 − 0.86/4) = 298 GB/s
    const p2 = allReducePath(h100, 2);
    expect(allReduceTime(p2, 2, bytes)).toBeCloseTo(bytes / (380e9 * 0.785) + 19.7e-6, 15);
    expect(allReduceTime(p8, 1, bytes)).toBe(0);
  });

  it('a pass runs 2 per layer; comm does not change with the compute dtype or efficiency', () => {
    const c = tensorParallelComm(llama70, h100, 8, 4096);
    expect(c.calls).toBe(ALL_REDUCES_PER_LAYER * 80);
    expect(c.bytes).toBe(160 * 67_108_864);
    const hw = { ...resolveScenario(scn({})).hw, tp: 8 };
    const a = prefillCost(llama70, hw, 4096, 0);
    const b = prefillCost(llama70, { ...hw, gemmEfficiency: 0.3, computeDtype: 'fp8' }, 4096, 0);
    expect(a.allReduceTime).toBeCloseTo(c.time, 15);
    expect(b.allReduceTime).toBe(a.allReduceTime);
  });
});

/** A shipped scenario with the hardware replaced. */
function scn(hardware: Record<string, unknown>) {
  return {
    ...base,
    model: 'llama-3.1-70b',
    hardware: { accelerator: 'h100-sxm', tp: 8, ...hardware },
  };
}

describe('scenario hardware fields', () => {
  it('defaults to the fitted efficiencies and overhead', () => {
    const hw = resolveScenario(scn({})).hw;
    expect(hw.gemmEfficiency).toBe(DEFAULT_GEMM_EFFICIENCY);
    expect(hw.attentionEfficiency).toBe(DEFAULT_ATTENTION_EFFICIENCY);
    expect(hw.iterationOverheadS).toBe(DEFAULT_ITERATION_OVERHEAD_S);
    expect(resolveScenario(scn({ computeDtype: 'fp8' })).hw.gemmEfficiency).toBe(0.53);
  });
  it('mfu is an alias for both efficiencies; the explicit fields win', () => {
    expect(resolveScenario(scn({ mfu: 0.5 })).hw).toMatchObject({
      gemmEfficiency: 0.5,
      attentionEfficiency: 0.5,
    });
    expect(resolveScenario(scn({ mfu: 0.5, gemmEfficiency: 0.7 })).hw).toMatchObject({
      gemmEfficiency: 0.7,
      attentionEfficiency: 0.5,
    });
    expect(resolveScenario(scn({ iterationOverheadS: 0, gpusPerNode: 4 })).hw).toMatchObject({
      iterationOverheadS: 0,
      gpusPerNode: 4,
    });
  });
  it('rejects values the cost model refuses, by path', () => {
    const paths = validateScenario(
      scn({ gemmEfficiency: 0, attentionEfficiency: 1.5, iterationOverheadS: -1, gpusPerNode: 0.5 }),
    ).map((e) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'hardware.gemmEfficiency',
        'hardware.attentionEfficiency',
        'hardware.iterationOverheadS',
        'hardware.gpusPerNode',
      ]),
    );
  });
});
