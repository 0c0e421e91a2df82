/**
 * Lesson 07.11 (context compaction): the cache after an edit and the payback of a compaction, pinned to values
 * computed by hand (80k-token session: 2k system + 6k tools + 2k task + 40 turns × (300 out + 1,450 result)).
 */
import { describe, expect, it } from 'vitest';
import { lessonSource } from './lessonText';
import { buildPrompt, cacheAfterEdit, editPrompt, type Edit } from '../src/sim/lessons/compaction';
import {
  breakEvenTurn,
  paybackSeries,
  requestDollars,
  runPolicy,
  type PaybackParams,
  type Prices,
} from '../src/sim/lessons/compactionPayback';
import { compactionEdit, compactionPayback } from '../src/worker/compactionMethods';
import { methods } from '../src/worker/methods';
import { findModel } from '../src/sim/engine/catalog/models';
import { findAccelerator } from '../src/sim/engine/catalog/accelerators';
import { DEFAULT_GEMM_EFFICIENCY, defaultHardware, prefillTime } from '../src/sim/engine/cost';

const SHAPE = {
  systemTokens: 2000,
  toolTokens: 6000,
  taskTokens: 2000,
  turns: 40,
  outputTokens: 300,
  resultTokens: 1450,
};
const PRICES: Prices = {
  inputPerMTok: 3,
  outputPerMTok: 15,
  cacheReadMultiplier: 0.1,
  cacheWriteMultiplier: 1.25,
};
const PAY: PaybackParams = {
  contextTokens: 80_000,
  headTokens: 8_000,
  growthTokens: 1_750,
  outputTokens: 300,
  turns: 40,
  limitTokens: 131_072,
  thresholdTokens: 80_000,
  summaryTokens: 10_000,
  keepLast: 5,
  stubTokens: 20,
};

function cache(edit: Edit, blockSize = 16) {
  const before = buildPrompt(SHAPE);
  return cacheAfterEdit(before, editPrompt(before, SHAPE.turns, edit).prompt, blockSize);
}

describe('the cache after an edit', () => {
  it('the session is 80,000 tokens; without an edit only the latest result and the partial block miss', () => {
    const c = cache({ kind: 'none' });
    expect(c.tokensBefore).toBe(80_000);
    // 80,000 − 1,450 = 78,550 cached tokens → 4,909 full blocks of 16 = 78,544.
    expect(c.cachedBefore).toBe(78_544);
    expect(c.hitTokens).toBe(78_544);
    expect(c.reprefillTokens).toBe(1_456);
    expect(c.baselineReprefillTokens).toBe(1_456);
    expect(c.deadTokens).toBe(0);
  });

  it('one changed token at position 100 misses from block 6 on: 96 tokens hit', () => {
    const c = cache({ kind: 'token', position: 100 });
    expect(c.editPoint).toBe(100);
    expect(c.hitTokens).toBe(96);
    expect(c.reprefillTokens).toBe(80_000 - 96);
    expect(c.tokensAfter).toBe(80_000);
  });

  it('summarising turns 10–19 into 2,000 tokens re-prefills the summary and every turn after it', () => {
    const c = cache({ kind: 'summarise', fromTurn: 10, span: 10, summaryTokens: 2000 });
    // Edit point: 10,000 + 10 × 1,750 = 27,500; 1,718 full blocks = 27,488 tokens hit.
    expect(c.editPoint).toBe(27_500);
    expect(c.hitTokens).toBe(27_488);
    expect(c.tokensAfter).toBe(80_000 - 17_500 + 2_000);
    expect(c.reprefillTokens).toBe(64_500 - 27_488);
    // Unchanged cached content that misses: 12 tokens of turn 9 in the block the summary starts, and turns
    // 20–39 but the latest result (35,000 − 1,450), which moved.
    expect(c.movedTokens).toBe(12 + 35_000 - 1_450);
  });

  it('moving the edit earlier raises the tokens to re-prefill', () => {
    const at = (t: number) =>
      cache({ kind: 'summarise', fromTurn: t, span: 10, summaryTokens: 2000 }).reprefillTokens;
    expect(at(5)).toBeGreaterThan(at(10));
    expect(at(10)).toBeGreaterThan(at(20));
    const r = (t: number) => cache({ kind: 'retrieve', atTurn: t, docTokens: 3000 }).reprefillTokens;
    expect(r(20)).toBe(83_000 - 44_992);
    expect(r(5)).toBeGreaterThan(r(20));
  });

  it('pruning from turn 0 keeps only the head, the task and the first output', () => {
    const c = cache({ kind: 'prune', fromTurn: 0, keepLast: 5, stubTokens: 20 });
    expect(c.editPoint).toBe(10_300);
    expect(c.hitTokens).toBe(10_288);
    expect(c.tokensAfter).toBe(10_000 + 35 * 320 + 5 * 1750);
  });

  it('the worker prices the re-prefill with cost.ts', () => {
    const r = compactionEdit({
      modelId: 'llama-3.1-70b',
      acceleratorId: 'h100-sxm',
      tp: 8,
      gemmEfficiency: DEFAULT_GEMM_EFFICIENCY,
      shape: SHAPE,
      edit: { kind: 'summarise', fromTurn: 10, span: 10, summaryTokens: 2000 },
      blockSize: 16,
    });
    const hw = defaultHardware(findAccelerator('h100-sxm')!, 8);
    expect(r.reprefillSeconds).toBeCloseTo(prefillTime(findModel('llama-3.1-70b')!, hw, 37_012, 27_488), 12);
    expect(r.deadBytes).toBe(r.deadTokens * 327_680);
    expect(typeof methods.compactionEdit).toBe('function');
  });
});

describe('when compaction pays back', () => {
  const tokensClock = (n: number) => n;

  it('prices one request with the cache multipliers', () => {
    // 80,000 × $0.30/M + 1,750 × $3.75/M + 300 × $15/M
    expect(requestDollars(PRICES, 80_000, 1_750, 300)).toBeCloseTo(0.0350625, 12);
  });

  it('never compacting hits the 131,072-token limit at turn 30', () => {
    const r = runPolicy('none', PAY, PRICES, tokensClock);
    expect(r.limitTurn).toBe(30); // 80,000 + 30 × 1,750 = 132,500 > 131,072
    expect(r.turns).toHaveLength(29);
  });

  it('summarising 80k → 10k: the first turn costs the summary call and the re-prefill', () => {
    const r = runPolicy('summarise', PAY, PRICES, tokensClock);
    const t1 = r.turns[0];
    expect(t1.cachedTokens).toBe(8_000);
    expect(t1.prefillTokens).toBe(11_750);
    // summary call 80,000 × 0.3 + 10,000 × 15, then 8,000 × 0.3 + 11,750 × 3.75 + 300 × 15 ($/M)
    expect(t1.dollars).toBeCloseTo(0.2249625, 12);
    expect(r.compactions).toBe(2); // again at turn 37: 18,000 + 36 × 1,750 ≥ 80,000
  });

  it('break-even turns by hand: $ at turn 12 (summary), turn 5 (prune); never in prefill tokens', () => {
    const res = paybackSeries(PAY, PRICES, tokensClock);
    // extra $0.1899 on turn 1, then 62,000 fewer cached tokens × $0.30/M = $0.0186 a turn: 1 + ⌈10.21⌉ = 12
    expect(res.breakEven.summarise.dollars).toBe(12);
    // extra $0.053549, then 51,684.3 × $0.30/M = $0.015505 a turn: 1 + ⌈3.45⌉ = 5
    expect(res.breakEven.prune.dollars).toBe(5);
    expect(res.breakEven.summarise.prefillTokens).toBeNull();
    expect(breakEvenTurn(res.runs.none, res.runs.none, 'dollars')).toBe(0);
  });

  it('in prefill seconds, attention to a shorter context pays the re-prefill back', () => {
    const r = compactionPayback({
      modelId: 'llama-3.1-70b',
      acceleratorId: 'h100-sxm',
      tp: 8,
      gemmEfficiency: DEFAULT_GEMM_EFFICIENCY,
      params: { ...PAY, limitTokens: undefined },
      prices: PRICES,
    });
    expect(r.params.limitTokens).toBe(131_072);
    const hw = defaultHardware(findAccelerator('h100-sxm')!, 8);
    const m = findModel('llama-3.1-70b')!;
    expect(r.runs.summarise.turns[0].prefillSeconds).toBeCloseTo(prefillTime(m, hw, 11_750, 8_000), 12);
    expect(r.breakEven.summarise.prefillSeconds).not.toBeNull();
    expect(r.breakEven.summarise.prefillSeconds!).toBeLessThan(r.breakEven.summarise.dollars!);
  });
});

describe('the lesson quotes the widgets', () => {
  it('every prose edit computes; the default is the first widget default', async () => {
    const { PROSE_EDITS, EDIT_DEFAULT_ARGS, EXERCISE_ARGS } =
      await import('../src/widgets/context-compaction/schema');
    expect(PROSE_EDITS.default).toEqual(EDIT_DEFAULT_ARGS);
    for (const a of Object.values(PROSE_EDITS)) {
      const r = compactionEdit(a);
      expect(Number.isFinite(r.reprefillSeconds)).toBe(true);
      expect(r.hitTokens + r.reprefillTokens).toBe(r.tokensAfter);
    }
    // The exercise: 8B on one H100, summary 10k + 1,750 new after an 8k cached head.
    const ex = compactionPayback(EXERCISE_ARGS);
    const hw = defaultHardware(findAccelerator('h100-sxm')!, 1);
    const t = ex.runs.summarise.turns[0];
    expect(t.compacted).toBe(true);
    expect(t.prefillSeconds).toBeCloseTo(prefillTime(findModel('llama-3.1-8b')!, hw, 11_750, 8_000), 12);
  });
});

describe('the fleet simulator agrees', () => {
  it('after a compaction and without one, the next turn hits what cacheAfterEdit says', async () => {
    const { runScenarioSync } = await import('../src/sim/engine/fleet/run');
    const { agentClass, c, scenario } = await import('./fleet-helpers');
    const reused = (compaction?: { thresholdTokens: number; summaryTokens: number }) =>
      runScenarioSync(
        scenario({
          workload: {
            arrival: { kind: 'poisson', sessionsPerS: 1 },
            sessions: 1,
            classes: [agentClass({ turns: c(2), nonExtension: compaction ? { compaction } : undefined })],
          },
        }),
        { includeRequests: true },
      ).requests!.data.reusedHbm[1];
    // The helper's agent: system 1,000, tools 1,000, task 200, output 100, tool result 300; blocks of 16.
    const before = buildPrompt({
      systemTokens: 1000,
      toolTokens: 1000,
      taskTokens: 200,
      turns: 1,
      outputTokens: 100,
      resultTokens: 300,
    });
    const appended = cacheAfterEdit(before, before, 16);
    expect(reused()).toBe(appended.hitTokens); // 2,288
    // The workload's compaction keeps system + tools and replaces the rest by a summary.
    const compacted = cacheAfterEdit(
      before,
      [before[0], before[1], { id: 999, kind: 'summary', tokens: 50, turn: 0 }],
      16,
    );
    expect(reused({ thresholdTokens: 2000, summaryTokens: 50 })).toBe(compacted.hitTokens); // 2,000
    expect(compacted.hitTokens).toBe(2000);
  });
});

describe('the prose’s qualitative claims, on the widgets’ defaults', () => {
  it('the edit table: the summary’s re-prefill outgrows what it saved; pruning shrinks less than summarising all, re-prefills most of what is left; a document halfway down costs about half the prompt', async () => {
    const { PROSE_EDITS } = await import('../src/widgets/context-compaction/schema');
    const d = compactionEdit(PROSE_EDITS.default);
    expect(d.reprefillTokens - d.baselineReprefillTokens).toBeGreaterThan(d.tokensBefore - d.tokensAfter);
    const all = compactionEdit(PROSE_EDITS.all);
    const prune = compactionEdit(PROSE_EDITS.prune);
    expect(prune.tokensAfter).toBeGreaterThan(all.tokensAfter);
    expect(prune.reprefillTokens / prune.tokensAfter).toBeGreaterThan(0.5);
    const doc = compactionEdit(PROSE_EDITS.retrieve);
    expect(doc.reprefillTokens / doc.tokensAfter).toBeGreaterThan(0.4);
    expect(doc.reprefillTokens / doc.tokensAfter).toBeLessThan(0.6);
  });

  it('carrying the starting context costs its tokens at the cache-read price each turn', async () => {
    const { PAYBACK_DEFAULT_ARGS } = await import('../src/widgets/context-compaction/schema');
    const r = compactionPayback(PAYBACK_DEFAULT_ARGS);
    expect(r.params.contextTokens).toBe(80_000);
    // 80,000 × $3/M × 0.1 = $0.024: the cached part of never compacting's first turn.
    expect(requestDollars(r.prices, r.params.contextTokens, 0, 0)).toBeCloseTo(0.024, 12);
    expect(r.runs.none.turns[0].cachedTokens).toBe(r.params.contextTokens);
  });

  it('in prefill time the order flips: pruning pays back first in dollars, the summary first in seconds', async () => {
    const { PAYBACK_DEFAULT_ARGS } = await import('../src/widgets/context-compaction/schema');
    const r = compactionPayback(PAYBACK_DEFAULT_ARGS);
    const { summarise, prune } = r.breakEven;
    expect(prune.dollars!).toBeLessThan(summarise.dollars!);
    expect(summarise.prefillSeconds!).toBeLessThan(prune.prefillSeconds!);
    // The summarised context is the shortest, so its turns are the cheapest; pruning re-prefills more and keeps
    // a longer context.
    const [n0] = r.runs.none.turns;
    const [s0, s1] = r.runs.summarise.turns;
    const [p0, p1] = r.runs.prune.turns;
    expect(s1.prefillSeconds).toBeLessThan(n0.prefillSeconds);
    expect(s1.prefillSeconds).toBeLessThan(p1.prefillSeconds);
    expect(p0.prefillTokens).toBeGreaterThan(s0.prefillTokens);
    expect(p0.prefillSeconds).toBeGreaterThan(s0.prefillSeconds);
    expect(p1.promptTokens).toBeGreaterThan(s1.promptTokens);
    // Pruning needs no model call.
    expect(p0.summaryCallDollars).toBe(0);
    expect(s0.summaryCallDollars).toBeGreaterThan(0);
  });
});

describe('07.11: the wording the review fixed', () => {
  it('the edit sentences read counts as adjectives: “10k-token summary”, “20-token stubs”, “3k-token document”', async () => {
    const { PROSE_EDITS } = await import('../src/widgets/context-compaction/schema');
    const { editSentence } = await import('../src/widgets/context-compaction/EditCache');
    expect(editSentence(compactionEdit(PROSE_EDITS.all))).toBe('Turns 0–38 replaced by a 10k-token summary.');
    expect(editSentence(compactionEdit(PROSE_EDITS.prune))).toBe(
      'Tool results of turns 0 to 34 replaced by 20-token stubs.',
    );
    expect(editSentence(compactionEdit(PROSE_EDITS.retrieve))).toBe(
      'A 3k-token document inserted before turn 20.',
    );
  });
  it('pruning from turn 0: the edit point is turn 0’s tool result, after the task and turn 0’s output (the prose)', async () => {
    const { PROSE_EDITS, HEAD } = await import('../src/widgets/context-compaction/schema');
    const prune = compactionEdit(PROSE_EDITS.prune);
    const out0 = prune.before.find((s) => s.kind === 'out' && s.turn === 0)!;
    expect(out0.start).toBe(HEAD.systemTokens + HEAD.toolTokens + HEAD.taskTokens);
    expect(prune.editPoint).toBe(out0.start + out0.tokens);
    expect(prune.before.find((s) => s.start === prune.editPoint)).toMatchObject({ kind: 'result', turn: 0 });
  });
  it('the re-prefill formula defines its symbols, and names the matmuls’ FLOP/s G_m as 07.10 does', () => {
    const { flat } = lessonSource('07-11-context-compaction');
    expect(flat).toContain('{2N\\,n + 2VD}{G_m}');
    expect(flat).toContain('($V$ the vocabulary size, $D$ the hidden size)');
    expect(flat).toContain("$M$ the replica's achieved HBM bandwidth");
    expect(flat).not.toMatch(/\$G\$ and \$G_a\$/);
  });
});
