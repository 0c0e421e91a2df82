/**
 * Reload or recompute (lesson 07.05): the time to bring a prefix's KV back over a link against the time to
 * prefill it again, over every prefix length of the model's context, for one model, replica and link. The
 * break-even lengths are solved analytically by the core (src/sim/engine/breakeven.ts) in the worker (method
 * reloadVsRecompute) and marked on the chart; the read-outs give the figures for one prefix with their formulas.
 */
import { kvCopiesFactor } from '../kit/kvCopies';
import { useMemo } from 'react';
import { LineChart, durationAxis, type LineChartProps, type LineSeries, type Marker } from '../kit/charts';
import { ParamControls } from '../kit/controls/ParamControls';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import {
  formatBandwidth,
  formatBytes,
  formatBytesDecimal,
  formatCount,
  formatDuration,
  formatFlops,
  formatNumber,
  formatRatio,
  formatTokens,
} from '../../lib/format';
import type { ReloadRecomputeResult } from '../../worker/offloadMethods';
import {
  linkShort,
  OBJECT_STORE_LATENCY_US,
  RELOAD_ID,
  reloadArgs,
  reloadSchema,
  SMALL_MODEL_ITEM,
} from './schema';
import { SmallModelBandFig } from './figures';
import { TryThis, type TryItem } from '../kit/TryThis';
import { TourMark } from '../kit/TourMark';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-05 checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Switch the link to <em>PCIe Gen5 x16</em> (KV parked in host DRAM, one link per GPU): the shaded band
        vanishes and reload wins at every length, by a wide margin.
      </>
    ),
    set: { link: 'pcie-gen5-x16' },
    highlight: 'regime',
  },
  {
    text: (
      <>
        Then try one <em>RDMA 100G NIC</em>: it still wins everywhere, but only just: the lower chart stays
        under 1×.
      </>
    ),
    set: { link: 'rdma-100g' },
    highlight: 'ratio-chart',
  },
  {
    text: (
      <>
        Keep one NVMe drive and switch to <em>DeepSeek-V3</em> on <em>B200</em> (its weights do not fit in 8
        H100s): MLA caches few bytes per token, but each of the 8 GPUs holds the whole latent. The lab assumes
        each reloads its own copy, so the drive carries eight and recompute wins every prefix past a few
        hundred tokens. (LMCache stores and loads one copy, rank 0&apos;s, and broadcasts it to the other
        GPUs.)
      </>
    ),
    set: { model: 'deepseek-v3', accelerator: 'b200' },
    highlight: 'regime',
  },
  {
    text: (
      <>
        Keep the <em>B200</em> and switch to <em>Llama 3.1 8B</em> on 1 GPU: a small model is cheap to
        recompute, yet its KV is not small for its FLOPs: recompute wins a band, <SmallModelBandFig />, and
        reload wins on either side. On one H100, which recomputes more slowly, the drive wins at every length.
      </>
    ),
    set: SMALL_MODEL_ITEM,
    highlight: 'faster',
  },
  {
    text: (
      <>
        Pick <em>Custom</em> and set its latency to {formatNumber(OBJECT_STORE_LATENCY_US.high)} µs (an object
        store): recompute now wins the shortest prefixes, up to a few thousand tokens, because a round trip
        costs more than prefilling them.
      </>
    ),
    // The slower of the storage-tier bullet's two object stores, so that the item and the bullet's figure agree.
    set: { link: 'custom', customLatencyUs: OBJECT_STORE_LATENCY_US.high },
    highlight: 'crossings',
  },
  {
    text: (
      <>
        Raise the GPUs per replica from 8 to 16 with the NVMe drive: 16 H100s are two nodes, and every
        layer&apos;s all-reduces cross the NICs, but all eight of a node&apos;s NICs carry them at once, so
        recompute gets faster; the 70B&apos;s KV is now stored twice and the one drive reads both copies, so
        recompute wins from a few hundred tokens on. Turn on the roofline sides to see where recompute stops
        being memory-bound.
      </>
    ),
    set: { gpus: 16, showSides: true },
    highlight: 'recompute-time',
  },
];
import './kv-offload.css';

/** "135 and 38.8k tokens", "none". */
export function crossingsText(c: readonly number[]): string {
  if (!c.length) return 'none';
  const parts = c.map((x) => formatNumber(Math.round(x), 6));
  return `${parts.length > 1 ? parts.slice(0, -1).join(', ') + ' and ' + parts[parts.length - 1] : parts[0]} tokens`;
}

/** The regime in a few words, for the read-out. */
export function regimeText(r: ReloadRecomputeResult): string {
  const seg = r.segments;
  if (seg.length === 1)
    return seg[0].faster === 'reload'
      ? 'Reload is faster at every prefix length.'
      : 'Recompute is faster at every prefix length.';
  return seg
    .map((s, i) => {
      const who = s.faster === 'reload' ? 'reload' : 'recompute';
      if (i === 0) return `${who} wins below ${formatCount(s.to)}`;
      if (i === seg.length - 1) return `${who} above ${formatCount(s.from)}`;
      return `${who} from ${formatCount(s.from)} to ${formatCount(s.to)}`;
    })
    .join(', ')
    .replace(/^./, (ch) => ch.toUpperCase())
    .concat(' tokens.');
}

/**
 * The two charts' markers. Times: where recompute is faster (a red band), each break-even and the read-outs' prefix
 * in ink (the kit's default tone, in no curve's hue: the reload curve is blue; not grey, which red–green
 * colour-blind readers cannot tell from the reddish purple side curve, tests/series-hues.test.ts). The ratio
 * chart repeats the bands and break-evens unlabelled, over its rule at 1 (reload as fast as recompute).
 */
export function reloadMarkers(r: ReloadRecomputeResult): { times: Marker[]; ratio: Marker[] } {
  const bands: Marker[] = r.segments
    .filter((s) => s.faster === 'recompute')
    .map((s) => ({
      kind: 'band',
      x0: s.from,
      x1: s.to,
      label: 'recompute faster',
      // On a phone the band between the break-evens is narrower than the words.
      shortLabel: 'recompute',
      tone: 'danger',
    }));
  const breakEvens: Marker[] = r.breakEven.crossings.map((c) => ({
    kind: 'x',
    x: c,
    label: `break-even ${formatCount(c)}`,
    // On a phone the rules stand closer than the words are wide: the figure alone, the words in its title.
    shortLabel: formatCount(c),
    tone: 'fg',
  }));
  return {
    times: [
      ...bands,
      ...breakEvens,
      {
        kind: 'x',
        x: r.prefix.tokens,
        label: `read-outs: ${formatCount(r.prefix.tokens)}`,
        shortLabel: formatCount(r.prefix.tokens),
        tone: 'fg',
      },
    ],
    ratio: [
      ...[...bands, ...breakEvens].map((m): Marker => ({ ...m, label: undefined })),
      { kind: 'y', y: 1, tone: 'fg' },
    ],
  };
}

export function ReloadOrRecompute() {
  const params = useWidgetParams(RELOAD_ID, reloadSchema);
  const v = params.values;
  const args = useMemo(() => reloadArgs(v), [v]);
  const sim = useSimulation('reloadVsRecompute', args);
  const r = sim.result;

  const series: LineSeries[] = useMemo(() => {
    if (!r) return [];
    const pts = (ys: number[]) => r.curve.tokens.map((x, i) => ({ x, y: ys[i] }));
    const s: LineSeries[] = [
      {
        name: `Reload over ${r.link.count > 1 ? `${r.link.count} × ` : ''}${r.link.id === 'custom' ? 'the custom link' : linkShort(r.link.id)}`,
        points: pts(r.curve.reload),
      },
      { name: 'Recompute (prefill from scratch)', points: pts(r.curve.recompute) },
    ];
    if (v.showSides) {
      s.push({
        name: 'Compute side: GEMM / G + attention / G_a',
        points: pts(r.curve.computeSide),
        dash: '2 4',
      });
      s.push({ name: 'Memory side: bytes / (TP·HBM·MBU)', points: pts(r.curve.memorySide), dash: '8 4' });
    }
    return s;
  }, [r, v.showSides]);

  const markers = useMemo(() => (r ? reloadMarkers(r) : null), [r]);
  const ratio: LineSeries[] = useMemo(
    () =>
      r
        ? [
            {
              name: 'Reload ÷ recompute',
              points: r.curve.tokens.map((x, i) => ({ x, y: r.curve.reload[i] / r.curve.recompute[i] })),
            },
          ]
        : [],
    [r],
  );
  const custom = v.link === 'custom';
  const controlKeys = (Object.keys(reloadSchema) as (keyof typeof reloadSchema)[]).filter(
    (k) => custom || (k !== 'customGBps' && k !== 'customLatencyUs'),
  );
  const p = r?.prefix;
  const linkText = r
    ? `${r.link.count > 1 ? `${r.link.count} × ${formatBandwidth(r.link.perLinkBandwidth)} = ` : ''}${formatBandwidth(r.link.bandwidth)}`
    : '';

  // The charts change only with the result: a dragged control re-renders the widget on every input event,
  // and redrawing both SVG charts each time was most of its main-thread task at 4× CPU throttling.
  const charts = useMemo(() => {
    // Both charts share the prefix-length axis.
    const prefixAxis: LineChartProps['x'] = {
      label: 'Prefix length',
      unit: 'tokens',
      scale: 'log',
      format: (t) => formatCount(t),
      readout: (t) => formatTokens(t),
      domain: r ? [1, r.model.maxContext] : undefined,
    };
    return (
      <div className="offload-charts">
        <LineChart
          title="Reload time and recompute time against prefix length"
          description="Two lines on log–log axes: the time to reload a prefix's KV over the link, and the time to prefill it again; vertical rules at the break-even lengths, shaded where recompute is faster."
          series={series}
          x={prefixAxis}
          y={durationAxis('Time', { scale: 'log' })}
          markers={markers?.times}
          points={false}
          aspect={0.6}
        />
        {/* The lower chart, which a "Try this" item points at. */}
        <TourMark id="ratio-chart">
          <LineChart
            title="Reload time divided by recompute time against prefix length"
            description="The ratio of the two times on log–log axes: above 1, recompute is faster."
            series={ratio}
            x={prefixAxis}
            y={{ label: 'Reload ÷ recompute', scale: 'log', format: (x) => formatRatio(x, 2) }}
            markers={markers?.ratio}
            points={false}
            legend={false}
            aspect={0.28}
          />
        </TourMark>
      </div>
    );
  }, [series, markers, ratio, r]);

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={RELOAD_ID}
      title="Reload or recompute?"
      fixFields={{ modelId: 'model' }}
      controls={<ParamControls params={params} only={controlKeys} />}
      exportData={() => ({
        rows: r
          ? r.curve.tokens.map((t, i) => ({
              prefixTokens: t,
              reloadS: r.curve.reload[i],
              recomputeS: r.curve.recompute[i],
              computeSideS: r.curve.computeSide[i],
              memorySideS: r.curve.memorySide[i],
            }))
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && p ? (
          <>
            <Readout
              emphasis
              label="Break-even prefix lengths"
              value={
                <span
                  data-readout="crossings"
                  data-value={JSON.stringify(r.breakEven.crossings.map((c) => Math.round(c)))}
                >
                  {crossingsText(r.breakEven.crossings)}
                </span>
              }
              formula={
                <span data-readout="regime" data-regime={r.breakEven.regime}>
                  {regimeText(r)}
                </span>
              }
            />
            <Readout
              label={`KV of a ${formatNumber(p.tokens, 6)}-token prefix`}
              value={formatBytesDecimal(p.kvBytes)}
              formula={`bytes = p × KV bytes/token${r.model.kvCopies > 1 ? ' × ρ' : ''} = ${formatNumber(p.tokens, 6)} × ${formatBytes(r.model.kvBytesPerToken)}${kvCopiesFactor(r.model.kvCopies, r.model.attention)}`}
            />
            <Readout
              label="Reload time"
              value={
                <span data-readout="reload-time" data-value={p.reload}>
                  {formatDuration(p.reload)}
                </span>
              }
              formula={`t_reload = λ + bytes / B = ${formatDuration(r.link.latency)} + ${formatBytesDecimal(p.kvBytes)} / ${linkText}`}
            />
            <Readout
              label="Recompute time"
              value={
                <span data-readout="recompute-time" data-value={p.recompute}>
                  {formatDuration(p.recompute)}
                </span>
              }
              formula={`t_recompute = max(GEMM / G + attention / G_a, bytes / M) + t_AR + t_o = max(${formatDuration(p.computeTime)} for ${formatFlops(p.flops)}, ${formatBytesDecimal(p.bytes)} / ${formatBandwidth(r.hardware.memBandwidth)}) + ${formatDuration(p.allReduceTime)} + ${formatDuration(p.overheadTime)}: ${p.bound}-bound`}
            />
            <Readout
              emphasis
              label="Faster at this prefix"
              value={
                <span data-readout="faster" data-value={p.faster}>
                  {p.faster} by {formatRatio(p.speedup, 3)}
                </span>
              }
              formula={`${formatDuration(Math.max(p.reload, p.recompute))} / ${formatDuration(Math.min(p.reload, p.recompute))}`}
            />
            <Readout
              label="Minimum link bandwidth for this prefix"
              value={
                <span data-readout="min-bandwidth" data-value={p.minBandwidth ?? ''}>
                  {p.minBandwidth === null
                    ? 'none: the latency alone loses'
                    : formatBandwidth(p.minBandwidth)}
                </span>
              }
              formula={
                <>
                  B* = bytes / (t_recompute − λ)
                  {r.alwaysWins.bandwidth !== null ? (
                    <>
                      ; reload wins at <em>every</em> length above{' '}
                      <span data-readout="always-wins" data-value={r.alwaysWins.bandwidth}>
                        {formatBandwidth(r.alwaysWins.bandwidth)}
                      </span>
                    </>
                  ) : (
                    `; below ${formatTokens(r.alwaysWins.latencyBoundBelow)} no bandwidth wins (latency)`
                  )}
                </>
              }
            />
          </>
        ) : null
      }
      caption={
        r ? (
          <>
            Both axes logarithmic. {r.model.name} on {r.hardware.tp} × {r.hardware.acceleratorName} (GEMMs at
            G = {formatFlops(r.hardware.flops, true)}, {formatNumber(r.hardware.gemmEfficiency * 100)}% of
            peak; attention at G_a = {formatFlops(r.hardware.attentionFlops, true)},{' '}
            {formatNumber(r.hardware.attentionEfficiency * 100)}%; M ={' '}
            {formatBandwidth(r.hardware.memBandwidth)} of HBM at {formatNumber(r.hardware.mbu * 100)}% MBU;{' '}
            {formatDuration(r.hardware.iterationOverheadS)} per iteration).{' '}
            {r.hardware.tp > 1 ? (
              <>
                Recompute adds {r.hardware.allReduce.calls} all-reduces per pass (2 per layer), each
                2(TP−1)/TP × tokens × hidden × 2 B / {formatBandwidth(r.hardware.allReduce.busBandwidth)} +{' '}
                {formatDuration(r.hardware.allReduce.latency)} over{' '}
                {r.hardware.allReduce.scope === 'inter-node'
                  ? `the NICs (${r.hardware.allReduce.linkId}: TP spans nodes)`
                  : `NVLink (${r.hardware.allReduce.linkId})`}
                , not overlapped with compute: {formatDuration(r.hardware.allReduce.perToken)} per token +{' '}
                {formatDuration(r.hardware.allReduce.fixed)} per pass.{' '}
              </>
            ) : null}
            KV {formatBytes(r.model.kvBytesPerToken)} per token in BF16
            {r.model.kvCopies > 1
              ? `, ${formatNumber(r.model.kvCopies)} copies across the GPUs (each GPU reloads its own)`
              : ''}
            ; link {linkText}, λ = {formatDuration(r.link.latency)} per transfer
            {r.link.id !== 'custom' ? ` (${r.link.basis} bandwidth, src/sim/engine/catalog/links.ts)` : ''}.
            Shaded: prefix lengths where recompute is faster. Lower chart: reload time ÷ recompute time; above
            the 1× rule, recompute is faster. {r.breakEven.explanation}
            {r.breakEven.crossingsBeyondDomain.length
              ? ` Past the ${formatTokens(r.model.maxContext)} context the lines would cross again at ${crossingsText(r.breakEven.crossingsBeyondDomain)}.`
              : ''}
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {charts}
    </WidgetFrame>
  );
}
