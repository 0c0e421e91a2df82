/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk JSON parsed from the CLI's stdout */
/**
 * The `sim` command line run as a user runs it: node_modules/.bin/tsx cli/sim.ts <command> ...
 * Good input: exit 0 and JSON on stdout. Bad input: exit 2, a one-line reason on stderr, never a stack trace.
 */
import { describe, expect, it } from 'vitest';
import { runSim } from './cli-process';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { existsSync, rmSync } from 'node:fs';

const root = fileURLToPath(new URL('..', import.meta.url));

const sim = runSim;

function expectUsageError(r: ReturnType<typeof sim>, message: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  expect(r.stderr).not.toMatch(/Error:/);
}

describe('sim catalog', () => {
  it('lists models with derived KV bytes per dtype, accelerators, links and nodes, with sources', () => {
    const r = sim('catalog');
    expect(r.code).toBe(0);
    const out = r.json();
    const llama = out.models.find((m: any) => m.id === 'llama-3.1-70b');
    expect(llama.derived.kvBytesPerToken).toMatchObject({ bf16: 327_680, fp8: 163_840, fp32: 655_360 });
    expect(llama.source).toMatch(/llama-models/);
    expect(out.models.find((m: any) => m.id === 'deepseek-v3').derived.kvBytesPerToken.bf16).toBe(70_272);
    expect(out.accelerators.find((a: any) => a.id === 'h100-sxm').derived.ridgeFlopsPerByteBf16).toBeCloseTo(
      295.2,
      1,
    );
    const g5 = out.links.find((l: any) => l.id === 'pcie-gen5-x16');
    expect(g5.derived).toMatchObject({ lineRateGBps: 63.02, effectiveGBps: 50 });
    expect(out.nodes.find((n: any) => n.id === 'dgx-b200').powerW).toBe(14_300);
  });

  it('--kind selects one list; a bad --kind is a usage error', () => {
    const r = sim('catalog', '--kind', 'links');
    expect(r.code).toBe(0);
    const out = r.json();
    expect(Object.keys(out).sort()).toEqual(['links', 'units']);
    expect(out.links.map((l: any) => l.id)).toContain('mooncake-8x400g');
    expectUsageError(
      sim('catalog', '--kind', 'gpus'),
      /unknown --kind "gpus" \(one of: models, accelerators, links, nodes\)/,
    );
  });
});

describe('sim breakeven', () => {
  it('Llama-3.1-70B on 8 × H100 over PCIe Gen5 with an 8k prefix', () => {
    const r = sim(
      'breakeven',
      '--model',
      'llama-3.1-70b',
      '--gpu',
      'h100-sxm',
      '--gpus',
      '8',
      '--link',
      'pcie-gen5-x16',
      '--prefix',
      '8192',
    );
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.regime).toBe('reload-always-wins');
    expect(out.breakEvenTokens).toEqual([]);
    expect(out.link).toMatchObject({ linkCount: 8, bandwidthGBps: 400, latencyUs: 10 });
    expect(out.kvBytesPerToken).toBe(327_680);
    // recompute = GEMM 0.2220 s + attention 0.0199 s + all-reduce 0.1056 s + 2.5 ms (tests/cost.test.ts)
    expect(out.prefix.recomputeSeconds).toBeCloseTo(0.3503, 4);
    expect(out.prefix.faster).toBe('reload');
    expect(out.prefix.minLinkGBps).toBeCloseTo(7.664, 3);
    // one token: weights 6.488 ms + 160 all-reduce latencies 6.04 ms + 2.5 ms
    expect(out.perToken.recomputeFloorSeconds).toBeCloseTo(0.01503, 5);
  });

  it('a 1 GB/s link gives a crossing at ~48 tokens; --link-gbit converts bits', () => {
    const r = sim(
      'breakeven',
      '--model',
      'llama-3.1-70b',
      '--gpu',
      'h100-sxm',
      '--tp',
      '8',
      '--link-gbit',
      '8',
    );
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.link.bandwidthGBps).toBe(1);
    expect(out.breakEvenTokens).toEqual([48]); // tests/breakeven.test.ts derives p₁ = 47.59 by hand
    expect(out.breakEvenTokensBeyondRange).toEqual([974_829]);
    expect(out.regime).toBe('reload-wins-below');
  });

  it('model and hardware figures are overridable by flags', () => {
    const base = sim(
      'breakeven',
      '--model',
      'llama-3.1-70b',
      '--gpu',
      'h100-sxm',
      '--gpus',
      '8',
      '--link-gbps',
      '5',
      '--prefix',
      '4096',
    ).json();
    const r = sim(
      'breakeven',
      '--model',
      'llama-3.1-70b',
      '--gpu',
      'h100-sxm',
      '--gpus',
      '8',
      '--link-gbps',
      '5',
      '--prefix',
      '4096',
      '--kv-heads',
      '4',
      '--bytes-per-elem',
      '1',
      '--tflops',
      '1979',
      '--hbm-gbps',
      '4800',
      '--params',
      '35.3B',
    );
    expect(r.code).toBe(0);
    const out = r.json();
    expect(out.kvBytesPerToken).toBe(327_680 / 2 / 2); // half the KV heads, FP8
    expect(out.hardware).toMatchObject({
      kvDtype: 'fp8',
      weightDtype: 'fp8',
      peakFlopsPerGpu: 1.979e15,
      memBandwidthPerGpu: 4.8e12,
    });
    expect(out.model.totalParams).toBe(35.3e9);
    expect(out.model.activeParams).toBe(35.3e9); // dense stays dense
    expect(out.model.overridden).toEqual(expect.arrayContaining(['--kv-heads', '--params']));
    // Twice the FLOP/s on half the parameters in FP8 cuts the compute ~4×; the all-reduce (same hidden size,
    // ~56 ms for 4,096 tokens at TP8) does not shrink, so the whole falls about 2×.
    expect(out.prefix.recomputeSeconds).toBeLessThan(base.prefix.recomputeSeconds / 1.9);
    expect(out.prefix.recomputeSeconds).toBeGreaterThan(base.prefix.recomputeSeconds / 4);
  });

  it('warns when the weights do not fit', () => {
    const out = sim(
      'breakeven',
      '--model',
      'deepseek-v3',
      '--gpu',
      'h100-sxm',
      '--gpus',
      '8',
      '--link',
      'rdma-400g-cx7',
    ).json();
    expect(out.warnings.join(' ')).toMatch(/do not fit in 8 × h100-sxm/);
    expect(out.notes.join(' ')).toMatch(/MLA/);
  });

  it.each([
    [['--gpu', 'h100-sxm', '--link', 'pcie-gen5-x16'], /--model is required \(one of: llama-3\.1-8b/],
    [
      ['--model', 'gpt-5', '--gpu', 'h100-sxm', '--link', 'pcie-gen5-x16'],
      /unknown model "gpt-5" \(valid ids: llama-3\.1-8b/,
    ],
    [['--model', 'llama-3.1-70b', '--gpu', 'tpu', '--link', 'pcie-gen5-x16'], /unknown accelerator "tpu"/],
    [
      ['--model', 'llama-3.1-70b', '--gpu', 'h100-sxm', '--link', 'wifi'],
      /unknown link "wifi" \(valid ids: pcie-gen4-x16/,
    ],
    [['--model', 'llama-3.1-70b', '--gpu', 'h100-sxm'], /give exactly one of --link <id>, --link-gbps/],
    [
      ['--model', 'llama-3.1-70b', '--gpu', 'h100-sxm', '--link', 'nvlink4', '--link-gbps', '3'],
      /give exactly one of/,
    ],
    [
      ['--model', 'llama-3.1-70b', '--gpu', 'h100-sxm', '--link-gbps', 'fast'],
      /--link-gbps must be a number, got "fast"/,
    ],
    [
      ['--model', 'llama-3.1-70b', '--gpu', 'h100-sxm', '--link-gbps', '10', '--mfu', '1.5'],
      /--mfu must be in \(0, 1\]/,
    ],
    [
      ['--model', 'llama-3.1-70b', '--gpu', 'h100-sxm', '--link-gbps', '10', '--gpus', '8', '--tp', '4'],
      /--gpus 8 and --tp 4 differ/,
    ],
    [
      ['--model', 'deepseek-v3', '--gpu', 'h100-sxm', '--link-gbps', '10', '--head-dim', '64'],
      /--head-dim does not apply to deepseek-v3: it uses MLA/,
    ],
    [
      ['--model', 'llama-3.1-70b', '--gpu', 'a100-80gb', '--link-gbps', '10', '--compute-dtype', 'fp8'],
      /a100-80gb has no FP8 tensor path/,
    ],
    [
      ['--model', 'llama-3.1-70b', '--gpu', 'h100-sxm', '--link-gbps', '10', '--kv-heads', '100'],
      /kvHeads \(100\) cannot exceed attentionHeads \(64\)/,
    ],
    [
      ['--model', 'llama-3.1-70b', '--gpu', 'h100-sxm', '--link-gbps', '10', '--layer', '40'],
      /unknown flag --layer \(did you mean --layers\? known:/,
    ],
  ])('bad input %j → exit 2 with a clear message', (args, message) => {
    expectUsageError(sim('breakeven', ...(args as string[])), message as RegExp);
  });
});

describe('sim', () => {
  it('lists the new commands and rejects an unknown one', () => {
    const v = sim('version');
    expect(v.code).toBe(0);
    expect(v.json().commands).toEqual(expect.arrayContaining(['kv', 'catalog', 'breakeven']));
    const r = sim('brekeven');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command "brekeven"/);
  });
});

describe('npm run sim (the bundled command line)', () => {
  it('rebuilds the bundle when it is missing and runs it with plain node', () => {
    const bundle = fileURLToPath(new URL('../dist-cli/sim.mjs', import.meta.url));
    rmSync(bundle, { force: true });
    const r = spawnSync(process.execPath, ['scripts/sim.mjs', 'kv', '--model', 'llama-3.1-8b'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).kvBytesPerToken).toBe(131_072);
    expect(existsSync(bundle)).toBe(true);
    const direct = spawnSync(process.execPath, [bundle, 'kv', '--model', 'nope'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(direct.status).toBe(2);
    expect(direct.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('sim cost', () => {
  it('prefill: Llama-3.1-70B, 4,096 tokens on 8 × H100 prints prefillS and the terms it is the sum of', () => {
    const r = sim('cost', '--model', 'llama-3.1-70b', '--gpu', 'h100-sxm', '--tp', '8', '--prefill', '4096');
    expect(r.code).toBe(0);
    const out = r.json();
    const t = out.terms;
    expect(t.bound).toBe('compute');
    expect(out.prefillS).toBeCloseTo(
      Math.max(t.gemmS + t.attentionS, t.memoryS) + t.allReduceS + t.overheadS,
      12,
    );
    // GEMM: (2 · 68,498,653,696 · 4,096 + 2 · 1,050,673,152) FLOP over 8 × 989 TF × 0.64
    expect(t.gemmFlops).toBe(2 * 68_498_653_696 * 4096 + 2 * 1_050_673_152);
    expect(t.gemmS).toBeCloseTo(t.gemmFlops / (8 * 989e12 * 0.64), 12);
    // all-reduce: 160 calls of 4,096 × 8,192 × 2 B over NVLink 4 inside the node
    expect(t.allReduceBytes).toBe(160 * 4096 * 16_384);
    expect(out.allReduce).toMatchObject({ scope: 'intra-node', link: 'nvlink4' });
    expect(t.allReduceS).toBeCloseTo(
      160 * ((1.75 * 4096 * 16_384) / out.allReduce.busBandwidthBytesPerS + out.allReduce.latencyS),
      12,
    );
    expect(t.overheadS).toBe(0.0025);
  });

  it('decode step, with --cached on prefill, and every efficiency overridable', () => {
    const d = sim(
      'cost',
      '--model',
      'llama-3.1-8b',
      '--gpu',
      'h100-sxm',
      '--decode-batch',
      '16',
      '--context',
      '8000',
    ).json();
    expect(d.terms.bound).toBe('memory');
    expect(d.terms.allReduceS).toBe(0); // tp 1
    expect(d.decodeStepS).toBeCloseTo(d.terms.memoryS + 0.0025, 12);
    const warm = sim(
      'cost',
      '--model',
      'llama-3.1-8b',
      '--gpu',
      'h100-sxm',
      '--prefill',
      '1000',
      '--cached',
      '9000',
    ).json();
    const cold = sim('cost', '--model', 'llama-3.1-8b', '--gpu', 'h100-sxm', '--prefill', '10000').json();
    expect(warm.prefillS).toBeLessThan(cold.prefillS / 5);
    const slow = sim(
      'cost',
      '--model',
      'llama-3.1-8b',
      '--gpu',
      'h100-sxm',
      '--prefill',
      '10000',
      '--gemm-eff',
      '0.32',
      '--attn-eff',
      '0.28',
      '--overhead-ms',
      '0',
    ).json();
    expect(slow.terms.gemmS / cold.terms.gemmS).toBeCloseTo(2, 9);
    expect(slow.terms.attentionS / cold.terms.attentionS).toBeCloseTo(2, 9);
    expect(slow.terms.overheadS).toBe(0);
    const fp8 = sim(
      'cost',
      '--model',
      'llama-3.1-8b',
      '--gpu',
      'h100-sxm',
      '--prefill',
      '10000',
      '--compute-dtype',
      'fp8',
    ).json();
    expect(fp8.gemmEfficiency).toBe(0.53); // the FP8 fit is the default under FP8 compute
  });

  it('TP past one node all-reduces over the node’s NICs, nearly as fast as NVLink: 16 GPUs prefill faster than 8', () => {
    const out = sim(
      'cost',
      '--model',
      'llama-3.1-70b',
      '--gpu',
      'h100-sxm',
      '--tp',
      '16',
      '--prefill',
      '4096',
    ).json();
    expect(out.allReduce).toMatchObject({ scope: 'inter-node', link: 'rdma-400g-cx7' });
    const in8 = sim(
      'cost',
      '--model',
      'llama-3.1-70b',
      '--gpu',
      'h100-sxm',
      '--tp',
      '8',
      '--prefill',
      '4096',
    ).json();
    expect(out.prefillS).toBeLessThan(in8.prefillS);
  });

  it.each([
    [['--gpu', 'h100-sxm', '--prefill', '10'], /--model is required/],
    [['--model', 'llama-3.1-8b', '--gpu', 'h100-sxm'], /give either --prefill N/],
    [
      ['--model', 'llama-3.1-8b', '--gpu', 'h100-sxm', '--prefill', '10', '--decode-batch', '2'],
      /give either/,
    ],
    [
      ['--model', 'llama-3.1-8b', '--gpu', 'h100-sxm', '--decode-batch', '2'],
      /--decode-batch needs --context/,
    ],
    [['--model', 'llama-3.1-8b', '--gpu', 'h100-sxm', '--prefill', '0'], /--prefill must be at least 1/],
    [
      ['--model', 'llama-3.1-8b', '--gpu', 'h100-sxm', '--prefill', '100000', '--cached', '100000'],
      /past llama-3.1-8b's context/,
    ],
    [
      ['--model', 'llama-3.1-8b', '--gpu', 'h100-sxm', '--prefill', '10', '--gemm-eff', '1.2'],
      /--gemm-eff must be in \(0, 1\]/,
    ],
    [
      ['--model', 'llama-3.1-8b', '--gpu', 'a100-80gb', '--prefill', '10', '--compute-dtype', 'fp8'],
      /no FP8 tensor path/,
    ],
    [
      ['--model', 'llama-3.1-8b', '--gpu', 'h100-sxm', '--prefill', '10', '--mfuu', '0.5'],
      /unknown flag --mfuu/,
    ],
  ])('bad input %j → exit 2 with a one-line message', (args, message) => {
    expectUsageError(sim('cost', ...(args as string[])), message as RegExp);
  });
});
