/**
 * The figures lesson 07.08's prose quotes about the mask over logits, from one trace's steps (pure), so the
 * prose and the lesson's tests read the same numbers.
 */
import type { StepContext } from './stepContext';

export interface SummaryStep {
  context: StepContext;
  allowedCount: number;
  /** Probability the mask removed at this step. */
  masked: number;
}

export interface MaskSummary {
  steps: number;
  /** Steps whose text the schema fixes (punctuation, keys, enum values, literals). */
  fixedSteps: number;
  /** Most tokens any fixed step allows. */
  maxAllowedFixed: number;
  /** Steps inside a free string value. */
  freeStringSteps: number;
  /** Fewest tokens any free-string step allows. */
  minAllowedFreeString: number;
  /** Most probability the mask removed at a free-string step. */
  maxMaskedFreeString: number;
  /** Steps of free prose (structural-tag mode only). */
  freeTextSteps: number;
  /** Fewest tokens a free-prose step allows (the whole vocabulary's real ids when unconstrained). */
  minAllowedFreeText: number;
  /** Fewest tokens a step allows while the trigger is being written. */
  minAllowedTrigger: number;
  /** First step the grammar constrains (past the trigger), and what it allows there. */
  takeover: number;
  allowedAtTakeover: number;
}

export function summariseMaskSteps(steps: readonly SummaryStep[]): MaskSummary {
  const of = (c: StepContext) => steps.filter((s) => s.context === c);
  const fixed = of('fixed');
  const strings = of('free-string');
  const prose = of('free-text');
  const trigger = of('trigger');
  const takeover = Math.max(
    0,
    steps.findIndex((s) => s.context !== 'free-text' && s.context !== 'trigger'),
  );
  return {
    steps: steps.length,
    fixedSteps: fixed.length,
    maxAllowedFixed: Math.max(0, ...fixed.map((s) => s.allowedCount)),
    freeStringSteps: strings.length,
    minAllowedFreeString: strings.length ? Math.min(...strings.map((s) => s.allowedCount)) : 0,
    maxMaskedFreeString: Math.max(0, ...strings.map((s) => s.masked)),
    freeTextSteps: prose.length,
    minAllowedFreeText: prose.length ? Math.min(...prose.map((s) => s.allowedCount)) : 0,
    minAllowedTrigger: trigger.length ? Math.min(...trigger.map((s) => s.allowedCount)) : 0,
    takeover,
    allowedAtTakeover: steps[takeover]?.allowedCount ?? 0,
  };
}
