/**
 * Lesson 07.06, widget 1: the tool-latency distribution. The CDF of every preset on a log time axis with the
 * published medians beside the chosen one; the chosen preset's share of calls against its share of tool time
 * (the heavy tail); and, for a TTL τ, the share of pauses that end in time (F(τ)), the HBM byte-seconds one
 * paused session holds (b · E[min(T, τ)]) and the cost-minimising TTL. Closed forms, computed in the worker
 * (method toolLatency: src/sim/lessons/toolLatency.ts, src/sim/lessons/pauseCosts.ts).
 */
import { useMemo } from 'react';
import { LineChart, type LineSeries } from '../kit/charts/LineChart';
import { seriesColor } from '../kit/charts/theme';
import { durationAxis } from '../kit/charts/scales';
import type { Marker } from '../kit/charts/types';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import { formatBytesDecimal, formatDuration, formatNumber, formatPercent } from '../../lib/format';
import { TRACELAB_TOOL_TAIL } from '../../sim/engine/catalog/pauses';
import { TOOL_LATENCY_ID, toolLatencyArgs, toolLatencySchema } from './schema';
import { SeparatedFigures } from '../kit/SeparatedFigures';
import { TryThis, type TryItem } from '../kit/TryThis';
import { TourMark } from '../kit/TourMark';
import type { ToolLatencyResponse } from '../../worker/pauseMethods';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-06 checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Slide τ from 10 ms to 1 h with the coding-agent mix: the share of pauses resumed in HBM climbs fast
        and then crawls, while the byte-seconds held keep growing. Where would you stop?
      </>
    ),
    set: { ttlS: 3600 },
    highlight: 'resumed-in-hbm',
  },
  {
    text: (
      <>
        Read the bottom chart at 1 min: almost every call is over, yet most of the tool time is still to come.
        Holding to the resume pays for exactly those long calls.
      </>
    ),
    highlight: 'time-share-chart',
  },
  {
    text: (
      <>
        Switch “when the TTL runs out” to offload: a miss now costs a reload of tens of milliseconds instead
        of a recompute of seconds, and the cheapest TTL shrinks.
      </>
    ),
    set: { after: 'offload' },
    highlight: 'optimal-ttl',
  },
  {
    text: <>Then pick the human in the loop: no short TTL helps.</>,
    set: { after: 'offload', tool: 'human' },
    highlight: 'optimal-ttl',
  },
];
import './tool-pause.css';

const X_DOMAIN: [number, number] = [1e-3, 86_400];
/** GB·s: byte-seconds in decimal gigabytes. */
export const formatByteSeconds = (x: number | null | undefined) => `${formatBytesDecimal(x)}·s`;
const ttlText = (t: number) =>
  t === Infinity ? '∞ (hold)' : t === 0 ? '0 (let go at once)' : formatDuration(t, 2);

/** The two charts' series: every class's CDF, and the chosen class's share of calls against its share of tool time. */
export function latencySeries(r: ToolLatencyResponse): { cdf: LineSeries[]; share: LineSeries[] } {
  const sel = r.presets.find((p) => p.id === r.selected.id)!;
  return {
    cdf: r.presets.map((p) => ({
      name: p.id === r.selected.id ? `${p.label} (chosen)` : p.label,
      points: r.grid.map((t, i) => ({ x: t, y: p.cdf[i] })),
      // A step is the coding mix's calls taken a round at a time: its hue, dashed, beside it.
      ...(p.id === 'coding-step'
        ? { color: seriesColor(r.presets.findIndex((x) => x.id === 'coding-mix')), dash: '6 3' }
        : {}),
    })),
    share: [
      { name: 'share of calls over by t', points: r.grid.map((t, i) => ({ x: t, y: sel.cdf[i] })) },
      {
        name: 'share of tool time in those calls',
        points: r.grid.map((t, i) => ({ x: t, y: r.selected.timeShare[i] })),
      },
    ],
  };
}

/**
 * A published mark's name without its figure ("Claude 129 ms" → "Claude", "Dynamo: 2 s" → "Dynamo"): the short
 * form a narrow chart draws where the whole label would cross a neighbouring rule (kit markerPlacement.ts), its
 * figure read off the axis under the rule. None for a label that is only a figure ("30 s", "p90 21 min").
 */
export function publishedMarkName(label: string): string | undefined {
  return /^([A-Z][A-Za-z]*):?\s+\S/.exec(label)?.[1];
}

/**
 * The two charts' markers. On the CDFs, the published medians and the TTL τ (the rule the student moves) in ink
 * (the kit's default tone), in no class's hue, so none reads as one more CDF; not the medians in grey, which
 * red–green colour-blind readers cannot tell from the reddish purple class (e2e/chart-colours.spec.ts). Beside
 * the two share lines (blue, vermillion), 1 min in grey, and the share of tool time at 1 min a point on the
 * vermillion line, in ink.
 */
export function latencyMarkers(r: ToolLatencyResponse, ttlS: number): { cdf: Marker[]; share: Marker[] } {
  const ttlLabel = `τ = ${formatDuration(ttlS, 2)}`;
  const ttl: Marker = { kind: 'x', x: ttlS, label: ttlLabel, tone: 'fg' };
  return {
    cdf: [
      ...r.marks.map((m): Marker => ({
        kind: 'x',
        x: m.value,
        label: m.label,
        shortLabel: publishedMarkName(m.label),
        tone: 'fg',
      })),
      // Short, without the share of pauses resumed in HBM: the first read-out gives it.
      { ...ttl, label: `${ttlLabel}: ${formatPercent(r.selected.resumedInHbm)}`, shortLabel: ttlLabel },
    ],
    share: [
      { kind: 'x', x: 60, label: '1 min', tone: 'muted' },
      ttl,
      {
        kind: 'point',
        x: 60,
        y: 1 - r.selected.timeOver1min,
        label: `${formatPercent(1 - r.selected.timeOver1min)} of time`,
        tone: 'fg',
      },
    ],
  };
}

export function ToolLatency() {
  const params = useWidgetParams(TOOL_LATENCY_ID, toolLatencySchema);
  const v = params.values;
  const args = useMemo(() => toolLatencyArgs(v), [v]);
  const sim = useSimulation('toolLatency', args);
  const r = sim.result;

  const series = useMemo(() => (r ? latencySeries(r) : null), [r]);
  const markers = r ? latencyMarkers(r, v.ttlS) : null;
  const c = r?.costs;
  const xAxis = durationAxis('Tool call duration t', { scale: 'log', domain: X_DOMAIN, digits: 2 });
  const yAxis = {
    label: 'Share',
    domain: [0, 1] as [number, number],
    format: (y: number) => formatPercent(y, 2),
    readout: (y: number) => formatPercent(y),
  };
  const isCoding = v.tool === 'coding-mix';

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={TOOL_LATENCY_ID}
      title="Tool latency distribution and the time-to-live"
      exportData={() => ({
        rows: r
          ? r.grid.map((t, i) => ({
              seconds: t,
              ...Object.fromEntries(r.presets.map((p) => [`F_${p.id}`, p.cdf[i]])),
              [`timeShare_${r.selected.id}`]: r.selected.timeShare[i],
            }))
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && c ? (
          <>
            <Readout
              emphasis
              label="Pauses over within τ (resumed in HBM)"
              value={<span data-readout="resumed-in-hbm">{formatPercent(c.resumedInHbm)}</span>}
              formula={`F(τ) = P(T ≤ ${formatDuration(v.ttlS, 2)}); median ${formatDuration(r.selected.medianS, 2)}, p90 ${formatDuration(r.selected.p90S, 2)}`}
            />
            <Readout
              label="HBM held per pause, TTL τ"
              value={<span data-readout="held-per-pause">{formatByteSeconds(c.heldByteSeconds)}</span>}
              formula={`b · E[min(T, τ)] = ${formatBytesDecimal(c.contextBytes)} × ${formatDuration(c.heldS)}`}
            />
            <Readout
              label="HBM held per pause, holding to the resume"
              value={<span data-readout="hold-per-pause">{formatByteSeconds(c.holdByteSeconds)}</span>}
              formula={`b · E[T] = ${formatBytesDecimal(c.contextBytes)} × ${formatDuration(c.meanS)}; the TTL holds ${formatPercent(c.heldS / c.meanS)} of it`}
            />
            <Readout
              label="Calls over 1 min"
              value={
                <SeparatedFigures
                  figures={[
                    <>
                      {formatPercent(r.selected.callsOver1min)}{' '}
                      <span className="readout-aside">of calls</span>
                    </>,
                    <>
                      <span data-readout="time-over-minute">{formatPercent(r.selected.timeOver1min)}</span>{' '}
                      <span className="readout-aside">of tool time</span>
                    </>,
                  ]}
                />
              }
              formula={
                isCoding
                  ? `TraceLab, both agents: ${formatPercent(TRACELAB_TOOL_TAIL.merged.overOneMinute.calls)} of calls, ${formatPercent(TRACELAB_TOOL_TAIL.merged.overOneMinute.time)} of time (Claude Code ${formatPercent(TRACELAB_TOOL_TAIL.claude.overOneMinute.calls)} / ${formatPercent(TRACELAB_TOOL_TAIL.claude.overOneMinute.time)}, Codex ${formatPercent(TRACELAB_TOOL_TAIL.codex.overOneMinute.calls)} / ${formatPercent(TRACELAB_TOOL_TAIL.codex.overOneMinute.time)})`
                  : `1 − F(1 min) and 1 − M(1 min)/E[T]`
              }
            />
            <Readout
              label={`Cheapest TTL, then ${c.miss === 'evict' ? 'evict' : 'offload'}`}
              value={<span data-readout="optimal-ttl">{ttlText(c.optimal.ttlS)}</span>}
              formula={`argmin c_h·E[min(T,τ)] + c_m·(1 − F(τ)): c_h = b/B_KV = ${formatPercent(c.holdPerS)}/s, c_m = ${c.miss === 'evict' ? 'recompute' : 'reload'} ${formatDuration(c.missS)}. Replica-seconds per pause: ${formatNumber(c.optimal.cost)} at τ*, ${formatNumber(c.costAtTtl)} at τ, ${formatNumber(c.optimal.costHold)} holding, ${formatNumber(c.optimal.costLetGo)} letting go`}
            />
          </>
        ) : null
      }
      caption={
        r && c ? (
          <>
            Fits of each tool class (src/sim/engine/fleet/dist.ts: log-normals, and for the coding agents and
            humans mixtures of log-normals fitted per agent to TraceLab), drawn in closed form. Top: the share
            of calls over by t, with published medians beside the chosen class and the TTL τ, rules in ink.
            Bottom: for {r.selected.label.toLowerCase()}, the share of calls against the share of tool time
            they carry (a step marks a clip, where the fit cuts calls off). The paused session is{' '}
            {formatNumber(v.contextTokens)} tokens of {c.replica.modelName} KV (
            {formatBytesDecimal(c.contextBytes)}) on {c.replica.tp} × {c.replica.acceleratorName}, whose KV
            budget is {formatBytesDecimal(c.replica.kvBudgetBytes)}; a recompute takes{' '}
            {formatDuration(c.recomputeS)}, a reload over {c.replica.linkName} {formatDuration(c.reloadS)}.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
      more={
        r ? (
          // The bottom chart, which a "Try this" item points at; on a phone it follows the controls.
          <TourMark id="time-share-chart">
            <LineChart
              title={`${r.selected.label}: share of calls and share of tool time over by time t`}
              series={series?.share ?? []}
              x={xAxis}
              y={yAxis}
              markers={markers?.share}
              points={false}
              aspect={0.4}
            />
          </TourMark>
        ) : null
      }
    >
      {r ? (
        <LineChart
          title="Share of tool calls over by time t, for every tool class, with the TTL"
          series={series?.cdf ?? []}
          x={xAxis}
          y={yAxis}
          markers={markers?.cdf}
          points={false}
          aspect={0.5}
        />
      ) : null}
    </WidgetFrame>
  );
}
