/**
 * KV footprint calculator (lesson 07.04): model, dtype and hardware → KV bytes per token, the memory one
 * agent context takes, and how many such contexts fit in the replica's HBM after the weights.
 * Computed in the worker (method kvFootprint); the transport grows one agent's context toward the budget.
 */
import { useMemo } from 'react';
import { LineChart } from '../kit/charts/LineChart';
import { BarChart } from '../kit/charts/BarChart';
import type { Marker } from '../kit/charts/types';
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
import type { Dtype } from '../../sim/engine/catalog/models';
import { KV_FOOTPRINT_ID, kvFootprintSchema } from './schema';

export function KvFootprint() {
  const params = useWidgetParams(KV_FOOTPRINT_ID, kvFootprintSchema);
  const v = params.values;
  const args = useMemo(
    () => ({
      modelId: v.model,
      acceleratorId: v.accelerator,
      kvDtype: v.kvDtype as Dtype,
      weightDtype: v.weightDtype as Dtype,
      contextTokens: v.contextTokens,
      gpus: v.gpus,
      memoryUtilization: v.memoryUtilization,
    }),
    [v.model, v.accelerator, v.kvDtype, v.weightDtype, v.contextTokens, v.gpus, v.memoryUtilization],
  );
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
  const transport = useTransport({
    duration: v.contextTokens,
    rate: v.contextTokens / 8, // the whole context grows in 8 s at 1×
    step: Math.max(1, Math.round(v.contextTokens / 40)),
    reducedMotion: reduced,
  });

  const xMax = Math.max(v.contextTokens, r ? r.maxCachedTokens * 1.1 : 0, 1);
  const series = useMemo(() => {
    if (!r) return [];
    const chosen = r.perModel.find((m) => m.id === v.model);
    const others = r.perModel.filter((m) => m.id !== v.model);
    // The chosen model first, so it takes the first (most prominent) colour and the legend's lead.
    return [chosen, ...others]
      .filter((m): m is NonNullable<typeof m> => Boolean(m))
      .map((m) => ({
        name: m.name,
        points: [
          { x: 0, y: 0 },
          { x: xMax, y: xMax * m.kvBytesPerToken },
        ],
      }));
  }, [r, v.model, xMax]);

  const grown = Math.round(transport.t);
  const grownBytes = r ? grown * r.kvBytesPerToken : 0;
  const markers: Marker[] = r
    ? [
        {
          kind: 'y',
          y: r.kvBudgetBytes,
          label: `KV budget ${formatBytesDecimal(r.kvBudgetBytes)}`,
          tone: 'danger',
        },
        { kind: 'x', x: v.contextTokens, label: `context ${formatCount(v.contextTokens)}`, tone: 'muted' },
        ...(grown > 0
          ? [
              {
                kind: 'point' as const,
                x: grown,
                y: grownBytes,
                label: formatBytesDecimal(grownBytes),
                tone: 'accent' as const,
              },
            ]
          : []),
      ]
    : [];

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
              value={formatBytesDecimal(r.contextBytes)}
              formula={`${formatCount(v.contextTokens)} tokens × ${formatBytes(r.kvBytesPerToken)}`}
            />
            <Readout
              label="KV budget after weights and reserve"
              value={r.weightsFit ? formatBytesDecimal(r.kvBudgetBytes) : 'weights do not fit'}
              formula={`${v.gpus} × ${formatBytesDecimal(r.acceleratorMemoryBytes)} (as the driver reports it) × ${formatPercent(v.memoryUtilization)} − ${formatBytesDecimal(r.reserveBytes)} activation reserve − ${formatBytesDecimal(r.weightBytesTotal)} weights = ${formatBytesDecimal(r.kvBudgetBytes)}`}
            />
            <Readout
              emphasis
              label="Contexts that fit at once"
              value={<span data-readout="concurrent-contexts">{r.concurrentContexts}</span>}
              formula={`⌊budget / context⌋; ${formatTokens(r.maxCachedTokens)} cached in all`}
            />
            <Readout
              label="Growing context (transport)"
              value={`${formatTokens(grown)}`}
              formula={`${formatBytesDecimal(grownBytes)} = ${r.kvBudgetBytes > 0 ? formatPercent(grownBytes / r.kvBudgetBytes) : '—'} of the budget`}
            />
          </>
        ) : null
      }
      caption={
        r ? (
          <>
            Lines: KV bytes against context length for every catalog model ({v.kvDtype.toUpperCase()} cache);
            the first is {r.modelName}. The dashed rule is the KV budget of {v.gpus} × {r.acceleratorName}{' '}
            after the weights and vLLM&apos;s profiled activation reserve (HBM as the driver reports it).
            Steeper lines fill it sooner; MLA (DeepSeek-V3) is the flattest. Bars: whole contexts that fit for
            each model, after its own weights. KV is counted once per replica (split across GPUs by KV head;
            an MLA latent is kept once, as with data-parallel attention).
          </>
        ) : null
      }
      tryThis={
        <ul>
          <li>
            Switch the KV dtype to FP8: the contexts that fit roughly double. Why exactly double only if the
            weights stay BF16?
          </li>
          <li>Pick Llama 3.1 405B on one H200: the weights alone do not fit, so the budget is zero.</li>
          <li>
            Compare DeepSeek-V3 with Llama 3.1 405B at 100k tokens: MLA caches one latent per layer instead of
            K and V per head.
          </li>
          <li>
            Read the bars, then pick the H200 with FP8 weights: DeepSeek-V3&apos;s weights now fit, and its
            small latent keeps more 100k-token contexts than any model but the 8B.
          </li>
        </ul>
      }
    >
      <LineChart
        title={`KV-cache bytes against context length, ${r?.acceleratorName ?? ''} budget marked`}
        series={series}
        x={{ label: 'Context length', unit: 'tokens', format: (t) => formatCount(t), domain: [0, xMax] }}
        y={{ label: 'KV cache', format: (b) => formatBytesDecimal(b, 3) }}
        markers={markers}
        points={false}
      />
      {bars ? (
        <BarChart
          title={`Contexts of ${formatTokens(v.contextTokens)} that fit after the weights on ${v.gpus} × ${r?.acceleratorName ?? ''}, every LLM in the catalog`}
          description="One horizontal bar per catalog model: how many whole agent contexts of the chosen length fit in the KV budget that remains after its weights. A model whose weights do not fit has no bar."
          categories={bars.map((b) =>
            b.weightsFit ? b.name : `${b.name.replace(/ \(.*\)$/, '')}: weights do not fit`,
          )}
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
