/** Timing helpers for the benches: medians of repeated runs, peak memory. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function timeRuns(
  runs: number,
  fn: () => void,
): { medianMs: number; minMs: number; samplesMs: number[] } {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return { medianMs: median(samples), minMs: Math.min(...samples), samplesMs: samples };
}

export function mib(bytes: number): string {
  return (bytes / 1048576).toFixed(1) + ' MiB';
}
