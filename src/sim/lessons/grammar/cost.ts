/**
 * Lesson 07.09's arithmetic: how often a slow mask step happens in a batch, and what a grammar compile adds to
 * the tail of time to first token when a share of requests must compile (a cache miss, or a one-shot schema).
 * Compile-time distributions are the fleet simulator's MaskBench presets (log-normals through p50 and p90).
 */
import { GRAMMAR_COMPILE_PRESETS } from '../../engine/fleet/dist';
import { normQuantile } from '../standardNormal';

export type CompilePreset = keyof typeof GRAMMAR_COMPILE_PRESETS;

/** Mask computations per second beyond the q-quantile: B sequences, one mask each per step of stepS seconds. */
export function tailMasksPerSecond(batch: number, stepS: number, q: number): number {
  return (batch / stepS) * (1 - q);
}

/** The p-quantile of a preset's compile time (s), capped at its max. */
export function compileQuantileS(preset: CompilePreset, p: number): number {
  const d = GRAMMAR_COMPILE_PRESETS[preset];
  return Math.min(d.max, d.median * Math.exp(d.sigma * normQuantile(p)));
}

/**
 * The q-quantile of the compile time added to TTFT when a share `miss` of requests compiles (the rest add 0):
 * P(added > x) = miss · P(C > x), so the q-quantile is C's quantile at 1 − (1 − q)/miss, or 0 when miss ≤ 1 − q.
 */
export function addedTtftQuantileS(preset: CompilePreset, miss: number, q: number): number {
  if (miss <= 1 - q) return 0;
  return compileQuantileS(preset, 1 - (1 - q) / miss);
}
