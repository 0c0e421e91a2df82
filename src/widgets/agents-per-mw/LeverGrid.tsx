/**
 * Lesson 07.12, widget 2: the per-session cost model and its two levers. For every router (round-robin,
 * cache-aware) and idle-KV policy (hold, TTL then offload, evict), the fleet simulator finds the largest
 * concurrency per replica at which a whole node meets both SLOs (bisection, lab runs in src/sim/lessons/economicsLab.ts);
 * the cells stream in, the chosen one first. The money and power arithmetic (src/sim/lessons/economics.ts) runs here, so
 * prices and PUE re-price the runs without re-running them. Computed in the worker (leverGrid).
 */
import { useMemo } from 'react';
import { BarChart } from '../kit/charts/BarChart';
import { useStreamingSimulation } from '../kit/useSimulation';
import { streamProgress, useCancelToShown } from '../kit/JobProgress';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { paramsFrame, streamingFrame } from '../kit/frameProps';
import { formatDuration, formatNumber, formatPercent, formatPower } from '../../lib/format';
import { findNode } from '../../sim/engine/catalog/nodes';
import { agentsPerMW, agentsPerNode, sessionCost, type SessionCost } from '../../sim/lessons/economics';
import type { CapacityResult } from '../../sim/lessons/economicsLab';
import {
  ECON_DURATION_S,
  ECON_POLICIES,
  ECON_POLICY_SHORT,
  ECON_ROUTERS,
  ECON_ROUTER_LABELS,
  ECON_TP,
  type EconNodeId,
  type EconPolicyId,
  type EconRouterId,
} from '../../sim/lessons/economicsLabSetup';
import { TOOL_PRESET_LABELS } from '../../sim/lessons/pauseLabSetup';
import type { LeverGridRequest } from '../../worker/economicsMethods';
import { LEVER_GRID_ID, leverGridSchema } from './schema';
import { SeparatedFigures } from '../kit/SeparatedFigures';
import { TryThis, type TryItem } from '../kit/TryThis';
import { DEFAULT_GPU_HOUR_USD, LEVER_GRID } from '../../sim/lessons/economicsLabSetup';
import './agents-per-mw.css';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-12-try-this and tests/lesson-07-12 check them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Switch the router to round-robin: each turn lands on the next replica, which last held the session
        turns ago (or never), so it prefills everything said since; less of the prompt is reused, and agents
        per MW collapse.
      </>
    ),
    set: { router: 'round-robin' },
    highlight: 'lever-agents-per-mw',
  },
  {
    text: (
      <>
        Compare hold with TTL then offload: with the coding-agent mix they sustain the same agents, because
        the SLO binds before memory does, but hold pins several times more of the KV budget (the idle-held
        share of the rent).
      </>
    ),
    set: { policy: 'hold' },
    highlight: 'cost-split',
  },
  {
    text: (
      <>
        Then choose web or API calls: the agents stay level with the TTL’s at these SLOs, and hold pins even
        more of the KV budget through the long pauses.
      </>
    ),
    set: { policy: 'hold', tool: 'web' },
    highlight: 'cost-split',
  },
  {
    text: <>And shell commands: fewer agents fit within the SLOs, and hold pins little more than the TTL.</>,
    set: { policy: 'hold', tool: 'shell' },
    highlight: 'cost-split',
  },
  {
    text: (
      <>
        Double the GPU-hour price: the cost per session almost doubles, since nearly all of it is the
        GPU&apos;s rent.
      </>
    ),
    set: { gpuHourUSD: 2 * DEFAULT_GPU_HOUR_USD },
    highlight: 'cost-per-session',
  },
  {
    text: (
      <>
        Set electricity to $0.30/kWh instead: only the energy part moves, and it stays under a quarter of the
        cost per session: at these prices a GPU&apos;s rent is most of it.
      </>
    ),
    set: { kwhUSD: 0.3 },
    highlight: 'cost-per-session',
  },
];

/** Dollars with three significant digits (per-session costs are cents). */
export function formatUSD(x: number): string {
  if (!Number.isFinite(x)) return '—';
  if (x === 0) return '$0';
  return `$${formatNumber(x, 3)}`;
}

export function gridArgs(v: {
  node: string;
  tool: string;
  ttftP90S: number;
  tpotP90S: number;
  seed: number;
  router: string;
  policy: string;
}): LeverGridRequest {
  return {
    node: v.node as EconNodeId,
    tool: v.tool as LeverGridRequest['tool'],
    slo: { ttftP90S: v.ttftP90S, tpotP90S: v.tpotP90S },
    seed: v.seed,
    router: v.router as EconRouterId,
    policy: v.policy as EconPolicyId,
  };
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

const cellKey = (r: string, p: string) => `${r}|${p}`;

/**
 * When the search's largest concurrency met the SLOs, the capacity is a floor and the cost, read there, a
 * ceiling (more agents share the same GPUs): the figures say so rather than tie every lever at the grid's top.
 */
const atLeast = (c: CapacityResult) => (c.atLeast ? '≥ ' : '');
const atMost = (c: CapacityResult) => (c.atLeast ? '≤ ' : '');

export function LeverGrid() {
  const params = useWidgetParams(LEVER_GRID_ID, leverGridSchema);
  const v = params.values;
  const args = useMemo(() => gridArgs(v), [v]);
  const sim = useStreamingSimulation('leverGrid', args);
  const final = sim.result && !sim.stale ? sim.result : null;
  const partial = sim.frames;
  const cells: CapacityResult[] = final ? final.cells : partial.length ? partial : (sim.result?.cells ?? []);
  const running = !final;
  // Up to ≈16 s at the controls' maxima under load (docs/reliability.md): the kit's progress line and Cancel.
  const progress = streamProgress(
    sim,
    ECON_ROUTERS.length * ECON_POLICIES.length,
    'Sizing the fleet for each router and policy',
    'settings',
  );
  const cancel = useCancelToShown(params, final !== null);
  const prices: Prices = { gpuHourUSD: v.gpuHourUSD, kwhUSD: v.kwhUSD, pue: v.pue };
  const priced = new Map(cells.map((c) => [cellKey(c.router, c.policy), priceCell(c, args.node, prices)]));
  const sel = priced.get(cellKey(args.router, args.policy)) ?? null;
  const selIsCurrent = Boolean(sel);
  const frame = streamingFrame(sim, cells.length > 0, selIsCurrent);
  const node = findNode(args.node)!;

  const categories = ECON_POLICIES.map((p) => ECON_POLICY_SHORT[p]);
  // One bar per policy for each router: no bar for a setting not sized yet or where no concurrency meets the
  // SLOs (the gap says which), and a floor's own label ("≥ …") where the search's top concurrency still met them.
  const barSeries = (value: (c: PricedCell) => number, floorLabel?: (c: PricedCell) => string) =>
    ECON_ROUTERS.map((r) => {
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
  const mwSeries = barSeries(
    (c) => c.perMW,
    (c) => `≥ ${formatNumber(Math.round(c.perMW), 3)}`,
  );
  const costSeries = barSeries((c) => c.cost.totalUSD);

  const s = sel;
  const pt = s?.cell.point;
  const capped = cells.some((c) => c.atLeast);
  return (
    <WidgetFrame
      {...frame}
      {...paramsFrame(params)}
      id={LEVER_GRID_ID}
      title="The per-session cost model and its two levers: routing and idle KV"
      progress={progress}
      onCancel={cancel}
      exportData={() => ({
        rows: [...priced.values()].map((c) => ({
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
        })),
        json: { parameters: v, cells },
      })}
      readouts={
        s && pt ? (
          <>
            <Readout
              emphasis
              label={`Agents per MW · ${ECON_ROUTER_LABELS[s.cell.router]}, ${ECON_POLICY_SHORT[s.cell.policy]}`}
              value={
                <span data-readout="lever-agents-per-mw" data-value={s.perMW}>
                  {atLeast(s.cell)}
                  {formatNumber(Math.round(s.perMW), 4)}
                </span>
              }
              formula={`${atLeast(s.cell)}${s.cell.agentsPerReplica} per replica × ${node.gpuCount / ECON_TP} replicas = ${s.perNode} per node; ÷ (${formatPower(node.powerW)} × ${formatNumber(v.pue, 3)}) per node`}
            />
            <Readout
              emphasis
              label="Cost per session"
              value={
                <span data-readout="cost-per-session" data-value={s.cost.totalUSD}>
                  {atMost(s.cell)}
                  {formatUSD(s.cost.totalUSD)}
                </span>
              }
              formula={`${formatNumber(pt.gpuSecondsPerSession)} GPU-s × $${v.gpuHourUSD.toFixed(2)} / 3600 = ${formatUSD(s.cost.computeUSD)} + energy ${formatNumber(s.cost.energyKWh * 1000, 3)} Wh × $${v.kwhUSD.toFixed(2)}/kWh = ${formatUSD(s.cost.energyUSD)}${s.cell.agentsPerReplica === 0 ? ' (at 1 agent per replica, which already misses an SLO)' : ''}`}
            />
            <Readout
              label="Rent split: prefill · decode · idle-held KV"
              value={
                <span data-readout="cost-split">
                  <SeparatedFigures
                    figures={[
                      formatUSD(s.cost.prefillUSD),
                      formatUSD(s.cost.decodeUSD),
                      formatUSD(s.cost.idleHeldUSD),
                    ]}
                  />
                </span>
              }
              formula={`idle sessions pin ${formatPercent(pt.heldShare)} of the KV budget; prefill is ${formatPercent(pt.prefillShare)} of the busy GPU time`}
            />
            <Readout
              label="Prefix reuse · TTFT p90 · TPOT p90"
              value={
                <span data-readout="reuse" data-value={pt.reuseRatio}>
                  <SeparatedFigures
                    figures={[
                      formatPercent(pt.reuseRatio),
                      formatDuration(pt.ttftP90S, 3),
                      formatDuration(pt.tpotP90S, 3),
                    ]}
                  />
                </span>
              }
              formula={`at ${pt.concurrency} agents per replica, the run the cost is read from`}
            />
          </>
        ) : null
      }
      caption={
        <>
          A {node.name} ({formatPower(node.powerW)}) split into {node.gpuCount / ECON_TP} replicas of
          Qwen3-32B on {ECON_TP} GPUs behind one router; agents as in the first widget, calling{' '}
          {TOOL_PRESET_LABELS[args.tool].toLowerCase()}. For each lever setting the simulator finds the
          largest concurrency per replica meeting TTFT p90 ≤ {formatDuration(args.slo.ttftP90S, 3)} and TPOT
          p90 ≤ {formatDuration(args.slo.tpotP90S, 3)} ({ECON_DURATION_S / 60} simulated minutes per run); the
          cost is read at that concurrency. “none meets” in place of a bar: not even 1 agent per replica meets
          the SLOs.
          {capped
            ? ` A value marked “≥”: ${LEVER_GRID[LEVER_GRID.length - 1]} agents per replica, the most the search tries, still meets the SLOs, so it is a floor, and the cost read there a ceiling (“≤”).`
            : ''}
          {running
            ? ` Computing: ${cells.length} of ${ECON_ROUTERS.length * ECON_POLICIES.length} settings so far.`
            : ''}
        </>
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      <div className="apm-charts">
        <div className="apm-bars">
          <BarChart
            title="Agents per megawatt for each router and idle-KV policy"
            categories={categories}
            series={mwSeries}
            value={{ label: 'Agents per MW', format: (n) => formatNumber(n, 3), zero: true }}
            category={{ label: 'Idle-KV policy' }}
            valueLabels
            orientation="horizontal"
            rowHeight={36}
          />
          <BarChart
            title="Cost per session for each router and idle-KV policy"
            categories={categories}
            series={costSeries}
            value={{ label: '$ per session', format: (n) => formatUSD(n), zero: true }}
            category={{ label: 'Idle-KV policy' }}
            valueLabels
            orientation="horizontal"
            rowHeight={36}
          />
        </div>
        <div className="table-scroll">
          <table className="compare-table" data-table="levers">
            <caption>
              Every setting on the same workload and seed; rent = GPU-seconds × ${v.gpuHourUSD.toFixed(2)}
              /GPU-h, split into prefill, decode and idle-held KV; (N = 1): no concurrency meets the SLOs, the
              cost is read at 1 agent per replica; energy at {formatPower(node.powerW / node.gpuCount)} per
              GPU × PUE {formatNumber(v.pue, 3)} × ${v.kwhUSD.toFixed(2)}/kWh.
            </caption>
            <thead>
              <tr>
                <th scope="col">Router · idle KV</th>
                <th scope="col">Agents per replica</th>
                <th scope="col">Agents per MW</th>
                <th scope="col">Prefix reuse</th>
                <th scope="col">GPU-s per session</th>
                <th scope="col">Per session: prefill + decode + idle-held KV + energy</th>
              </tr>
            </thead>
            <tbody>
              {ECON_ROUTERS.flatMap((r) =>
                ECON_POLICIES.map((p) => {
                  const c = priced.get(cellKey(r, p));
                  const cur = r === args.router && p === args.policy;
                  return (
                    <tr
                      key={cellKey(r, p)}
                      data-cell={cellKey(r, p)}
                      aria-current={cur ? 'true' : undefined}
                      className={cur ? 'is-current' : undefined}
                    >
                      <th scope="row">
                        {ECON_ROUTER_LABELS[r]} · {ECON_POLICY_SHORT[p]}
                      </th>
                      {c ? (
                        <>
                          <td data-label="Agents per replica">
                            {atLeast(c.cell)}
                            {c.cell.agentsPerReplica}
                          </td>
                          <td data-label="Agents per MW">
                            {atLeast(c.cell)}
                            {formatNumber(Math.round(c.perMW), 4)}
                          </td>
                          <td data-label="Prefix reuse">{formatPercent(c.cell.point.reuseRatio)}</td>
                          <td data-label="GPU-s per session" className="nw">
                            {formatNumber(c.cell.point.gpuSecondsPerSession)}
                            {c.cell.agentsPerReplica === 0 ? ' (N = 1)' : ''}
                          </td>
                          <td data-label="Per session">
                            <strong>
                              {atMost(c.cell)}
                              {formatUSD(c.cost.totalUSD)}
                            </strong>{' '}
                            ={' '}
                            <SeparatedFigures
                              separator="+"
                              figures={[
                                formatUSD(c.cost.prefillUSD),
                                formatUSD(c.cost.decodeUSD),
                                formatUSD(c.cost.idleHeldUSD),
                                formatUSD(c.cost.energyUSD),
                              ]}
                            />
                          </td>
                        </>
                      ) : (
                        <td colSpan={5} className="pending" aria-busy="true">
                          computing…
                        </td>
                      )}
                    </tr>
                  );
                }),
              )}
            </tbody>
          </table>
        </div>
      </div>
    </WidgetFrame>
  );
}
