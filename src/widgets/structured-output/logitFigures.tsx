/**
 * Inline figures for lesson 07.08's "mask over logits" prose, from the same worker method and arguments as
 * the widget's defaults (seed 1), summarised by the core (src/sim/lessons/grammar/maskSummary.ts).
 */
import { InlineFigure } from '../kit/InlineFigure';
import { useMemo } from 'react';
import { useSimulation } from '../kit/useSimulation';
import { formatNumber, formatPercent } from '../../lib/format';
import { summariseMaskSteps, type MaskSummary } from '../../sim/lessons/grammar/maskSummary';
import type { ConstrainMode, LogitTrace } from '../../worker/grammarLogitsEngine';

type Metric =
  | 'vocab'
  | 'maxAllowedFixed'
  | 'maxFixedShare'
  | 'minAllowedFreeString'
  | 'minFreeStringShare'
  | 'maxMaskedFreeString'
  | 'maskedAt'
  | 'nextBefore'
  | 'nextAfter'
  | 'takeover'
  | 'allowedAtTakeover'
  | 'minAllowedFreeText'
  | 'minAllowedTrigger'
  | 'freeTextSteps';

function value(t: LogitTrace, s: MaskSummary, m: Metric, step: number): string {
  const at = t.steps[Math.min(step, t.steps.length - 1)];
  const next = at.candidates.findIndex((c) => c.kind === 'next');
  switch (m) {
    case 'vocab':
      return formatNumber(t.vocabSize);
    case 'maxAllowedFixed':
      return formatNumber(s.maxAllowedFixed);
    case 'maxFixedShare':
      return formatPercent(s.maxAllowedFixed / t.vocabSize, 2);
    case 'minAllowedFreeString':
      return formatNumber(s.minAllowedFreeString);
    case 'minFreeStringShare':
      return formatPercent(s.minAllowedFreeString / t.vocabSize, 3);
    case 'maxMaskedFreeString':
      return formatPercent(s.maxMaskedFreeString, 2);
    case 'maskedAt':
      return formatPercent(at.masked, 2);
    case 'nextBefore':
      return formatPercent(at.before[next], 2);
    case 'nextAfter':
      return formatPercent(at.after[next], 2);
    case 'takeover':
      return formatNumber(s.takeover);
    case 'allowedAtTakeover':
      return formatNumber(s.allowedAtTakeover);
    case 'minAllowedFreeText':
      return formatNumber(s.minAllowedFreeText);
    case 'minAllowedTrigger':
      return formatNumber(s.minAllowedTrigger);
    case 'freeTextSteps':
      return formatNumber(s.freeTextSteps);
  }
}

/** E.g. <LogitFig m="maxAllowedFixed" /> or <LogitFig m="takeover" mode="tool-span" />. */
export function LogitFig({
  m,
  mode = 'whole-reply',
  preset = 'get-weather',
  step = 0,
}: {
  m: Metric;
  mode?: ConstrainMode;
  preset?: string;
  step?: number;
}) {
  const args = useMemo(() => ({ preset, mode, seed: 1 }), [preset, mode]);
  const sim = useSimulation('grammarMaskLogits', args);
  const t = sim.result;
  const summary = useMemo(() => (t ? summariseMaskSteps(t.steps) : null), [t]);
  if (sim.error) return <InlineFigure value="—" />;
  if (!t || !summary) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  return <InlineFigure value={value(t, summary, m, step)} />;
}
