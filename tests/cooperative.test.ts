/**
 * Cooperative cancellation inside the core (#12 item 1): long lesson computations are generators that yield every
 * few ms of work (src/sim/engine/cooperative.ts), and the worker methods that can run long at their widget's
 * maxima await the job's checkpoint at each yield (07.08's mask trace has its own, tests/lesson-07-08-limits-engine.test.ts). For each method: a job that reports cancelled after N checks
 * makes the call reject with JobCancelled at that check (counted in checks, never timed), long before a full run
 * would end; a never-cancelled job gives the same result as the direct computation. The speed-ups that came with
 * it (a session's prompts hashed incrementally, a typed-array set of hashes) are checked against the plain
 * computation they replace. Progress: the core's yields carry done of total (monotonic, ending at total), and the
 * worker's frames (throttled, stage by stage) end at the last stage's total.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  finish,
  finishCooperatively,
  Pace,
  type StepProgress,
  type Steps,
} from '../src/sim/engine/cooperative';
import { sortedNumbersSteps, sortSteps } from '../src/sim/engine/sortSteps';
import { arrivalOrder, arrivalOrderSteps } from '../src/sim/engine/trace/stats';
import { ProgressFrames, type JobProgress } from '../src/worker/progress';
import { compactionEdit, compactionMethods } from '../src/worker/compactionMethods';
import { EDIT_DEFAULTS, editArgs, type EditValues } from '../src/widgets/context-compaction/schema';
import { isCannotRun } from '../src/sim/engine/cannotRun';
import { cacheRouterArgs, cacheRouterSchema } from '../src/widgets/cache-router/schema';
import { runRouterAnimation } from '../src/sim/lessons/routing/animation';
import { BlockHashSet } from '../src/sim/engine/kvcache/blockHashSet';
import { segmentBlockHashes } from '../src/sim/engine/kvcache/hash';
import {
  LAYOUTS,
  layoutPrompt,
  simulateLayout,
  simulateLayoutSteps,
  type LayoutResult,
  type LayoutSetup,
} from '../src/sim/lessons/toolLayouts';
import {
  generateWorkload,
  generateWorkloadSteps,
  toMooncakeJsonl,
  workloadTable,
  workloadTableSteps,
} from '../src/sim/lessons/agentWorkload';
import { assumptionFigures, assumptionFiguresSteps } from '../src/sim/lessons/agentWorkloadFigures';
import { trafficShape, trafficShapeSteps } from '../src/sim/lessons/trafficShape';
import { JobCancelled, type JobContext } from '../src/worker/job';
import { pacedYield } from '../src/worker/pacedCheckpoint';
import { toolLayouts } from '../src/worker/schemaMethods';
import { workloadMethods } from '../src/worker/workloadMethods';
import { chunkTradeoff, prefillMethods } from '../src/worker/prefillMethods';
import { layoutArgs, LAYOUT_DEFAULTS } from '../src/widgets/tool-schema/schema';
import { tradeoffArgs, tradeoffSchema } from '../src/widgets/long-prefill/schema';
import { defaultValues } from '../src/state/paramSchema';
import { askNicely } from '../src/sim/lessons/grammar/slip';
import { grammarMethods } from '../src/worker/grammarMethods';

/** A job context that counts its checks (checkpoints and isCancelled calls) and is cancelled from check n on. */
function countingContext(cancelAt = Infinity): JobContext & { checks: number } {
  const ctx = {
    checks: 0,
    isCancelled: () => ++ctx.checks >= cancelAt,
    async checkpoint() {
      await Promise.resolve();
      if (++ctx.checks >= cancelAt) throw new JobCancelled();
    },
    emit: async () => {},
  };
  return ctx;
}

/** Run a method twice: cancelled at check `n`, then never cancelled; the checks each took. */
async function cancelAndRun<T>(call: (ctx: JobContext) => Promise<T>, n: number) {
  const cancelled = countingContext(n);
  await expect(call(cancelled)).rejects.toBeInstanceOf(JobCancelled);
  const full = countingContext();
  const result = await call(full);
  return { cancelledChecks: cancelled.checks, fullChecks: full.checks, result };
}

describe('the cooperative drivers', () => {
  function* counting(n: number): Steps<number> {
    let s = 0;
    for (let i = 0; i < n; i++) {
      s += i;
      yield;
    }
    return s;
  }

  it('finish runs straight through; finishCooperatively awaits the checkpoint at every yield', async () => {
    expect(finish(counting(10))).toBe(45);
    let checks = 0;
    expect(await finishCooperatively(counting(10), async () => void checks++)).toBe(45);
    expect(checks).toBe(10);
    expect(await finishCooperatively(counting(10))).toBe(45);
  });

  it('a checkpoint that throws ends the computation there (its finally blocks run)', async () => {
    let cleaned = false;
    let steps = 0;
    function* withCleanup(): Steps<void> {
      try {
        for (;;) {
          steps++;
          yield;
        }
      } finally {
        cleaned = true;
      }
    }
    let checks = 0;
    const stop = async () => {
      if (++checks === 3) throw new JobCancelled();
    };
    await expect(finishCooperatively(withCleanup(), stop)).rejects.toBeInstanceOf(JobCancelled);
    expect(steps).toBe(3);
    expect(cleaned).toBe(true);
  });

  it('a pace is due every `every` units, by count alone', () => {
    const pace = new Pace(5);
    const due = Array.from({ length: 12 }, () => pace.due());
    expect(due.map((d, i) => (d ? i : -1)).filter((i) => i >= 0)).toEqual([4, 9]);
    expect(new Pace(10).due(25)).toBe(true);
    expect(() => new Pace(0)).toThrow(RangeError);
  });
});

describe('the worker side: a paced checkpoint', () => {
  it('checks for a cancel at every yield but gives the event loop a turn only when its interval has passed', async () => {
    let checks = 0;
    let turns = 0;
    const never = pacedYield(
      () => (checks++, false),
      async () => void turns++,
      Infinity,
    );
    for (let i = 0; i < 50; i++) await never();
    expect([checks, turns]).toEqual([50, 0]);
    const always = pacedYield(
      () => false,
      async () => void turns++,
      0,
    );
    for (let i = 0; i < 5; i++) await always();
    expect(turns).toBe(5);
    const cancelled = pacedYield(
      () => true,
      async () => void turns++,
      Infinity,
    );
    await expect(cancelled()).rejects.toBeInstanceOf(JobCancelled);
  });
});

describe('BlockHashSet', () => {
  it('has the membership and size of a Set of the same 52-bit hashes', () => {
    const hash = fc.oneof(
      fc.integer({ min: 0, max: 2 ** 52 - 1 }),
      fc.constantFrom(0, 1, 2 ** 32, 2 ** 32 + 1, 2 ** 52 - 1),
    );
    fc.assert(
      fc.property(fc.array(hash, { maxLength: 3000 }), fc.array(hash, { maxLength: 200 }), (adds, probes) => {
        const set = new BlockHashSet(4);
        const ref = new Set<number>();
        for (const h of adds) {
          set.add(h);
          ref.add(h);
        }
        expect(set.size).toBe(ref.size);
        for (const h of [...adds, ...probes]) expect(set.has(h)).toBe(ref.has(h));
      }),
      { numRuns: 60 },
    );
  });

  it('refuses what is not a block hash', () => {
    const set = new BlockHashSet();
    for (const bad of [-1, 0.5, 2 ** 52, NaN]) expect(() => set.add(bad)).toThrow(RangeError);
  });
});

/** The layout simulation as first written: every prompt hashed afresh, a Set of every cached block. */
function naiveLayout(setup: LayoutSetup, layout: (typeof LAYOUTS)[number]): LayoutResult {
  const cached = new Set<number>();
  const turns: LayoutResult['turns'] = [];
  let promptSum = 0;
  let hitSum = 0;
  let toolSum = 0;
  for (let t = 1; t <= setup.turns; t++) {
    const prompt = layoutPrompt(setup, layout, t);
    const { hashes, tokens } = segmentBlockHashes(prompt, setup.blockSize, { fullBlocksOnly: true });
    let k = 0;
    while (k < hashes.length && cached.has(hashes[k])) k++;
    const hitTokens = Math.min(k * setup.blockSize, tokens - 1);
    const groups: LayoutResult['turns'][number]['groups'] = [];
    let pos = 0;
    let toolPrefilled = 0;
    for (const seg of prompt) {
      const hit = Math.max(0, Math.min(seg.tokens, hitTokens - pos));
      const last = groups[groups.length - 1];
      if (last && last.kind === seg.kind) {
        last.tokens += seg.tokens;
        last.hit += hit;
      } else groups.push({ kind: seg.kind, tokens: seg.tokens, hit });
      if (seg.kind === 'tools') toolPrefilled += seg.tokens - hit;
      pos += seg.tokens;
    }
    turns.push({
      turn: t,
      promptTokens: tokens,
      hitTokens,
      prefillTokens: tokens - hitTokens,
      toolTokensPrefilled: toolPrefilled,
      groups,
    });
    promptSum += tokens;
    hitSum += hitTokens;
    toolSum += toolPrefilled;
    const after = segmentBlockHashes(
      [...prompt, { id: `out:${t}`, tokens: setup.outputTokens }],
      setup.blockSize,
      {
        fullBlocksOnly: true,
      },
    );
    for (const h of after.hashes) cached.add(h);
  }
  return {
    layout,
    turns,
    promptTokens: promptSum,
    hitTokens: hitSum,
    prefillTokens: promptSum - hitSum,
    toolTokensPrefilled: toolSum,
    hitRate: promptSum > 0 ? hitSum / promptSum : 0,
  };
}

describe('07.07 layouts (toolLayouts)', () => {
  it('the incremental layout simulation gives the plain one’s results for random sessions', () => {
    const setup = fc.record({
      tools: fc.array(
        fc.record({
          name: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
          tokens: fc.integer({ min: 1, max: 90 }),
        }),
        {
          minLength: 1,
          maxLength: 5,
        },
      ),
      addedTool: fc.record({ name: fc.constantFrom('bb', 'z'), tokens: fc.integer({ min: 1, max: 60 }) }),
      systemTokens: fc.integer({ min: 0, max: 200 }),
      newTokens: fc.integer({ min: 1, max: 120 }),
      outputTokens: fc.integer({ min: 0, max: 80 }),
      timestampTokens: fc.integer({ min: 0, max: 20 }),
      turns: fc.integer({ min: 1, max: 12 }),
      blockSize: fc.constantFrom(1, 3, 16, 64),
      changeTurn: fc.integer({ min: 1, max: 12 }),
      seed: fc.integer({ min: 0, max: 1000 }),
    });
    fc.assert(
      fc.property(setup, fc.constantFrom(...LAYOUTS), (s, layout) => {
        const tools = s.tools.filter((t, i) => s.tools.findIndex((u) => u.name === t.name) === i);
        const fixed = { ...s, tools };
        expect(simulateLayout(fixed, layout)).toEqual(naiveLayout(fixed, layout));
      }),
      { numRuns: 150 },
    );
  });

  it('a cancelled job stops at the check it was cancelled at; a never-cancelled one gives the direct result', async () => {
    const args = layoutArgs({ ...LAYOUT_DEFAULTS, turns: 60, newTokens: 3000, blockSize: '16' });
    const { cancelledChecks, fullChecks, result } = await cancelAndRun((ctx) => toolLayouts(args, ctx), 3);
    expect(cancelledChecks).toBe(3);
    expect(fullChecks).toBeGreaterThan(30);
    expect(result).toEqual(await toolLayouts(args));
  }, 60_000);
});

describe('07.01 traffic shape (workloadShape, traceShape)', () => {
  const req = { mix: 'agent' as const, sessions: 300, medianTurns: 60, seed: 4242 };

  it('a cancelled job stops at the check it was cancelled at; a never-cancelled one gives the direct result', async () => {
    const { cancelledChecks, fullChecks, result } = await cancelAndRun(
      (ctx) => workloadMethods.workloadShape(req, ctx),
      2,
    );
    // The shared run checks each waiter's isCancelled at its checkpoints: the second check (the worker's turn
    // queue, src/worker/turns.ts, ranking the run for its next turn) sees the cancel and hands the run its turn at
    // once, and the run's own check right after stops it.
    expect(cancelledChecks).toBe(3);
    expect(fullChecks).toBeGreaterThan(20);
    const w = generateWorkload({
      mix: req.mix,
      sessions: req.sessions,
      seed: req.seed,
      medianTurns: req.medianTurns,
    });
    expect(result).toEqual({
      shape: trafficShape(workloadTable(w), { format: 'generated' }),
      figures: assumptionFigures(w),
    });
  }, 60_000);

  it('a run shared by two jobs goes on while one of them still waits', async () => {
    const shared = { ...req, seed: 4243 };
    const gone = countingContext(1);
    const waiting = countingContext();
    const [a, b] = await Promise.allSettled([
      workloadMethods.workloadShape(shared, gone),
      workloadMethods.workloadShape(shared, waiting),
    ]);
    expect(a.status).toBe('fulfilled');
    expect(b.status).toBe('fulfilled');
  }, 60_000);

  it('the incremental request table equals one hashed prompt by prompt from the start', () => {
    const w = generateWorkload({ mix: 'mix', sessions: 40, seed: 9, medianTurns: 25 });
    const t = workloadTable(w, 64);
    const ids = new Map<number, number>();
    const blocks: number[] = [];
    for (const r of w.requests)
      for (const h of segmentBlockHashes(r.segments, 64).hashes) {
        if (!ids.has(h)) ids.set(h, ids.size);
        blocks.push(ids.get(h)!);
      }
    expect(Array.from(t.blocks)).toEqual(blocks);
    expect(t.uniqueBlocks).toBe(ids.size);
  });

  it('the statistics of a loaded trace are cancelled in their cache replay too', async () => {
    const w = generateWorkload({ mix: 'agent', sessions: 200, seed: 5, medianTurns: 60 });
    const text = toMooncakeJsonl(workloadTable(w));
    const call = (ctx: JobContext) =>
      workloadMethods.traceShape({ text, name: 'mine.jsonl' }, ctx as JobContext<never>);
    const { cancelledChecks, fullChecks, result } = await cancelAndRun(call, 3);
    expect(cancelledChecks).toBe(3);
    expect(fullChecks).toBeGreaterThan(6);
    expect(result.shape.requests).toBe(w.requests.length);
  }, 60_000);
});

describe('07.10 chunk-size trade-off (chunkTradeoff)', () => {
  it('a cancelled job stops at the check it was cancelled at; a never-cancelled one gives the direct result', async () => {
    const args = tradeoffArgs(defaultValues(tradeoffSchema));
    const { cancelledChecks, fullChecks, result } = await cancelAndRun(
      async (ctx) => prefillMethods.chunkTradeoff(args, ctx),
      3,
    );
    expect(cancelledChecks).toBe(3);
    expect(fullChecks).toBeGreaterThan(30);
    expect(result).toEqual(chunkTradeoff(args));
  }, 60_000);
});

describe('07.08 asking nicely (grammarAskNicely)', () => {
  it('a cancelled job stops at the check it was cancelled at; a never-cancelled one gives the direct result', async () => {
    const req = { eps: 0.00001, tokens: 2000, calls: 2000, seed: 7 };
    const { cancelledChecks, fullChecks, result } = await cancelAndRun(
      (ctx) => grammarMethods.grammarAskNicely(req, ctx),
      3,
    );
    expect(cancelledChecks).toBe(3);
    expect(fullChecks).toBeGreaterThan(30);
    expect(result).toEqual(askNicely(req));
  }, 60_000);
});

describe('cooperative sorts (sortSteps.ts)', () => {
  it('a sorted copy of numbers equals Float64Array.prototype.sort element for element (−0, NaN, ties)', () => {
    const num = fc.oneof(fc.double(), fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1, 1, 2));
    fc.assert(
      fc.property(fc.array(num, { maxLength: 300 }), fc.integer({ min: 1, max: 50 }), (xs, every) => {
        const mine = finish(sortedNumbersSteps(xs, new Pace(every)));
        const native = Float64Array.from(xs).sort();
        expect(mine.length).toBe(native.length);
        for (let i = 0; i < mine.length; i++) expect(Object.is(mine[i], native[i])).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('sorting by a comparator is stable, as Array.prototype.sort', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 300 }), (keys) => {
        const items = keys.map((k, i) => ({ k, i }));
        const mine = finish(sortSteps([...items], (a, b) => a.k - b.k, new Pace(7)));
        expect(mine).toEqual([...items].sort((a, b) => a.k - b.k));
      }),
      { numRuns: 200 },
    );
  });

  it('yields while it merges, by elements moved', () => {
    let yields = 0;
    const steps = sortedNumbersSteps(
      Array.from({ length: 1000 }, (_, i) => 1000 - i),
      new Pace(100),
    );
    while (!steps.next().done) yields++;
    // 10 merge passes of 1,000 elements: at most a yield per 100 elements moved, checked after each merged pair of
    // runs (a pair of 512 moves more than 100 at once and yields once).
    expect(yields).toBeGreaterThanOrEqual(50);
    expect(yields).toBeLessThanOrEqual(100);
  });

  it("07.01's arrival order of a shuffled trace is the one arrivalOrder gives", () => {
    const w = generateWorkload({ mix: 'mix', sessions: 60, seed: 3, medianTurns: 20 });
    const t = workloadTable(w);
    const shuffled = { ...t, arrivalS: Float64Array.from(t.arrivalS, (a, i) => (i % 7 === 3 ? a + 500 : a)) };
    expect(Array.from(finish(arrivalOrderSteps(shuffled)))).toEqual(Array.from(arrivalOrder(shuffled)));
  });
});

describe('07.11 edit the prompt (compactionEdit)', () => {
  it('a cancelled job stops at the check it was cancelled at; a never-cancelled one gives the direct result', async () => {
    // The smallest blocks the core takes (16 tokens) over a long session: hundreds of thousands of blocks hashed.
    const args = editArgs({
      ...EDIT_DEFAULTS,
      blockSize: '16',
      turns: 200,
      resultTokens: 20000,
    } as EditValues);
    const call = async (ctx: JobContext) => {
      const r = await compactionMethods.compactionEdit(args, ctx);
      if (isCannotRun(r)) throw new Error('cannot run');
      return r;
    };
    const { cancelledChecks, fullChecks, result } = await cancelAndRun(call, 3);
    expect(cancelledChecks).toBe(3);
    expect(fullChecks).toBeGreaterThan(6);
    expect(result).toEqual(compactionEdit(args));
  }, 60_000);
});

/** Every progress a computation's yields carry, in order. */
function progressOf<T>(steps: Steps<T>): { result: T; progress: StepProgress[] } {
  const progress: StepProgress[] = [];
  for (;;) {
    const r = steps.next();
    if (r.done) return { result: r.value, progress };
    if (r.value) progress.push(r.value);
  }
}

function expectMonotonicToTotal(progress: readonly StepProgress[]) {
  expect(progress.length).toBeGreaterThan(1);
  const total = progress[0].total;
  expect(progress.every((p) => p.total === total && p.done >= 0 && p.done <= total)).toBe(true);
  expect(progress.every((p, i) => i === 0 || p.done >= progress[i - 1].done)).toBe(true);
  expect(progress[progress.length - 1].done).toBe(total);
}

describe('progress: the core says how far it is, the worker sends it as frames', () => {
  it("the core's yields carry monotonic progress that ends at its total", () => {
    const setup = {
      tools: [
        { name: 'a', tokens: 400 },
        { name: 'b', tokens: 300 },
      ],
      addedTool: { name: 'c', tokens: 200 },
      systemTokens: 2000,
      newTokens: 3000,
      outputTokens: 300,
      timestampTokens: 20,
      turns: 40,
      blockSize: 16,
      changeTurn: 10,
      seed: 1,
    };
    for (const layout of LAYOUTS) {
      const { result, progress } = progressOf(simulateLayoutSteps(setup, layout));
      expectMonotonicToTotal(progress);
      // The unit is the prompt tokens the session replays: its total is the result's.
      expect(progress[progress.length - 1].total).toBe(result.promptTokens);
    }
    const opts = { mix: 'agent' as const, sessions: 120, seed: 2, medianTurns: 60 };
    const gen = progressOf(generateWorkloadSteps(opts));
    expectMonotonicToTotal(gen.progress);
    expect(gen.progress[0].total).toBe(120);
    const table = progressOf(workloadTableSteps(gen.result));
    expectMonotonicToTotal(table.progress);
    expect(table.progress[0].total).toBe(gen.result.requests.length);
    expectMonotonicToTotal(progressOf(trafficShapeSteps(table.result)).progress);
    expectMonotonicToTotal(progressOf(assumptionFiguresSteps(gen.result)).progress);
  });

  it('frames: none before the first interval, then throttled, and always the end once any was sent', async () => {
    const sent: JobProgress[] = [];
    const frames = new ProgressFrames(async (p) => void sent.push(p), 0, Infinity);
    const stage = { label: 'Replaying', unit: 'turns', stages: 2 };
    for (let s = 1; s <= 2; s++)
      for (let d = 0; d <= 10; d++) await frames.report({ ...stage, stage: s, done: d, total: 10 });
    expect(sent.map((p) => [p.stage, p.done])).toEqual([
      [1, 0],
      [2, 10],
    ]);
    const none: JobProgress[] = [];
    const late = new ProgressFrames(async (p) => void none.push(p), Infinity, 0);
    for (let d = 0; d <= 10; d++) await late.report({ ...stage, stage: 2, done: d, total: 10 });
    expect(none).toEqual([]);
  });

  it('toolLayouts sends monotonic frames, stage by stage, ending at layout 6 of 6 at its total', async () => {
    // A clock that moves 30 ms at every reading, so the wall-time throttle lets frames through deterministically.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 30));
    try {
      const frames: JobProgress[] = [];
      const ctx = { ...countingContext(), emit: async (f: JobProgress) => void frames.push(f) };
      const args = layoutArgs({ ...LAYOUT_DEFAULTS, turns: 40, newTokens: 3000, blockSize: '16' });
      await toolLayouts(args, ctx);
      expect(frames.length).toBeGreaterThan(6);
      const order = (f: JobProgress) => (f.stage ?? 1) * 1e15 + f.done;
      expect(frames.every((f, i) => i === 0 || order(f) >= order(frames[i - 1]))).toBe(true);
      expect(frames.every((f) => f.stages === 6 && f.unit === 'prompt tokens')).toBe(true);
      const last = frames[frames.length - 1];
      expect([last.stage, last.done]).toEqual([6, last.total]);
    } finally {
      clock.mockRestore();
    }
  }, 60_000);

  it('a shared run sends its progress to each job waiting for it (07.01 traffic shape)', async () => {
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 30));
    try {
      const a: JobProgress[] = [];
      const b: JobProgress[] = [];
      const req = { mix: 'agent' as const, sessions: 150, medianTurns: 60, seed: 4249 };
      await Promise.all([
        workloadMethods.workloadShape(req, {
          ...countingContext(),
          emit: async (f: JobProgress) => void a.push(f),
        }),
        workloadMethods.workloadShape(req, {
          ...countingContext(),
          emit: async (f: JobProgress) => void b.push(f),
        }),
      ]);
      for (const frames of [a, b]) {
        expect(frames.length).toBeGreaterThan(4);
        expect(new Set(frames.map((f) => f.stage))).toEqual(new Set([1, 2, 3, 4]));
        const last = frames[frames.length - 1];
        expect([last.stage, last.stages, last.done]).toEqual([4, 4, last.total]);
      }
    } finally {
      clock.mockRestore();
    }
  }, 60_000);
});

describe("progress of a fleet run (the core: runScenario through 07.03's animated router)", () => {
  it('checkpoints carry the simulated seconds so far (a run has no known end), monotonic', async () => {
    const progress: StepProgress[] = [];
    // The widget's largest fleet and load (its default policy).
    const v = defaultValues(cacheRouterSchema) as Record<string, unknown>;
    for (const [k, p] of Object.entries(cacheRouterSchema)) if (p.kind === 'number') v[k] = p.max;
    const args = cacheRouterArgs(v as Parameters<typeof cacheRouterArgs>[0]);
    const r = await runRouterAnimation(args, {
      checkpoint: async (p?: StepProgress) => {
        if (p) progress.push(p);
      },
    });
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.every((p) => p.total === 0)).toBe(true);
    expect(progress.every((p, i) => i === 0 || p.done >= progress[i - 1].done)).toBe(true);
    expect(progress[progress.length - 1].done).toBeLessThanOrEqual(r.endS);
  }, 60_000);
});
