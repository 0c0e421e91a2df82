/** 07.12's exercises: the answers come from the same cost model as the widgets (src/sim/lessons/economics.ts). */
import { Exercise } from '../../lessons-kit/Exercise';
import { formatNumber, formatPower } from '../../lib/format';
import { findNode } from '../../sim/engine/catalog/nodes';
import { agentsPerMW, agentsPerNode, facilityWattsPerNode, sessionCost } from '../../sim/lessons/economics';
import { formatUSD } from './pricedCells';

const H100 = findNode('dgx-h100')!;
const MW = { perReplica: 12, tp: 2, pue: 1.3 } as const;

/** Agents per MW from agents per replica, the node's GPUs and power, and the PUE. */
export function AgentsPerMwExercise() {
  const perNode = agentsPerNode(MW.perReplica, H100.gpuCount, MW.tp);
  const facility = facilityWattsPerNode(H100.powerW, MW.pue);
  const answer = agentsPerMW(perNode, H100.powerW, MW.pue);
  return (
    <Exercise
      id="07-12-agents-per-mw"
      question={
        <p>
          A {H100.name} draws at most {formatPower(H100.powerW)} (NVIDIA’s datasheet). You split it into
          replicas of {MW.tp} GPUs, and under your SLOs each replica sustains {MW.perReplica} concurrent
          agents. The data centre’s PUE is {MW.pue}. How many concurrent agents does one megawatt of facility
          power sustain? Predict first, then check.
        </p>
      }
      answer={answer}
      tolerance={0.02}
      unit="agents"
      format={(v) => `${formatNumber(Math.round(v), 5)} agents`}
      hint={
        <p>
          Agents per node = agents per replica × replicas per node. One node costs its power × PUE of facility
          power; a megawatt holds 1,000,000 W ÷ that many nodes.
        </p>
      }
      explanation={
        <p>
          {MW.perReplica} × ({H100.gpuCount} ÷ {MW.tp}) = {perNode} agents per node; each node takes{' '}
          {formatPower(H100.powerW)} × {MW.pue} = {formatPower(facility)} of facility power, so a megawatt
          holds {formatNumber(1e6 / facility, 4)} nodes and {perNode} × {formatNumber(1e6 / facility, 4)} ={' '}
          {formatNumber(Math.round(answer), 5)} agents. The same node at PUE 1.1 would give{' '}
          {formatNumber(Math.round(agentsPerMW(perNode, H100.powerW, 1.1)), 5)}: the cooling and power
          delivery overhead is counted against agents just like the GPUs are.
        </p>
      }
    />
  );
}

const COST = { gpuSeconds: 45, gpuHourUSD: 2.5, kwhUSD: 0.12, pue: 1.3 } as const;

/** Cost per session from GPU-seconds, price and energy. */
export function SessionCostExercise() {
  const c = sessionCost({
    gpuSeconds: COST.gpuSeconds,
    gpuHourUSD: COST.gpuHourUSD,
    nodePowerW: H100.powerW,
    gpusPerNode: H100.gpuCount,
    pue: COST.pue,
    kwhUSD: COST.kwhUSD,
    prefillShare: 0,
    heldShare: 0,
  });
  return (
    <Exercise
      id="07-12-session-cost"
      question={
        <p>
          An agent session uses {COST.gpuSeconds} GPU-seconds on a {H100.name}. A GPU-hour costs $
          {COST.gpuHourUSD.toFixed(2)}, power costs ${COST.kwhUSD.toFixed(2)} per kWh, the node draws{' '}
          {formatPower(H100.powerW)} for its {H100.gpuCount} GPUs and the PUE is {COST.pue}. What does the
          session cost in dollars, rent plus energy?
        </p>
      }
      answer={c.totalUSD}
      tolerance={0.02}
      unit="$"
      format={(v) => formatUSD(v)}
      hint={
        <p>
          Rent = GPU-seconds × price per GPU-hour ÷ 3600. Energy = GPU-seconds × (node power ÷ GPUs) × PUE, in
          joules; divide by 3.6 million for kWh.
        </p>
      }
      explanation={
        <p>
          Rent: {COST.gpuSeconds} × ${COST.gpuHourUSD.toFixed(2)} ÷ 3600 = {formatUSD(c.computeUSD)}. Energy:{' '}
          {COST.gpuSeconds} s × {formatPower(H100.powerW / H100.gpuCount)} × {COST.pue} ={' '}
          {formatNumber(c.energyKWh * 1000, 4)} Wh, × ${COST.kwhUSD.toFixed(2)}/kWh = {formatUSD(c.energyUSD)}
          . Total {formatUSD(c.totalUSD)}: energy is {formatNumber((100 * c.energyUSD) / c.totalUSD, 2)}% of
          it. The lever that matters is the GPU-seconds, which routing and the idle-KV policy move.
        </p>
      }
    />
  );
}
