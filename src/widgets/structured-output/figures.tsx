/**
 * Inline figures for lesson 07.08's prose. The slip arithmetic comes from the core (src/sim/lessons/grammar/slip.ts);
 * the mask figures from the same worker method and schema as the first widget's default, so prose and widget
 * never disagree.
 */
import { InlineFigure } from '../kit/InlineFigure';
import { useMemo } from 'react';
import { useSimulation } from '../kit/useSimulation';
import { formatNumber, formatPercent, formatProbability } from '../../lib/format';
import {
  expectedFailures,
  halfLifeTokens,
  pCleanSession,
  pValid,
  toyDistribution,
} from '../../sim/lessons/grammar/slip';
import { askNicelySchema } from './schema';
import { findPreset } from '../../sim/lessons/grammar/presets';
import type { TraceResult } from '../../worker/grammarEngine';
import { median } from '../../lib/stats';

type SlipMetric = 'pValid' | 'pInvalid' | 'failures' | 'clean' | 'halfLife';

/** A figure of the slip model: e.g. <SlipFig m="pValid" eps={0.001} n={120} />. */
export function SlipFig({
  m,
  eps,
  n,
  calls = 1,
  digits = 3,
}: {
  m: SlipMetric;
  eps: number;
  n: number;
  calls?: number;
  digits?: number;
}) {
  const value = (() => {
    switch (m) {
      case 'pValid':
        return formatPercent(pValid(eps, n), digits);
      case 'pInvalid':
        return formatPercent(1 - pValid(eps, n), digits);
      case 'failures':
        return formatNumber(expectedFailures(eps, n, calls), digits);
      case 'clean':
        return formatProbability(pCleanSession(eps, n, calls), digits);
      case 'halfLife':
        return `${formatNumber(Math.round(halfLifeTokens(eps)))} tokens`;
    }
  })();
  return <InlineFigure value={value} />;
}

/** The slip slider's values the prose names: its default, and its top, where the mask's renormalisation shows. */
const EPS_AT = { default: askNicelySchema.eps.default, max: askNicelySchema.eps.max } as const;

/**
 * The first widget's toy step under the mask, at the slip slider's default or top: ε as the slider shows it, the
 * factor 1/(1 − ε) every legal token's probability grows by (as a gain), and the likeliest legal token's
 * probability without and with the mask, at the bar chart's precision (two digits).
 */
export function maskGrowthText(
  at: keyof typeof EPS_AT,
  m: 'eps' | 'growth' | 'topPrompt' | 'topMasked',
): string {
  const eps = EPS_AT[at];
  if (m === 'eps') return askNicelySchema.eps.format(eps);
  if (m === 'growth') return formatPercent(1 / (1 - eps) - 1, 2);
  const top = toyDistribution(eps)
    .filter((t) => !t.slip)
    .sort((a, b) => b.p - a.p)[0];
  return formatPercent(m === 'topPrompt' ? top.p : top.pMasked, 2);
}

export function MaskGrowthFig({
  at,
  m,
}: {
  at: keyof typeof EPS_AT;
  m: 'eps' | 'growth' | 'topPrompt' | 'topMasked';
}) {
  return (
    <InlineFigure
      value={maskGrowthText(at, m)}
      title="the first widget's toy step (src/sim/lessons/grammar/slip.ts)"
    />
  );
}

/** "Narrow" steps, in the prose's words "ten tokens or fewer": at most this many tokens allowed. */
export const NARROW_ALLOWED = 10;

type MaskMetric =
  | 'vocab'
  | 'allowedAt'
  | 'maxAllowed'
  | 'minAllowed'
  | 'steps'
  | 'tokenAt'
  | 'jumpAt'
  | 'narrowSteps'
  | 'compileMs'
  | 'maskUs'
  | 'setupMs';

function maskValue(t: TraceResult, m: MaskMetric, step: number): string {
  const s = t.steps[Math.min(step, t.steps.length - 1)];
  switch (m) {
    case 'vocab':
      return formatNumber(t.vocabSize);
    case 'allowedAt':
      return formatNumber(s.allowed);
    case 'maxAllowed':
      return formatNumber(Math.max(...t.steps.map((x) => x.allowed)));
    case 'minAllowed':
      return formatNumber(Math.min(...t.steps.map((x) => x.allowed)));
    case 'steps':
      return formatNumber(t.steps.length);
    case 'tokenAt':
      return s.token;
    case 'jumpAt':
      return s.jumpForward;
    case 'narrowSteps':
      return formatNumber(t.steps.filter((x) => x.allowed <= NARROW_ALLOWED).length);
    case 'compileMs':
      return `${formatNumber(t.compileMs, 2)} ms`;
    case 'maskUs':
      return `${formatNumber(median(t.steps.map((x) => x.maskUs)), 2)} µs`;
    case 'setupMs':
      return `${formatNumber(t.setup.vocabMs + t.setup.tokenizerInfoMs, 2)} ms`;
  }
}

/** A figure of the real engine's trace for a preset (default: the first widget's default). */
export function MaskFig({
  m,
  preset = 'get-weather',
  step = 0,
  code = false,
}: {
  m: MaskMetric;
  preset?: string;
  step?: number;
  code?: boolean;
}) {
  const args = useMemo(() => {
    const p = findPreset(preset);
    return p
      ? { schema: JSON.stringify(p.schema, null, 2), document: JSON.stringify(p.document, null, 2) }
      : null;
  }, [preset]);
  const sim = useSimulation('grammarMaskTrace', args);
  const r = sim.result;
  if (!r) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  if (!r.ok) return <InlineFigure value="—" />;
  const v = maskValue(r.trace, m, step);
  return code ? <code className="figure">{v}</code> : <InlineFigure value={v} />;
}
