/**
 * "When does compaction pay back?" (lesson 07.11): over the rest of a session, the cumulative cost of never
 * compacting, of summarising at a threshold and of pruning old tool results, in dollars (API prices with cache
 * multipliers), prefill GPU time (src/sim/engine/cost.ts) or prefilled tokens; the break-even turns marked. Computed by
 * src/sim/lessons/compaction.ts in the worker (method compactionPayback).
 */
import { useMemo } from 'react';
import { LineChart, type LineSeries, type Marker } from '../kit/charts';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import { formatCount, formatDuration, formatFlops, formatNumber, formatTokens } from '../../lib/format';
import { cumulative, type Metric, type Policy } from '../../sim/lessons/compactionPayback';
import type { PaybackResponse } from '../../worker/compactionMethods';
import { SeparatedFigures } from '../kit/SeparatedFigures';
import { TryThis, type TryItem } from '../kit/TryThis';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-11 checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Switch <em>Cost counted</em> to <em>Prefilled tokens</em>: compaction never pays back, because a
        growing context costs no extra prefill while it stays cached.
      </>
    ),
    set: { metric: 'prefillTokens' },
    highlight: 'summary-break-even',
  },
  {
    text: (
      <>
        In <em>Prefill GPU time</em> it does, because every new token attends to a shorter context.
      </>
    ),
    set: { metric: 'prefillSeconds' },
    highlight: 'summary-break-even',
  },
  {
    text: (
      <>
        Set <em>Cache read ÷ input price</em> to 1 (no prompt-caching discount): every cached token now costs
        as much as a new one and the summary pays back within a few turns.
      </>
    ),
    set: { readMultiplier: 1 },
    highlight: 'summary-break-even',
  },
  {
    text: (
      <>
        Set <em>Turns to come</em> to 8: the session ends before the summary pays back. Compacting late in a
        session only costs.
      </>
    ),
    set: { turns: 8 },
    highlight: 'summary-break-even',
  },
];
import { money, PAYBACK_ID, paybackArgs, paybackSchema } from './schema';
import { durationAxis } from '../kit/charts/scales';
import type { AxisSpec } from '../kit/charts/types';

export const POLICY_NAME: Record<Policy, string> = {
  none: 'Never compact',
  summarise: 'Summarise at the threshold',
  prune: 'Prune old tool results',
};

export const METRIC_AXIS: Record<
  Metric,
  Pick<AxisSpec, 'label' | 'unit' | 'ticks'> & { format: (v: number) => string }
> = {
  dollars: { label: 'Cumulative cost', unit: '$', format: (v) => money(v) },
  prefillSeconds: durationAxis('Cumulative prefill time'),
  prefillTokens: { label: 'Cumulative prefilled tokens', unit: 'tokens', format: (v) => formatCount(v) },
};

export function breakEvenText(
  turn: number | null,
  r: PaybackResponse,
  policy: 'summarise' | 'prune',
): string {
  if (r.runs[policy].compactions === 0) return 'no compaction in this window';
  if (turn === null)
    return r.runs.none.limitTurn !== null ? `not before turn ${r.runs.none.limitTurn} (the limit)` : 'never';
  if (turn === 0) return 'at once';
  return `turn ${turn}`;
}

/**
 * The upper chart's rules (each with a short form, for a phone's plot where the whole labels cross the other rules):
 * the turns where summarising and pruning pay back, in ink (the kit's default tone), and
 * where the context without compaction passes its limit, in red. Not in the policies' own hues (blue, vermillion,
 * bluish green): a rule in a line's colour beside it reads as one more line (tests/series-hues.test.ts).
 */
export function paybackMarkers(r: PaybackResponse, metric: Metric): Marker[] {
  const m: Marker[] = [];
  const paysBack = (policy: 'summarise' | 'prune', name: string) => {
    const turn = r.breakEven[policy][metric];
    if (turn !== null && turn > 0 && r.runs[policy].compactions > 0)
      m.push({
        kind: 'x',
        x: turn,
        label: `${name} pays back: turn ${turn}`,
        shortLabel: `${name}: turn ${turn}`,
        tone: 'fg',
      });
  };
  paysBack('summarise', 'summary');
  paysBack('prune', 'pruning');
  if (r.runs.none.limitTurn !== null)
    // At the bottom: by the turn the context passes its limit every cumulative cost is high, so the corner below
    // is empty, where at the top the label covered the end of the "never compact" line.
    m.push({
      kind: 'x',
      x: r.runs.none.limitTurn,
      label: 'no compaction: context limit',
      shortLabel: 'context limit',
      tone: 'danger',
      labelAt: 'bottom',
    });
  return m;
}

export function Payback() {
  const params = useWidgetParams(PAYBACK_ID, paybackSchema);
  const v = params.values;
  const args = useMemo(() => paybackArgs(v), [v]);
  const sim = useSimulation('compactionPayback', args);
  const r = sim.result;
  const metric = v.metric as Metric;
  const axis = METRIC_AXIS[metric];

  const series: LineSeries[] = useMemo(() => {
    if (!r) return [];
    return (['none', 'summarise', 'prune'] as Policy[]).map((p) => {
      const ys = cumulative(r.runs[p], metric);
      return { name: POLICY_NAME[p], points: r.runs[p].turns.map((t, i) => ({ x: t.turn, y: ys[i] })) };
    });
  }, [r, metric]);

  const context: LineSeries[] = useMemo(
    () =>
      r
        ? (['none', 'summarise', 'prune'] as Policy[]).map((p) => ({
            name: POLICY_NAME[p],
            points: r.runs[p].turns.map((t) => ({ x: t.turn, y: t.promptTokens })),
          }))
        : [],
    [r],
  );

  const markers = useMemo(() => (r ? paybackMarkers(r, metric) : []), [r, metric]);

  const s1 = r?.runs.summarise.turns.find((t) => t.compacted);
  const p1 = r?.runs.prune.turns.find((t) => t.compacted);
  // The turn of never compacting that the first compaction is compared with.
  const n1 = r ? (s1 ? r.runs.none.turns[s1.turn - 1] : r.runs.none.turns[0]) : undefined;
  const served = r
    ? Math.min(r.runs.none.turns.length, r.runs.summarise.turns.length, r.runs.prune.turns.length)
    : 0;
  const at = (p: Policy) => (r && served > 0 ? cumulative(r.runs[p], metric)[served - 1] : null);
  const ri = r?.replica;

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={PAYBACK_ID}
      title="When does compaction pay back?"
      fixFields={{ modelId: 'model' }}
      exportData={() => ({
        rows: r
          ? (['none', 'summarise', 'prune'] as Policy[]).flatMap((p) =>
              r.runs[p].turns.map((t) => ({ policy: p, ...t })),
            )
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && ri ? (
          <>
            <Readout
              emphasis
              label="Summarising pays back"
              value={
                <span data-readout="summary-break-even" data-value={r.breakEven.summarise[metric] ?? ''}>
                  {breakEvenText(r.breakEven.summarise[metric], r, 'summarise')}
                </span>
              }
              formula={
                s1 && n1
                  ? `turn n where Σ cost(summarise) ≤ Σ cost(never); in dollars ≈ 1 + extra / saving per turn = 1 + ${money(s1.dollars - n1.dollars)} / (${formatCount(n1.cachedTokens - s1.cachedTokens - r.params.summaryTokens)} fewer cached tokens × ${money(r.prices.inputPerMTok * r.prices.cacheReadMultiplier)}/MTok)`
                  : 'no compaction happens in this window'
              }
            />
            <Readout
              emphasis
              label="Pruning pays back"
              value={
                <span data-readout="prune-break-even" data-value={r.breakEven.prune[metric] ?? ''}>
                  {breakEvenText(r.breakEven.prune[metric], r, 'prune')}
                </span>
              }
              formula={
                p1
                  ? `no model call; re-prefills ${formatTokens(p1.prefillTokens)} after ${formatTokens(p1.cachedTokens)} still cached`
                  : 'no pruning happens in this window'
              }
            />
            {s1 ? (
              <Readout
                label="Re-prefill of the compacted prompt"
                value={
                  <span data-readout="compaction-reprefill" data-value={s1.prefillSeconds}>
                    {formatTokens(s1.prefillTokens)} in {formatDuration(s1.prefillSeconds)}
                  </span>
                }
                formula={`(summary + growth) after the cached head: ${formatCount(r.params.summaryTokens)} + ${formatCount(r.params.growthTokens)} on top of ${formatCount(s1.cachedTokens)}; t = max(matmuls / G_m + attention / G_a, bytes / M) + all-reduces + the iteration's overhead (the cost model), G_m = ${formatFlops(ri.effectiveFlops, true)}; a turn without compaction prefills ${formatCount(n1?.prefillTokens ?? 0)} in ${formatDuration(n1?.prefillSeconds ?? 0)}`}
              />
            ) : null}
            {s1 ? (
              <Readout
                label="The summary call"
                value={
                  <span data-readout="summary-call" data-value={s1.summaryCallDollars}>
                    {money(s1.summaryCallDollars)}
                  </span>
                }
                formula={`context × read price + summary × output price = ${formatCount(s1.compactedFrom)} × ${money(r.prices.inputPerMTok * r.prices.cacheReadMultiplier)}/MTok + ${formatCount(r.params.summaryTokens)} × ${money(r.prices.outputPerMTok)}/MTok`}
              />
            ) : null}
            <Readout
              label={
                r && r.runs.none.limitTurn !== null
                  ? `Total after turn ${served}, the last before the context limit`
                  : `Total after turn ${served}`
              }
              value={
                <span data-readout="totals">
                  <SeparatedFigures
                    figures={[
                      `never ${axis.format(at('none') ?? NaN)}`,
                      `summarise ${axis.format(at('summarise') ?? NaN)}`,
                      `prune ${axis.format(at('prune') ?? NaN)}`,
                    ]}
                  />
                </span>
              }
              formula={
                r.runs.none.limitTurn !== null
                  ? `the last turn all three serve: without compaction turn ${r.runs.none.limitTurn} would pass the ${formatCount(r.params.limitTokens)}-token limit`
                  : 'all three serve every turn'
              }
            />
          </>
        ) : null
      }
      caption={
        r && ri ? (
          <>
            Start: {formatTokens(r.params.contextTokens)} cached; each turn adds{' '}
            {formatTokens(r.params.growthTokens)} ({formatTokens(r.params.outputTokens)} of output) and
            prefills it. Summarising asks the model for a {formatCount(r.params.summaryTokens)}-token summary
            (dollars only: it is a decode, not a prefill), then re-prefills it after the{' '}
            {formatCount(r.params.headTokens)}-token head. Pruning replaces the tool results of all but the
            last {r.params.keepLast} turns by {formatCount(r.params.stubTokens)}-token stubs, in place, with
            no model call. Dollars: cached input × {formatNumber(r.prices.cacheReadMultiplier)}, new input ×{' '}
            {formatNumber(r.prices.cacheWriteMultiplier)} of {money(r.prices.inputPerMTok)}/MTok, output{' '}
            {money(r.prices.outputPerMTok)}/MTok. Time: {ri.modelName} on {ri.gpus} × {ri.acceleratorName}{' '}
            with matmuls at {formatNumber(ri.gemmEfficiency * 100)}% and attention at{' '}
            {formatNumber(ri.attentionEfficiency * 100)}% of peak, with the all-reduce and overhead of the
            cost model. Lower chart: the prompt each policy sends.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      <div className="offload-charts cc-charts">
        <LineChart
          title={`${axis.label} of the three policies against the turn`}
          description="Three lines, one per policy, of the cumulative cost over the coming turns; vertical rules where compaction pays back and where the context without compaction passes the limit."
          series={series}
          x={{ label: 'Turn', format: (t) => formatNumber(t), domain: [1, v.turns] }}
          y={axis}
          markers={markers}
          points={false}
          aspect={0.5}
        />
        <LineChart
          title="Prompt tokens of each policy against the turn"
          description="The prompt each policy sends per turn: growing without compaction until the limit, a sawtooth with summarising or pruning."
          series={context}
          x={{ label: 'Turn', format: (t) => formatNumber(t), domain: [1, v.turns] }}
          y={{ label: 'Prompt', unit: 'tokens', format: (t) => formatCount(t), zero: true }}
          markers={
            r
              ? [
                  { kind: 'y', y: r.params.limitTokens, label: 'context limit', tone: 'danger' },
                  { kind: 'y', y: r.params.thresholdTokens, label: 'threshold', tone: 'muted' },
                ]
              : []
          }
          points={false}
          legend={false}
          aspect={0.26}
        />
      </div>
    </WidgetFrame>
  );
}
