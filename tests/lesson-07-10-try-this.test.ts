/**
 * Lesson 07.10's "Try this" items (which its guided tour plays): each direction an item claims, computed by the core
 * with the state the item sets (the widgets' TRY_THIS over their schema defaults).
 */
import { describe, expect, it } from 'vitest';
import { chunkTradeoff, hitRateVsKernel } from '../src/worker/prefillMethods';
import { prefillTimelineRun } from '../src/worker/prefillTimelineMethods';
import {
  hitKernelArgs,
  hitKernelSchema,
  timelineArgs,
  timelineSchema,
  tradeoffArgs,
  tradeoffSchema,
} from '../src/widgets/long-prefill/schema';
import { TRY_THIS as TIMELINE_TRY } from '../src/widgets/long-prefill/ChunkedPrefillTimeline';
import { TRY_THIS as TRADEOFF_TRY } from '../src/widgets/long-prefill/ChunkSizeTradeoff';
import { TRY_THIS as KERNEL_TRY } from '../src/widgets/long-prefill/HitRateVsKernel';
import type { TryItem } from '../src/widgets/kit/stage';
import { expectEveryItemFits, expectValidSets, valuesOf } from './try-this';

const timeline = (item?: TryItem) => prefillTimelineRun(timelineArgs(valuesOf(timelineSchema, item))).run;
const tradeoff = (item?: TryItem) => chunkTradeoff(tradeoffArgs(valuesOf(tradeoffSchema, item)));
const kernel = (item?: TryItem) => hitRateVsKernel(hitKernelArgs(valuesOf(hitKernelSchema, item)));

describe('every item of the three widgets leads to a replica that runs', () => {
  it('the model fits its GPUs with room for KV (the widgets call the fitted methods)', () => {
    expectEveryItemFits(TIMELINE_TRY, (item) => timelineArgs(valuesOf(timelineSchema, item)));
    expectEveryItemFits(TRADEOFF_TRY, (item) => tradeoffArgs(valuesOf(tradeoffSchema, item)));
    expectEveryItemFits(KERNEL_TRY, (item) => hitKernelArgs(valuesOf(hitKernelSchema, item)));
  });
});

describe('Chunked prefill timeline: Try this', () => {
  const base = timeline();
  it('every item sets parameters of the widget’s schema to values its controls offer', () => {
    expectValidSets(TIMELINE_TRY, timelineSchema);
  });

  it('0 · no chunking: one iteration of seconds, the gap from tens of milliseconds to the whole prefill, TTFT falls', () => {
    const whole = timeline(TIMELINE_TRY[0]);
    expect(whole.prefillIterations).toBe(1);
    expect(whole.ttftS).toBeGreaterThan(1);
    expect(base.gaps.max).toBeGreaterThan(0.01);
    expect(base.gaps.max).toBeLessThan(0.1);
    expect(whole.gaps.max).toBeGreaterThanOrEqual(whole.ttftS);
    expect(whole.ttftS).toBeLessThan(base.ttftS);
    // "once, and no decodes ride along"
    expect(whole.breakdown.fixedS).toBeLessThan(base.breakdown.fixedS);
    expect(whole.breakdown.rideS).toBe(0);
  });

  it('1 · 8,192-token chunks: the gap grows about with the chunk, TTFT falls by fixed costs; later full chunks are slower', () => {
    const big = timeline(TIMELINE_TRY[1]);
    const ratio = big.gaps.max / base.gaps.max;
    const chunkRatio = (TIMELINE_TRY[1].set!.chunk as number) / timelineSchema.chunk.default;
    expect(ratio).toBeGreaterThan(chunkRatio / 2);
    expect(ratio).toBeLessThan(chunkRatio * 1.5);
    expect(big.ttftS).toBeLessThan(base.ttftS);
    // What it saves is the per-iteration fixed cost and the ride-along, not the prompt's own work.
    expect(big.breakdown.ownS).toBeCloseTo(base.breakdown.ownS, 2);
    expect(big.breakdown.fixedS).toBeLessThan(base.breakdown.fixedS);
    expect(big.breakdown.rideS).toBeLessThan(base.breakdown.rideS);
    const full = big.iterations.filter((i) => i.prefillTokens === TIMELINE_TRY[1].set!.chunk);
    for (let i = 1; i < full.length; i++) expect(full[i].durationS).toBeGreaterThan(full[i - 1].durationS);
    const chunks = big.iterations.filter((i) => i.prefillTokens > 0);
    expect(chunks[chunks.length - 1].durationS).toBeLessThan(full[full.length - 1].durationS);
  });

  it('2 · 256-token chunks beside 128 sessions: many iterations memory-bound; TTFT grows by fixed costs, ride-along and memory time', () => {
    const small = timeline(TIMELINE_TRY[2]);
    expect(small.memoryBoundIterations).toBeGreaterThan(small.prefillIterations / 2);
    expect(small.ttftS).toBeGreaterThan(base.ttftS);
    expect(small.breakdown.rideS).toBeGreaterThan(base.breakdown.rideS);
    expect(small.breakdown.memoryS).toBeGreaterThan(base.breakdown.memoryS);
    expect(small.breakdown.memoryS).toBeGreaterThan(0.1 * (small.ttftS - base.ttftS));
    expect(small.breakdown.fixedS).toBeGreaterThan(base.breakdown.fixedS); // "every extra iteration pays its fixed costs"
  });
});

describe('Chunk size trade-off: Try this', () => {
  const base = tradeoff();
  it('every item sets parameters of the widget’s schema to values its controls offer', () => {
    expectValidSets(TRADEOFF_TRY, tradeoffSchema);
    expect(base.feasible).not.toBeNull();
  });

  it('0 · a 60 ms p99 SLO: the range ends just above 512 tokens', () => {
    const r = tradeoff(TRADEOFF_TRY[0]);
    expect(r.feasible!.hi).toBeGreaterThanOrEqual(512);
    expect(r.feasible!.hi).toBeLessThan(600);
    expect(r.feasible!.hi).toBeLessThan(base.feasible!.hi);
  });

  it('1 · a 250 ms p99 SLO: 2,048 fits', () => {
    const r = tradeoff(TRADEOFF_TRY[1]);
    expect(r.feasible!.lo).toBeLessThanOrEqual(2048);
    expect(r.feasible!.hi).toBeGreaterThanOrEqual(2048);
  });

  it('2 · 128 sessions: each extra iteration costs more, the memory-bound region widens, the smallest chunk within the TTFT SLO moves right', () => {
    const r = tradeoff(TRADEOFF_TRY[2]);
    expect(r.memoryBoundBelow).toBeGreaterThan(base.memoryBoundBelow);
    expect(r.feasible!.lo).toBeGreaterThan(base.feasible!.lo);
    // What an iteration beyond the whole prompt's one adds to TTFT, at the same chunk, with the item's sessions and
    // the default ones.
    const perExtraIteration = (decodes: number) => {
      const v = valuesOf(timelineSchema);
      const chunked = prefillTimelineRun(timelineArgs({ ...v, decodes })).run;
      const whole = prefillTimelineRun(timelineArgs({ ...v, decodes, chunked: false })).run;
      return (chunked.ttftS - whole.ttftS) / (chunked.prefillIterations - 1);
    };
    expect(TRADEOFF_TRY[2].set?.decodes).toBe(128);
    expect(perExtraIteration(128)).toBeGreaterThan(perExtraIteration(tradeoffSchema.decodes.default));
  });
  it('the tour and the prose: at the default SLOs the TTFT bound on the smallest chunk comes from the extra iterations’ fixed costs, hardly from memory-bound ones', async () => {
    const { prefillFigures } = await import('../src/worker/prefillFigureMethods');
    const { FIGURES_REQUEST } = await import('../src/widgets/long-prefill/schema');
    const lo = base.feasible!.lo;
    const f = prefillFigures({ ...FIGURES_REQUEST, chunks: [lo] });
    const c = f.chunks[0];
    const extra = c.ttftS - f.wholeS;
    const fixedExtra = c.breakdown.fixedS - f.iterationFixedS;
    // "chiefly its fixed costs": most of what chunking at the smallest feasible chunk costs.
    expect(fixedExtra).toBeGreaterThan(extra / 2);
    expect(fixedExtra).toBeGreaterThan(c.breakdown.rideS);
    // "for the smallest chunks, memory-bound iterations": here they add little (under 1% of the extra TTFT)…
    expect(c.breakdown.memoryS).toBeLessThan(0.01 * extra);
    // …while at the smallest chunk the sweep runs they add a visible share.
    const smallest = prefillFigures({ ...FIGURES_REQUEST, chunks: [base.points[0].chunk] }).chunks[0];
    expect(smallest.memoryBoundIterations).toBeGreaterThan(smallest.prefillIterations / 2);
    expect(smallest.breakdown.memoryS).toBeGreaterThan(10 * c.breakdown.memoryS);
  });

  it('3 · a TTFT SLO below the no-chunking line: no chunk size meets it', () => {
    const r = tradeoff(TRADEOFF_TRY[3]);
    expect(r.ttftSloS).toBeLessThan(r.whole.ttftS);
    expect(r.feasible).toBeNull();
    for (const p of r.points) expect(p.ttftS).toBeGreaterThan(r.ttftSloS);
  });
});

describe('Hit rate against a faster kernel: Try this', () => {
  const base = kernel();
  it('every item sets parameters of the widget’s schema to values its controls offer', () => {
    expectValidSets(KERNEL_TRY, hitKernelSchema);
  });

  it('0 · a 4× kernel still does not reach the higher hit rate’s time; a finite speed-up would', () => {
    const r = kernel(KERNEL_TRY[0]);
    expect(r.fromFaster.timeS).toBeGreaterThan(r.toStandard.timeS);
    expect(r.speedupToMatch).toBeGreaterThan(4);
    expect(Number.isFinite(r.speedupToMatch)).toBe(true);
  });

  it('1 · 97.5% hits: not even free attention matches it', () => {
    const r = kernel(KERNEL_TRY[1]);
    expect(r.fromFreeS).toBeGreaterThan(r.toStandard.timeS);
    expect(r.speedupToMatch).toBe(Infinity);
  });

  it('2 · a 20k context: attention’s share falls, and not even free attention matches the higher hit rate', () => {
    const r = kernel(KERNEL_TRY[2]);
    expect(r.fromStandard.attentionShare).toBeLessThan(base.fromStandard.attentionShare);
    expect(r.fromFreeS).toBeGreaterThan(r.toStandard.timeS);
    expect(r.speedupToMatch).toBe(Infinity);
  });
});
