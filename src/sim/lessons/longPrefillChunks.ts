/**
 * Lesson 07.10's choice of a chunk size: the long prompt's TTFT and the decodes' p99 gap at each chunk of a grid
 * (each point one timeline of longPrefill.ts), the range of chunks that meets both SLOs, refined to the whole
 * token, and the chunk below which a chunk iteration turns memory-bound. TTFT falls and the gap rises with the
 * chunk, which is what makes the feasible set one range. Apart from longPrefill.ts because that file schedules
 * one setup's iterations and this one searches over chunk sizes, reading only each timeline's summary figures
 * (and, for the memory-bound threshold, one iteration's cost).
 *
 * Pure: no DOM, no randomness. Units: seconds, tokens.
 */
import { finish, type Steps } from '../engine/cooperative';
import type { ModelSpec } from '../engine/catalog/models';
import { iterationCost, type HardwareConfig } from '../engine/cost';
import { prefillTimeline, type TimelineSetup } from './longPrefill';

/** One point of the chunk-size sweep. */
export interface ChunkPoint {
  chunk: number;
  ttftS: number;
  gapP99S: number;
  gapMaxS: number;
  prefillIterations: number;
  memoryBoundIterations: number;
}

export function chunkPoint(setup: Omit<TimelineSetup, 'chunk'>, chunk: number): ChunkPoint {
  const tl = prefillTimeline({ ...setup, chunk, leadIterations: 1, tailIterations: 1 });
  return {
    chunk,
    ttftS: tl.ttftS,
    gapP99S: tl.gaps.p99,
    gapMaxS: tl.gaps.max,
    prefillIterations: tl.prefillIterations,
    memoryBoundIterations: tl.memoryBoundIterations,
  };
}

/**
 * chunkPoint at every chunk of a grid, as a cooperative computation (engine/cooperative.ts): it yields after each
 * point (one timeline: up to ~10 ms at the trade-off widget's maxima).
 */
export function* chunkPointsSteps(
  setup: Omit<TimelineSetup, 'chunk'>,
  chunks: readonly number[],
): Steps<ChunkPoint[]> {
  const out: ChunkPoint[] = [];
  for (const c of chunks) {
    out.push(chunkPoint(setup, c));
    yield { done: out.length, total: chunks.length };
  }
  return out;
}

/** Powers of two times 1, 1.25, 1.5, 1.75 (four points an octave) from lo to hi, both included, as whole tokens. */
export function chunkGrid(lo: number, hi: number): number[] {
  const out = new Set<number>();
  for (let p = 1; p <= hi * 2; p *= 2)
    for (const f of [1, 1.25, 1.5, 1.75]) {
      const v = Math.round(p * f);
      if (v >= lo && v <= hi) out.add(v);
    }
  out.add(lo);
  out.add(hi);
  return [...out].sort((a, b) => a - b);
}

/**
 * The chunk sizes that meet both SLOs: TTFT of the long prompt ≤ ttftSloS and p99 gap of the decodes ≤ itlSloS.
 * TTFT falls and the gap rises with the chunk, so the feasible set is a range [lo, hi]; each end is refined to
 * the whole token by bisection between the grid points that bracket it. null when no chunk meets both.
 */
export function feasibleChunks(
  setup: Omit<TimelineSetup, 'chunk'>,
  points: readonly ChunkPoint[],
  ttftSloS: number,
  itlSloS: number,
): { lo: number; hi: number } | null {
  return finish(feasibleChunksSteps(setup, points, ttftSloS, itlSloS));
}

/**
 * feasibleChunks as a cooperative computation (engine/cooperative.ts): it yields after each timeline it runs, with
 * its progress in bisection steps.
 */
export function* feasibleChunksSteps(
  setup: Omit<TimelineSetup, 'chunk'>,
  points: readonly ChunkPoint[],
  ttftSloS: number,
  itlSloS: number,
): Steps<{ lo: number; hi: number } | null> {
  const ok = (p: ChunkPoint) => p.ttftS <= ttftSloS && p.gapP99S <= itlSloS;
  const idx = points.map((p, i) => (ok(p) ? i : -1)).filter((i) => i >= 0);
  if (idx.length === 0) return null;
  const first = idx[0];
  const last = idx[idx.length - 1];
  // Progress in bisection steps: at most ⌈log₂ width⌉ for each end's bracket.
  const steps = (a: number, b: number) => (b - a > 1 ? Math.ceil(Math.log2(b - a)) : 0);
  const total =
    (first > 0 ? steps(points[first - 1].chunk, points[first].chunk) : 0) +
    (last < points.length - 1 ? steps(points[last].chunk, points[last + 1].chunk) : 0);
  let done = 0;
  const meetsTtft = (c: number) => chunkPoint(setup, c).ttftS <= ttftSloS;
  const meetsItl = (c: number) => chunkPoint(setup, c).gapP99S <= itlSloS;
  // Narrows a bracket between a chunk that meets both SLOs and one that does not to neighbouring whole tokens;
  // returns the end that meets them. `meets` may lie above `fails` or below.
  function* boundary(meets: number, fails: number, ok: (c: number) => boolean): Steps<number> {
    while (Math.abs(fails - meets) > 1) {
      const m = Math.floor((meets + fails) / 2);
      if (ok(m)) meets = m;
      else fails = m;
      yield { done: Math.min(++done, total), total };
    }
    return meets;
  }
  // Each end tests first the SLO that fails beyond it, so a probe past the end costs one timeline, not two.
  // Smallest chunk meeting both, between points[first − 1] (fails) and points[first] (meets): TTFT fails below.
  let lo = points[first].chunk;
  if (first > 0) lo = yield* boundary(lo, points[first - 1].chunk, (c) => meetsTtft(c) && meetsItl(c));
  // Largest, between points[last] (meets) and points[last + 1] (fails): the gap fails above.
  let hi = points[last].chunk;
  if (last < points.length - 1)
    hi = yield* boundary(hi, points[last + 1].chunk, (c) => meetsItl(c) && meetsTtft(c));
  if (total > 0) yield { done: total, total };
  return { lo, hi };
}

/**
 * The chunk below which a chunk iteration is memory-bound at prompt position c: the n where
 *   GEMM / (G·peak·e_GEMM) + attention / (G·peak·e_attn) = (weights + KV of decodes and of c + n) / (G·BW·MBU).
 * Found by bisection on the cost model itself (iterationCost), so it includes everything the iterations do.
 * Returns 0 when even a one-token chunk is compute-bound, and Infinity when no chunk up to 1M tokens is.
 */
export function memoryBoundChunk(
  model: ModelSpec,
  hw: HardwareConfig,
  decodes: number,
  decodeContext: number,
  cachedTokens: number,
): number {
  const ctxs = new Array<number>(decodes).fill(decodeContext + 1);
  const bound = (n: number) =>
    iterationCost(model, hw, { prefill: [{ newTokens: n, cachedTokens }], decodeContextTokens: ctxs }).bound;
  if (bound(1) === 'compute') return 0;
  let a = 1;
  let b = 1_000_000;
  if (bound(b) === 'memory') return Infinity;
  while (b - a > 1) {
    const m = Math.floor((a + b) / 2);
    if (bound(m) === 'memory') a = m;
    else b = m;
  }
  return b;
}
