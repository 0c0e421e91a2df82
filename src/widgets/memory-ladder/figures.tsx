/**
 * Inline figures for lesson 07.04's prose, computed by the same worker method as the memory-ladder widget (for
 * the setups in schema.ts, the first of which is the widget's default), so prose and widget never disagree.
 * Catalog constants (a link's bandwidth, a node's parts) are read on the main thread.
 */
import { InlineFigure } from '../kit/InlineFigure';
import { useSimulation } from '../kit/useSimulation';
import { findLink } from '../../sim/engine/catalog/links';
import { findNode, nodeTotals } from '../../sim/engine/catalog/nodes';
import { findAccelerator } from '../../sim/engine/catalog/accelerators';
import {
  DTYPE_BYTES,
  findModel,
  kvBytesPerToken,
  mlaAttentionParams,
  MODELS,
  weightBytes,
  type Dtype,
} from '../../sim/engine/catalog/models';
import {
  formatBandwidth,
  formatBytes,
  formatBytesDecimal,
  formatCount,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRatio,
} from '../../lib/format';
import { footprintKvCopies } from '../../sim/engine/footprint';
import type { LadderResponse } from '../../worker/hierarchyMethods';
import type { LadderTier } from '../../sim/lessons/memoryLadder';
import { FIGURES_REQUEST, type ProseSetup } from './schema';
import { placementText } from './MemoryLadder';

const tierOf = (r: LadderResponse, id: LadderTier['id']) => r.tiers.find((t) => t.id === id)!;

const WHOLE = {
  kv: (r: LadderResponse) => formatBytes(r.kvBytesPerToken),
  contextBytes: (r: LadderResponse) => formatBytesDecimal(r.contextBytes),
  contextTokens: (r: LadderResponse) => `${formatNumber(r.request.contextTokens, 7)} tokens`,
  /** The same length as an adjective, before a noun: "a 100,000-token context". */
  contextLength: (r: LadderResponse) => `${formatNumber(r.request.contextTokens, 7)}-token`,
  weights: (r: LadderResponse) => formatBytesDecimal(r.weightBytes),
  usableHbm: (r: LadderResponse) => formatBytesDecimal(r.usableHbmBytes),
  /** The share of HBM the engine may use (vLLM's gpu_memory_utilization), as the ladder sets it. */
  memoryUtilization: (r: LadderResponse) => formatPercent(r.memoryUtilization),
  /** vLLM's profiled activation + non-PyTorch reserve over the node's GPUs (src/sim/engine/hbm.ts). */
  reserve: (r: LadderResponse) => formatBytesDecimal(r.reserveBytes),
  recompute: (r: LadderResponse) => formatDuration(r.recomputeS),
  recomputeFlops: (r: LadderResponse) => `${formatNumber(r.recomputeFlops / 1e15, 3)} PFLOP`,
  replicaFlops: (r: LadderResponse) => `${formatNumber(r.replicaFlops / 1e15, 3)} PFLOP/s`,
  gemmEff: (r: LadderResponse) => `${formatNumber(r.gemmEfficiency * 100)}%`,
  attnEff: (r: LadderResponse) => `${formatNumber(r.attentionEfficiency * 100)}%`,
  recomputeAllReduce: (r: LadderResponse) => formatDuration(r.recomputeAllReduceS),
  breakEven: (r: LadderResponse) => formatBandwidth(r.breakEvenBandwidth),
  demand: (r: LadderResponse) => formatBytesDecimal(r.demandBytes),
  agents: (r: LadderResponse) => formatCount(r.request.agents),
  placement: (r: LadderResponse) => placementText(r),
  unplaced: (r: LadderResponse) => formatCount(r.unplaced),
  /** HBM bandwidth over host-link bandwidth: how much slower the first step down is. */
  dramStepDown: (r: LadderResponse) =>
    formatRatio(tierOf(r, 'hbm').bandwidth / tierOf(r, 'dram').bandwidth, 2),
  /** DRAM capacity over HBM KV budget. */
  dramStepOut: (r: LadderResponse) =>
    formatRatio(tierOf(r, 'dram').capacityBytes / tierOf(r, 'hbm').capacityBytes, 2),
  /** Contexts held by DRAM, NVMe and the pool together, against HBM's. */
  belowOverHbm: (r: LadderResponse) =>
    formatRatio(
      (tierOf(r, 'dram').contexts + tierOf(r, 'nvme').contexts + tierOf(r, 'remote').contexts) /
        Math.max(1, tierOf(r, 'hbm').contexts),
      2,
    ),
} as const;

const TIER = {
  capacity: (t: LadderTier) => formatBytesDecimal(t.capacityBytes),
  bandwidth: (t: LadderTier) => formatBandwidth(t.bandwidth),
  latency: (t: LadderTier) => formatDuration(t.latency),
  contexts: (t: LadderTier) => formatCount(t.contexts),
  reload: (t: LadderTier) => formatDuration(t.reloadS),
  speedup: (t: LadderTier) => formatRatio(t.speedupOverRecompute, 2),
  /** Contexts per second the path can deliver: 1 / reload time. */
  perSecond: (t: LadderTier) => `${formatNumber(1 / t.reloadS, 2)} per second`,
} as const;

export type WholeMetric = keyof typeof WHOLE;
export type TierMetric = keyof typeof TIER;
export const WHOLE_METRIC_KEYS = Object.keys(WHOLE) as WholeMetric[];
export const TIER_METRIC_KEYS = Object.keys(TIER) as TierMetric[];

/** Text of one figure, from a worker result (exported for the tests). */
export function figureText(r: LadderResponse, m: WholeMetric | TierMetric, tier?: LadderTier['id']): string {
  if (tier) return TIER[m as TierMetric](tierOf(r, tier));
  return WHOLE[m as WholeMetric](r);
}

/** A figure of one of the lesson's ladder setups (schema.ts PROSE_SETUPS): of the whole node, or of one tier. */
export function LadderFig({
  s = 'ladder',
  m,
  tier,
}: {
  s?: ProseSetup;
  m: WholeMetric | TierMetric;
  tier?: LadderTier['id'];
}) {
  const sim = useSimulation('hierarchyFigures', FIGURES_REQUEST);
  const r = sim.result?.[s];
  return (
    <InlineFigure
      value={r ? figureText(r, m, tier) : null}
      title={r ? `${r.modelName} on a ${r.nodeName}` : undefined}
    />
  );
}

/** A node's part from the node catalog: host DRAM, data drives, NICs, HBM (main thread: catalog constants). */
export function NodeFig({
  node = 'dgx-h100',
  m,
}: {
  node?: string;
  m:
    | 'hostDram'
    | 'nvme'
    | 'nvmeDrives'
    | 'nvmeBandwidth'
    | 'nics'
    | 'nicLine'
    | 'hbm'
    | 'hbmBandwidth'
    | 'hostLinks'
    | 'hostLinksLine'
    | 'hostMemory'
    | 'hostDramPeak'
    | 'hostLinksDramShare';
}) {
  const n = findNode(node);
  if (!n) return <span className="figure-missing">[unknown node {node}]</span>;
  const t = nodeTotals(n);
  const host = findLink(findAccelerator(n.accelerator)?.hostLink ?? '');
  const memory = n.hostMemory;
  const onMemory = m === 'hostMemory' || m === 'hostDramPeak' || m === 'hostLinksDramShare';
  if (onMemory && (!memory || t.hostDramPeakBandwidth === undefined))
    return <span className="figure-missing">[{n.name}: host memory not published]</span>;
  const nic = findLink(n.nics[0].link);
  const text: Record<typeof m, () => string> = {
    hostDram: () => formatBytesDecimal(t.hostDramBytes),
    nvme: () => formatBytesDecimal(t.nvmeBytes),
    nvmeDrives: () => `${n.nvme.drives} × ${formatBytesDecimal(n.nvme.capacityBytes / n.nvme.drives)}`,
    nvmeBandwidth: () => formatBandwidth(t.nvmeReadBandwidth),
    nics: () => `${n.nics[0].count} × ${formatNumber(((nic?.lineRate ?? 0) * 8) / 1e9)} Gb/s`,
    nicLine: () => formatBandwidth(t.nicLineRate),
    hbm: () => formatBytesDecimal(t.hbmBytes),
    hbmBandwidth: () => formatBandwidth(t.hbmBandwidth),
    hostLinks: () => formatBandwidth(t.hostLinkEffectiveBandwidth),
    hostLinksLine: () => formatBandwidth((host?.lineRate ?? 0) * n.gpuCount),
    hostMemory: () => `${memory!.channels} channels at ${formatNumber(memory!.transfersPerS / 1e6)} MT/s`,
    hostDramPeak: () => formatBandwidth(t.hostDramPeakBandwidth),
    hostLinksDramShare: () => formatPercent(t.hostLinkEffectiveBandwidth / t.hostDramPeakBandwidth!, 2),
  };
  return <InlineFigure value={text[m]()} title={onMemory ? memory!.source : n.source} />;
}

/** A link's effective bandwidth (or latency), times `count` links in parallel. */
export function LinkBw({
  id,
  count = 1,
  m = 'bandwidth',
}: {
  id: string;
  count?: number;
  m?: 'bandwidth' | 'line' | 'latency';
}) {
  const l = findLink(id);
  if (!l) return <span className="figure-missing">[unknown link {id}]</span>;
  const v =
    m === 'latency'
      ? formatDuration(l.latency)
      : formatBandwidth((m === 'line' ? l.lineRate : l.effectiveBandwidth) * count);
  return <InlineFigure value={v} title={l.source} />;
}

/** An accelerator's HBM capacity or bandwidth, or a model's weight bytes (catalog constants). */
export function CatalogFig({
  accelerator,
  model,
  m,
}: {
  accelerator?: string;
  model?: string;
  /** memoryMiB: the driver's figure as nvidia-smi prints it ("81,559 MiB"). */
  m: 'memory' | 'memoryMiB' | 'bandwidth' | 'weightsBf16' | 'params';
}) {
  if (m === 'weightsBf16' || m === 'params') {
    const md = findModel(model ?? '');
    if (!md) return <span className="figure-missing">[unknown model {model}]</span>;
    return (
      <InlineFigure
        value={
          m === 'params'
            ? `${formatNumber(md.totalParams / 1e9, 3)} B`
            : formatBytesDecimal(weightBytes(md, 'bf16'))
        }
        title={md.source}
      />
    );
  }
  const a = findAccelerator(accelerator ?? '');
  if (!a) return <span className="figure-missing">[unknown accelerator {accelerator}]</span>;
  return (
    <InlineFigure
      value={
        m === 'memory'
          ? formatBytesDecimal(a.memoryBytes)
          : m === 'memoryMiB'
            ? `${formatNumber(a.memoryBytes / 2 ** 20, 7)} MiB`
            : formatBandwidth(a.memBandwidth)
      }
      title={a.source}
    />
  );
}

/** The GQA or MLA product for one model, from the catalog: "2 × 80 × 8 × 128 × 2 B = 327,680 B". */
export function KvProduct({ model, dtype = 'bf16' }: { model: string; dtype?: Dtype }) {
  const m = findModel(model);
  if (!m) return <span className="figure-missing">[unknown model {model}]</span>;
  const b = DTYPE_BYTES[dtype];
  const total = kvBytesPerToken(m, dtype);
  const text =
    m.attention.kind === 'mla'
      ? `${m.layers} × (${m.attention.kvLoraRank} + ${m.attention.ropeHeadDim}) × ${b} B = ${formatNumber(total, 7)} B`
      : `2 × ${m.layers} × ${m.kvHeads} × ${m.headDim} × ${b} B = ${formatNumber(total, 7)} B`;
  return <InlineFigure value={text} title={m.source} />;
}

/** What the KV of a GQA model would be with one KV head per query head (multi-head attention), per token. */
export function MhaKv({
  model,
  dtype = 'bf16',
  m: metric = 'bytes',
}: {
  model: string;
  dtype?: Dtype;
  m?: 'bytes' | 'ratio' | 'heads' | 'kvHeads';
}) {
  const m = findModel(model);
  if (!m || m.attention.kind !== 'gqa')
    return <span className="figure-missing">[not a GQA model: {model}]</span>;
  const mha = 2 * m.layers * m.attentionHeads * m.headDim * DTYPE_BYTES[dtype];
  const v =
    metric === 'ratio'
      ? formatRatio(mha / kvBytesPerToken(m, dtype))
      : metric === 'heads'
        ? String(m.attentionHeads)
        : metric === 'kvHeads'
          ? String(m.kvHeads)
          : formatBytes(mha);
  return <InlineFigure value={v} title={m.source} />;
}

/** Copies of each token's KV that a replica of `gpus` GPUs holds together (footprint.ts footprintKvCopies). */
export function KvCopies({ model, gpus }: { model: string; gpus: number }) {
  const m = findModel(model);
  if (!m) return <span className="figure-missing">[unknown model {model}]</span>;
  return <InlineFigure value={formatNumber(footprintKvCopies(m, gpus))} title={m.source} />;
}

/**
 * An MLA model's attention weights, which data-parallel attention puts whole on every GPU (footprint.ts
 * footprintWeightBytes), in `dtype`.
 */
export function DpAttentionWeights({ model, dtype }: { model: string; dtype: Dtype }) {
  const m = findModel(model);
  if (!m) return <span className="figure-missing">[unknown model {model}]</span>;
  return (
    <InlineFigure value={formatBytesDecimal(mlaAttentionParams(m) * DTYPE_BYTES[dtype])} title={m.source} />
  );
}

/** KV per token of model a over model b (same dtype). */
export function KvRatio({ a, b }: { a: string; b: string }) {
  const ma = findModel(a);
  const mb = findModel(b);
  if (!ma || !mb) return <span className="figure-missing">[unknown model]</span>;
  return <InlineFigure value={formatRatio(kvBytesPerToken(ma, 'bf16') / kvBytesPerToken(mb, 'bf16'), 2)} />;
}

/** Every catalog model: its attention, KV per token and one 100k-token context, BF16 (catalog arithmetic). */
export function KvTable({ tokens = 100_000 }: { tokens?: number }) {
  return (
    <div className="table-scroll">
      <table className="ruled-table ladder-table" data-figure="kv-per-model">
        <caption>
          KV cache per token and per {formatCount(tokens)}-token context, BF16, from each model&apos;s
          architecture
        </caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Attention</th>
            <th scope="col" className="col-detail">
              Per layer, per token
            </th>
            <th scope="col">Per token</th>
            <th scope="col">{formatCount(tokens)} tokens</th>
          </tr>
        </thead>
        <tbody>
          {MODELS.map((m) => {
            const k = kvBytesPerToken(m, 'bf16');
            return (
              <tr key={m.id} data-model={m.id}>
                <th scope="row">{m.name}</th>
                <td>{m.attention.kind === 'mla' ? 'MLA' : `GQA ${m.attentionHeads}:${m.kvHeads}`}</td>
                <td className="col-detail">
                  {m.attention.kind === 'mla'
                    ? `${m.attention.kvLoraRank} + ${m.attention.ropeHeadDim} values`
                    : `2 × ${m.kvHeads} × ${m.headDim} values`}
                </td>
                <td>{formatBytes(k)}</td>
                <td>{formatBytesDecimal(k * tokens)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
