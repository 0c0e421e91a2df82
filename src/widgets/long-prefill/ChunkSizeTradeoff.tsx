/**
 * Lesson 07.10, widget 2: the long prompt's TTFT and the decodes' p99 inter-token gap against the chunk size
 * (log), each with its SLO, and the range of chunk sizes that meets both. Every point is a timeline of the
 * first widget (computed in the worker: chunkTradeoff).
 */
import { useMemo } from 'react';
import { LineChart } from '../kit/charts/LineChart';
import { durationAxis } from '../kit/charts/scales';
import { seriesColor } from '../kit/charts/theme';
import type { Marker } from '../kit/charts/types';
import { useProgressSimulation } from '../kit/useSimulation';
import { useCancelToShown } from '../kit/JobProgress';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import { formatCount, formatDuration, formatNumber, formatTokens } from '../../lib/format';
import { chunkLabel, TRADEOFF_ID, tradeoffArgs, tradeoffSchema } from './schema';
import { TryThis, type TryItem } from '../kit/TryThis';
import './long-prefill.css';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-10-try-this checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Tighten the p99 SLO from {tradeoffSchema.itlSlo.default} ms to 60 ms: the range now ends just above
        512 tokens, Sarathi-Serve’s strict budget.
      </>
    ),
    set: { itlSlo: 60 },
    highlight: 'feasible',
  },
  {
    text: <>Then relax it to 250 ms: 2,048, its relaxed budget, fits.</>,
    set: { itlSlo: 250 },
    highlight: 'feasible',
  },
  {
    text: (
      <>
        Set the sessions to 128: every iteration carries more decodes and streams more of their KV, so each
        extra iteration costs the prompt more and the memory-bound region widens: the smallest chunk that
        meets the TTFT SLO moves right.
      </>
    ),
    set: { decodes: 128 },
    highlight: 'feasible',
  },
  {
    text: (
      <>
        Lower the TTFT SLO below the no-chunking line, to 5 s: no chunk size can help; only a faster replica,
        a shorter prompt or a prefix cache hit can.
      </>
    ),
    set: { ttftSlo: 5 },
    highlight: 'feasible',
  },
];

const chunkAxis = (lo: number, hi: number) => ({
  label: 'Prefill chunk',
  unit: 'tokens',
  scale: 'log' as const,
  format: (c: number) => formatCount(c),
  readout: (c: number) => formatTokens(c),
  domain: [lo, hi] as [number, number],
});

export function ChunkSizeTradeoff() {
  const params = useWidgetParams(TRADEOFF_ID, tradeoffSchema);
  const v = params.values;
  const args = useMemo(() => tradeoffArgs(v), [v]);
  // Up to ≈2.5 s at the controls' maxima under load (docs/reliability.md): progress and Cancel above the picture.
  const sim = useProgressSimulation('chunkTradeoff', args);
  const cancel = useCancelToShown(params, sim.status === 'ready' && !sim.stale);
  const r = sim.result;

  const lo = r ? r.points[0].chunk : 32;
  const hi = r ? r.points[r.points.length - 1].chunk : 32_768;
  const band: Marker[] = r?.feasible
    ? [{ kind: 'band', x0: r.feasible.lo, x1: r.feasible.hi, label: 'meets both', tone: 'ok' }]
    : [];
  // The chunk size the timeline above runs, in ink: grey is as close to the reddish purple decode-step line as blue
  // is to sky blue, for red–green colour-blind readers (e2e/chart-colours.spec.ts).
  const at: Marker[] = r ? [{ kind: 'x', x: r.at.chunk, label: formatCount(r.at.chunk), tone: 'fg' }] : [];

  // Four lines, each with its own hue AND dash and named at its right end (a projector washes colours out; a
  // colour-blind reader cannot rely on them): the two curves in the first two slots, and the two limits no chunk
  // size passes in hues of their own, dotted and dash-dotted, instead of two grey dotted lines. The names are short,
  // in the read-outs' and SLO rules' words, so that the labels' column leaves the plot its width on a phone.
  const series = useMemo(
    () =>
      r
        ? [
            { name: 'Prompt TTFT', points: r.points.map((p) => ({ x: p.chunk, y: p.ttftS })) },
            {
              name: 'p99 gap',
              points: r.points.map((p) => ({ x: p.chunk, y: p.gapP99S })),
            },
            {
              name: 'No chunking',
              points: [
                { x: lo, y: r.whole.ttftS },
                { x: hi, y: r.whole.ttftS },
              ],
              color: seriesColor(2),
              dash: '2 3',
            },
            {
              name: 'Decode step',
              points: [
                { x: lo, y: r.decodeStepS },
                { x: hi, y: r.decodeStepS },
              ],
              color: seriesColor(3),
              dash: '9 3 2 3',
            },
          ]
        : [],
    [r, lo, hi],
  );

  const yDomain: [number, number] = r
    ? [
        Math.min(r.decodeStepS, ...r.points.map((p) => p.gapP99S)) / 2,
        Math.max(r.ttftSloS, ...r.points.map((p) => Math.max(p.ttftS, p.gapP99S))) * 1.5,
      ]
    : [0.001, 100];
  const feasibleText = r?.feasible
    ? `${formatNumber(r.feasible.lo)} – ${formatNumber(r.feasible.hi)} tokens`
    : 'none: relax an SLO, or shorten the prompt';

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={TRADEOFF_ID}
      title="Chunk size trade-off"
      progress={sim.progress}
      onCancel={cancel}
      fixFields={{ modelId: 'model' }}
      exportData={() => ({
        rows: r
          ? r.points.map((p) => ({
              chunk: p.chunk,
              ttftS: p.ttftS,
              gapP99S: p.gapP99S,
              gapMaxS: p.gapMaxS,
              prefillIterations: p.prefillIterations,
              memoryBoundIterations: p.memoryBoundIterations,
              meetsTtftSlo: p.ttftS <= r.ttftSloS,
              meetsItlSlo: p.gapP99S <= r.itlSloS,
            }))
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r ? (
          <>
            <Readout
              emphasis
              label="Chunk sizes meeting both SLOs"
              value={<span data-readout="feasible">{feasibleText}</span>}
              formula={`TTFT ≤ ${formatDuration(r.ttftSloS)} and p99 gap ≤ ${formatDuration(r.itlSloS)}; chunks below ${formatTokens(r.memoryBoundBelow)} are memory-bound at the prompt's middle`}
            />
            <Readout
              label={`TTFT at ${chunkLabel(r.at.chunk)}`}
              value={<span data-readout="ttft-at">{formatDuration(r.at.ttftS)}</span>}
              formula={`${formatNumber(r.at.prefillIterations)} iterations, ${formatNumber(r.at.memoryBoundIterations)} memory-bound; no chunking: ${formatDuration(r.whole.ttftS)}`}
            />
            <Readout
              label={`p99 gap at ${chunkLabel(r.at.chunk)}`}
              value={<span data-readout="gap-at">{formatDuration(r.at.gapP99S)}</span>}
              formula={`largest ${formatDuration(r.at.gapMaxS)}; decode step alone ${formatDuration(r.decodeStepS)}; no chunking: ${formatDuration(r.whole.gapMaxS)}`}
            />
          </>
        ) : null
      }
      caption={
        r ? (
          <>
            {r.modelName} on {r.gpus} × {r.acceleratorName}, {v.decodes} sessions decoding at{' '}
            {formatTokens(v.decodeContext)}, a {formatCount(v.promptTokens)}-token prompt. Each point is one
            run of the timeline above at that chunk size: the prompt’s TTFT, and the 99th percentile of the
            decodes’ gaps while it is prefilled. The shaded range meets both SLOs; the dotted and dash-dotted
            lines are the limits no chunk size passes (the prompt unchunked, the decode step alone).
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {r ? (
        <LineChart
          title="TTFT of the long prompt and p99 inter-token gap of the decoding sessions against the prefill chunk size, with their SLOs"
          series={series}
          x={chunkAxis(lo, hi)}
          y={durationAxis('Time', { scale: 'log', digits: 2, domain: yDomain })}
          markers={[
            ...band,
            // Short forms for a phone's plot, whose read-out rule and gap curve leave no room for the whole.
            {
              kind: 'y',
              y: r.ttftSloS,
              label: `TTFT SLO ${formatDuration(r.ttftSloS)}`,
              shortLabel: `SLO ${formatDuration(r.ttftSloS)}`,
              tone: 'danger',
            },
            {
              kind: 'y',
              y: r.itlSloS,
              label: `p99 gap SLO ${formatDuration(r.itlSloS)}`,
              shortLabel: `SLO ${formatDuration(r.itlSloS)}`,
              tone: 'danger',
            },
            ...at,
          ]}
          points={false}
          aspect={0.55}
          directLabels
        />
      ) : null}
    </WidgetFrame>
  );
}
