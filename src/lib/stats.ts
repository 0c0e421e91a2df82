/** Small statistics for the main thread's figures (the core's own are in src/sim/engine/fleet/metrics.ts). */

/** The middle value of xs (the mean of the two middle ones for an even count); NaN for none, shown as "—". */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
