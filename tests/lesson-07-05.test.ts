/**
 * Lesson 07.05 (KV offload and reload): the lesson's formulas and every claim of its prose, pinned to values
 * computed by hand from the catalog figures; the worker methods against the core and against the CLI.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { offloadFigures, reloadVsRecompute, type ReloadRecomputeRequest } from '../src/worker/offloadMethods';
import { alwaysWinsBandwidth, autoLinkCount, logGrid, resolvePath } from '../src/worker/offloadPath';
import { minBandwidthByModel } from '../src/worker/minBandwidthMethods';
import { methods } from '../src/worker/methods';
import { isCannotRun } from '../src/sim/engine/cannotRun';
import { findModel } from '../src/sim/engine/catalog/models';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { DEFAULT_GEMM_EFFICIENCY, defaultHardware } from '../src/sim/engine/cost';
import { minLinkBandwidth } from '../src/sim/engine/breakeven';
import { breakevenCommand } from '../cli/commands/breakeven';
import { parseArgs } from '../cli/args';
import {
  EXERCISE_CROSSING,
  EXERCISE_MIN_BW,
  EXERCISE_MIN_BW_MODEL,
  FIGURES_REQUEST,
  MIN_BW_DEFAULTS,
  MIN_BW_LATENCY_US,
  PROSE_SETUPS,
  RELOAD_DEFAULTS,
  minBwArgs,
  OBJECT_STORE_LATENCY_US,
  objectStoreArgs,
  reloadArgs,
} from '../src/widgets/kv-offload/schema';
import { objectStoreFigureText, SETUP_METRIC_KEYS } from '../src/widgets/kv-offload/figures';
import { crossingsText, TRY_THIS as RELOAD_TRY } from '../src/widgets/kv-offload/ReloadOrRecompute';

const rel = (a: number, b: number) => Math.abs(a / b - 1);

// Hand-computed figures of Llama 3.1 70B (80 layers, 64 heads, 8 KV heads, head 128, 70.6 B parameters,
// vocabulary 128,256, hidden 8,192) on 8 × H100 SXM (989 TFLOP/s BF16, 3.35 TB/s) with the cost model's fitted
// defaults: GEMMs at 0.64 of peak, attention at 0.56, MBU 0.8, 2.5 ms per iteration, and 160 all-reduces per pass
// over NVLink 4 (bus 380 GB/s × (1 − 0.86/64), 16.7 µs + 14 × 1.5 µs per call; src/sim/engine/tensorParallel.ts).
const K70 = 2 * 80 * 8 * 128 * 2; // 327,680 bytes of KV per token
const EMBED70 = 128_256 * 8192; // 1,050,673,152
const TWO_N70 = 2 * (70.6e9 - 2 * EMBED70); // 2 × body = 136,997,307,392 FLOP per token
const A70 = 2 * 80 * 64 * (128 + 128); // 2,621,440 FLOP per (query, key) pair
const HEAD70 = 2 * EMBED70; // LM head, once
const G_H100x8 = 8 * 989e12 * 0.64; // 5.06368e15 FLOP/s (GEMMs)
const GA_H100x8 = 8 * 989e12 * 0.56; // 4.43072e15 FLOP/s (attention)
const OVERHEAD = 2.5e-3;
const AR_LATENCY_TP8 = 16.7e-6 + 14 * 1.5e-6; // 37.7 µs per all-reduce
const BETA70 = (160 * 1.75 * 8192 * 2) / (380e9 * (1 - 0.86 / 64)); // all-reduce s per token, 12.24 µs
const TFIX70 = 160 * AR_LATENCY_TP8 + OVERHEAD; // all-reduce latencies + iteration overhead, 8.53 ms
/** Compute-bound recompute of p tokens of Llama 3.1 70B on 8 × H100, by hand. */
const recompute70 = (p: number) =>
  (TWO_N70 * p + HEAD70) / G_H100x8 + (A70 * p * (p + 1)) / 2 / GA_H100x8 + BETA70 * p + TFIX70;
const M_H100x8 = 8 * 3.35e12 * 0.8; // 2.144e13 B/s
const W70 = (70.6e9 - EMBED70) * 2; // weights streamed (all but the input embedding), bytes
const NVME4 = { bandwidth: 6.9e9, latency: 90e-6 };

const defaults = reloadVsRecompute(reloadArgs(RELOAD_DEFAULTS));

describe('reload and recompute of a 32k prefix, by hand (the first widget’s defaults)', () => {
  const p = 32_768;
  it('uses the setup the prose describes', () => {
    expect(RELOAD_DEFAULTS).toMatchObject({
      model: 'llama-3.1-70b',
      accelerator: 'h100-sxm',
      gpus: 8,
      gemmEfficiency: 0.64,
      link: 'nvme-gen4',
      prefixTokens: p,
    });
    expect(K70).toBe(327_680);
    expect(defaults.model.kvBytesPerToken).toBe(K70);
    expect(defaults.link).toMatchObject({
      id: 'nvme-gen4',
      count: 1,
      bandwidth: NVME4.bandwidth,
      latency: NVME4.latency,
    });
    expect(defaults.hardware.flops).toBeCloseTo(G_H100x8, -6);
    expect(defaults.hardware.attentionFlops).toBeCloseTo(GA_H100x8, -6);
    expect(defaults.hardware.allReduce).toMatchObject({ scope: 'intra-node', linkId: 'nvlink4', calls: 160 });
    expect(defaults.hardware.allReduce.perToken).toBeCloseTo(BETA70, 15);
    expect(defaults.hardware.allReduce.fixed).toBeCloseTo(160 * AR_LATENCY_TP8, 15);
    expect(defaults.hardware.memBandwidth).toBeCloseTo(M_H100x8, -3);
  });

  it('t_reload = λ + p·k/B', () => {
    const hand = 90e-6 + (p * K70) / 6.9e9; // 10,737,418,240 B / 6.9 GB/s + 90 µs = 1.55624 s
    expect(defaults.prefix.kvBytes).toBe(10_737_418_240);
    expect(rel(defaults.prefix.reload, hand)).toBeLessThan(1e-12);
    expect(defaults.prefix.reload).toBeCloseTo(1.55624, 5);
  });

  it('t_recompute = max((2N·p + 2VD)/G + A·p(p+1)/2/G_a, bytes/M) + all-reduce + t_o', () => {
    const F = TWO_N70 * p + (A70 * p * (p + 1)) / 2 + HEAD70;
    expect(rel(defaults.prefix.flops, F)).toBeLessThan(1e-12);
    expect(F).toBeCloseTo(5.8965477e15, -9);
    expect(defaults.prefix.bound).toBe('compute');
    expect(rel(defaults.prefix.recompute, recompute70(p))).toBeLessThan(1e-12);
    expect(defaults.prefix.recompute).toBeCloseTo(1.61369, 5);
    expect(defaults.prefix.allReduceTime).toBeCloseTo(BETA70 * p + 160 * AR_LATENCY_TP8, 12); // 0.407 s
    // The memory side: the weights once plus the KV written.
    expect(rel(defaults.prefix.memoryTime, (W70 + p * K70) / M_H100x8)).toBeLessThan(1e-12);
    // "the drive wins, but only by 1.04×"
    expect(defaults.prefix.faster).toBe('reload');
    expect(defaults.prefix.speedup).toBeCloseTo(1.6136942 / 1.5562376, 5);
    expect(defaults.prefix.speedup).toBeLessThan(1.1);
  });

  it('B*(p) = p·k / (t_recompute − λ) ≈ k / τ(p), τ = 2N/G + A·p/(2G_a) + β; just below one Gen4 drive', () => {
    const hand = (p * K70) / (recompute70(p) - 90e-6);
    expect(rel(defaults.prefix.minBandwidth!, hand)).toBeLessThan(1e-12);
    expect(defaults.prefix.minBandwidth! / 1e9).toBeCloseTo(6.6543, 3);
    const tau = TWO_N70 / G_H100x8 + (A70 * p) / (2 * GA_H100x8) + BETA70;
    expect(rel(defaults.prefix.minBandwidth!, K70 / tau)).toBeLessThan(0.01); // the fixed 8.5 ms of 1.61 s
    expect(defaults.prefix.minBandwidth!).toBeLessThan(6.9e9);
  });
});

describe('break-even prefix lengths, by hand', () => {
  it('the default has two, both roots of the compute branch’s quadratic (recompute is compute-bound where the reload line meets the floor)', () => {
    expect(defaults.breakEven.regime).toBe('recompute-wins-between');
    const [lo, hi] = defaults.breakEven.crossings;
    // The memory-branch root, where the reload line meets the floor: p = (W/M + t_fix − λ) / (k/B − k/M − β),
    // ≈ 424 tokens. Recompute is already compute-bound there, so this is not a crossing of the max.
    const pMem =
      (W70 / M_H100x8 + TFIX70 - NVME4.latency) / (K70 / NVME4.bandwidth - K70 / M_H100x8 - BETA70);
    expect(Math.round(pMem)).toBe(424);
    expect(reloadVsRecompute({ ...reloadArgs(RELOAD_DEFAULTS), prefixTokens: 424 }).prefix.bound).toBe(
      'compute',
    );
    // Both crossings are the roots of the compute branch's quadratic (below).
    expect(defaults.prefix.bound).toBe('compute');
    // Upper: A/(2G_a)·p² + (2N/G + A/(2G_a) + β − k/B)·p + (2VD/G + t_fix − λ) = 0, larger root.
    const a = A70 / (2 * GA_H100x8);
    const b = TWO_N70 / G_H100x8 + A70 / (2 * GA_H100x8) + BETA70 - K70 / NVME4.bandwidth;
    const c = HEAD70 / G_H100x8 + TFIX70 - NVME4.latency;
    const pHi = (-b + Math.sqrt(b * b - 4 * a * c)) / (2 * a);
    const pLo = (-b - Math.sqrt(b * b - 4 * a * c)) / (2 * a);
    expect(rel(lo, pLo)).toBeLessThan(1e-9);
    expect(Math.round(lo)).toBe(1071);
    expect(rel(hi, pHi)).toBeLessThan(1e-9);
    expect(Math.round(hi)).toBe(26_640);
    // The lesson's approximation p* ≈ 2G_a(k/B − 2N/G − β)/A drops t_fix and the LM head: within 5%.
    expect(
      rel(hi, ((2 * GA_H100x8) / A70) * (K70 / NVME4.bandwidth - TWO_N70 / G_H100x8 - BETA70)),
    ).toBeLessThan(0.05);
    expect(crossingsText(defaults.breakEven.crossings)).toBe('1,071 and 26,640 tokens');
    // "The read-outs' prefix lies just past the band"
    expect(hi).toBeLessThan(32_768);
  });

  it('segments: reload, recompute, reload, cut at the crossings', () => {
    expect(defaults.segments.map((s) => s.faster)).toEqual(['reload', 'recompute', 'reload']);
    expect(defaults.segments[0].from).toBe(1);
    expect(defaults.segments[2].to).toBe(131_072);
    expect(defaults.segments[1].from).toBe(defaults.breakEven.crossings[0]);
  });

  it('the curves are the core’s reload and recompute times on a log grid that contains the crossings', () => {
    const { tokens, reload, recompute } = defaults.curve;
    expect(tokens[0]).toBe(1);
    expect(tokens[tokens.length - 1]).toBeCloseTo(131_072, 6);
    for (const c of defaults.breakEven.crossings) {
      const i = tokens.indexOf(c);
      expect(i).toBeGreaterThan(0);
      expect(rel(reload[i], recompute[i])).toBeLessThan(1e-9);
    }
    for (let i = 1; i < tokens.length; i++) expect(tokens[i]).toBeGreaterThan(tokens[i - 1]);
    expect(logGrid(100, 2)).toEqual([1, expect.closeTo(10, 9), 100]);
  });

  it('reload wins at every length above ≈ k/(2N/G + β): the worst case over all prefix lengths', () => {
    const crit = K70 / (TWO_N70 / G_H100x8 + BETA70); // 8.34 GB/s
    expect(crit / 1e9).toBeCloseTo(8.3397, 3);
    // The approximation drops t_fix, which lowers the true maximum: within 10%.
    expect(rel(defaults.alwaysWins.bandwidth!, crit)).toBeLessThan(0.1);
    expect(defaults.alwaysWins.bandwidth!).toBeLessThan(crit);
    // It is the maximum of B*(p): no grid point exceeds it, and just above it there is no crossing left.
    const model = findModel('llama-3.1-70b')!;
    const hw = defaultHardware(findAccelerator('h100-sxm')!, 8);
    for (const p of [10, 100, 187, 300, 1000, 10_000, 131_072])
      expect(minLinkBandwidth(model, hw, p, NVME4.latency)).toBeLessThanOrEqual(
        defaults.alwaysWins.bandwidth! * (1 + 1e-9),
      );
    const above = reloadVsRecompute({
      ...reloadArgs(RELOAD_DEFAULTS),
      linkId: 'custom',
      customGBps: (defaults.alwaysWins.bandwidth! * 1.001) / 1e9,
      customLatencyUs: 90,
    });
    expect(above.breakEven.regime).toBe('reload-always-wins');
    const below = reloadVsRecompute({
      ...reloadArgs(RELOAD_DEFAULTS),
      linkId: 'custom',
      customGBps: (defaults.alwaysWins.bandwidth! * 0.999) / 1e9,
      customLatencyUs: 90,
    });
    expect(below.breakEven.crossings).toHaveLength(2);
  });

  it('a latency no prefill can beat makes the shortest prefixes unwinnable', () => {
    const model = findModel('llama-3.1-70b')!;
    const hw = defaultHardware(findAccelerator('h100-sxm')!, 8);
    const r = alwaysWinsBandwidth(model, hw, 0.05, 131_072);
    expect(r.bandwidth).toBeNull();
    // recompute(p) = 50 ms (compute-bound there).
    expect(r.latencyBoundBelow).toBeGreaterThan(500);
    expect(recompute70(r.latencyBoundBelow!)).toBeCloseTo(0.05, 6);
    const w = reloadVsRecompute({
      ...reloadArgs(RELOAD_DEFAULTS),
      linkId: 'custom',
      customGBps: 400,
      customLatencyUs: 50_000,
    });
    expect(w.breakEven.regime).toBe('reload-wins-above');
  });

  it('a faster link moves the upper break-even down and shortens the reload (the key control, key output)', () => {
    const at = (gbps: number) =>
      reloadVsRecompute({
        ...reloadArgs(RELOAD_DEFAULTS),
        linkId: 'custom',
        customGBps: gbps,
        customLatencyUs: 90,
      });
    const slow = at(5);
    const fast = at(7);
    expect(slow.breakEven.crossings).toHaveLength(2);
    expect(fast.breakEven.crossings).toHaveLength(2);
    expect(fast.breakEven.crossings[1]).toBeLessThan(slow.breakEven.crossings[1]);
    expect(fast.prefix.reload).toBeLessThan(slow.prefix.reload);
    // and the lower one up: the reload line meets the floor later
    expect(fast.breakEven.crossings[0]).toBeGreaterThan(slow.breakEven.crossings[0]);
  });
});

describe('links: striping and agreement with the CLI', () => {
  it('auto stripes PCIe over one link per GPU and everything else over one', () => {
    expect(autoLinkCount('pcie', 8)).toBe(8);
    expect(autoLinkCount('nvme', 8)).toBe(1);
    expect(autoLinkCount('rdma', 8)).toBe(1);
    expect(
      resolvePath({ linkId: 'pcie-gen5-x16', linkCount: 'auto', customGBps: 1, customLatencyUs: 0 }, 8)
        .bandwidth,
    ).toBe(400e9);
    expect(
      resolvePath({ linkId: 'nvme-gen4', linkCount: 8, customGBps: 1, customLatencyUs: 0 }, 8).bandwidth,
    ).toBeCloseTo(55.2e9, 0);
    const c = resolvePath({ linkId: 'custom', linkCount: 'auto', customGBps: 12.5, customLatencyUs: 10 }, 8);
    expect(c).toMatchObject({ bandwidth: 12.5e9, latency: 10e-6, count: 1 });
  });

  it.each([
    ['llama-3.1-70b', 'h100-sxm', 8, 'nvme-gen4'],
    ['llama-3.1-70b', 'h100-sxm', 8, 'pcie-gen5-x16'],
    ['qwen3-235b-a22b', 'h100-sxm', 8, 'rdma-100g'],
    ['llama-3.1-8b', 'h100-sxm', 1, 'nvme-gen5'],
  ] as const)(
    '%s on %s (TP %i) over %s: the widget’s method and `sim breakeven` give the same crossings',
    (model, gpu, tp, link) => {
      const cli = breakevenCommand.run(
        parseArgs([
          '--model',
          model,
          '--gpu',
          gpu,
          '--gpus',
          String(tp),
          '--link',
          link,
          '--prefix',
          '32768',
        ]),
      ) as {
        breakEvenTokensExact: number[];
        regime: string;
        prefix: { minLinkGBps: number; reloadSeconds: number };
        link: { bandwidthGBps: number };
      };
      const w = reloadVsRecompute({
        modelId: model,
        acceleratorId: gpu,
        tp,
        gemmEfficiency: DEFAULT_GEMM_EFFICIENCY,
        linkId: link,
        linkCount: 'auto',
        customGBps: 1,
        customLatencyUs: 0,
        prefixTokens: 32_768,
      });
      expect(w.breakEven.crossings).toEqual(cli.breakEvenTokensExact);
      expect(w.breakEven.regime).toBe(cli.regime);
      expect(rel(w.link.bandwidth / 1e9, cli.link.bandwidthGBps)).toBeLessThan(1e-3);
      expect(rel(w.prefix.minBandwidth! / 1e9, cli.prefix.minLinkGBps)).toBeLessThan(1e-3);
    },
  );

  it('bad input is a BadRequest naming the field', () => {
    const base: ReloadRecomputeRequest = reloadArgs(RELOAD_DEFAULTS);
    expect(() => reloadVsRecompute({ ...base, linkId: 'carrier-pigeon' })).toThrow(
      /unknown link "carrier-pigeon"/,
    );
    expect(() => reloadVsRecompute({ ...base, tp: 0 })).toThrow(
      /^GPUs per replica takes whole numbers from 1 to 64, not 0\.$/,
    );
    expect(() => reloadVsRecompute({ ...base, linkId: 'custom', customGBps: -1 })).toThrow(
      /^The custom link bandwidth takes values from 0\.001 to 100,000 GB\/s, not -1\.$/,
    );
    expect(() => reloadVsRecompute({ ...base, prefixTokens: 1e9 })).toThrow(
      /^The prefix takes values from 1 to 131,072 tokens, not 1,000,000,000\.$/,
    );
    try {
      reloadVsRecompute({ ...base, modelId: 'nope' });
    } catch (e) {
      expect((e as Error).name).toBe('BadRequest');
    }
    // The widget's method is the same computation where the replica fits, and "cannot run" where it does not.
    expect(methods.reloadVsRecompute(base)).toEqual(reloadVsRecompute(base));
    const big = methods.reloadVsRecompute({ ...base, modelId: 'llama-3.1-405b' });
    // 405B's 811.8 GB over 0.9 × 85.5 GB − 4.84 GB of vLLM's reserve per H100 (72.1 GB each): 12 GPUs.
    expect(isCannotRun(big) && big.fixes[0]).toEqual({ label: 'Use 12 GPUs per replica', set: { gpus: 12 } });
    expect(methods.minBandwidthByModel).toBe(minBandwidthByModel);
  });
});

describe('minimum bandwidth per model (the second widget)', () => {
  const r = minBandwidthByModel(minBwArgs(MIN_BW_DEFAULTS));
  const row = (id: string) => r.rows.find((m) => m.id === id)!;

  it('B* sits below G × KV bytes per FLOP (attention and all-reduce), and the bars rank the models by KV bytes per FLOP, every copy counted', () => {
    expect(r.flops).toBeCloseTo(G_H100x8, -6);
    for (const m of r.rows) {
      expect(m.bound).toBe('compute');
      expect(m.minBandwidth!).toBeLessThan(r.flops * m.kvBytesPerFlop);
    }
    const byBw = [...r.rows].sort((a, b) => b.minBandwidth! - a.minBandwidth!).map((m) => m.id);
    const byRatio = [...r.rows].sort((a, b) => b.kvBytesPerFlop - a.kvBytesPerFlop).map((m) => m.id);
    expect(byBw).toEqual(byRatio);
    // The claims of the prose: the 8B needs the fastest link, the 405B the slowest ("a spread from one model to
    // another"); the MoE produces more KV per FLOP than the dense 70B even counting one copy; its worst case sits
    // far above its 32k figure.
    expect(byBw[0]).toBe('llama-3.1-8b');
    expect(byBw[byBw.length - 1]).toBe('llama-3.1-405b');
    const oneCopy = (id: string) => row(id).kvBytesPerFlop / row(id).kvCopies;
    expect(oneCopy('qwen3-235b-a22b')).toBeGreaterThan(row('llama-3.1-70b').kvBytesPerFlop);
    // Copies: a GPU holds whole KV heads (Qwen3 235B's 4 on 8 GPUs: twice), an MLA latent is held by every GPU; the
    // 8-head models on 8 GPUs hold one copy. Reload moves every copy: B* = p·k·ρ / (t − λ).
    expect(row('qwen3-235b-a22b').kvCopies).toBe(2);
    expect(row('deepseek-v3').kvCopies).toBe(8);
    for (const id of ['llama-3.1-8b', 'llama-3.1-70b', 'llama-3.1-405b', 'qwen3-32b'])
      expect(row(id).kvCopies).toBe(1);
    const ds = row('deepseek-v3');
    expect(
      rel(
        ds.minBandwidth!,
        (ds.prefixTokens * ds.kvBytesPerToken * 8) / (ds.recompute - MIN_BW_LATENCY_US / 1e6),
      ),
    ).toBeLessThan(1e-9);
    // MLA: one copy is the lowest KV per FLOP of the catalog; the replica's eight exceed the dense 32B, 70B and
    // 405B, and its every-length bar is the highest.
    for (const m of r.rows)
      if (m.id !== 'deepseek-v3') expect(oneCopy('deepseek-v3')).toBeLessThan(oneCopy(m.id));
    for (const id of ['qwen3-32b', 'llama-3.1-70b', 'llama-3.1-405b'])
      expect(ds.kvBytesPerFlop).toBeGreaterThan(row(id).kvBytesPerFlop);
    for (const m of r.rows)
      if (m.id !== 'deepseek-v3') expect(ds.alwaysWinsBandwidth!).toBeGreaterThan(m.alwaysWinsBandwidth!);
    // "its every-length bar stands further above its bar for the one prefix than any dense model's"
    const lift = (id: string) => row(id).alwaysWinsBandwidth! / row(id).minBandwidth!;
    for (const m of r.rows)
      if (m.id !== 'qwen3-235b-a22b' && !m.moe) expect(lift('qwen3-235b-a22b')).toBeGreaterThan(lift(m.id));
    expect(row('llama-3.1-70b').minBandwidth).toBeCloseTo(defaults.prefix.minBandwidth!, -6); // same G, λ differs
    // 8B by hand: k = 2·32·8·128·2, 2N = 2(8.03e9 − 2·128,256·4,096), A = 2·32·32·256; 64 all-reduces of
    // 4,096 × 2 B per token at TP8.
    const p = 32_768;
    const t8 =
      (2 * (8.03e9 - 2 * 128_256 * 4096) * p + 2 * 128_256 * 4096) / G_H100x8 +
      (2 * 32 * 32 * 256 * p * (p + 1)) / 2 / GA_H100x8 +
      64 * ((1.75 * p * 4096 * 2) / (380e9 * (1 - 0.86 / 64)) + AR_LATENCY_TP8) +
      OVERHEAD;
    expect(rel(row('llama-3.1-8b').minBandwidth!, (p * 131_072) / (t8 - 10e-6))).toBeLessThan(1e-9);
  });

  it('FP8 KV halves every bar; more GPUs in a node raise it less than in proportion where they split the heads and more where they add copies; past a node every bar more than doubles; a longer prefix lowers B* but not the worst case', () => {
    const fp8 = minBandwidthByModel({ ...minBwArgs(MIN_BW_DEFAULTS), kvDtype: 'fp8' });
    const tp4 = minBandwidthByModel({ ...minBwArgs(MIN_BW_DEFAULTS), tp: 4 });
    const tp16 = minBandwidthByModel({ ...minBwArgs(MIN_BW_DEFAULTS), tp: 16 });
    const long = minBandwidthByModel({ ...minBwArgs(MIN_BW_DEFAULTS), prefixTokens: 131_072 });
    for (const m of r.rows) {
      const f = fp8.rows.find((x) => x.id === m.id)!;
      expect(rel(f.minBandwidth!, m.minBandwidth! / 2)).toBeLessThan(1e-4);
      const q = tp4.rows.find((x) => x.id === m.id)!;
      expect(m.minBandwidth!).toBeGreaterThan(q.minBandwidth!);
      // "more than in proportion where they add copies (Qwen3 235B-A22B and DeepSeek-V3 from 4 to 8 GPUs)"
      if (m.kvCopies > q.kvCopies) expect(m.minBandwidth!).toBeGreaterThan(2 * q.minBandwidth!);
      else expect(m.minBandwidth!).toBeLessThan(2 * q.minBandwidth!);
      expect(m.kvCopies > q.kvCopies).toBe(m.id === 'qwen3-235b-a22b' || m.id === 'deepseek-v3');
      const t = tp16.rows.find((x) => x.id === m.id)!;
      // "every model's KV is now stored at least twice: every bar more than doubles", hatched and solid
      expect(t.kvCopies).toBeGreaterThanOrEqual(2);
      expect(t.minBandwidth!).toBeGreaterThan(2 * m.minBandwidth!);
      expect(t.alwaysWinsBandwidth!).toBeGreaterThan(2 * m.alwaysWinsBandwidth!);
      const l = long.rows.find((x) => x.id === m.id)!;
      expect(l.minBandwidth!).toBeLessThan(m.minBandwidth!);
      expect(l.alwaysWinsBandwidth).toBe(m.alwaysWinsBandwidth);
    }
  });

  it('reference rules are catalog links; weights that do not fit are flagged', () => {
    expect(r.references.map((l) => l.id)).toContain('pcie-gen5-x16');
    expect(r.references.find((l) => l.id === 'nvme-gen4')!.bandwidth).toBe(6.9e9);
    expect(row('llama-3.1-405b').weightsFit).toBe(false); // 810 GB > 640 GB
    expect(row('deepseek-v3').weightsFit).toBe(false);
    expect(row('llama-3.1-70b').weightsFit).toBe(true);
  });
});

describe('the prose figures', () => {
  const f = offloadFigures(FIGURES_REQUEST);

  it('the default setup is the first widget’s, and the claims about the other links hold', () => {
    expect(f.setups.nvme.crossings).toEqual(defaults.breakEven.crossings);
    // a one-token prefill: the weights and one token's KV, the all-reduce latencies (and one token's bytes), t_o
    expect(f.setups.nvme.floor).toBeCloseTo((W70 + K70) / M_H100x8 + BETA70 + TFIX70, 12);
    expect(f.setups.nvme.floor * 1e3).toBeCloseTo(15.032, 3);
    expect(f.setups.nvme.streamedWeightBytes / f.setups.nvme.memBandwidth).toBeCloseTo(W70 / M_H100x8, 12);
    expect(f.setups.nvme.reloadPerToken).toBeCloseTo(K70 / 6.9e9, 15);
    expect(f.setups.nvme.recomputePerTokenStart).toBeCloseTo(
      TWO_N70 / G_H100x8 + A70 / GA_H100x8 + BETA70,
      15,
    );
    expect(f.setups.nvme.reloadPerToken).toBeGreaterThan(f.setups.nvme.recomputePerTokenStart); // k/B > 2N/G + β: a middle band
    expect(f.setups.nvme.criticalBandwidth).toBeCloseTo(K70 / (TWO_N70 / G_H100x8 + BETA70), 0);
    expect(f.setups.nvme.gemmEfficiency).toBe(0.64);
    expect(f.setups.nvme.attentionEfficiency).toBe(0.56);
    expect(f.setups.nvme.iterationOverheadS).toBe(OVERHEAD);
    // "A Gen5 drive already wins at every length"; "the 100 Gb/s NIC wins everywhere and the Gen4 drive does not".
    expect(f.setups.nvme5.regime).toBe('reload-always-wins');
    expect(f.setups.nic100.regime).toBe('reload-always-wins');
    expect(f.setups.nic100.bandwidth).toBeGreaterThan(f.setups.nvme.alwaysWins!);
    expect(f.setups.nvme.bandwidth).toBeLessThan(f.setups.nvme.alwaysWins!);
    // PCIe Gen5, one per GPU: 400 GB/s, 32k prefix in 26.9 ms, ~55× faster.
    expect(f.setups.pcie5.bandwidth).toBe(400e9);
    expect(f.setups.pcie5.linkCount).toBe(8);
    expect(f.setups.pcie5.regime).toBe('reload-always-wins');
    expect(f.setups.pcie5.prefix.reload).toBeCloseTo(10e-6 + 10_737_418_240 / 400e9, 12);
    expect(f.setups.pcie5.prefix.speedup).toBeGreaterThan(50);
    // "B* just below what one Gen4 drive delivers"
    expect(f.setups.nvme.prefix.minBandwidth!).toBeLessThan(6.9e9);
    expect(f.setups.nvme.prefix.minBandwidth!).toBeGreaterThan(0.9 * 6.9e9);
    // "More GPUs buy a faster recompute and a slower reload here": 16 GPUs are two nodes, the all-reduces cross
    // the NICs, which a node's eight carry together (below NVLink's bandwidth, above 90% of it: "nearly as fast");
    // recompute is faster than on one node, the KV is stored twice and the one drive reads both copies, and
    // "recompute wins from <crossing0> to the end of the context".
    expect(f.setups.tp16nvme.allReduce.scope).toBe('inter-node');
    expect(f.setups.tp16nvme.allReduce.linkId).toBe('rdma-400g-cx7');
    expect(f.setups.tp16nvme.allReduce.busBandwidth).toBeLessThan(f.setups.nvme.allReduce.busBandwidth);
    expect(f.setups.tp16nvme.allReduce.busBandwidth).toBeGreaterThan(
      0.9 * f.setups.nvme.allReduce.busBandwidth,
    );
    expect(f.setups.tp16nvme.prefix.recompute).toBeLessThan(f.setups.nvme.prefix.recompute);
    expect(f.setups.tp16nvme.prefix.reload).toBeGreaterThan(f.setups.nvme.prefix.reload);
    expect(f.setups.tp16nvme.prefix.kvBytes).toBe(2 * f.setups.nvme.prefix.kvBytes);
    expect(f.setups.tp16nvme.prefix.faster).toBe('recompute');
    expect(f.setups.tp16nvme.regime).toBe('reload-wins-below');
    expect(f.setups.tp16nvme.crossings).toHaveLength(1);
    expect(f.setups.tp16nvme.crossings[0]).toBeLessThan(1_000); // "a few hundred tokens" (the Try-this item)
    expect(f.setups.tp16nvme.crossingsBeyond[0]).toBeGreaterThan(131_072); // past the context
    // "host DRAM over per-GPU PCIe clears every bar of the second widget, the every-length ones included"
    const bars = minBandwidthByModel(minBwArgs(MIN_BW_DEFAULTS));
    for (const m of bars.rows) expect(f.setups.pcie5.bandwidth).toBeGreaterThan(3 * m.alwaysWinsBandwidth!);
    // "a DGX's eight drives read in parallel are enough for every catalog model" (55.2 GB/s)
    for (const m of bars.rows) expect(8 * 6.9e9).toBeGreaterThan(m.alwaysWinsBandwidth!);
  });

  it('what the comparison leaves out: a chunk of a chunked recompute pays t_fix again, under 1% of the 32k recompute', () => {
    const n = f.setups.nvme;
    expect(n.allReduce.fixed + n.iterationOverheadS).toBeCloseTo(TFIX70, 12); // 6.03 ms + 2.5 ms
    expect((n.allReduce.fixed + n.iterationOverheadS) / n.prefix.recompute).toBeLessThan(0.01);
  });

  it('"an object store with tens of milliseconds per request pays more than prefilling a few hundred to a few thousand tokens costs, depending on the latency"', () => {
    const low = reloadVsRecompute(objectStoreArgs('low'));
    const high = reloadVsRecompute(objectStoreArgs('high'));
    // "tens of milliseconds": both latencies; the bandwidth is the custom link's default.
    for (const r of [low, high]) {
      expect(r.link.latency).toBeGreaterThanOrEqual(10e-3);
      expect(r.link.latency).toBeLessThan(100e-3);
      expect(r.link.bandwidth).toBe(RELOAD_DEFAULTS.customGBps * 1e9);
      // recompute wins the shortest prefixes, reload every prefix past the one crossing
      expect(r.breakEven.regime).toBe('reload-wins-above');
      expect(r.segments[0].faster).toBe('recompute');
      expect(r.breakEven.crossings).toHaveLength(1);
    }
    // "a few hundred" at the low end, "a few thousand" at the high end: the crossing moves with the latency.
    expect(low.breakEven.crossings[0]).toBeGreaterThan(200);
    expect(low.breakEven.crossings[0]).toBeLessThan(1000);
    expect(high.breakEven.crossings[0]).toBeGreaterThan(1000);
    expect(high.breakEven.crossings[0]).toBeLessThan(10_000);
    expect(objectStoreFigureText(low, 'latency')).toBe('20 ms');
    expect(objectStoreFigureText(high, 'latency')).toBe('50 ms');
    expect(objectStoreFigureText(high, 'recomputeBelow')).toBe(
      `${Math.round(high.breakEven.crossings[0]).toLocaleString('en-US')} tokens`,
    );
    // The first widget's Try this sets the same latency as the bullet's high end, so the two agree.
    expect(RELOAD_TRY[4].set).toEqual({ link: 'custom', customLatencyUs: OBJECT_STORE_LATENCY_US.high });
  });

  it('"B* ≈ k/τ: G × KV bytes per FLOP, lowered by the all-reduces’ share (and a little more by attention’s lower efficiency), and never above k/(2N/G + β)" for every model', () => {
    const bars = minBandwidthByModel(minBwArgs(MIN_BW_DEFAULTS));
    for (const m of bars.rows) {
      // The same replica and prefix as the second widget, for the all-reduce share and 2N/G + β.
      const r = reloadVsRecompute({ ...reloadArgs(RELOAD_DEFAULTS), modelId: m.id });
      expect(r.prefix.tokens).toBe(m.prefixTokens);
      const share = r.prefix.allReduceTime / r.prefix.recompute;
      const ratio = m.minBandwidth! / (bars.flops * m.kvBytesPerFlop);
      const attnOverGemm = r.hardware.attentionEfficiency / r.hardware.gemmEfficiency;
      expect(attnOverGemm).toBeLessThan(1);
      expect(ratio).toBeLessThan(1 - share);
      expect(ratio).toBeGreaterThan((1 - share) * attnOverGemm);
      const ceiling =
        (m.kvBytesPerToken * m.kvCopies) /
        ((2 * r.model.bodyParams) / r.hardware.flops + r.hardware.allReduce.perToken);
      expect(m.alwaysWinsBandwidth!).toBeLessThan(ceiling);
    }
  });

  it('"less, by its all-reduce traffic per token, which weighs most on the smallest model"', () => {
    const share = (modelId: string) => {
      const r = reloadVsRecompute({ ...reloadArgs(RELOAD_DEFAULTS), modelId });
      return r.prefix.allReduceTime / r.prefix.recompute;
    };
    const rows = minBandwidthByModel(minBwArgs(MIN_BW_DEFAULTS)).rows;
    const others = rows.filter((m) => m.id !== 'llama-3.1-8b').map((m) => share(m.id));
    expect(share('llama-3.1-8b')).toBeGreaterThan(Math.max(...others));
    // "and, less": the ranking of the bars is still the ranking by KV bytes per FLOP (asserted above)
    expect(Math.max(...others, share('llama-3.1-8b'))).toBeLessThan(0.5);
  });

  it('Mooncake FAST’25 Eq. 2 in its Table 1 setting, by hand: 5.859 GB/s at 8k tokens', () => {
    const d = 8192;
    const hand = (8 * 312e12 * 2 * d * 2) / (8 * (4 * 8192 * d + 22 * d * d));
    expect(hand).toBe(5.859375e9);
    expect(f.mooncake.theirs).toBeCloseTo(hand, 0);
    expect(rel(f.mooncake.ours, f.mooncake.theirs)).toBeLessThan(0.1);
    expect(f.mooncake.h2d / f.mooncake.theirs).toBeGreaterThan(10);
    expect(f.mooncake.nic / f.mooncake.theirs).toBeGreaterThan(10);
  });

  it('the lesson names only setups and metrics that exist, and quotes no exercise answer', () => {
    const mdx = readFileSync(
      fileURLToPath(new URL('../lessons/07-05-kv-offload-and-reload.mdx', import.meta.url)),
      'utf8',
    );
    const uses = [...mdx.matchAll(/<OffloadFig s="([^"]+)" m="([^"]+)"/g)];
    expect(uses.length).toBeGreaterThan(25);
    for (const [, s, m] of uses) {
      expect(Object.keys(PROSE_SETUPS)).toContain(s);
      expect(SETUP_METRIC_KEYS).toContain(m);
    }
    for (const [, model] of mdx.matchAll(/<ModelBwFig model="([^"]+)"/g))
      expect(findModel(model)).toBeDefined();
    // The exercises' setups are not among the prose setups.
    for (const s of Object.values(PROSE_SETUPS))
      expect(s.acceleratorId === 'b200' && s.linkId === 'rdma-100g').toBe(false);
  });
});

describe('the exercises, by hand', () => {
  it('70B on 8 × B200 over one 100 Gb/s NIC: reload wins again above ≈ 2G_a(k/B − 2N/G − β)/A ≈ 92.5k tokens', () => {
    const r = reloadVsRecompute(EXERCISE_CROSSING);
    expect(r.breakEven.regime).toBe('recompute-wins-between');
    const G = 8 * 2250e12 * 0.64;
    const GA = 8 * 2250e12 * 0.56;
    // NVLink 5: 900 GB/s × 380/450 per direction, × (1 − 0.86/64) for an 8-GPU ring
    const beta = (160 * 1.75 * 16_384) / (((900e9 * 380) / 450) * (1 - 0.86 / 64));
    expect(r.hardware.allReduce.perToken).toBeCloseTo(beta, 15);
    const B = (100e9 / 8) * (87 / 100); // 10.875 GB/s: line rate × Mooncake's achieved fraction
    expect(r.link.bandwidth).toBeCloseTo(B, 0);
    const approx = ((2 * GA) / A70) * (K70 / B - TWO_N70 / G - beta);
    expect(rel(r.breakEven.crossings[1], approx)).toBeLessThan(0.01);
    expect(Math.round(r.breakEven.crossings[1] / 100) * 100).toBe(92_500);
    // On 8 × H100 the same NIC wins at every length (the explanation says so).
    expect(reloadVsRecompute({ ...EXERCISE_CROSSING, acceleratorId: 'h100-sxm' }).breakEven.regime).toBe(
      'reload-always-wins',
    );
  });

  it('8B on one H100, 32k prefix: B* = p·k / t_recompute ≈ 3.48 GB/s, below one Gen4 drive, above it on 8 GPUs', () => {
    const r = minBandwidthByModel(EXERCISE_MIN_BW);
    const m = r.rows.find((x) => x.id === EXERCISE_MIN_BW_MODEL)!;
    const p = 32_768;
    const twoN = 2 * (8.03e9 - 2 * 128_256 * 4096);
    const t =
      (twoN * p + 2 * 128_256 * 4096) / (989e12 * 0.64) +
      (2 * 32 * 32 * 256 * p * (p + 1)) / 2 / (989e12 * 0.56) +
      OVERHEAD; // TP 1: no all-reduce
    expect(rel(m.minBandwidth!, (p * 131_072) / (t - 10e-6))).toBeLessThan(1e-9);
    expect(m.minBandwidth! / 1e9).toBeCloseTo(3.4823, 3);
    expect(m.minBandwidth!).toBeLessThan(6.9e9);
    const on8 = minBandwidthByModel({ ...EXERCISE_MIN_BW, tp: 8 }).rows.find(
      (x) => x.id === EXERCISE_MIN_BW_MODEL,
    )!;
    expect(on8.minBandwidth!).toBeGreaterThan(6.9e9);
    // "less than eightfold since every layer now all-reduces"
    expect(on8.minBandwidth!).toBeLessThan(8 * m.minBandwidth!);
  });
});
