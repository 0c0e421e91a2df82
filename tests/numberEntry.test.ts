import { describe, expect, it } from 'vitest';
import { parseNumberEntry } from '../src/lib/numberEntry';

describe('parseNumberEntry', () => {
  it('reads a decimal comma as a decimal, and says it interpreted it', () => {
    expect(parseNumberEntry('0,5')).toEqual({ value: 0.5, interpreted: true });
    expect(parseNumberEntry('12,75', ',')).toEqual({ value: 12.75, interpreted: true });
  });
  it('reads a thousands comma in English, a decimal comma where the locale uses one', () => {
    expect(parseNumberEntry('12,500', '.')).toEqual({ value: 12500, interpreted: true });
    expect(parseNumberEntry('12,500', ',')).toEqual({ value: 12.5, interpreted: true });
    expect(parseNumberEntry('1,234,567')?.value).toBe(1234567);
  });
  it('takes the last of a comma and a point as the decimal separator', () => {
    expect(parseNumberEntry('1,234.5')?.value).toBe(1234.5);
    expect(parseNumberEntry('1.234,5')?.value).toBe(1234.5);
    expect(parseNumberEntry('1.234.567')?.value).toBe(1234567);
  });
  it('accepts spaces, underscores, apostrophes, a minus sign and e-notation', () => {
    expect(parseNumberEntry(' 12 500 ')).toEqual({ value: 12500, interpreted: false });
    expect(parseNumberEntry('1_000')?.value).toBe(1000);
    expect(parseNumberEntry("1'000")?.value).toBe(1000);
    expect(parseNumberEntry('\u22123.5')?.value).toBe(-3.5);
    expect(parseNumberEntry('2.5e3')).toEqual({ value: 2500, interpreted: false });
    expect(parseNumberEntry('.5')?.value).toBe(0.5);
  });
  it('refuses what is not a number in any convention', () => {
    for (const bad of ['', 'abc', '12 ms', '1,2,3', '1.2.3', '1,234.5.6', '--3', 'Infinity', '1e999'])
      expect(parseNumberEntry(bad), bad).toBeNull();
  });
});
