/** The lever grid's table: every router and idle-KV policy, its capacity and its cost per session split. */
import { CompareRow, CompareTable } from '../kit/CompareTable';
import { SeparatedFigures } from '../kit/SeparatedFigures';
import { formatNumber, formatPercent, formatPower } from '../../lib/format';
import type { NodeSpec } from '../../sim/engine/catalog/nodes';
import {
  ECON_POLICIES,
  ECON_POLICY_SHORT,
  ECON_ROUTER_LABELS,
  ECON_ROUTERS,
  type EconPolicyId,
  type EconRouterId,
} from '../../sim/lessons/economicsLabSetup';
import {
  atLeast,
  atMost,
  cellKey,
  formatUSD,
  type PricedCell,
  type PricedGrid,
  type Prices,
} from './pricedCells';

const COLUMNS = [
  'Router · idle KV',
  'Agents per replica',
  'Agents per MW',
  'Prefix reuse',
  'GPU-s per session',
  'Per session: prefill + decode + idle-held KV + energy',
];

export function LeverTable({
  priced,
  router,
  policy,
  prices,
  node,
}: {
  priced: PricedGrid;
  /** The setting the widget shows. */
  router: EconRouterId;
  policy: EconPolicyId;
  prices: Prices;
  node: NodeSpec;
}) {
  return (
    <CompareTable
      name="levers"
      caption={
        <>
          Every setting on the same workload and seed; rent = GPU-seconds × ${prices.gpuHourUSD.toFixed(2)}
          /GPU-h, split into prefill, decode and idle-held KV; (N = 1): no concurrency meets the SLOs, the
          cost is read at 1 agent per replica; energy at {formatPower(node.powerW / node.gpuCount)} per GPU ×
          PUE {formatNumber(prices.pue, 3)} × ${prices.kwhUSD.toFixed(2)}/kWh.
        </>
      }
      columns={COLUMNS}
    >
      {ECON_ROUTERS.flatMap((r) =>
        ECON_POLICIES.map((p) => {
          const c = priced.get(cellKey(r, p));
          return (
            <CompareRow
              key={cellKey(r, p)}
              data-cell={cellKey(r, p)}
              current={r === router && p === policy}
              head={
                <>
                  {ECON_ROUTER_LABELS[r]} · {ECON_POLICY_SHORT[p]}
                </>
              }
              span={COLUMNS.length - 1}
              cells={c ? <LeverCells c={c} /> : null}
            />
          );
        }),
      )}
    </CompareTable>
  );
}

function LeverCells({ c }: { c: PricedCell }) {
  return (
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
  );
}
