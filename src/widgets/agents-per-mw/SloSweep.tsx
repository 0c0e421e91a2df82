/**
 * Lesson 07.12, widget 1: SLOs first. The fleet simulator runs one replica of Qwen3-32B on 2 GPUs of the chosen
 * node under a closed loop of N agents, for N = 2, 4, 6 …, until a little past the first N that misses an
 * objective; the points stream in. TTFT p90 and TPOT p90 against N with the SLOs as rules; the largest N that
 * meets both is the replica's capacity, and the read-outs turn it into agents per node and per megawatt.
 * Computed in the worker (sloSweep).
 */
import { useMemo } from 'react';
import { LineChart } from '../kit/charts/LineChart';
import type { Marker } from '../kit/charts/types';
import { useStreamingSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { paramsFrame, streamingFrame } from '../kit/frameProps';
import { formatDuration, formatNumber, formatPercent, formatPower } from '../../lib/format';
import { findNode } from '../../sim/engine/catalog/nodes';
import { agentsPerMW, maxFeasible } from '../../sim/lessons/economics';
import type { EconPoint } from '../../sim/lessons/economicsLab';
import {
  ECON_DURATION_S,
  ECON_POLICY_LABELS,
  ECON_TP,
  econReplicasPerNode,
  type EconNodeId,
  type EconPolicyId,
} from '../../sim/lessons/economicsLabSetup';
import type { SloSweepRequest } from '../../worker/economicsMethods';
import { SLO_SWEEP_ID, sloSweepSchema } from './schema';
import { TryThis, type TryItem } from '../kit/TryThis';
import { DEFAULT_PUE } from '../../sim/lessons/economicsLabSetup';
import { arenaSetup } from '../tool-pause/arenaData';
import { ECON_MODEL_NAME, TOOL_CLAUSES } from './econSetup';
import './agents-per-mw.css';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-12-try-this and tests/lesson-07-12 check them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Tighten the TTFT objective from {formatDuration(sloSweepSchema.ttftP90S.default)} to 0.7 s: the wall
        moves left and agents per replica, per node and per megawatt fall with it. Nothing about the hardware
        changed, only the promise to the user.
      </>
    ),
    set: { ttftP90S: 0.7 },
    highlight: 'agents-per-mw',
  },
  {
    text: (
      <>Tighten TPOT to 30 ms instead: decode slows as the batch grows, so TPOT can bind before TTFT does.</>
    ),
    set: { tpotP90S: 0.03 },
    highlight: 'agents-per-replica',
  },
  {
    text: (
      <>
        Switch the node to DGX B200: more agents per replica, but {formatPower(findNode('dgx-b200')!.powerW)}{' '}
        instead of {formatPower(findNode('dgx-h100')!.powerW)} per node. Does it win per megawatt?
      </>
    ),
    set: { node: 'dgx-b200' },
    highlight: 'agents-per-mw',
  },
  {
    text: (
      <>
        Then raise the PUE from {formatNumber(DEFAULT_PUE, 3)} to 1.6 and watch agents per MW drop by the same
        ratio.
      </>
    ),
    set: { node: 'dgx-b200', pue: 1.6 },
    highlight: 'agents-per-mw',
  },
];

export function sweepArgs(v: {
  node: string;
  policy: string;
  tool: string;
  ttftP90S: number;
  tpotP90S: number;
  seed: number;
}): SloSweepRequest {
  return {
    node: v.node as EconNodeId,
    policy: v.policy as EconPolicyId,
    tool: v.tool as SloSweepRequest['tool'],
    slo: { ttftP90S: v.ttftP90S, tpotP90S: v.tpotP90S },
    seed: v.seed,
  };
}

/** What the sweep's read-outs show, from its points (shared with the lesson's inline figures). */
export function sweepSummary(points: readonly EconPoint[], req: SloSweepRequest, pue: number) {
  const node = findNode(req.node)!;
  const perReplica = maxFeasible(points, req.slo);
  const replicas = econReplicasPerNode(node);
  const perNode = perReplica * replicas;
  const perMW = agentsPerMW(perNode, node.powerW, pue);
  const at = points.find((p) => p.concurrency === perReplica) ?? null;
  // Every concurrency run so far meets both SLOs (still running, or the sweep reached its largest): the capacity
  // is a floor, printed "≥".
  const atLeast = points.length > 0 && points.every((p) => p.meetsSlo);
  return { node, perReplica, perNode, perMW, at, atLeast, replicas };
}

export function SloSweep() {
  const params = useWidgetParams(SLO_SWEEP_ID, sloSweepSchema);
  const v = params.values;
  const args = useMemo(() => sweepArgs(v), [v]);
  const sim = useStreamingSimulation('sloSweep', args);
  const final = sim.result && !sim.stale ? sim.result : null;
  const partial = sim.frames;
  const points: EconPoint[] = final ? final.points : partial.length ? partial : (sim.result?.points ?? []);
  const running = !final;
  const frame = streamingFrame(sim, points.length > 0, final !== null);
  const s = sweepSummary(points, args, v.pue);
  const facilityKW = (s.node.powerW * v.pue) / 1000;
  const floor = s.atLeast ? '≥ ' : '';

  const series = [
    { name: 'TTFT p90', points: points.map((p) => ({ x: p.concurrency, y: p.ttftP90S })) },
    { name: 'TPOT p90', points: points.map((p) => ({ x: p.concurrency, y: p.tpotP90S })) },
  ];
  const maxX = Math.max(8, ...points.map((p) => p.concurrency));
  const ys = points.flatMap((p) => [p.ttftP90S, p.tpotP90S]).filter((y) => y > 0);
  const yLo = Math.min(args.slo.tpotP90S, ...ys) * 0.6;
  const yHi = Math.max(args.slo.ttftP90S, ...ys) * 1.6;
  const markers: Marker[] = [
    {
      kind: 'y',
      y: args.slo.ttftP90S,
      label: `TTFT SLO ${formatDuration(args.slo.ttftP90S, 3)}`,
      tone: 'danger',
    },
    {
      kind: 'y',
      y: args.slo.tpotP90S,
      label: `TPOT SLO ${formatDuration(args.slo.tpotP90S, 3)}`,
      tone: 'danger',
    },
  ];
  if (s.perReplica > 0) {
    markers.push({ kind: 'band', x0: 0, x1: s.perReplica, tone: 'ok' });
    markers.push({
      kind: 'x',
      x: s.perReplica,
      label: `N* = ${s.perReplica}: both SLOs met`,
      // On a phone the whole label is wider than either side of the rule.
      shortLabel: `N* = ${s.perReplica}`,
      tone: 'fg',
    });
  }

  return (
    <WidgetFrame
      {...frame}
      {...paramsFrame(params)}
      id={SLO_SWEEP_ID}
      title="SLOs first: how many agents one replica sustains"
      drawn={sim.drawn}
      exportData={() => ({
        rows: points.map((p) => ({
          agentsPerReplica: p.concurrency,
          ttftP90S: p.ttftP90S,
          tpotP90S: p.tpotP90S,
          meetsSlo: p.meetsSlo,
          gpuSecondsPerSession: p.gpuSecondsPerSession,
          prefillShare: p.prefillShare,
          heldShare: p.heldShare,
          reuseRatio: p.reuseRatio,
          utilisation: p.utilisation,
          outputTokensPerS: p.outputTokensPerS,
        })),
        json: {
          parameters: v,
          points,
          agentsPerReplica: s.perReplica,
          agentsPerNode: s.perNode,
          agentsPerMW: s.perMW,
        },
      })}
      readouts={
        points.length ? (
          <>
            <Readout
              emphasis
              label="Agents per replica (largest N meeting both SLOs)"
              value={
                <span data-readout="agents-per-replica" data-value={s.perReplica}>
                  {floor}
                  {formatNumber(s.perReplica)}
                </span>
              }
              formula={
                s.at
                  ? `at N = ${s.perReplica}: TTFT p90 ${formatDuration(s.at.ttftP90S, 3)} ≤ ${formatDuration(args.slo.ttftP90S, 3)}, TPOT p90 ${formatDuration(s.at.tpotP90S, 3)} ≤ ${formatDuration(args.slo.tpotP90S, 3)}`
                  : 'no concurrency of the sweep meets both objectives'
              }
            />
            <Readout
              label="Agents per node"
              value={
                <span data-readout="agents-per-node" data-value={s.perNode}>
                  {floor}
                  {formatNumber(s.perNode, 4)}
                </span>
              }
              formula={`${s.perReplica} per replica × ${s.replicas} replicas (${s.node.gpuCount} GPUs ÷ ${ECON_TP} per replica)`}
            />
            <Readout
              emphasis
              label="Agents per megawatt of facility power"
              value={
                <span data-readout="agents-per-mw" data-value={s.perMW}>
                  {floor}
                  {formatNumber(Math.round(s.perMW), 4)}
                </span>
              }
              formula={`${formatNumber(s.perNode, 4)} per node ÷ (${formatPower(s.node.powerW)} × PUE ${formatNumber(v.pue, 3)} = ${formatNumber(facilityKW, 4)} kW) × 1,000 kW/MW`}
            />
            {s.at ? (
              <Readout
                label="At that load: GPU-seconds per session"
                value={
                  <span data-readout="gpu-seconds" data-value={s.at.gpuSecondsPerSession}>
                    {formatNumber(s.at.gpuSecondsPerSession)} GPU-s
                  </span>
                }
                formula={`prefill ${formatPercent(s.at.prefillShare)} of busy GPU time; prompt tokens reused ${formatPercent(s.at.reuseRatio)}`}
              />
            ) : null}
          </>
        ) : null
      }
      caption={
        <>
          One replica of {ECON_MODEL_NAME} (BF16) on {ECON_TP} GPUs of a {s.node.name}, {ECON_DURATION_S / 60}{' '}
          simulated minutes of a closed loop of N agents (a new session starts when one ends):{' '}
          {arenaSetup.turns} turns on an {arenaSetup.sharedPrompt} shared prompt, {TOOL_CLAUSES[args.tool]}{' '}
          between turns; idle KV: {ECON_POLICY_LABELS[args.policy]}. Both percentiles over every turn. Log
          scale: the two objectives differ by a factor of{' '}
          {formatNumber(args.slo.ttftP90S / args.slo.tpotP90S, 3)}.
          {running ? ` Computing: ${points.length} concurrencies so far.` : ''}
          {!running && floor
            ? ` Every concurrency the sweep tries, up to ${formatNumber(s.perReplica)}, meets both objectives: the capacity is at least that (“≥”).`
            : ''}
        </>
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      <div className="apm-charts">
        <LineChart
          title="TTFT p90 and TPOT p90 against concurrent agents per replica, with the SLOs"
          description="Each point is one fleet-simulator run at that concurrency. The shaded band is the concurrency range meeting both objectives."
          series={series}
          x={{
            label: 'Concurrent agents per replica',
            unit: 'agents',
            domain: [0, maxX + 2],
            zero: true,
            format: (n) => formatNumber(n),
          }}
          y={{
            label: 'Latency p90',
            unit: 's',
            scale: 'log',
            domain: [yLo, yHi],
            format: (t) => formatDuration(t, 2),
          }}
          markers={markers}
          points
          aspect={0.5}
        />
      </div>
    </WidgetFrame>
  );
}
