/**
 * Policy sweep (lesson 07.03): p90 TTFT and prefix hit rate against offered load for every routing policy,
 * one fleet-simulator run per (policy, load) in the worker (method routerSweep), streamed as each finishes.
 * Read-outs: the highest offered load each policy carries within the TTFT target.
 */
import { useMemo } from 'react';
import { LineChart } from '../kit/charts/LineChart';
import type { LineSeries } from '../kit/charts/LineChart';
import { seriesColor } from '../kit/charts/theme';
import { shareAxis } from '../kit/charts/scales';
import { useStreamingSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { paramsFrame } from '../kit/frameProps';
import { formatDuration, formatNumber, formatRatio } from '../../lib/format';
import {
  DEFAULT_PER_REPLICA_RATES,
  LAB_TP,
  POLICY_LABELS,
  ROUTER_POLICIES,
} from '../../sim/lessons/routing/constants';
import { capacityAtSlo } from '../../sim/lessons/routing/summary';
import { ROUTER_SWEEP_ID, routerSweepArgs, routerSweepSchema, SWEEP_ARRIVAL_S } from './schema';
import { TryThis, type TryItem } from '../kit/TryThis';
import { SglangDefault } from './figures';
import { SweepProgress, useSweepState } from '../kit/SweepProgress';
import './cache-router.css';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-03-try-this checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Read the p90 TTFT panel at the target: how much more offered load do cache-aware routing and session
        affinity carry than round-robin?
      </>
    ),
    highlight: 'capacity-ratio',
  },
  {
    text: (
      <>
        Compare the two panels: the four policies that ignore the cache sit together in hit rate whatever they
        do about load, and their TTFT rises together.
      </>
    ),
  },
  {
    text: (
      <>
        Set the load threshold to 0: only the relative test is left, so cache-aware routing balances whenever
        the longest queue is more than <SglangDefault name="balanceRelThreshold" /> times the shortest, and
        its curves move toward round-robin’s.
      </>
    ),
    set: { loadThreshold: 0 },
    highlight: 'capacity-ratio',
  },
];

/**
 * Each policy's colour: the three the lesson compares (round-robin, session affinity, cache-aware) in the palette's
 * three most distinct hues (blue, bluish green, vermillion), which stay apart on a washed-out projector and for
 * colour-blind readers; the three policies that ignore the cache, which sit together anyway, in grey, ochre and
 * reddish purple. Slot order would give round-robin and cache-aware the palette's blue and sky blue. Each line also
 * keeps its slot's dash and point symbol and is named at its end.
 */
export const POLICY_COLORS: Readonly<Record<(typeof ROUTER_POLICIES)[number], string>> = {
  'round-robin': seriesColor(0),
  random: seriesColor(6),
  'least-load': seriesColor(4),
  'power-of-two': seriesColor(3),
  'session-affinity': seriesColor(2),
  'cache-aware': seriesColor(1),
};

/** Axis ticks in seconds without switching to minutes (100 s, not 1.7 min). */
function seconds(v: number): string {
  return v >= 1 ? `${formatNumber(v, 2)} s` : `${formatNumber(v * 1000, 2)} ms`;
}

export function RouterSweep() {
  const params = useWidgetParams(ROUTER_SWEEP_ID, routerSweepSchema);
  const v = params.values;
  const args = useMemo(() => routerSweepArgs(v), [v]);
  const sim = useStreamingSimulation('routerSweep', args);
  // While a sweep runs, draw its points as they stream in (coarse to fine over the loads, lib/progressive.ts);
  // otherwise the finished result. Ready once every policy has both ends of the load range.
  const { points, complete, frame, pending, total } = useSweepState(
    sim,
    DEFAULT_PER_REPLICA_RATES.map((r) => r * v.replicas),
    ROUTER_POLICIES.length,
    (p) => p.sessionsPerS,
  );

  const byPolicy = useMemo(
    () =>
      ROUTER_POLICIES.map((p) =>
        points.filter((x) => x.policy === p).sort((a, b) => a.sessionsPerS - b.sessionsPerS),
      ),
    [points],
  );
  const ttftSeries: LineSeries[] = ROUTER_POLICIES.map((p, i) => ({
    name: POLICY_LABELS[p],
    color: POLICY_COLORS[p],
    points: byPolicy[i].map((x) => ({ x: x.sessionsPerS, y: x.ttftP90 })),
  }));
  const hitSeries: LineSeries[] = ROUTER_POLICIES.map((p, i) => ({
    name: POLICY_LABELS[p],
    color: POLICY_COLORS[p],
    points: byPolicy[i].map((x) => ({ x: x.sessionsPerS, y: x.hitRate })),
  }));
  const xDomain: [number, number] = [
    DEFAULT_PER_REPLICA_RATES[0] * v.replicas,
    DEFAULT_PER_REPLICA_RATES[DEFAULT_PER_REPLICA_RATES.length - 1] * v.replicas,
  ];
  const x = {
    label: 'Offered load',
    unit: 'new sessions/s',
    domain: xDomain,
    format: (n: number) => formatNumber(n, 2),
  };

  const caps = ROUTER_POLICIES.map((p, i) => ({ policy: p, cap: capacityAtSlo(byPolicy[i], v.sloS) }));
  const capText = (c: { load: number; beyond: boolean } | null) =>
    c === null ? 'none' : `${c.beyond ? '≥ ' : ''}${formatNumber(c.load, 2)}/s`;
  const rr = caps.find((c) => c.policy === 'round-robin')?.cap;
  const ca = caps.find((c) => c.policy === 'cache-aware')?.cap;

  return (
    <WidgetFrame
      {...frame}
      {...paramsFrame(params)}
      id={ROUTER_SWEEP_ID}
      title="Policy sweep: p90 TTFT and hit rate against offered load"
      drawn={sim.drawn}
      exportData={() => ({
        rows: points.map((p) => ({
          policy: p.policy,
          sessionsPerS: p.sessionsPerS,
          ttftP50S: p.ttftP50,
          ttftP90S: p.ttftP90,
          hitRate: p.hitRate,
          imbalance: p.imbalance,
          requests: p.requests,
        })),
        json: { parameters: v, points },
      })}
      readouts={
        frame.status === 'ready' ? (
          <>
            <Readout
              emphasis
              label={`Load carried within p90 TTFT ≤ ${formatDuration(v.sloS)}, cache-aware vs round-robin`}
              value={
                <span data-readout="capacity-ratio" data-rr={rr?.load ?? 0} data-ca={ca?.load ?? 0}>
                  {rr && ca
                    ? `${ca.beyond && !rr.beyond ? '≥ ' : ''}${formatRatio(ca.load / rr.load, 2)}`
                    : rr
                      ? '—'
                      : 'round-robin misses it at every load'}
                </span>
              }
              formula={`cache-aware ${capText(ca ?? null)} ÷ round-robin ${capText(rr ?? null)}, read between sweep points`}
            />
            <Readout
              label={`Highest load within ${formatDuration(v.sloS)}, every policy`}
              value={
                <ul className="router-cap-list">
                  {caps.map((c) => (
                    <li key={c.policy} data-policy={c.policy}>
                      <span>{POLICY_LABELS[c.policy]}</span> <strong>{capText(c.cap)}</strong>
                    </li>
                  ))}
                </ul>
              }
              formula="new sessions/s at which the p90 curve crosses the target"
            />
          </>
        ) : null
      }
      caption={
        <>
          Each point is one simulated run: {SWEEP_ARRIVAL_S} s of Poisson session arrivals at the offered
          load, played until every session finishes, on {v.replicas} replicas of Qwen3-32B on {LAB_TP} × H100
          (the same agent workload as the animated router). The dashed rule is the TTFT target. The hit rate
          is reused ÷ (reused + prefilled) tokens over all turns.
        </>
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      <div className="router-charts-wrap">
        <SweepProgress drawn={complete ? total : points.length} total={total} what="loads" />
        {/* Side by side where both keep a phone's width, their direct labels' room (the kit's grid of charts). */}
        <div className="chart-columns">
          <LineChart
            title="p90 time to first token against offered load, per routing policy"
            series={ttftSeries}
            x={x}
            y={{
              label: 'p90 TTFT',
              unit: 's',
              scale: 'log',
              format: seconds,
              readout: (s) => formatDuration(s),
            }}
            markers={[
              { kind: 'y', y: v.sloS, label: `target ${formatDuration(v.sloS)}`, tone: 'danger' },
              ...pending,
            ]}
            aspect={0.55}
            directLabels
          />
          <LineChart
            title="Prefix hit rate against offered load, per routing policy"
            series={hitSeries}
            x={x}
            y={shareAxis('Prefix hit rate')}
            markers={pending}
            aspect={0.55}
            directLabels
          />
        </div>
      </div>
    </WidgetFrame>
  );
}
