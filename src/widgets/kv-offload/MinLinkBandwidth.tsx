/**
 * Minimum link bandwidth (lesson 07.05): for one prefix length and one replica, the aggregate link bandwidth at
 * which reloading the prefix's KV takes exactly as long as recomputing it, B* = p·k / (t_recompute − λ), for every
 * catalog model, and the bandwidth above which reload wins at EVERY prefix length. Catalog links are drawn as
 * reference rules. The bars rank the models by KV bytes per FLOP: B* ≈ G · k / (FLOPs per token).
 * Computed in the worker (method minBandwidthByModel).
 */
import { kvCopiesFactor } from '../kit/kvCopies';
import { DEFAULT_ATTENTION_EFFICIENCY, DEFAULT_ITERATION_OVERHEAD_S } from '../../sim/engine/cost';
import { useMemo } from 'react';
import { BarChart, type BarSeries, type Marker } from '../kit/charts';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import {
  formatBandwidth,
  formatBytes,
  formatDuration,
  formatFlops,
  formatNumber,
  formatPercent,
  formatRatio,
} from '../../lib/format';
import type { ModelBandwidthRow } from '../../worker/minBandwidthMethods';
import { linkShort, MIN_BW_DEFAULTS, MIN_BW_ID, minBwArgs, minBwSchema } from './schema';
import { TryThis, type TryItem } from '../kit/TryThis';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-05 checks them). */
/** The prefix control, and the long prefix the third item slides to (128 Ki tokens, four times the default). */
const PREFIX_CONTROL = minBwSchema.prefixTokens;
const LONG_PREFIX = 4 * MIN_BW_DEFAULTS.prefixTokens;

export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Read the table: the bars are in the order of <em>KV bytes per FLOP</em>, every copy the GPUs hold
        counted. Llama 3.1 405B needs the slowest link, Llama 3.1 8B the fastest, because it is the smallest
        model; DeepSeek-V3, whose latent every GPU holds, has the highest hatched bar.
      </>
    ),
    highlight: 'spread',
  },
  {
    text: <>Switch the KV dtype to FP8: every bar halves. Half the bytes per token, the same FLOPs.</>,
    set: { kvDtype: 'fp8' },
    highlight: 'focus-min-bandwidth',
  },
  {
    text: (
      <>
        Slide the prefix from {PREFIX_CONTROL.format(MIN_BW_DEFAULTS.prefixTokens)} to{' '}
        {PREFIX_CONTROL.format(LONG_PREFIX)}: the solid bars fall (attention makes recompute grow faster than
        the KV), the hatched ones stay put (they are the worst case over all lengths).
      </>
    ),
    set: { prefixTokens: LONG_PREFIX },
    highlight: 'focus-always-wins',
  },
  {
    text: <>Change the accelerator to B200: faster recompute raises every bar, nearly in proportion to G.</>,
    set: { accelerator: 'b200' },
    highlight: 'focus-min-bandwidth',
  },
  {
    text: (
      <>
        Set the TP to 16 instead: 16 GPUs are two nodes and the all-reduces cross the NICs, which a
        node&apos;s eight carry together nearly as fast as NVLink, so G doubles and recompute gets faster,
        while every model&apos;s KV is now stored at least twice. Every bar more than doubles.
      </>
    ),
    set: { gpus: 16 },
    highlight: 'focus-min-bandwidth',
  },
];
import './kv-offload.css';

/** Bytes per FLOP are tiny numbers: show them per MFLOP (10⁶ FLOP). */
export const formatBytesPerMflop = (x: number) => `${formatNumber(x * 1e6, 3)} B/MFLOP`;

const gbps = (b: number | null) => (b === null ? null : b / 1e9);

/** The name of the empty first band, which holds the rule labels. */
const RULES_ROW = 'Catalog links ▸';

export function MinLinkBandwidth() {
  const params = useWidgetParams(MIN_BW_ID, minBwSchema);
  const v = params.values;
  const args = useMemo(() => minBwArgs(v), [v]);
  const sim = useSimulation('minBandwidthByModel', args);
  const r = sim.result;

  const rows = useMemo(
    () => (r ? [...r.rows].sort((a, b) => (b.minBandwidth ?? Infinity) - (a.minBandwidth ?? Infinity)) : []),
    [r],
  );
  // The first band is left empty: the catalog links' rule labels sit there, clear of the bars.
  const categories = useMemo(
    () => [RULES_ROW, ...rows.map((m) => (m.weightsFit ? m.name : `${m.name} *`))],
    [rows],
  );
  const series: BarSeries[] = useMemo(
    () => [
      { name: `Reload wins this prefix above`, values: [null, ...rows.map((m) => gbps(m.minBandwidth))] },
      {
        name: 'Reload wins every prefix length above',
        values: [null, ...rows.map((m) => gbps(m.alwaysWinsBandwidth))],
      },
    ],
    [rows],
  );
  const markers: Marker[] = useMemo(
    () =>
      r
        ? [...r.references]
            .sort((a, b) => a.bandwidth - b.bandwidth)
            .map((l) => ({
              kind: 'y' as const,
              y: l.bandwidth / 1e9,
              label: l.short,
              tone: 'muted' as const,
            }))
        : [],
    [r],
  );
  const domain: [number, number] | undefined = useMemo(() => {
    if (!r) return undefined;
    const vals = [
      ...r.rows.flatMap((m) => [m.minBandwidth, m.alwaysWinsBandwidth]),
      ...r.references.map((l) => l.bandwidth),
    ]
      .filter((x): x is number => x !== null && x > 0)
      .map((x) => x / 1e9);
    const lo = Math.min(...vals);
    const hi = Math.max(...vals);
    return [10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi))];
  }, [r]);

  const focus: ModelBandwidthRow | undefined = r?.rows.find((m) => m.id === v.focus);
  const top = rows[0];
  const bottom = rows[rows.length - 1];
  const anyMissingFit = rows.some((m) => !m.weightsFit);

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={MIN_BW_ID}
      title="Minimum link bandwidth, per model"
      exportData={() => ({
        rows: r
          ? r.rows.map((m) => ({
              model: m.name,
              prefixTokens: m.prefixTokens,
              kvBytesPerToken: m.kvBytesPerToken,
              kvCopies: m.kvCopies,
              flopsPerToken: m.flopsPerToken,
              kvBytesPerFlop: m.kvBytesPerFlop,
              recomputeS: m.recompute,
              minBandwidthBytesPerS: m.minBandwidth ?? '',
              everyLengthBandwidthBytesPerS: m.alwaysWinsBandwidth ?? '',
              weightsFit: m.weightsFit,
            }))
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && focus ? (
          <>
            <Readout
              emphasis
              label={`${focus.name}: minimum bandwidth at ${formatNumber(focus.prefixTokens, 6)} tokens`}
              value={
                <span data-readout="focus-min-bandwidth" data-value={focus.minBandwidth ?? ''}>
                  {focus.minBandwidth === null ? '—' : formatBandwidth(focus.minBandwidth)}
                </span>
              }
              formula={`B* = p·k${focus.kvCopies > 1 ? '·ρ' : ''} / (t_recompute − λ) = ${formatNumber(focus.prefixTokens, 6)} × ${formatBytes(focus.kvBytesPerToken)}${kvCopiesFactor(focus.kvCopies, focus.attention)} / (${formatDuration(focus.recompute)} − ${formatDuration(r.latency)})`}
            />
            <Readout
              label="KV bytes per FLOP of recompute"
              value={
                <span data-readout="focus-bytes-per-flop">{formatBytesPerMflop(focus.kvBytesPerFlop)}</span>
              }
              formula={`k${focus.kvCopies > 1 ? '·ρ' : ''} / f̄ = ${formatBytes(focus.kvBytesPerToken)}${kvCopiesFactor(focus.kvCopies, focus.attention)} / ${formatFlops(focus.flopsPerToken)} per token; × G = ${formatFlops(r.flops, true)} gives ${formatBandwidth(focus.kvBytesPerFlop * r.flops)}, the bar with one G and no all-reduce (attention's lower efficiency and the all-reduces make the real bar lower)`}
            />
            <Readout
              label="Reload wins at every prefix length above"
              value={
                <span data-readout="focus-always-wins" data-value={focus.alwaysWinsBandwidth ?? ''}>
                  {focus.alwaysWinsBandwidth === null ? '—' : formatBandwidth(focus.alwaysWinsBandwidth)}
                </span>
              }
              formula="max over p of B*(p): the worst case sits where recompute stops being memory-bound"
            />
            {top && bottom && top.minBandwidth !== null && bottom.minBandwidth !== null ? (
              <Readout
                label="Spread across the models"
                value={
                  <span data-readout="spread">{formatRatio(top.minBandwidth / bottom.minBandwidth)}</span>
                }
                formula={`${top.name} ${formatBandwidth(top.minBandwidth)} / ${bottom.name} ${formatBandwidth(bottom.minBandwidth)}`}
              />
            ) : null}
          </>
        ) : null
      }
      caption={
        r ? (
          <>
            Every catalog model on the same replica, {r.tp} × {r.acceleratorName} (GEMMs at G ={' '}
            {formatFlops(r.flops, true)}, attention at {formatPercent(DEFAULT_ATTENTION_EFFICIENCY)} of peak,
            two all-reduces per layer and {formatDuration(DEFAULT_ITERATION_OVERHEAD_S)} per iteration added),
            KV in {r.kvDtype.toUpperCase()}, λ = {formatDuration(r.latency)} per transfer. Solid bars: the
            aggregate bandwidth at which reloading a {formatNumber(r.prefixTokens, 6)}-token prefix takes as
            long as recomputing it; hatched: the bandwidth above which reload wins at every length of the
            model&apos;s context. Log scale. Dashed rules, one catalog link each (effective bandwidth;
            striping over n links multiplies it by n):{' '}
            {[...r.references]
              .sort((a, b) => a.bandwidth - b.bandwidth)
              .map((l) => `${l.short} = one ${linkShort(l.id)}, ${formatBandwidth(l.bandwidth)}`)
              .join('; ')}
            .
            {anyMissingFit
              ? ` * The weights do not fit in ${r.tp} × ${r.acceleratorName}; the figures assume they do.`
              : ''}
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      <div className="offload-bars">
        <BarChart
          title={`Minimum link bandwidth per model for a ${r ? formatNumber(r.prefixTokens, 6) : ''}-token prefix`}
          description="Horizontal bars, one pair per model: the link bandwidth above which reload beats recompute for this prefix, and for every prefix length; vertical rules mark catalog links."
          categories={categories}
          series={series}
          orientation="horizontal"
          value={{
            label: 'Link bandwidth',
            unit: 'GB/s',
            scale: 'log',
            domain,
            format: (x) => formatNumber(x, 3),
            readout: (x) => formatBandwidth(x * 1e9),
          }}
          markers={markers}
          // Rows in chart units, zoomed with their type: a pair of bars keeps room for both value labels when
          // presented (a fixed 390-pixel height dropped them at 1920 × 1080); 36 units keep the picture and the
          // read-outs on one screen at the charts' projected zoom (2.25× at 1920 × 1080).
          rowHeight={36}
        />
        {r ? (
          <div className="table-scroll offload-table-scroll">
            <table className="ruled-table" data-figure="min-bandwidth-table">
              <thead>
                <tr>
                  <th scope="col">Model</th>
                  <th scope="col" className="col-detail">
                    KV per token
                  </th>
                  {/* Recompute's FLOPs for the whole prefix divided by its length, attention included, so
                      the figure grows with the prefix (the prose's 2N per token is the body alone). */}
                  <th scope="col" className="col-detail">
                    FLOPs per token (mean over the prefix)
                  </th>
                  <th scope="col">KV per FLOP (of that mean)</th>
                  <th scope="col">Minimum link bandwidth B* at {formatNumber(r.prefixTokens, 6)} tokens</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((m) => (
                  <tr key={m.id} data-model={m.id} aria-current={m.id === v.focus ? 'true' : undefined}>
                    <th scope="row">
                      {m.name}
                      {m.weightsFit ? '' : ' *'}
                    </th>
                    <td className="col-detail">
                      {formatBytes(m.kvBytesPerToken)}
                      {m.kvCopies > 1 ? ` × ${formatNumber(m.kvCopies)} copies` : ''}
                    </td>
                    <td className="col-detail">{formatFlops(m.flopsPerToken)}</td>
                    <td>{formatBytesPerMflop(m.kvBytesPerFlop)}</td>
                    <td data-value={m.minBandwidth ?? ''}>
                      {m.minBandwidth === null ? '—' : formatBandwidth(m.minBandwidth)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </div>
    </WidgetFrame>
  );
}
