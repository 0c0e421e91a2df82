/* eslint-disable @typescript-eslint/no-explicit-any -- assertions walk the command's JSON */
/**
 * `sim breakeven` says what crosses the link: the core reloads every copy of the KV the replica's GPUs hold
 * (cost.ts replicaKvBytesPerToken), so the output gives kvCopies beside kvBytesPerToken and its notes say why.
 * Before, the notes said an MLA reload moved one copy "gathered over NVLink", and a GQA model on more GPUs than KV
 * heads showed a per-token reload cost twice kvBytesPerToken / bandwidth with nothing to explain it.
 */
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../cli/args';
import { breakevenCommand } from '../cli/commands/breakeven';

const run = (...args: string[]): any => breakevenCommand.run(parseArgs(args));

describe('sim breakeven: KV copies', () => {
  it('4 KV heads on 8 GPUs: two copies, and the reload cost per token is both over the link', () => {
    const out = run('--model', 'qwen3-235b-a22b', '--gpu', 'h100-sxm', '--gpus', '8', '--link-gbps', '10');
    expect(out.kvCopies).toBe(2);
    // Rounded to 4 significant digits in the output.
    expect(out.perToken.reloadSecondsPerToken / ((out.kvBytesPerToken * 2) / 10e9)).toBeCloseTo(1, 3);
    expect(out.notes.join('\n')).toMatch(/8 GPUs for 4 KV heads: .* reload moves 2 copies \(kvCopies\)/);
    expect(out.notes[0]).toMatch(/p × kvBytesPerToken × kvCopies \/ bandwidth/);
  });

  it('MLA under TP: every GPU reloads its own latent, none is gathered over NVLink', () => {
    const out = run('--model', 'deepseek-v3', '--gpu', 'h100-sxm', '--gpus', '8', '--link-gbps', '10');
    expect(out.kvCopies).toBe(8);
    expect(out.notes.join('\n')).toMatch(/reload moves 8 copies/);
    expect(out.notes.join('\n')).not.toMatch(/gathered over NVLink/);
  });

  it('one copy says nothing more', () => {
    const out = run('--model', 'llama-3.1-70b', '--gpu', 'h100-sxm', '--gpus', '8', '--link', 'nvlink4');
    expect(out.kvCopies).toBe(1);
    expect(out.notes.join('\n')).not.toMatch(/copies \(kvCopies\)/);
  });
});
