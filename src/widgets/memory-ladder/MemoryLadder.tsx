/**
 * The memory ladder (lesson 07.04): for one node and model, every KV tier (HBM, host DRAM over PCIe, local NVMe,
 * a remote pool over RDMA) on a capacity × bandwidth chart, how many agent contexts each holds, how long one
 * context takes to come back to HBM from each, against the time to recompute it, and where N agents' contexts
 * wait. Computed in the worker (method memoryLadder, src/sim/lessons/memoryLadder.ts).
 */
import { kvCopiesFactor } from '../kit/kvCopies';
import { findNode, nodeTotals } from '../../sim/engine/catalog/nodes';
import { useMemo } from 'react';
import { BarChart, durationAxis, type Marker } from '../kit/charts';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import {
  formatBandwidth,
  formatBytes,
  formatBytesDecimal,
  formatCount,
  formatDuration,
  formatFlops,
  formatNumber,
  formatPercent,
  formatRatio,
} from '../../lib/format';
import type { LadderResponse } from '../../worker/hierarchyMethods';
import type { LadderTier } from '../../sim/lessons/memoryLadder';
import { LadderChart, pathText } from './LadderChart';
import { LADDER_DEFAULTS, LADDER_ID, ladderArgs, ladderSchema, PROSE_SETUPS } from './schema';
import './memory-ladder.css';
import { SeparatedFigures } from '../kit/SeparatedFigures';
import { TryThis, type TryItem } from '../kit/TryThis';
import { TourMark } from '../kit/TourMark';

/** All of the default node's host DRAM, in TB (the catalog's; 2 TB on a DGX H100). */
export const NODE_DRAM_TB = nodeTotals(findNode(LADDER_DEFAULTS.node)!).hostDramBytes / 1e12;

/**
 * The first "Try this" item's host DRAM for KV: halfway from the widget's default (half the node's DRAM) to all of
 * it. Giving the KV all of it would leave nothing for the OS and the engine's staging buffers, which the lesson
 * keeps the rest for; halfway still leaves them some.
 */
export const TRY_DRAM_TB = (LADDER_DEFAULTS.dramTB + NODE_DRAM_TB) / 2;

/** The third item's short context on one drive: the setup the prose quotes for it (PROSE_SETUPS.shortOneDrive). */
const SHORT_CONTEXT = PROSE_SETUPS.shortOneDrive;

const tb = (x: number) => formatBytesDecimal(x * 1e12);

/** "Try this": each item with the state it describes (the lesson's tour plays them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Drag <em>Host DRAM for KV</em> from {tb(LADDER_DEFAULTS.dramTB)} to {tb(TRY_DRAM_TB)},{' '}
        {formatPercent(TRY_DRAM_TB / NODE_DRAM_TB)} of the node’s {tb(NODE_DRAM_TB)} (the rest still serves
        the OS and the engine’s staging buffers): the DRAM tier moves right and holds{' '}
        {formatRatio(TRY_DRAM_TB / LADDER_DEFAULTS.dramTB)} the contexts; agents move up from the drives
        (tiers fill fastest first, and the pool stays full). Its reload time does not change: capacity and
        bandwidth are separate knobs.
      </>
    ),
    set: { dramTB: TRY_DRAM_TB },
    highlight: 'contexts-dram',
  },
  {
    text: (
      <>
        Switch the <em>Path to the remote pool</em> to TCP: the pool drops below the drives, and the agents it
        held wait on NVMe instead. Then pick <em>1 Gen4 drive</em> for the local NVMe: one drive still beats
        recompute at {formatCount(LADDER_DEFAULTS.contextTokens)} tokens, but by how much?
      </>
    ),
    set: { remote: 'tcp-8x400g', nvme: 'one-drive' },
    highlight: 'recompute',
  },
  {
    text: (
      <>
        Set the <em>Agent context</em> to {formatCount(SHORT_CONTEXT.contextTokens)} tokens: every tier holds
        ten times more, and the shaded region rises. With <em>1 Gen4 drive</em> the NVMe point now sits in it:
        recompute of a short context is cheap, so a slow tier stops paying off (lesson 07.05 works out where).
      </>
    ),
    set: { contextTokens: SHORT_CONTEXT.contextTokens, nvme: SHORT_CONTEXT.nvme },
    highlight: 'recompute',
  },
  {
    text: (
      <>
        Pick <em>DGX B200</em>: HBM holds more, the GPUs recompute faster, and the dashed line rises, but the
        PCIe links, drives and NICs are the same as the H100&apos;s.
      </>
    ),
    set: { node: 'dgx-b200' },
    highlight: 'contexts-hbm',
  },
];

/** Short tier names for read-outs. */
export const TIER_SHORT: Record<LadderTier['id'], string> = {
  hbm: 'HBM',
  dram: 'DRAM',
  nvme: 'NVMe',
  remote: 'pool',
};

/** "13 HBM · 30 DRAM · 122 pool · 35 NVMe", fastest reload first, tiers that take none left out. */
/** Where the agents wait, tier by tier ("13 HBM", "30 DRAM", …, "8,898 nowhere"); empty when none are placed. */
export function placementParts(r: Pick<LadderResponse, 'placement' | 'unplaced'>): string[] {
  const parts = r.placement
    .filter((p) => p.agents > 0)
    .map((p) => `${formatNumber(p.agents, 6)} ${TIER_SHORT[p.tier]}`);
  if (r.unplaced > 0) parts.push(`${formatNumber(r.unplaced, 6)} nowhere`);
  return parts;
}

/** The placement as a read-out: the tiers as separated figures, or "none". */
function PlacementFigures({ r }: { r: Pick<LadderResponse, 'placement' | 'unplaced'> }) {
  const parts = placementParts(r);
  return parts.length ? <SeparatedFigures figures={parts} /> : 'none';
}

export function placementText(r: Pick<LadderResponse, 'placement' | 'unplaced'>): string {
  const parts = placementParts(r);
  return parts.length ? parts.join(' · ') : 'none';
}

function agentsIn(r: LadderResponse, id: LadderTier['id']): number {
  return r.placement.find((p) => p.tier === id)?.agents ?? 0;
}

export function MemoryLadder() {
  const params = useWidgetParams(LADDER_ID, ladderSchema);
  const v = params.values;
  const args = useMemo(() => ladderArgs(v), [v]);
  const sim = useSimulation('memoryLadder', args);
  const r = sim.result;

  const below = r ? r.tiers.filter((t) => t.id !== 'hbm') : [];
  const barMarkers: Marker[] = r
    ? [{ kind: 'y', y: r.recomputeS, label: `recompute ${formatDuration(r.recomputeS)}`, tone: 'danger' }]
    : [];
  const barDomain: [number, number] | undefined = r
    ? [
        10 ** Math.floor(Math.log10(Math.min(r.recomputeS, ...below.map((t) => t.reloadS)) / 2)),
        10 ** Math.ceil(Math.log10(Math.max(r.recomputeS, ...below.map((t) => t.reloadS)) * 1.5)),
      ]
    : undefined;
  const hbm = r?.tiers.find((t) => t.id === 'hbm');
  const dram = r?.tiers.find((t) => t.id === 'dram');

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={LADDER_ID}
      title="The memory ladder"
      exportData={() => ({
        rows: r
          ? r.tiers.map((t) => ({
              tier: t.name,
              capacityBytes: t.capacityBytes,
              bandwidthBytesPerS: t.bandwidth,
              latencyS: t.latency,
              path: pathText(t),
              contexts: t.contexts,
              reloadS: t.reloadS,
              recomputeS: r.recomputeS,
              agentsWaiting: agentsIn(r, t.id),
            }))
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && hbm && dram ? (
          <>
            <Readout
              label="One agent context"
              value={formatBytesDecimal(r.contextBytes)}
              formula={`${formatNumber(v.contextTokens, 7)} tokens × ${formatBytes(r.kvBytesPerToken)} (${formatNumber(r.kvBytesPerToken, 7)} B)${kvCopiesFactor(r.kvCopies)}`}
            />
            <Readout
              label="HBM holds"
              value={
                <span data-readout="contexts-hbm" data-value={hbm.contexts}>
                  {r.weightsFit ? `${formatCount(hbm.contexts)} contexts` : 'weights do not fit'}
                </span>
              }
              formula={`⌊(${r.gpus} × HBM × ${formatNumber(r.memoryUtilization * 100)}% − ${formatBytesDecimal(r.reserveBytes)} reserve − ${formatBytesDecimal(r.weightBytes)} weights) / context⌋ = ⌊${formatBytesDecimal(hbm.capacityBytes)} / ${formatBytesDecimal(r.contextBytes)}⌋`}
            />
            <Readout
              label="Host DRAM holds"
              value={
                <span data-readout="contexts-dram" data-value={dram.contexts}>
                  {formatCount(dram.contexts)} contexts
                </span>
              }
              formula={`⌊${formatBytesDecimal(dram.capacityBytes)} / ${formatBytesDecimal(r.contextBytes)}⌋; back in ${formatDuration(dram.reloadS)}`}
            />
            <Readout
              label="Recompute one context"
              value={
                <span data-readout="recompute" data-value={r.recomputeS}>
                  {formatDuration(r.recomputeS)}
                </span>
              }
              formula={`prefill on ${r.gpus} × ${r.acceleratorName}: max(${formatFlops(r.recomputeFlops)} at ${formatFlops(r.replicaFlops, true)} for the matmuls, slower for attention; ${formatBytesDecimal(r.recomputeBytes)} / ${formatBandwidth(r.replicaMemBandwidth)}) + ${formatDuration(r.recomputeAllReduceS)} all-reduce, ${r.recomputeBound}-bound`}
            />
            <Readout
              emphasis
              label={`Where the ${formatCount(v.agents)} agents wait`}
              value={
                <span data-readout="placement">
                  <PlacementFigures r={r} />
                </span>
              }
              formula="fastest reload first; each tier takes ⌊capacity / context⌋"
            />
          </>
        ) : null
      }
      caption={
        r ? (
          <>
            {r.modelName} on a {r.nodeName}: {v.kvDtype.toUpperCase()} KV, {v.weightDtype.toUpperCase()}{' '}
            weights, {formatNumber(r.memoryUtilization * 100)}% of HBM usable; recompute runs its matmuls at{' '}
            {formatNumber(r.gemmEfficiency * 100)}% of peak and attention at{' '}
            {formatNumber(r.attentionEfficiency * 100)}%, plus {formatDuration(r.recomputeAllReduceS)} of
            tensor-parallel all-reduce (2 per layer, 2(TP−1)/TP × tokens × hidden × 2 B over NVLink) and{' '}
            {formatDuration(r.iterationOverheadS)} of overhead. Reload time = Σ hop latencies + context bytes
            / the slowest hop&apos;s bandwidth (blocks stream through the chain). Each GPU reads its share
            over its own PCIe link, so host DRAM, drives and NICs all arrive through {r.gpus} host links.
            Bandwidths are effective ones from src/sim/engine/catalog/links.ts (measured, vendor spec or
            derived, each with its source); latencies are assumed orders of magnitude. {r.notes.join(' ')}
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {r ? (
        <div className="ladder-figures">
          {/* The ladder itself, which lesson 07.04's tour highlights. */}
          <TourMark id="ladder-chart">
            <LadderChart
              tiers={r.tiers}
              breakEvenBandwidth={r.breakEvenBandwidth}
              recomputeS={r.recomputeS}
              demandBytes={r.demandBytes}
              agents={v.agents}
              title={`The KV memory ladder of a ${r.nodeName}: capacity against bandwidth into HBM, ${r.modelName}`}
            />
          </TourMark>
          <BarChart
            title={`Time to bring one ${formatBytesDecimal(r.contextBytes)} context back to HBM, against recomputing it`}
            description="One horizontal bar per tier below HBM: the time to reload one agent context over that tier's path. The rule marks the time to recompute it by prefill."
            categories={below.map((t) => t.name)}
            series={[{ name: 'Reload one context', values: below.map((t) => t.reloadS) }]}
            orientation="horizontal"
            value={durationAxis('Time to HBM', { scale: 'log', domain: barDomain })}
            markers={barMarkers}
            height={190}
          />
          <div className="table-scroll">
            <table className="ruled-table ladder-table" data-figure="ladder-table">
              <caption>
                The ladder in numbers for {formatCount(v.agents)} agents of {formatCount(v.contextTokens)}{' '}
                tokens ({formatBytesDecimal(r.demandBytes)} of KV). Holds: whole contexts; reload: one context
                back to HBM; waiting: agents whose context waits there.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Tier</th>
                  <th scope="col">Capacity</th>
                  <th scope="col" className="col-detail">
                    Bandwidth
                  </th>
                  <th scope="col">Holds</th>
                  <th scope="col">Reload</th>
                  <th scope="col">Waiting</th>
                </tr>
              </thead>
              <tbody>
                {r.tiers.map((t) => (
                  <tr key={t.id} data-tier={t.id}>
                    <th scope="row">
                      {t.name}
                      <span className="ladder-path">{pathText(t)}</span>
                    </th>
                    <td>{formatBytesDecimal(t.capacityBytes)}</td>
                    <td className="col-detail">{formatBandwidth(t.bandwidth)}</td>
                    <td data-readout={`holds-${t.id}`} data-value={t.contexts}>
                      {formatCount(t.contexts)}
                    </td>
                    <td data-readout={`reload-${t.id}`} data-value={t.reloadS}>
                      {t.id === 'hbm' ? 'in place' : formatDuration(t.reloadS)}
                    </td>
                    <td data-readout={`wait-${t.id}`} data-value={agentsIn(r, t.id)}>
                      {formatCount(agentsIn(r, t.id))}
                    </td>
                  </tr>
                ))}
                {r.unplaced > 0 ? (
                  <tr data-tier="none">
                    <th scope="row">
                      Held nowhere
                      <span className="ladder-path">recomputed by prefill when the agent returns</span>
                    </th>
                    <td>—</td>
                    <td className="col-detail">—</td>
                    <td>—</td>
                    <td>{formatDuration(r.recomputeS)}</td>
                    <td data-readout="wait-none" data-value={r.unplaced}>
                      {formatCount(r.unplaced)}
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
        </div>
      ) : (
        <div />
      )}
    </WidgetFrame>
  );
}
