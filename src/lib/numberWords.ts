/**
 * Small counts and ratios as the exercises' prose writes them in words ("eight GPUs", "one NIC", "eightfold",
 * "the 90th percentile"), from the number the computation uses: a count without a word falls back to its digits
 * (src/lib/format.ts), so a changed constant changes the text rather than leaving a stale word.
 */
import { formatNumber, formatPercent } from './format';

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
] as const;

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** A whole count in words ("eight"), capitalised to open a sentence; digits beyond twelve or for a fraction. */
export function countWord(n: number, capital = false): string {
  const w = Number.isInteger(n) && n >= 0 && n < WORDS.length ? WORDS[n] : formatNumber(n, 6);
  return capital ? capitalize(w) : w;
}

/** "eightfold" for 8; "16-fold" where the count has no word. */
export function foldWord(n: number): string {
  return Number.isInteger(n) && n >= 0 && n < WORDS.length ? `${WORDS[n]}fold` : `${formatNumber(n, 6)}-fold`;
}

/** An ordinal in digits: 1st, 2nd, 3rd, 11th, 90th, 99th. */
export function ordinal(n: number): string {
  const d = formatNumber(n, 6);
  const i = Math.round(n);
  if (i !== n) return `${d}th`;
  const t = i % 100;
  const last = i % 10;
  const suffix = t >= 11 && t <= 13 ? 'th' : last === 1 ? 'st' : last === 2 ? 'nd' : last === 3 ? 'rd' : 'th';
  return `${d}${suffix}`;
}

/** The part one thing is of another `ratio` times its size: "half" (the KV) for 2, else "25% of". */
export function partWord(ratio: number): string {
  return ratio === 2 ? 'half' : `${formatPercent(1 / ratio)} of`;
}

/** `ratio` times as many: "twice" (the pages) for 2, else "3 times". */
export function timesWord(ratio: number): string {
  return ratio === 2 ? 'twice' : `${formatNumber(ratio)} times`;
}
