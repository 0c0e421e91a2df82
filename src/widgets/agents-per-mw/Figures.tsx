/**
 * Inline figures for lesson 07.12's prose, computed by the same worker methods as its widgets at their defaults
 * (runs shared through the worker's memo), so prose and widgets never disagree.
 */
import { InlineFigure } from '../kit/InlineFigure';
import { useSimulation } from '../kit/useSimulation';
import { defaultValues } from '../../state/paramSchema';
import { formatDuration, formatNumber, formatPercent, formatPower } from '../../lib/format';
import { findNode } from '../../sim/engine/catalog/nodes';
import { DEFAULT_ITERATION_OVERHEAD_S } from '../../sim/engine/hardware';
import {
  ECON_ROUTER_LABELS,
  ECON_TP,
  type EconPolicyId,
  type EconRouterId,
} from '../../sim/lessons/economicsLabSetup';
import { sweepArgs, sweepSummary } from './SloSweep';
import { GRID_DEFAULTS, useLeverCell } from './leverCell';
import { formatUSD, priceCell } from './pricedCells';
import { sloSweepSchema } from './schema';

const SWEEP_DEFAULTS = defaultValues(sloSweepSchema);

type SweepStat =
  | 'perReplica'
  | 'perNode'
  | 'perMW'
  | 'ttftAt'
  | 'tpotAt'
  | 'gpuSeconds'
  | 'prefillShare'
  | 'wallS'
  | 'tokPerGpu'
  | 'reuse'
  | 'sessions';

/** A figure of the SLO sweep at its defaults, optionally with another TTFT objective. */
export function SweepFig({
  stat,
  ttft,
  node,
}: {
  stat: SweepStat;
  ttft?: number;
  node?: 'dgx-h100' | 'dgx-h200' | 'dgx-b200';
}) {
  const args = sweepArgs({
    ...SWEEP_DEFAULTS,
    ttftP90S: ttft ?? SWEEP_DEFAULTS.ttftP90S,
    node: node ?? SWEEP_DEFAULTS.node,
  });
  // Another node's sweep is the prose's alone: it waits until the widgets' first runs have had their turn.
  const sim = useSimulation(
    'sloSweep',
    args,
    undefined,
    undefined,
    args.node !== SWEEP_DEFAULTS.node ? 'deferred' : 'initial',
  );
  const r = sim.result;
  if (!r) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const s = sweepSummary(r.points, args, SWEEP_DEFAULTS.pue);
  const floor = s.atLeast ? '≥ ' : '';
  const text: Record<SweepStat, () => string> = {
    // A capacity every run of the sweep met is a floor, as the widget prints it.
    perReplica: () => `${floor}${formatNumber(s.perReplica)}`,
    perNode: () => `${floor}${formatNumber(s.perNode, 4)}`,
    perMW: () => `${floor}${formatNumber(Math.round(s.perMW), 5)}`,
    ttftAt: () => formatDuration(s.at?.ttftP90S ?? NaN, 3),
    tpotAt: () => formatDuration(s.at?.tpotP90S ?? NaN, 3),
    gpuSeconds: () => formatNumber(s.at?.gpuSecondsPerSession ?? NaN, 3),
    prefillShare: () => formatPercent(s.at?.prefillShare ?? NaN, 2),
    wallS: () => formatDuration(s.at?.sessionWallS ?? NaN, 2),
    tokPerGpu: () => formatNumber((s.at?.outputTokensPerS ?? NaN) / ECON_TP, 3),
    reuse: () => formatPercent(s.at?.reuseRatio ?? NaN, 2),
    /** Sessions that finished within the run: what the per-session means average over. */
    sessions: () => formatNumber(s.at?.sessionsFinished ?? NaN),
  };
  return (
    <InlineFigure
      value={text[stat]()}
      title={`Fleet simulator (src/sim/lessons/economicsLab.ts), the SLO sweep on ${args.node}${
        ttft !== undefined ? ` with a TTFT p90 objective of ${formatDuration(ttft, 3)}` : ''
      }, its other settings the lesson's defaults; the capacity point of the sweep`}
    />
  );
}

/** The first point of the default sweep past the TTFT objective: where the wall is. */
export function WallFig({ what }: { what: 'n' | 'ttft' }) {
  const args = sweepArgs(SWEEP_DEFAULTS);
  const sim = useSimulation('sloSweep', args);
  const r = sim.result;
  const p = r?.points.find((x) => !x.meetsSlo);
  if (!r) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  return (
    <InlineFigure
      value={p ? (what === 'n' ? formatNumber(p.concurrency) : formatDuration(p.ttftP90S, 3)) : '—'}
    />
  );
}

type GridStat =
  | 'perReplica'
  | 'perMW'
  | 'cost'
  | 'reuse'
  | 'held'
  | 'gpuSeconds'
  | 'prefillShare'
  | 'energyShare'
  | 'sessions'
  | 'replicas'
  | 'idleReplicas';

/** A figure of one lever setting at the grid's defaults. */
export function LeverFig({
  router,
  policy,
  stat,
  tool,
}: {
  router: EconRouterId;
  policy: EconPolicyId;
  stat: GridStat;
  tool?: 'web' | 'shell';
}) {
  const { cell, failed, node } = useLeverCell(router, policy, tool);
  if (!cell) return <InlineFigure value={null} failed={failed} />;
  const c = priceCell(cell, node, GRID_DEFAULTS);
  const text: Record<GridStat, () => string> = {
    perReplica: () => formatNumber(cell.agentsPerReplica),
    perMW: () => formatNumber(Math.round(c.perMW), 5),
    cost: () => formatUSD(c.cost.totalUSD),
    reuse: () => formatPercent(cell.point.reuseRatio, 2),
    held: () => formatPercent(cell.point.heldShare, 2),
    gpuSeconds: () => formatNumber(cell.point.gpuSecondsPerSession, 3),
    prefillShare: () => formatPercent(cell.point.prefillShare, 2),
    energyShare: () => formatPercent(c.cost.energyUSD / c.cost.totalUSD, 2),
    sessions: () => formatNumber(cell.point.sessionsFinished),
    replicas: () => formatNumber(cell.point.replicas),
    idleReplicas: () => formatNumber(cell.point.idleReplicas),
  };
  return (
    <InlineFigure
      value={text[stat]()}
      title={`Fleet simulator (src/sim/lessons/economicsLab.ts), router ${ECON_ROUTER_LABELS[router]} with ${policy}${
        tool ? `, ${tool} tools` : ''
      }, the lever grid's other settings at their defaults; at its capacity`}
    />
  );
}

/** A node's maximum power from the catalog. */
export function NodePower({ node }: { node: 'dgx-h100' | 'dgx-h200' | 'dgx-b200' | 'dgx-a100-640gb' }) {
  const n = findNode(node);
  return <InlineFigure value={n ? formatPower(n.powerW) : '—'} title={n?.source} />;
}

/**
 * The per-iteration overhead the cost model adds to every step the widgets run (scheduling, sampling, launches;
 * fitted to NIM's ITL, engine/hardware.ts). The prose sets the B200's step without it beside ML.ENERGY's measured
 * one, as the validation suite does: those servers' asynchronous scheduling hides it.
 */
export function IterationOverhead() {
  return (
    <InlineFigure
      value={formatDuration(DEFAULT_ITERATION_OVERHEAD_S, 2)}
      title="The cost model's per-iteration overhead (src/sim/engine/hardware.ts)"
    />
  );
}

/** The default of an assumption the learner can change (prices, PUE), as the widgets use it. */
export function Assumption({ what }: { what: 'gpuHour' | 'kwh' | 'pue' }) {
  const text = {
    gpuHour: `$${GRID_DEFAULTS.gpuHourUSD.toFixed(2)} per GPU-hour`,
    kwh: `$${GRID_DEFAULTS.kwhUSD.toFixed(2)} per kWh`,
    pue: formatNumber(GRID_DEFAULTS.pue, 3),
  }[what];
  return <InlineFigure value={text} title="An assumption: an editable parameter of the widgets" />;
}
