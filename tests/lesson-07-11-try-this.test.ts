/**
 * Lesson 07.11's "Try this" items (which its guided tour plays): each direction an item claims, computed by the core
 * with the state the item sets (the widgets' TRY_THIS over their schema defaults).
 */
import { describe, expect, it } from 'vitest';
import { compactionEdit, compactionPayback } from '../src/worker/compactionMethods';
import {
  EDIT_DEFAULTS,
  editArgs,
  editSchema,
  HEAD,
  PAYBACK_DEFAULTS,
  paybackArgs,
  paybackSchema,
  type EditValues,
  type PaybackValues,
} from '../src/widgets/context-compaction/schema';
import { TRY_THIS as EDIT_TRY } from '../src/widgets/context-compaction/EditCache';
import { TRY_THIS as PAYBACK_TRY } from '../src/widgets/context-compaction/Payback';
import type { TryItem } from '../src/widgets/kit/stage';
import { expectEveryItemFits, expectValidSets } from './try-this';

const edit = (item?: TryItem, extra: Partial<EditValues> = {}) =>
  compactionEdit(editArgs({ ...EDIT_DEFAULTS, ...(item?.set ?? {}), ...extra } as EditValues));
const payback = (item?: TryItem) =>
  compactionPayback(paybackArgs({ ...PAYBACK_DEFAULTS, ...(item?.set ?? {}) } as PaybackValues));

describe('every item of the two widgets leads to a replica that runs', () => {
  it('the model fits its GPUs with room for KV (the widgets call the fitted methods)', () => {
    expectEveryItemFits(EDIT_TRY, (item) =>
      editArgs({ ...EDIT_DEFAULTS, ...(item?.set ?? {}) } as EditValues),
    );
    expectEveryItemFits(PAYBACK_TRY, (item) =>
      paybackArgs({ ...PAYBACK_DEFAULTS, ...(item?.set ?? {}) } as PaybackValues),
    );
  });
});

describe('Edit the prompt: Try this', () => {
  const base = edit();
  it('every item sets only parameters of the widget’s schema, to values its controls offer', () => {
    expectValidSets(EDIT_TRY, editSchema);
  });

  it('0 · summarising from turn 2: the same summary, a larger re-prefill', () => {
    const early = edit(EDIT_TRY[0]);
    expect(early.tokensAfter).toBe(base.tokensAfter);
    expect(early.reprefillTokens).toBeGreaterThan(base.reprefillTokens);
  });

  it('1 · from turn 28: only the summary and the turns after it miss', () => {
    const late = edit(EDIT_TRY[1]);
    const v = { ...EDIT_DEFAULTS, ...EDIT_TRY[1].set } as EditValues;
    const after = v.turns - (v.editTurn + v.span);
    const perTurn = v.outputTokens + v.resultTokens;
    expect(late.reprefillTokens).toBeLessThan(base.reprefillTokens);
    expect(late.reprefillTokens).toBeLessThanOrEqual(v.summaryTokens + after * perTurn + Number(v.blockSize));
    expect(late.reprefillTokens).toBeGreaterThanOrEqual(v.summaryTokens + (after - 1) * perTurn);
    // The summary misses too, not only the turns after it: all of both, plus the block the edit point cuts.
    expect(late.reprefillTokens).toBeGreaterThanOrEqual(v.summaryTokens + after * perTurn);
    // (the edit point is where the summary starts)
    expect(late.editPoint).toBe(late.tokensAfter - v.summaryTokens - after * perTurn);
  });

  it('2 · one token at position 10: nothing hits, the whole prompt is prefilled', () => {
    const r = edit(EDIT_TRY[2]);
    expect(r.hitTokens).toBe(0);
    expect(r.reprefillTokens).toBe(r.tokensAfter);
  });

  it('3 · the same token at 79,000: almost everything hits', () => {
    const r = edit(EDIT_TRY[3]);
    expect(r.hitTokens / r.tokensAfter).toBeGreaterThan(0.95);
  });

  it('4 · pruning from turn 0: the context shrinks more than with the summary; everything after turn 0’s tool result, most of what is left, misses', () => {
    const r = edit(EDIT_TRY[4]);
    expect(r.tokensAfter).toBeLessThan(base.tokensAfter);
    // each turn is the model's output, then its tool result: the first pruned result starts after turn 0's output
    expect(r.editPoint).toBe(
      HEAD.systemTokens + HEAD.toolTokens + HEAD.taskTokens + Number(EDIT_DEFAULTS.outputTokens),
    );
    expect(r.after.find((seg) => seg.start === r.editPoint)).toMatchObject({ kind: 'stub', turn: 0 });
    expect(r.hitTokens).toBeGreaterThan(r.editPoint - Number(EDIT_DEFAULTS.blockSize));
    expect(r.hitTokens).toBeLessThanOrEqual(r.editPoint);
    expect(r.reprefillTokens / r.tokensAfter).toBeGreaterThan(0.5);
  });

  it('5 · a document before turn 39 re-prefills far less than before turn 5', () => {
    const late = edit(EDIT_TRY[5]);
    const early = edit(EDIT_TRY[5], { editTurn: 5 });
    expect(late.reprefillTokens).toBeLessThan(0.2 * early.reprefillTokens);
  });
});

describe('Compaction payback: Try this', () => {
  const base = payback();
  it('every item sets only parameters of the widget’s schema, to values its controls offer', () => {
    expectValidSets(PAYBACK_TRY, paybackSchema);
  });

  it('0 · in prefilled tokens compaction never pays back', () => {
    const r = payback(PAYBACK_TRY[0]);
    expect(r.breakEven.summarise.prefillTokens).toBeNull();
    expect(r.breakEven.prune.prefillTokens).toBeNull();
  });

  it('1 · in prefill GPU time the summary does pay back', () => {
    expect(payback(PAYBACK_TRY[1]).breakEven.summarise.prefillSeconds).not.toBeNull();
  });

  it('2 · without the cache-read discount the summary pays back within a few turns, sooner than with it', () => {
    const r = payback(PAYBACK_TRY[2]);
    expect(r.breakEven.summarise.dollars!).toBeLessThanOrEqual(5);
    expect(r.breakEven.summarise.dollars!).toBeLessThan(base.breakEven.summarise.dollars!);
  });

  it('3 · eight turns to come: the session ends before the summary pays back', () => {
    expect(base.breakEven.summarise.dollars).not.toBeNull();
    expect(payback(PAYBACK_TRY[3]).breakEven.summarise.dollars).toBeNull();
  });
});
