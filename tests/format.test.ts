import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as f from '../src/lib/format';

describe('format', () => {
  it('never shows NaN, Infinity or undefined', () => {
    for (const fn of [
      f.formatNumber,
      f.formatTokens,
      f.formatBytes,
      f.formatBandwidth,
      f.formatDuration,
      f.formatMoney,
      f.formatPercent,
      f.formatRatio,
      f.formatCount,
      f.formatPower,
    ]) {
      expect(fn(NaN)).toBe('—');
      expect(fn(Infinity)).toBe('—');
      expect(fn(undefined)).toBe('—');
    }
    expect(f.formatFlops(NaN)).toBe('—');
  });

  it('puts a counted unit in the singular for exactly one, and leaves rates and times alone', () => {
    expect(f.formatWithUnit(1, 'GPUs')).toBe('1 GPU');
    expect(f.formatWithUnit(2, 'GPUs')).toBe('2 GPUs');
    expect(f.formatWithUnit(1, 'turns')).toBe('1 turn');
    expect(f.formatWithUnit(1.5, 'tokens')).toBe('1.5 tokens');
    expect(f.formatWithUnit(12_000, 'tokens')).toBe('12,000 tokens');
    expect(f.formatWithUnit(1, 's')).toBe('1 s');
    expect(f.formatWithUnit(1, 'ms')).toBe('1 ms');
    expect(f.formatWithUnit(1, 'GB/s')).toBe('1 GB/s');
    expect(f.formatWithUnit(1, 'sessions/s')).toBe('1 session/s');
    expect(f.formatWithUnit(2, 'sessions/s')).toBe('2 sessions/s');
    expect(f.formatWithUnit(3)).toBe('3');
  });

  it('formats bytes in binary units', () => {
    expect(f.formatBytes(131072)).toBe('128 KiB');
    expect(f.formatBytes(327680 * 100000)).toBe('30.5 GiB');
    expect(f.formatBytes(512)).toBe('512 B');
    expect(f.formatBytes(1023.99 * 1024)).toBe('1 MiB');
  });

  it('formats tokens, durations, bandwidth, FLOPs, money and percentages', () => {
    expect(f.formatTokens(950)).toBe('950 tokens');
    expect(f.formatTokens(12345)).toBe('12.3k tokens');
    expect(f.formatDuration(0.000042)).toBe('42 µs');
    expect(f.formatDuration(0.25)).toBe('250 ms');
    expect(f.formatDuration(90)).toBe('1.5 min');
    expect(f.formatDuration(7200)).toBe('2 h');
    expect(f.formatBandwidth(63e9)).toBe('63 GB/s');
    expect(f.formatFlops(989e12, true)).toBe('989 TFLOP/s');
    expect(f.formatMoney(1234.5)).toBe('$1,235');
    expect(f.formatMoney(0.004)).toBe('$0.004');
    expect(f.formatPercent(0.4012)).toBe('40.1%');
    expect(f.formatRatio(35.1)).toBe('35.1×');
  });

  it('bounds every figure: no e-notation, no 300-digit numbers, tiny percentages as "< 0.01%"', () => {
    expect(f.formatPercent(1.6e-174)).toBe('< 0.01%');
    expect(f.formatPercent(0.0005)).toBe('0.05%');
    expect(f.formatPercent(-1e-9)).toBe('> -0.01%');
    // A chance too small for "< 0.01%" to say anything: scientific notation, never e-notation.
    expect(f.formatProbability(0.8869)).toBe('88.7%');
    expect(f.formatProbability(0.001)).toBe('0.1%');
    expect(f.formatProbability(3.7e-11)).toBe('3.7 × 10⁻⁹%');
    expect(f.formatProbability(0)).toBe('0%');
    expect(f.formatProbability(NaN)).toBe('—');
    expect(f.formatNumber(1.6e-12)).toBe('1.6 × 10⁻¹²');
    expect(f.formatNumber(2.5e20)).toBe('2.5 × 10²⁰');
    expect(f.formatNumber(123456789)).toBe('123,456,789');
    expect(f.formatDuration(400 * 86400)).toBe('1.1 years');
    expect(f.formatDuration(1e308 / 1000)).toBe('> 1 million years');
    expect(f.formatDuration(3 * 86400)).toBe('3 d');
  });

  it('keeps output short and free of e-notation for any finite number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        for (const s of [
          f.formatNumber(x),
          f.formatDuration(x),
          f.formatPercent(x),
          f.formatRatio(x),
          f.formatMoney(x),
        ]) {
          if (/e[+-]?\d/.test(s) || s.length > 24) return false;
        }
        return true;
      }),
    );
  });

  it('keeps output short for any finite number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e18, max: 1e18 }), (x) => {
        for (const s of [f.formatBytes(x), f.formatDuration(x), f.formatTokens(x), f.formatBandwidth(x)]) {
          if (s.includes('NaN') || s.includes('Infinity') || s.length > 24) return false;
        }
        return true;
      }),
    );
  });
});
