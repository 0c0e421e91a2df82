/**
 * The lever grid's cells priced, and what the widget draws from them. The simulator sizes each cell once; the
 * prices and PUE are applied here, on the page, so moving them re-prices the runs without re-running them.
 */
import { formatNumber } from '../../lib/format';
import { findNode } from '../../sim/engine/catalog/nodes';
import { agentsPerMW, agentsPerNode, sessionCost, type SessionCost } from '../../sim/lessons/economics';
import type { CapacityResult } from '../../sim/lessons/economicsLab';
import {
  ECON_POLICIES,
  ECON_ROUTER_LABELS,
  ECON_ROUTERS,
  ECON_TP,
  type EconNodeId,
} from '../../sim/lessons/economicsLabSetup';
import type { BarSeries } from '../kit/charts/BarChart';

/** Dollars with three significant digits (per-session costs are cents). */
export function formatUSD(x: number): string {
  if (!Number.isFinite(x)) return '—';
  if (x === 0) return '$0';
  return `$${formatNumber(x, 3)}`;
}

export interface Prices {
  gpuHourUSD: number;
  kwhUSD: number;
  pue: number;
}

export interface PricedCell {
  cell: CapacityResult;
  perNode: number;
  perMW: number;
  cost: SessionCost;
}

/** A cell of the grid priced: agents per node and per MW, and the per-session cost at its operating point. */
export function priceCell(cell: CapacityResult, nodeId: EconNodeId, p: Prices): PricedCell {
  const node = findNode(nodeId)!;
  const perNode = agentsPerNode(cell.agentsPerReplica, node.gpuCount, ECON_TP);
  return {
    cell,
    perNode,
    perMW: agentsPerMW(perNode, node.powerW, p.pue),
    cost: sessionCost({
      gpuSeconds: cell.point.gpuSecondsPerSession,
      gpuHourUSD: p.gpuHourUSD,
      nodePowerW: node.powerW,
      gpusPerNode: node.gpuCount,
      pue: p.pue,
      kwhUSD: p.kwhUSD,
      prefillShare: cell.point.prefillShare,
      heldShare: cell.point.heldShare,
    }),
  };
}

export const cellKey = (r: string, p: string) => `${r}|${p}`;

/** The cells in so far, priced, by cellKey(router, policy). */
export type PricedGrid = ReadonlyMap<string, PricedCell>;

export function priceGrid(cells: readonly CapacityResult[], nodeId: EconNodeId, p: Prices): PricedGrid {
  return new Map(cells.map((c) => [cellKey(c.router, c.policy), priceCell(c, nodeId, p)]));
}

/**
 * When the search's largest concurrency met the SLOs, the capacity is a floor and the cost, read there, a
 * ceiling (more agents share the same GPUs): the figures say so rather than tie every lever at the grid's top.
 */
export const atLeast = (c: CapacityResult) => (c.atLeast ? '≥ ' : '');
export const atMost = (c: CapacityResult) => (c.atLeast ? '≤ ' : '');

/**
 * One bar per policy for each router: no bar for a setting not sized yet (while `running`) or where no
 * concurrency meets the SLOs (the gap says which), and a floor's own label ("≥ …") where the search's top
 * concurrency still met them.
 */
export function leverBarSeries(
  priced: PricedGrid,
  running: boolean,
  value: (c: PricedCell) => number,
  floorLabel?: (c: PricedCell) => string,
): BarSeries[] {
  return ECON_ROUTERS.map((r) => {
    const row = ECON_POLICIES.map((p) => priced.get(cellKey(r, p)));
    return {
      name: ECON_ROUTER_LABELS[r],
      values: row.map((c) => (c && c.cell.agentsPerReplica > 0 ? value(c) : null)),
      labels: floorLabel ? row.map((c) => (c?.cell.atLeast ? floorLabel(c) : null)) : undefined,
      gaps: row.map((c) => {
        if (!c) return running ? 'computing…' : null;
        return c.cell.agentsPerReplica > 0 ? null : 'none meets';
      }),
    };
  });
}

/** The data export's rows: one per cell sized so far. */
export function leverExportRows(priced: PricedGrid) {
  return [...priced.values()].map((c) => ({
    router: c.cell.router,
    policy: c.cell.policy,
    agentsPerReplica: c.cell.agentsPerReplica,
    agentsPerNode: c.perNode,
    agentsPerMW: c.perMW,
    gpuSecondsPerSession: c.cell.point.gpuSecondsPerSession,
    prefillUSD: c.cost.prefillUSD,
    decodeUSD: c.cost.decodeUSD,
    idleHeldUSD: c.cost.idleHeldUSD,
    energyUSD: c.cost.energyUSD,
    totalUSD: c.cost.totalUSD,
    reuseRatio: c.cell.point.reuseRatio,
    ttftP90S: c.cell.point.ttftP90S,
    tpotP90S: c.cell.point.tpotP90S,
  }));
}
