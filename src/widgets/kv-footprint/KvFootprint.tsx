/**
 * KV footprint calculator (lesson 07.04): model, dtype and hardware → KV bytes per token, the memory one
 * agent context takes, and how many such contexts fit in the replica's HBM after the weights.
 * Computed in the worker (method kvFootprint); the transport grows one agent's context toward the budget.
 */
import { shortName } from '../../sim/engine/catalog/names';
import { kvCopiesFactor } from '../kit/kvCopies';
import { useMemo } from 'react';
import { BarChart } from '../kit/charts/BarChart';
import { ParamControls } from '../kit/controls/ParamControls';
import { TransportBar } from '../kit/controls/TransportBar';
import { useTransport } from '../kit/controls/useTransport';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { usePreferences } from '../../app/services';
import {
  formatBytes,
  formatBytesDecimal,
  formatCount,
  formatNumber,
  formatPercent,
  formatTokens,
} from '../../lib/format';
import { footprintArgs, KV_FOOTPRINT_ID, kvFootprintSchema } from './schema';
import { BudgetFill } from './BudgetFill';
import { fillAt, fillDuration, fillPlan } from './fill';
import { TryThis, type TryItem } from '../kit/TryThis';

/** "Try this": each item with the state it describes (the lesson's tour plays them). */
const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Switch the KV dtype to FP8: each context takes half the bytes, so about twice as many fit in the same
        budget. Why only about twice, in general?
      </>
    ),
    set: { kvDtype: 'fp8' },
    highlight: 'concurrent-contexts',
  },
  {
    text: <>Pick Llama 3.1 405B on one H200: the weights alone do not fit, so the budget is zero.</>,
    set: { model: 'llama-3.1-405b', accelerator: 'h200', gpus: 1 },
    highlight: 'concurrent-contexts',
  },
  {
    text: (
      <>
        Compare DeepSeek-V3 with Llama 3.1 405B at 100k tokens: one agent context is about 7× smaller, because
        MLA caches one latent per layer instead of K and V per head. On 8 × H100 with BF16 weights neither
        model&apos;s weights fit, so neither keeps a context yet (the next item changes that).
      </>
    ),
    set: { model: 'deepseek-v3' },
    highlight: 'context-bytes',
  },
  {
    text: (
      <>
        Read the bars, then pick the H200 with FP8 weights: DeepSeek-V3&apos;s weights now fit, and its small
        latent keeps more 100k-token contexts than any model but the 8B.
      </>
    ),
    set: { accelerator: 'h200', weightDtype: 'fp8' },
  },
];

export function KvFootprint() {
  const params = useWidgetParams(KV_FOOTPRINT_ID, kvFootprintSchema);
  const v = params.values;
  const args = useMemo(() => footprintArgs(v), [v]);
  const sim = useSimulation('kvFootprint', args);
  const r = sim.result;
  // The second chart: whole contexts that fit, for every catalog model on the same hardware.
  const perModel = useSimulation('contextsPerModel', {
    acceleratorId: args.acceleratorId,
    gpus: args.gpus,
    kvDtype: args.kvDtype,
    weightDtype: args.weightDtype,
    contextTokens: args.contextTokens,
    memoryUtilization: args.memoryUtilization,
  });
  const bars = perModel.result;
  const reduced = usePreferences((s) => s.motion) === 'reduced';
  const plan = useMemo(
    () =>
      fillPlan(
        r && r.weightsFit ? r.kvBudgetBytes : 0,
        r ? r.kvBytesPerToken * r.kvCopies : 1,
        v.contextTokens,
      ),
    [r, v.contextTokens],
  );
  const duration = fillDuration(plan);
  const transport = useTransport({
    duration,
    rate: duration / 10, // every context written in 10 s at 1×
    step: Math.max(1, Math.round(v.contextTokens / 40)),
    autoplay: true, // an empty budget until Play read as "0 tokens" next to "13 fit"
    reducedMotion: reduced,
  });
  const fill = fillAt(plan, transport.t);
  const growingBytes = r ? fill.agentTokens * r.kvBytesPerToken * r.kvCopies : 0;

  return (
    <WidgetFrame
      id={KV_FOOTPRINT_ID}
      title="KV footprint calculator"
      status={sim.status}
      error={sim.error}
      onRetry={() => {
        sim.retry();
        perModel.retry();
      }}
      stale={sim.stale}
      corrected={params.corrected}
      onReset={() => {
        params.reset();
        transport.seek(0);
      }}
      onKeyDown={transport.handleKey}
      controls={<ParamControls params={params} />}
      transport={<TransportBar transport={transport} format={(t) => formatTokens(Math.round(t))} />}
      exportData={() => ({
        rows: r
          ? r.perModel.map((m) => ({
              model: m.name,
              kvBytesPerToken: m.kvBytesPerToken,
              contextTokens: v.contextTokens,
              contextBytes: m.contextBytes,
            }))
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r ? (
          <>
            <Readout
              label="KV bytes per token"
              value={formatBytes(r.kvBytesPerToken)}
              formula={`${formatNumber(r.kvBytesPerToken, 6)} B = layers × per-layer KV × ${v.kvDtype}`}
            />
            <Readout
              label="One agent context"
              value={<span data-readout="context-bytes">{formatBytesDecimal(r.contextBytes)}</span>}
              formula={`${formatCount(v.contextTokens)} tokens × ${formatBytes(r.kvBytesPerToken)}${kvCopiesFactor(r.kvCopies)}`}
            />
            <Readout
              label="KV budget after weights and reserve"
              value={r.weightsFit ? formatBytesDecimal(r.kvBudgetBytes) : 'weights do not fit'}
              formula={`${v.gpus} × ${formatBytesDecimal(r.acceleratorMemoryBytes)} (as the driver reports it) × ${formatPercent(v.memoryUtilization)} − ${formatBytesDecimal(r.reserveBytes)} activation reserve − ${formatBytesDecimal(r.weightBytesTotal)} weights${r.replicatedAttentionBytes > 0 ? ` (${formatBytesDecimal(r.replicatedAttentionBytes)} of them the attention's copies on every GPU: data-parallel attention)` : ''} = ${formatBytesDecimal(r.kvBudgetBytes)}`}
            />
            <Readout
              emphasis
              label="Contexts that fit at once"
              value={<span data-readout="concurrent-contexts">{r.concurrentContexts}</span>}
              formula={`⌊budget / context⌋; ${formatTokens(r.maxCachedTokens)} cached in all`}
            />
            <Readout
              label="Filling (at the playhead)"
              value={
                <span data-readout="filling">
                  agent {fill.agent + 1} of {plan.agents}: {formatTokens(Math.round(fill.agentTokens))}
                </span>
              }
              formula={`${formatBytesDecimal(growingBytes)}; ${formatCount(fill.usedCells)} of ${formatCount(plan.budgetCells)} blocks used${fill.overflowCells > 0 ? `, ${formatCount(fill.overflowCells)} find no room` : ''}`}
            />
          </>
        ) : null
      }
      caption={
        r ? (
          <>
            The grid is the KV budget of {v.gpus} × {r.acceleratorName} for {r.modelName} after the weights
            and vLLM&apos;s profiled activation reserve (HBM as the driver reports it): one cell per{' '}
            {formatTokens(plan.blockTokens)} ({formatCount(plan.engineBlocksPerCell)} of vLLM&apos;s 16-token
            blocks). Press play: agent contexts of {formatTokens(v.contextTokens)} fill it one after another,
            a dark edge where each begins; the hatched cells below are the blocks of the context that finds no
            room. Bars: whole contexts that fit for each model, after its own weights. KV is split across the
            GPUs by KV head; with more GPUs than KV heads each head is stored on several, and every copy is
            counted. An MLA latent is kept once, as with data-parallel attention.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      <BudgetFill
        plan={plan}
        state={fill}
        label={`KV budget of ${formatCount(plan.budgetCells)} blocks of ${formatTokens(plan.blockTokens)}: ${formatCount(fill.whole)} whole contexts resident, agent ${fill.agent + 1} of ${plan.agents} growing${fill.overflowCells > 0 ? `, ${formatCount(fill.overflowCells)} blocks find no room` : ''}`}
      />
      {bars ? (
        <BarChart
          title={`Contexts of ${formatTokens(v.contextTokens)} that fit after the weights on ${v.gpus} × ${r?.acceleratorName ?? ''}, every LLM in the catalog`}
          description="One horizontal bar per catalog model: how many whole agent contexts of the chosen length fit in the KV budget that remains after its weights. A model whose weights do not fit has no bar."
          categories={bars.map((b) => (b.weightsFit ? b.name : `${shortName(b.name)}: weights do not fit`))}
          series={[
            { name: 'Contexts that fit', values: bars.map((b) => (b.weightsFit ? b.contexts : null)) },
          ]}
          orientation="horizontal"
          value={{ label: 'Contexts that fit at once', format: (n) => formatCount(n), zero: true }}
          height={250}
        />
      ) : null}
    </WidgetFrame>
  );
}
