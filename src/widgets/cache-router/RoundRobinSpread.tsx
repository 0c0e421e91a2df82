/**
 * Round-robin's failure in numbers (lesson 07.03): on 1…8 replicas at the same load per replica, the share of a
 * session's turns that land on the replica holding its previous turn (against 1/R), and the session KV the
 * fleet holds in duplicate. Fleet-simulator runs in the worker (method routerSpread), streamed.
 */
import { useMemo } from 'react';
import { LineChart, type LineSeries } from '../kit/charts/LineChart';
import { useLeadAspect } from '../kit/charts/useWindowSize';
import type { Marker } from '../kit/charts';
import { shareAxis } from '../kit/charts/scales';
import { useStreamingSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { paramsFrame } from '../kit/frameProps';
import { formatBytesDecimal, formatDuration, formatNumber, formatPercent } from '../../lib/format';
import { labBytesPerBlock, POLICY_LABELS, SPREAD_POLICIES } from '../../sim/lessons/routing/constants';
import { warmTurnProbability } from '../../sim/lessons/routing/theory';
import { ROUND_ROBIN_SPREAD_ID, SPREAD_ARRIVAL_S, SPREAD_REPLICAS, spreadArgs, spreadSchema } from './schema';
import { TryThis, type TryItem } from '../kit/TryThis';
import { SweepProgress, useSweepState } from '../kit/SweepProgress';
import './cache-router.css';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-03-try-this checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Read the warm-turn panel: round-robin and random sit on the 1/R curve, affinity stays near 100%. What
        happens to the warm share each time R doubles?
      </>
    ),
    highlight: 'warm-share',
  },
  {
    text: (
      <>
        Raise the load per replica to its highest: HBM fills, stale copies are evicted sooner, and
        round-robin’s hit rate falls onto the dashed bound.
      </>
    ),
    set: { perReplicaRate: 0.35 },
    highlight: 'spread-hit-rate',
  },
  {
    text: (
      <>
        Read the duplicate KV at R = 8 and what it amounts to in replicas’ worth of KV capacity: copies that
        only one replica at a time can use.
      </>
    ),
    set: { inspect: 8 },
    highlight: 'duplicate-bytes',
  },
];

export function RoundRobinSpread() {
  const params = useWidgetParams(ROUND_ROBIN_SPREAD_ID, spreadSchema);
  const v = params.values;
  const args = useMemo(() => spreadArgs(v), [v]);
  const sim = useStreamingSimulation('routerSpread', args);
  // Points stream in coarse to fine over the fleet sizes (lib/progressive.ts); ready once every policy has
  // R = 1 and R = 8, complete with the result.
  const result = sim.result;
  const { points, complete, frame, pending, total } = useSweepState(
    sim,
    SPREAD_REPLICAS,
    SPREAD_POLICIES.length,
    (p) => p.replicas,
  );

  const R = v.inspect;
  const at = (policy: string) => points.find((p) => p.policy === policy && p.replicas === R);
  const rr = at('round-robin');
  const aff = at('session-affinity');
  const rnd = at('random');

  // The first chart spans the picture beside the controls (a wide, lower chart); on a phone, one column wide, it is
  // as tall as the others.
  const leadAspect = useLeadAspect(0.72, 0.42);

  // The charts change only with the points and the inspected fleet size: a dragged control re-renders the widget
  // on every input event, and redrawing three SVG charts each time was most of its main-thread task at 4× CPU.
  const charts = useMemo(() => {
    const of = (policy: string) =>
      points.filter((p) => p.policy === policy).sort((a, b) => a.replicas - b.replicas);
    const theory = SPREAD_REPLICAS.map((R) => ({ x: R, y: warmTurnProbability('spread', R) }));
    const warmSeries: LineSeries[] = [
      ...SPREAD_POLICIES.map((p) => ({
        name: `${POLICY_LABELS[p]} (simulated)`,
        points: of(p).map((x) => ({ x: x.replicas, y: x.warmTurnShare })),
      })),
      { name: '1/R (theory)', points: theory, color: 'var(--chart-fg)', dash: '2 3' },
    ];
    const dupSeries: LineSeries[] = SPREAD_POLICIES.map((p) => ({
      name: POLICY_LABELS[p],
      points: of(p).map((x) => ({ x: x.replicas, y: x.duplicateBytes })),
    }));
    const hitSeries: LineSeries[] = [
      ...SPREAD_POLICIES.map((p) => ({
        name: POLICY_LABELS[p],
        points: of(p).map((x) => ({ x: x.replicas, y: x.hitRate })),
      })),
      {
        name: 'Bound (S + (C − S)/R) / P',
        points: of('round-robin').map((x) => ({ x: x.replicas, y: x.spreadBoundHitRate })),
        color: 'var(--chart-fg)',
        dash: '2 3',
      },
    ];
    const x = {
      label: 'Replicas R',
      domain: [1, 8] as [number, number],
      ticks: [...SPREAD_REPLICAS],
      format: (n: number) => formatNumber(n),
    };
    // The inspected fleet size and the sizes still computing, on all three charts.
    const markers: Marker[] = [{ kind: 'x', x: R, label: `R = ${R}`, tone: 'muted' }, ...pending];
    // The warm-turn chart is the first, across the picture: the lesson's 1/R, which the fleet-size control reads
    // out; on a phone the controls follow it, then the other two (`more`), side by side where they fit.
    return {
      lead: (
        <>
          <SweepProgress drawn={complete ? total : points.length} total={total} what="fleet sizes" />
          <LineChart
            title="Share of turns that land on the replica holding the previous turn, against fleet size"
            series={warmSeries}
            x={x}
            y={shareAxis('Warm turns')}
            markers={markers}
            aspect={leadAspect}
          />
        </>
      ),
      rest: (
        <div className="router-charts-wrap">
          <div className="router-charts is-pair-narrow">
            <LineChart
              title="Prefix hit rate against fleet size"
              series={hitSeries}
              x={x}
              y={shareAxis('Prefix hit rate')}
              markers={markers}
              aspect={0.72}
            />
            <LineChart
              title="Session KV held in duplicate across the fleet, against fleet size"
              series={dupSeries}
              x={x}
              y={{
                label: 'Duplicate KV',
                unit: 'GB',
                format: (b) => formatBytesDecimal(b, 2),
                zero: true,
              }}
              markers={markers}
              aspect={0.72}
            />
          </div>
        </div>
      ),
    };
  }, [points, R, pending, complete, total, leadAspect]);

  return (
    <WidgetFrame
      {...frame}
      {...paramsFrame(params)}
      id={ROUND_ROBIN_SPREAD_ID}
      title="Round-robin over R replicas: warm turns fall as 1/R, copies pile up"
      drawn={sim.drawn}
      exportData={() => ({
        rows: points.map((p) => ({
          policy: p.policy,
          replicas: p.replicas,
          warmTurnShare: p.warmTurnShare,
          oneOverR: 1 / p.replicas,
          hitRate: p.hitRate,
          spreadBoundHitRate: p.spreadBoundHitRate,
          privateHitRate: p.privateHitRate,
          duplicateBytes: p.duplicateBytes,
          copiesPerSession: p.copiesPerSession,
          ttftP90S: p.ttftP90,
        })),
        json: { parameters: v, points },
      })}
      readouts={
        rr && aff ? (
          <>
            <Readout
              emphasis
              label={`Warm turns, round-robin, R = ${R}`}
              value={
                <span data-readout="warm-share" data-value={rr.warmTurnShare}>
                  {formatPercent(rr.warmTurnShare)}
                </span>
              }
              formula={`theory 1/R = ${formatPercent(1 / R)}; random ${formatPercent(rnd?.warmTurnShare)}; affinity ${formatPercent(aff.warmTurnShare)}`}
            />
            <Readout
              label={`Prefix hit rate, R = ${R}: round-robin vs affinity`}
              value={
                <span data-readout="spread-hit-rate">{`${formatPercent(rr.hitRate, 2)} vs ${formatPercent(aff.hitRate, 2)}`}</span>
              }
              formula={`round-robin's bound with nothing left on a cold replica ${formatPercent(rr.spreadBoundHitRate, 2)}`}
            />
            <Readout
              emphasis
              label={`Session KV in duplicate, round-robin, R = ${R}`}
              value={
                <span data-readout="duplicate-bytes" data-value={rr.duplicateBytes}>
                  {formatBytesDecimal(rr.duplicateBytes)}
                </span>
              }
              formula={`mean over the busy half = ${result ? formatNumber(rr.duplicateBytes / (result.hbmBlocks * result.bytesPerBlock), 2) : '…'} replicas’ whole KV capacity; affinity ${formatBytesDecimal(aff.duplicateBytes)}; a live session sits on ${formatNumber(rr.copiesPerSession, 2)} replicas on average`}
            />
            <Readout
              label={`p90 TTFT, R = ${R}: round-robin vs affinity`}
              value={`${formatDuration(rr.ttftP90)} vs ${formatDuration(aff.ttftP90)}`}
              formula={`random ${formatDuration(rnd?.ttftP90)}`}
            />
          </>
        ) : null
      }
      caption={
        <>
          One run per policy and fleet size: {SPREAD_ARRIVAL_S} s of arrivals at{' '}
          {formatNumber(v.perReplicaRate)} new sessions/s per replica (so every replica is as busy whatever
          R), the same agent workload and hardware as above. A turn is warm when it lands on the replica that
          served its session’s previous turn. Duplicate KV counts every copy of a session’s own blocks beyond
          the first, in all replicas’ HBM, averaged over the second half of the arrivals; one block is{' '}
          {formatBytesDecimal(labBytesPerBlock())}.
        </>
      }
      tryThis={<TryThis items={TRY_THIS} />}
      more={charts.rest}
    >
      {charts.lead}
    </WidgetFrame>
  );
}
