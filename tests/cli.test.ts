/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk JSON parsed from the CLI's stdout */
/**
 * The `sim` command line run as a user runs it: node_modules/.bin/tsx cli/sim.ts <command> ...
 * Good input: exit 0 and JSON on stdout. Bad input: exit 2, a one-line reason on stderr, never a stack trace.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { existsSync, rmSync } from 'node:fs';

const root = fileURLToPath(new URL('..', import.meta.url));

function sim(...args: string[]): { code: number | null; stdout: string; stderr: string; json: () => any } {
  const r = spawnSync('node_modules/.bin/tsx', ['cli/sim.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}

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
    expect(out.prefix.recomputeSeconds).toBeCloseTo(0.3059, 4);
    expect(out.prefix.faster).toBe('reload');
    expect(out.prefix.minLinkGBps).toBeCloseTo(8.775, 3);
    expect(out.perToken.recomputeFloorSeconds).toBeCloseTo(0.006488, 6);
  });

  it('a 1 GB/s link gives a crossing at ~20 tokens; --link-gbit converts bits', () => {
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
    expect(out.breakEvenTokens).toEqual([20]);
    expect(out.breakEvenTokensBeyondRange).toEqual([884_478]);
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
    expect(out.prefix.recomputeSeconds).toBeLessThan(base.prefix.recomputeSeconds / 3);
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
      /unknown flag --layer \(known:/,
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
