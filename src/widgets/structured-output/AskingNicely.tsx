/**
 * "Asking nicely" (lesson 07.08): a seeded sampler over a toy logit vector whose slip tokens carry a small
 * probability ε per step. Without a mask an N-token call is valid with probability (1 − ε)^N; with the mask
 * the slip logits are −∞ and every call is valid. Computed in the worker (grammarAskNicely).
 */
import { useMemo } from 'react';
import { BarChart } from '../kit/charts/BarChart';
import { LineChart } from '../kit/charts/LineChart';
import { useLeadAspect } from '../kit/charts/useWindowSize';
import type { Marker } from '../kit/charts/types';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import { formatCount, formatNumber, formatPercent, formatProbability } from '../../lib/format';
import { ASK_NICELY_ID, askNicelyArgs, askNicelySchema } from './schema';
import { defaultValues } from '../../state/paramSchema';
import './structured-output.css';
import { TryThis, type TryItem } from '../kit/TryThis';

const STRIP_MAX = 400;
const ASK_DEFAULTS = defaultValues(askNicelySchema);

/** A probability as a percentage, or in e-notation when it is below 0.1% (a clean session at the defaults). */
/** "Try this": each item with the state it describes (the lesson's tour plays them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Keep ε at {formatPercent(ASK_DEFAULTS.eps)} and drag N from {formatNumber(ASK_DEFAULTS.tokens)} to
        1,000 tokens: a long call (a file edit, a plan) is now more likely broken than not.
      </>
    ),
    set: { tokens: 1000 },
    highlight: 'p-valid',
  },
  {
    text: (
      <>
        Set ε to 0.01% (a very well-behaved model) and M to 2,000 calls: the expected failures per session are
        still in the tens.
      </>
    ),
    set: { eps: 0.0001, calls: 2000 },
    highlight: 'expected-failures',
  },
  {
    text: (
      <>
        Change the seed: the sampled failures scatter around the expected count; the masked column stays at
        zero for every seed.
      </>
    ),
    set: { seed: 8 },
    highlight: 'expected-failures',
  },
];

export function AskingNicely() {
  const params = useWidgetParams(ASK_NICELY_ID, askNicelySchema);
  const v = params.values;
  const args = useMemo(() => askNicelyArgs(v), [v]);
  const sim = useSimulation('grammarAskNicely', args);
  const r = sim.result;
  // The curve spans the picture beside the controls (a wide, lower chart); on a phone, one column wide, it is taller.
  const leadAspect = useLeadAspect(0.75, 0.45);

  const lines = useMemo(
    () =>
      r
        ? [
            { name: 'Prompt only: (1 − ε)^N', points: r.curve.map((c) => ({ x: c.n, y: c.p })) },
            { name: 'With the mask: 1', points: r.curve.map((c) => ({ x: c.n, y: 1 })), dash: '6 3' },
            {
              name: `Sampled (${r.simulated[0]?.trials ?? 0} calls per point)`,
              points: r.simulated.map((s) => ({ x: s.n, y: s.p })),
              dash: '2 3',
            },
          ]
        : [],
    [r],
  );
  const markers: Marker[] = r
    ? [
        { kind: 'x', x: v.tokens, label: `N = ${formatNumber(v.tokens)}`, tone: 'muted' },
        { kind: 'point', x: v.tokens, y: r.pValid, label: formatPercent(r.pValid, 3), tone: 'danger' },
      ]
    : [];

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={ASK_NICELY_ID}
      title="Asking nicely: valid JSON with and without the mask"
      exportData={() => ({
        rows: r ? r.curve.map((c) => ({ tokens: c.n, pValidPromptOnly: c.p, pValidMasked: 1 })) : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r ? (
          <>
            <Readout
              emphasis
              label="One call valid, prompt only"
              value={
                <span data-readout="p-valid" data-value={r.pValid}>
                  {formatPercent(r.pValid, 4)}
                </span>
              }
              formula={`(1 − ${formatNumber(v.eps, 3)})^${formatNumber(v.tokens)}; with the mask: 100%`}
            />
            <Readout
              label={`Expected malformed calls in ${formatNumber(v.calls)}`}
              value={
                <span data-readout="expected-failures" data-value={r.expectedFailures}>
                  {formatNumber(r.expectedFailures, 3)} (sampled: {r.sessionFailures}; masked:{' '}
                  {r.maskedFailures})
                </span>
              }
              formula={`M · (1 − p_valid) = ${formatNumber(v.calls)} × ${formatNumber(1 - r.pValid, 3)}`}
            />
            <Readout
              label="Session with no malformed call"
              value={
                <span data-readout="p-clean" data-value={r.pCleanSession}>
                  {formatProbability(r.pCleanSession)}
                </span>
              }
              formula={`p_valid^M = (1 − ε)^(N·M)`}
            />
            <Readout
              label="Call length where half fail"
              value={<span data-readout="half-life">{formatCount(r.halfLife)} tokens</span>}
              formula="ln ½ / ln(1 − ε) ≈ 0.69 / ε"
            />
          </>
        ) : null
      }
      caption={
        r ? (
          <>
            The curve: the chance that a whole call is valid falls geometrically with its length without the
            mask; the dotted line is the seeded sampler, drawing every token from the bar chart&apos;s
            distribution. The bars: one step&apos;s toy logit vector, softmaxed. The prompt made the legal
            tokens likely, but the two slip tokens keep a combined {formatPercent(v.eps, 2)}; the mask sets
            their logits to −∞ and renormalises the rest. The strip: one session of {formatNumber(v.calls)}{' '}
            calls, sampled without the mask (✗ = malformed).
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
      more={
        r ? (
          // The rest of the picture, under the curve; on a phone it follows the controls, which follow the curve.
          <div className="so-more-wrap">
            <div className="so-more">
              <BarChart
                title="One step's next-token probabilities, without and with the mask"
                description="Six candidate tokens: four the format allows and two slips. Without the mask the slips keep probability epsilon; with the mask they get zero."
                categories={r.toy.map((t) => (t.slip ? `${t.text} (slip)` : t.text))}
                series={[
                  { name: 'Prompt only', values: r.toy.map((t) => t.p) },
                  { name: 'With the mask', values: r.toy.map((t) => t.pMasked) },
                ]}
                orientation="horizontal"
                value={{
                  label: 'Probability',
                  format: (p) => formatPercent(p, 2),
                  zero: true,
                  domain: [0, 1],
                }}
                rowHeight={36}
              />
              <div>
                <div className="so-panel-title">
                  One session, prompt only: {r.sessionFailures} of {formatNumber(v.calls)} calls malformed
                  {v.calls > STRIP_MAX ? ` (first ${STRIP_MAX} shown)` : ''}; with the mask:{' '}
                  {r.maskedFailures}
                </div>
                <div
                  className="so-strip"
                  role="img"
                  aria-label={`${r.sessionFailures} malformed calls out of ${v.calls}`}
                  data-figure="session-strip"
                >
                  {r.session.slice(0, STRIP_MAX).map((s, i) => (
                    <span
                      key={i}
                      data-valid={s === null}
                      title={s === null ? `call ${i + 1}: valid` : `call ${i + 1}: slipped at token ${s}`}
                    >
                      {s === null ? '' : '✗'}
                    </span>
                  ))}
                </div>
              </div>
            </div>
          </div>
        ) : null
      }
    >
      {/* The first chart, across the picture: the curve every control moves. On a phone the controls follow it. */}
      {r ? (
        <LineChart
          title="Probability that a tool call is valid JSON against its length"
          description="Prompt only: the probability falls as (1 minus epsilon) to the power N. With the mask it stays at one. Sampled points from the seeded sampler."
          series={lines}
          x={{ label: 'Tokens per call N', unit: 'tokens', scale: 'log', format: (n) => formatCount(n) }}
          y={{ label: 'P(valid)', format: (p) => formatPercent(p, 2), domain: [0, 1.05] }}
          markers={markers}
          points="auto"
          aspect={leadAspect}
        />
      ) : null}
    </WidgetFrame>
  );
}
