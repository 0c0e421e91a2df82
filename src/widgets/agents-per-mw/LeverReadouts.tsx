/** The lever grid's read-outs for the chosen router and policy: capacity, cost per session, its split, the run. */
import { Readout } from '../kit/WidgetFrame';
import { SeparatedFigures } from '../kit/SeparatedFigures';
import { formatDuration, formatNumber, formatPercent, formatPower } from '../../lib/format';
import type { NodeSpec } from '../../sim/engine/catalog/nodes';
import { ECON_POLICY_SHORT, ECON_ROUTER_LABELS, ECON_TP } from '../../sim/lessons/economicsLabSetup';
import { atLeast, atMost, formatUSD, type PricedCell, type Prices } from './pricedCells';

export function LeverReadouts({ s, node, prices }: { s: PricedCell; node: NodeSpec; prices: Prices }) {
  const pt = s.cell.point;
  return (
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
        formula={`${atLeast(s.cell)}${s.cell.agentsPerReplica} per replica × ${node.gpuCount / ECON_TP} replicas = ${s.perNode} per node; ÷ (${formatPower(node.powerW)} × ${formatNumber(prices.pue, 3)}) per node`}
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
        formula={`${formatNumber(pt.gpuSecondsPerSession)} GPU-s × $${prices.gpuHourUSD.toFixed(2)} / 3600 = ${formatUSD(s.cost.computeUSD)} + energy ${formatNumber(s.cost.energyKWh * 1000, 3)} Wh × $${prices.kwhUSD.toFixed(2)}/kWh = ${formatUSD(s.cost.energyUSD)}${s.cell.agentsPerReplica === 0 ? ' (at 1 agent per replica, which already misses an SLO)' : ''}`}
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
  );
}
