/**
 * Lesson 07.10, widget 3: the prefill time of one agent turn against its prefix hit rate, with the standard
 * attention kernel, one s× faster, and attention for free; and the turn's work split into matmuls and attention
 * for the three cases compared. Computed in the worker (hitRateVsKernel) from cost.ts's prefill FLOPs.
 */
import { useMemo } from 'react';
import { BarChart } from '../kit/charts/BarChart';
import { LineChart } from '../kit/charts/LineChart';
import { durationAxis } from '../kit/charts/scales';
import type { Marker } from '../kit/charts/types';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import {
  formatCount,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRatio,
  formatTokens,
} from '../../lib/format';
import { HIT_KERNEL_ID, hitKernelArgs, hitKernelSchema } from './schema';
import { TryThis, type TryItem } from '../kit/TryThis';
import './long-prefill.css';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-10-try-this checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Raise the kernel speed-up to 4×: it still does not reach the time of the higher hit rate. Read the
        speed-up that would.
      </>
    ),
    set: { speedup: 4 },
    highlight: 'speedup-match',
  },
  {
    text: (
      <>
        Move the hit rate you could reach to 97.5%: no kernel, not even free attention, can match it, because
        the matmuls, all-reduce and overhead of the extra tokens alone take longer.
      </>
    ),
    set: { hitTo: 0.975 },
    highlight: 'speedup-match',
  },
  {
    text: (
      <>
        Shrink the context to 20k tokens: attention’s share of the turn falls, and not even free attention
        matches the higher hit rate. Attention kernels matter most at long contexts, and even there the hit
        rate multiplies everything.
      </>
    ),
    set: { contextTokens: 20_000 },
    highlight: 'speedup-match',
  },
];

export function HitRateVsKernel() {
  const params = useWidgetParams(HIT_KERNEL_ID, hitKernelSchema);
  const v = params.values;
  const args = useMemo(() => hitKernelArgs(v), [v]);
  const sim = useSimulation('hitRateVsKernel', args);
  const r = sim.result;

  // From about ten points below the lower of the two hit rates (at least 50%) to 100%.
  const xLo = r ? Math.max(0.5, Math.floor((Math.min(r.hitFrom, r.hitTo) - 0.1) * 20) / 20) : 0.5;
  const sLabel = r ? `attention ${formatRatio(r.speedup, 2)} faster` : '';
  const series = useMemo(
    () =>
      r
        ? [
            {
              name: 'standard kernel',
              points: r.hits.map((h, i) => ({ x: h, y: r.standard[i] })).filter((p) => p.x >= xLo),
            },
            {
              name: sLabel,
              points: r.hits.map((h, i) => ({ x: h, y: r.faster[i] })).filter((p) => p.x >= xLo),
              color: 'var(--series-4)',
            },
            {
              name: 'attention free (bound)',
              points: r.hits.map((h, i) => ({ x: h, y: r.free[i] })).filter((p) => p.x >= xLo),
              color: 'var(--chart-muted)',
            },
          ]
        : [],
    [r, sLabel, xLo],
  );
  // Today's hit rate as a rule; the reachable one as the level (and point) both cases are measured against. The
  // rule in ink, not grey: grey is one of the lines, and red–green colour-blind readers see the reddish purple line
  // as grey too (e2e/chart-colours.spec.ts).
  const markers: Marker[] = r
    ? [
        { kind: 'x', x: r.hitFrom, label: `today ${formatPercent(r.hitFrom)}`, tone: 'fg' },
        {
          kind: 'y',
          y: r.toStandard.timeS,
          label: `${formatPercent(r.hitTo)} hits: ${formatDuration(r.toStandard.timeS)}`,
          tone: 'ok',
        },
        { kind: 'point', x: r.hitTo, y: r.toStandard.timeS, tone: 'ok' },
      ]
    : [];

  const cases = r
    ? [
        { name: `${formatPercent(r.hitFrom)} hits`, s: r.fromStandard },
        { name: `${formatPercent(r.hitFrom)}, ${formatRatio(r.speedup, 2)} kernel`, s: r.fromFaster },
        { name: `${formatPercent(r.hitTo)} hits`, s: r.toStandard },
      ]
    : [];
  const fromS = r?.fromStandard.timeS ?? NaN;
  const f = r?.formula;

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={HIT_KERNEL_ID}
      title="Hit rate beats kernels"
      fixFields={{ modelId: 'model' }}
      exportData={() => ({
        rows: r
          ? r.hits.map((h, i) => ({
              hitRate: h,
              newTokens: (1 - h) * r.contextTokens,
              standardS: r.standard[i],
              fasterS: r.faster[i],
              attentionFreeS: r.free[i],
            }))
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && f ? (
          <>
            <Readout
              emphasis
              label={`Hits ${formatPercent(r.hitFrom)} → ${formatPercent(r.hitTo)} saves`}
              value={<span data-readout="hit-saving">{formatDuration(fromS - r.toStandard.timeS)}</span>}
              formula={`${formatDuration(fromS)} → ${formatDuration(r.toStandard.timeS)}: ${formatTokens(r.fromStandard.newTokens)} → ${formatTokens(r.toStandard.newTokens)} to prefill, matmuls and attention alike`}
            />
            <Readout
              emphasis
              label={`A ${formatRatio(r.speedup, 2)} attention kernel saves`}
              value={<span data-readout="kernel-saving">{formatDuration(fromS - r.fromFaster.timeS)}</span>}
              formula={`${formatDuration(fromS)} → ${formatDuration(r.fromFaster.timeS)}: only attention's ${formatDuration(r.fromStandard.attentionS)} (φ = ${formatPercent(r.fromStandard.attentionShare)} of the FLOPs) shrinks, by 1 − 1/${formatNumber(r.speedup, 3)}`}
            />
            <Readout
              label="Kernel speed-up that would match"
              value={
                <span data-readout="speedup-match">
                  {Number.isFinite(r.speedupToMatch) ? formatRatio(r.speedupToMatch, 3) : 'none'}
                </span>
              }
              formula={
                Number.isFinite(r.speedupToMatch)
                  ? `s* = (attention / G_a) / (T(${formatPercent(r.hitTo)}) − matmuls / G_m − all-reduce − overhead) = ${formatDuration(r.fromStandard.attentionS)} / (${formatDuration(r.toStandard.timeS)} − ${formatDuration(r.fromStandard.linearS)} − ${formatDuration(r.fromStandard.allReduceS)} − ${formatDuration(r.fromStandard.overheadS)})`
                  : `even free attention leaves ${formatDuration(r.fromFreeS)} of matmuls, all-reduce and overhead at ${formatPercent(r.hitFrom)}, more than ${formatDuration(r.toStandard.timeS)}`
              }
            />
            <Readout
              label={`A ${formatRatio(r.speedup, 2)} kernel is worth`}
              value={<span data-readout="hit-equivalent">{formatPercent(r.hitEquivalent, 4)} hits</span>}
              formula={`+${formatNumber((r.hitEquivalent - r.hitFrom) * 100, 3)} points of hit rate with the standard kernel`}
            />
          </>
        ) : null
      }
      caption={
        r ? (
          <>
            One agent turn of {formatTokens(r.contextTokens)} on {r.modelName}, {r.gpus} × {r.acceleratorName}
            : with hit rate h it prefills (1 − h) × {formatNumber(r.contextTokens)} new tokens after h ×{' '}
            {formatNumber(r.contextTokens)} cached. Log scale. The kernel line divides only the attention
            FLOPs; the grey line is the limit of a kernel that makes attention free.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {r ? (
        <div className="lp-charts">
          <LineChart
            title={`Prefill time of a ${formatCount(r.contextTokens)}-token agent turn against its prefix hit rate`}
            series={series}
            x={{
              label: 'Prefix hit rate',
              format: (h) => formatPercent(h, 3),
              domain: [xLo, 1],
            }}
            y={durationAxis('Prefill time', { scale: 'log', digits: 2 })}
            markers={markers}
            points={false}
            aspect={0.45}
          />
          <BarChart
            title="Where the turn's prefill time goes: matmuls, attention, all-reduce and overhead, for the three cases"
            categories={cases.map((c) => c.name)}
            series={[
              { name: 'matmuls (2 FLOP per parameter per token)', values: cases.map((c) => c.s.linearS) },
              { name: 'attention', values: cases.map((c) => c.s.attentionS) },
              {
                name: 'all-reduce and overhead (no kernel changes them)',
                values: cases.map((c) => c.s.allReduceS + c.s.overheadS),
              },
            ]}
            value={durationAxis('Time', { digits: 2 })}
            category={{ label: 'Case' }}
            aspect={0.32}
          />
        </div>
      ) : null}
    </WidgetFrame>
  );
}
