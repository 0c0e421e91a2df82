/**
 * Lesson 07.09's mask-overlap widget: its "fewest pool threads that hide the masks" read-out never reads as a
 * contradiction of the thread control beside it. The control sets the pool's size; the read-out answers with the
 * fewest pool threads that would hide the masks, or says why none would: up to vLLM's serial limit the pool is not
 * used (the prose: "More threads do not help while the engine fills serially"), and past it one task of 16 masks
 * can outlast the step, however many threads share the tasks.
 */
import { describe, expect, it } from 'vitest';
import { hideReadout } from '../src/widgets/grammar-cost/MaskOverlap';
import { maskOverlapSchema } from '../src/widgets/grammar-cost/schema';
import {
  FILL_RULES,
  MASK_COST_CHOICES,
  maskStep,
  STEP_CONTEXT_TOKENS,
  threadsToHide,
} from '../src/sim/lessons/grammar/overlap';

const us = (id: string) => MASK_COST_CHOICES.find((c) => c.id === id)!.us;

/** The read-out as the widget shows it at these settings (threads as the control sets them). */
function shown(batch: number, mask: string, fill: 'vllm' | 'perSequence', threads = 8) {
  const rule = FILL_RULES[fill];
  const base = { batch, contextTokens: STEP_CONTEXT_TOKENS, maskS: us(mask) * 1e-6, ...rule };
  const s = maskStep({ ...base, threads });
  const hide = threadsToHide(base, maskOverlapSchema.threads.max);
  return { hide, s, ...hideReadout(hide, { batch, threads, ...rule, maskS: base.maskS, gpuS: s.gpuS }) };
}

describe('07.09 mask overlap: the threads-to-hide read-out', () => {
  it('filled serially (16 sequences at the XGrammar mean): the pool is not used, whatever the thread control says', () => {
    for (const threads of [1, 8, 64]) {
      const r = shown(16, 'xgr-mean', 'vllm', threads);
      expect(r.hide).toBe(Infinity);
      expect(r.s.maskWallS).toBeGreaterThan(r.s.gpuS);
      expect(r.text).toBe('none: the pool is not used');
      expect(r.why).toContain('one after another on its engine thread, without the pool');
      expect(r.why).toContain(`the pool's ${threads} threads wait, so no thread count helps`);
      // The read-out never says "filled serially" beside a thread count, the wording the review found contradictory.
      expect(r.text).not.toMatch(/serial/);
    }
  });
  it('filled serially and hidden anyway (the XGrammar median): no pool needed', () => {
    const r = shown(16, 'xgr-p50', 'vllm');
    expect(r.hide).toBe(1);
    expect(r.text).toBe('none needed');
    expect(r.why).toContain('they fit in the step');
  });
  it('past 128 sequences the pool takes over and the read-out is a thread count', () => {
    const r = shown(200, 'xgr-mean', 'vllm');
    expect(r.hide).toBe(7);
    expect(r.text).toBe('7');
    expect(r.why).toBe("tasks of 16 sequences shared over the pool's threads");
  });
  it('past 128 sequences at the XGrammar p99 one task of 16 masks outlasts the step: not "filled serially"', () => {
    const r = shown(200, 'xgr-p99', 'vllm');
    expect(r.hide).toBe(Infinity);
    expect(16 * us('xgr-p99') * 1e-6).toBeGreaterThan(r.s.gpuS);
    expect(r.text).toBe('none: one task outlasts the step');
    expect(r.why).toMatch(/^one task's masks \(16 sequences\) take .+, longer than the .+ GPU step/);
  });
  it('one sequence per task: a thread count from the first sequence', () => {
    const r = shown(16, 'xgr-mean', 'perSequence');
    expect(r.text).toBe('2');
    expect(r.why).toBe("tasks of 1 sequence shared over the pool's threads");
  });
  it('the controls name the pool and the fill rule in the read-out’s words', () => {
    expect(maskOverlapSchema.threads.label).toBe('CPU threads for masks (the pool)');
    expect(maskOverlapSchema.fill.options.map((o) => o.label)).toEqual([
      'vLLM: serially up to 128, then the pool',
      'The pool, one sequence per task',
    ]);
  });
});
