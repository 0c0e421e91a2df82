/**
 * Lesson 07.12's third lever, disaggregated prefill (src/sim/lessons/economicsDisagg.ts via the worker's
 * disaggLever): the lab's node aggregated (four replicas) and split into one prefill and three decode replicas,
 * each searched for its capacity under the lesson's default SLOs and under a tight TPOT objective. A table and
 * inline figures for the prose; the runs start once the page's widgets have drawn.
 */
import { CompareRow, CompareTable } from '../kit/CompareTable';
import { InlineFigure } from '../kit/InlineFigure';
import { useDeferredSimulation } from '../kit/useSimulation';
import { defaultValues } from '../../state/paramSchema';
import { formatDuration, formatNumber, formatPercent } from '../../lib/format';
import { findNode } from '../../sim/engine/catalog/nodes';
import { ECON_PREFILL_REPLICAS, econReplicasPerNode } from '../../sim/lessons/economicsLabSetup';
import { agentsPerMW } from '../../sim/lessons/economics';
import type { DisaggLeverRequest, DisaggLeverResponse, DisaggLeverRow } from '../../worker/economicsMethods';
import { gridArgs } from './LeverGrid';
import { leverGridSchema } from './schema';
import { ECON_MODEL_NAME } from './econSetup';
import './agents-per-mw.css';

const GRID = defaultValues(leverGridSchema);

/**
 * A TPOT objective tight enough to bind before TTFT on the aggregated node: 30 ms a token, about 33 tokens a
 * second per stream (a setting the reader may change; the lesson's default is the lever grid's).
 */
export const TIGHT_TPOT_S = 0.03;

const GRID_ARGS = gridArgs(GRID);

/** The lever grid's defaults, under its SLOs and under the tight TPOT. */
export const DISAGG_LEVER_REQUEST: DisaggLeverRequest = {
  node: GRID_ARGS.node,
  tool: GRID_ARGS.tool,
  seed: GRID_ARGS.seed,
  router: GRID_ARGS.router,
  policy: GRID_ARGS.policy,
  slos: [GRID_ARGS.slo, { ttftP90S: GRID_ARGS.slo.ttftP90S, tpotP90S: TIGHT_TPOT_S }],
};

export type LeverSlo = 'default' | 'tight';
export type LeverLayout = 'aggregated' | 'disaggregated';

export interface LayoutSummary {
  perNode: number;
  perMW: number;
  ttftP90S: number;
  tpotP90S: number;
  /** Disaggregated only: the prefill replica's busy share and the share of turns it prefilled. */
  prefillBusy: number;
  remoteShare: number;
}

/** The lever's node as its caption, table and per-MW figures use it: its power, its replicas, and their split. */
export const LEVER_NODE = (() => {
  const node = findNode(DISAGG_LEVER_REQUEST.node)!;
  const replicas = econReplicasPerNode(node);
  return {
    name: node.name,
    powerW: node.powerW,
    replicas,
    prefill: ECON_PREFILL_REPLICAS,
    decode: replicas - ECON_PREFILL_REPLICAS,
  };
})();

export function summarizeLayout(row: DisaggLeverRow, layout: LeverLayout, pue: number): LayoutSummary {
  const cap = layout === 'aggregated' ? row.aggregated : row.disaggregated;
  const carriers = layout === 'aggregated' ? row.aggregatedReplicas : row.decodeReplicas;
  const perNode = cap.agentsPerReplica * carriers;
  return {
    perNode,
    perMW: agentsPerMW(perNode, LEVER_NODE.powerW, pue),
    ttftP90S: cap.point.ttftP90S,
    tpotP90S: cap.point.tpotP90S,
    prefillBusy: cap.point.prefillPoolUtilisation ?? NaN,
    remoteShare: cap.point.remotePrefillShare ?? NaN,
  };
}

function rowOf(r: DisaggLeverResponse | null, slo: LeverSlo): DisaggLeverRow | undefined {
  return r?.rows[slo === 'default' ? 0 : 1];
}

/** The lever's runs are the prose's alone: they wait in the worker until the widgets' first runs have had their turn. */
function useLever() {
  return useDeferredSimulation('disaggLever', DISAGG_LEVER_REQUEST);
}

type Stat = keyof LayoutSummary | 'tpotSlo' | 'ratio';

/** One figure of the comparison. `ratio`: disaggregated agents per node over aggregated. */
export function DisaggLeverFig({
  slo = 'default',
  layout = 'disaggregated',
  stat,
}: {
  slo?: LeverSlo;
  layout?: LeverLayout;
  stat: Stat;
}) {
  const sim = useLever();
  if (stat === 'tpotSlo')
    return (
      <InlineFigure value={formatDuration(DISAGG_LEVER_REQUEST.slos[slo === 'default' ? 0 : 1].tpotP90S)} />
    );
  const row = rowOf(sim.result, slo);
  if (!row) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const s = summarizeLayout(row, layout, GRID.pue);
  const agg = summarizeLayout(row, 'aggregated', GRID.pue);
  const text: Record<Exclude<Stat, 'tpotSlo'>, string> = {
    perNode: formatNumber(s.perNode),
    perMW: formatNumber(Math.round(s.perMW), 5),
    ttftP90S: formatDuration(s.ttftP90S, 3),
    tpotP90S: formatDuration(s.tpotP90S, 3),
    prefillBusy: formatPercent(s.prefillBusy, 2),
    remoteShare: formatPercent(s.remoteShare, 2),
    ratio: `${formatNumber(s.perNode / agg.perNode, 2)}×`,
  };
  return (
    <InlineFigure
      value={text[stat]}
      title="Fleet simulator, lesson defaults (src/sim/lessons/economicsDisagg.ts)"
    />
  );
}

const LEVER_COLUMNS = [
  'SLOs (TTFT p90, TPOT p90)',
  'Node',
  'Agents per node',
  'Agents per MW',
  'TTFT p90',
  'TPOT p90',
  'Prefill replica busy',
  'Turns prefilled there',
];

/** Both layouts under both SLOs, as a table. */
export function DisaggLeverTable() {
  const sim = useLever();
  const r = sim.result;
  const status = r ? 'ready' : sim.status === 'error' ? 'error' : 'loading';
  return (
    <figure className="table-figure" data-figure="disagg-lever" data-state={status}>
      <figcaption>
        {sim.status === 'error'
          ? `The runs could not be done: ${sim.error ?? ''}`
          : `One ${LEVER_NODE.name}, the lever grid's agents, cache-aware router and TTL-then-offload policy: all ${LEVER_NODE.replicas} replicas of ${ECON_MODEL_NAME} aggregated, or ${LEVER_NODE.prefill} prefill and ${LEVER_NODE.decode} decode replicas with the KV shipped over the node's RDMA NICs (the simulator's default link; inside one node NVLink would likely carry it, and the transfers are small next to the prefills). Capacity is the largest concurrency meeting both SLOs; the latencies are at that concurrency.`}
      </figcaption>
      <CompareTable
        columns={LEVER_COLUMNS}
        pending={
          r || sim.status === 'error'
            ? undefined
            : 'Simulating both layouts under both SLOs, once the widgets above have drawn (they share the simulation worker)…'
        }
      >
        {r?.rows.flatMap((row, i) =>
          (['aggregated', 'disaggregated'] as const).map((layout) => (
            <CompareRow
              key={`${i}-${layout}`}
              data-row={`${i === 0 ? 'default' : 'tight'}-${layout}`}
              head={
                <>
                  {formatDuration(row.slo.ttftP90S)}, {formatDuration(row.slo.tpotP90S)}
                </>
              }
              span={LEVER_COLUMNS.length - 1}
              cells={
                <LayoutCells s={summarizeLayout(row, layout, GRID.pue)} dis={layout === 'disaggregated'} />
              }
            />
          )),
        )}
      </CompareTable>
    </figure>
  );
}

function LayoutCells({ s, dis }: { s: LayoutSummary; dis: boolean }) {
  return (
    <>
      <td data-label="Node">
        {dis
          ? `${LEVER_NODE.prefill} prefill + ${LEVER_NODE.decode} decode replicas`
          : `${LEVER_NODE.replicas} replicas, both phases`}
      </td>
      <td data-label="Agents per node" data-cell="per-node">
        {formatNumber(s.perNode)}
      </td>
      <td data-label="Agents per MW">{formatNumber(Math.round(s.perMW), 5)}</td>
      <td data-label="TTFT p90">{formatDuration(s.ttftP90S, 3)}</td>
      <td data-label="TPOT p90">{formatDuration(s.tpotP90S, 3)}</td>
      <td data-label="Prefill replica busy">{dis ? formatPercent(s.prefillBusy, 2) : 'none'}</td>
      <td data-label="Turns prefilled there">{dis ? formatPercent(s.remoteShare, 2) : 'none'}</td>
    </>
  );
}
