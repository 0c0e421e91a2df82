/**
 * Lesson 07.02, widget 2: the fleet view. R replicas serve R × C agents (the same load per replica at every
 * R); per R, session affinity against request-level routing: prefix-cache hit rate (with the 1/R model
 * s + (h₁ − s)/R beside it) and p90 TTFT. Computed in the worker (affinitySweep, the fleet simulator), point
 * by point: the points stream in while the sweep runs.
 */
import { useMemo } from 'react';
import { LineChart } from '../kit/charts/LineChart';
import { useStreamingSimulation } from '../kit/useSimulation';
import { streamProgress, useCancelToShown } from '../kit/JobProgress';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { paramsFrame, simulationFrame } from '../kit/frameProps';
import {
  formatCount,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRatio,
  formatTokens,
} from '../../lib/format';
import {
  oneOverRModel,
  SWEEP_REPLICAS,
  SWEEP_SHAPE,
  SWEEP_SHARED_TOKENS,
} from '../../sim/lessons/affinityModel';
import { AFFINITY_FLEET_ID, affinityFleetArgs, affinityFleetSchema } from './schema';
import { SeparatedFigures } from '../kit/SeparatedFigures';
import { TryThis, type TryItem } from '../kit/TryThis';
import './session-affinity.css';
import { durationAxis, shareAxis } from '../kit/charts/scales';

/** The largest fleet the sweep runs, and the small one whose read-out asks how much a second replica costs. */
const MAX_R = Math.max(...SWEEP_REPLICAS);
const SMALL_R = 2;
const APPS_WORD = ['No', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight'][SWEEP_SHAPE.apps];

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-02-try-this checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Read both charts at R = {SMALL_R}: about half the turns land on another replica. How much of the hit
        rate is gone, and what happened to p90 TTFT?
      </>
    ),
    highlight: 'hit-request-2',
  },
  {
    text: (
      <>
        Raise the agents per replica to 12: memory gets tighter, older prefixes are evicted sooner, and
        request-level routing falls onto the 1/R curve at {MAX_R} replicas, and the TTFT tail grows with
        affinity too: at this load the replicas saturate whatever the routing.
      </>
    ),
    set: { agentsPerReplica: 12 },
    highlight: 'hit-request',
  },
  {
    text: (
      <>
        Lower it to 2: a replica&apos;s KV cache (the read-out) is now several times what its own agents keep
        warm, though still far short of every session&apos;s prefix in the fleet. The room left keeps the
        copies a session left on other replicas for longer, and hits on those stale copies hold the curve up,
        well above the 1/R model.
      </>
    ),
    set: { agentsPerReplica: 2 },
    highlight: 'hit-request',
  },
  {
    text: (
      <>
        Switch to random routing: the hit-rate curve barely moves. What matters for the cache is that the
        routing ignores the session, not how it spreads the requests. The TTFT tail does rise on the large
        fleets: random spreads the load unevenly, and queues form.
      </>
    ),
    set: { routing: 'random' },
    highlight: 'p90-request',
  },
];

const R_TICKS = [1, 2, 4, 8, 16];
const AFF = 'session-affinity';

/** One figure for the request-level router and one for session affinity, each named, as a read-out's value. */
function RequestVsAffinity(props: {
  readout: string;
  request: string;
  requestName: string;
  affinity: string;
}) {
  return (
    <SeparatedFigures
      figures={[
        <>
          <span data-readout={`${props.readout}-request`}>{props.request}</span>{' '}
          <span className="readout-aside">{props.requestName}</span>
        </>,
        <>
          <span data-readout={`${props.readout}-affinity`}>{props.affinity}</span>{' '}
          <span className="readout-aside">affinity</span>
        </>,
      ]}
    />
  );
}

export function AffinityFleet() {
  const params = useWidgetParams(AFFINITY_FLEET_ID, affinityFleetSchema);
  const v = params.values;
  const args = useMemo(() => affinityFleetArgs(v), [v]);
  const sim = useStreamingSimulation('affinitySweep', args);
  const r = sim.result;
  const final = r && !sim.stale ? r.points : null;
  // While a newer sweep streams, draw its points as they come; otherwise the last finished sweep.
  const points = useMemo(() => {
    const partial = sim.frames;
    return final ?? (partial.length ? partial : (r?.points ?? []));
  }, [final, sim.frames, r]);
  const running = sim.stale || !final;
  // Up to ≈10 s at the controls' maxima under load (docs/reliability.md): the kit's progress line and Cancel.
  const progress = streamProgress(
    sim,
    SWEEP_REPLICAS.length * 2,
    'Simulating the fleet at each size',
    'runs',
  );
  const cancel = useCancelToShown(params, final !== null);

  const byPolicy = useMemo(() => {
    const aff = points.filter((p) => p.policy === AFF).sort((a, b) => a.replicas - b.replicas);
    const req = points.filter((p) => p.policy !== AFF).sort((a, b) => a.replicas - b.replicas);
    return { aff, req };
  }, [points]);
  const reqName = v.routing === 'random' ? 'random' : 'round-robin';
  const h1 = byPolicy.aff.find((p) => p.replicas === 1)?.hitRate;
  const s = useMemo(() => {
    const all = points;
    return all.length ? all.reduce((a, p) => a + p.sharedShare, 0) / all.length : undefined;
  }, [points]);
  const model = useMemo(() => {
    if (h1 === undefined || s === undefined) return [];
    const pts = [];
    for (let R = 1; R <= MAX_R; R += 0.25) pts.push({ x: R, y: oneOverRModel(s, h1, R) });
    return pts;
  }, [h1, s]);

  const maxR = MAX_R;
  const big = {
    aff: byPolicy.aff.find((p) => p.replicas === maxR),
    req: byPolicy.req.find((p) => p.replicas === maxR),
  };
  const small = byPolicy.req.find((p) => p.replicas === SMALL_R);
  const cap = points[0]?.kvCapacityTokens;
  const meanPrompt = points.length
    ? points.reduce((a, p) => a + p.meanPromptTokens, 0) / points.length
    : undefined;

  const hitSeries = [
    { name: 'session affinity', points: byPolicy.aff.map((p) => ({ x: p.replicas, y: p.hitRate })) },
    { name: reqName, points: byPolicy.req.map((p) => ({ x: p.replicas, y: p.hitRate })) },
    { name: '1/R model: s + (h₁ − s)/R', points: model, dash: '3 4', color: 'var(--chart-muted)' },
  ];
  const ttftSeries = [
    { name: 'session affinity', points: byPolicy.aff.map((p) => ({ x: p.replicas, y: p.ttftP90S })) },
    { name: reqName, points: byPolicy.req.map((p) => ({ x: p.replicas, y: p.ttftP90S })) },
  ];
  const xAxis = {
    label: 'Replicas R',
    scale: 'log' as const,
    domain: [1, 16] as [number, number],
    ticks: R_TICKS,
    format: (x: number) => formatNumber(x),
  };

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={AFFINITY_FLEET_ID}
      title="Fleet view: hit rate and p90 TTFT against the number of replicas"
      progress={progress}
      onCancel={cancel}
      stale={sim.status === 'ready' && (sim.stale || (running && !sim.cannotRun))}
      fixFields={{ modelId: 'model' }}
      drawn={sim.drawn}
      exportData={() => ({
        rows: points.map((p) => ({ ...p })),
        json: {
          parameters: v,
          result: r,
          model: { sharedShare: s, affinityHitRateAtR1: h1, formula: 'h(R) = s + (h1 - s) / R' },
        },
      })}
      readouts={
        points.length ? (
          <>
            <Readout
              emphasis
              label={`Hit rate at R = ${maxR}`}
              value={
                <RequestVsAffinity
                  readout="hit"
                  request={formatPercent(big.req?.hitRate)}
                  requestName={reqName}
                  affinity={formatPercent(big.aff?.hitRate)}
                />
              }
              formula={
                s !== undefined && h1 !== undefined
                  ? `1/R model: s + (h₁ − s)/R = ${formatPercent(s)} + (${formatPercent(h1)} − ${formatPercent(s)})/${maxR} = ${formatPercent(oneOverRModel(s, h1, maxR))}`
                  : undefined
              }
            />
            <Readout
              label={`Hit rate of ${reqName} at R = ${SMALL_R}`}
              value={<span data-readout="hit-request-2">{formatPercent(small?.hitRate)}</span>}
              formula={`turns on the previous turn's replica: ${formatPercent(small?.sameReplicaShare)} (1/R = ${formatPercent(1 / SMALL_R)})`}
            />
            <Readout
              label={`p90 TTFT at R = ${maxR}`}
              value={
                <RequestVsAffinity
                  readout="p90"
                  request={formatDuration(big.req?.ttftP90S)}
                  requestName={reqName}
                  affinity={formatDuration(big.aff?.ttftP90S)}
                />
              }
              formula={`p50: ${formatDuration(big.req?.ttftP50S)} · ${formatDuration(big.aff?.ttftP50S)}`}
            />
            <Readout
              label={`Prefill work at R = ${maxR}, ${reqName} ÷ affinity`}
              value={
                big.aff && big.req ? formatRatio(big.req.prefilledTokens / big.aff.prefilledTokens, 2) : '—'
              }
              formula={`${formatCount(big.req?.prefilledTokens)} tokens prefilled by ${reqName} / ${formatCount(big.aff?.prefilledTokens)} by affinity`}
            />
            <Readout
              label="KV cache per replica"
              value={formatTokens(cap)}
              formula={`${v.agentsPerReplica} agents × mean prompt ${formatTokens(meanPrompt)} = ${formatTokens(meanPrompt !== undefined ? meanPrompt * v.agentsPerReplica : undefined)} to keep warm`}
            />
          </>
        ) : null
      }
      caption={
        r || points.length ? (
          <>
            {r?.modelName ?? v.model} on {v.gpus} × {r?.acceleratorName ?? v.accelerator} per replica; each
            fleet of R replicas runs R × {v.agentsPerReplica} agents (closed loop), so every replica carries
            the same load at every R. {APPS_WORD ?? SWEEP_SHAPE.apps} apps each give their sessions one{' '}
            {formatCount(SWEEP_SHARED_TOKENS)}-token system prompt and tool schemas (the shared head that
            makes the floor s of the model); sessions run {SWEEP_SHAPE.turnsMin}–{SWEEP_SHAPE.turnsMax} turns
            with ~2k-token tool results. Dashed: the 1/R model with h₁, affinity's hit rate on one replica.
            {running ? ` Computing: ${points.length} of ${SWEEP_REPLICAS.length * 2} runs so far.` : ''}
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {points.length ? (
        <>
          <LineChart
            title={`Prefix-cache hit rate against replicas: session affinity, ${reqName}, and the 1/R model`}
            series={hitSeries}
            x={xAxis}
            y={shareAxis('Prefix-cache hit rate')}
            aspect={0.42}
          />
          <LineChart
            title={`p90 time to first token against replicas: session affinity and ${reqName}`}
            series={ttftSeries}
            x={xAxis}
            y={durationAxis('p90 TTFT', { unit: 's', digits: 2, zero: true })}
            aspect={0.36}
          />
        </>
      ) : null}
    </WidgetFrame>
  );
}
