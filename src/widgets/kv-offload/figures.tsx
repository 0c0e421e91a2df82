/**
 * Inline figures for lesson 07.05's prose, computed by the same worker methods as its widgets (for the setups
 * in schema.ts, the first of which is the first widget's default), so prose and widgets never disagree.
 * Catalog constants (a link's bandwidth) are read on the main thread.
 */
import { InlineFigure } from '../kit/InlineFigure';
import { useSimulation } from '../kit/useSimulation';
import { findLink } from '../../sim/engine/catalog/links';
import {
  formatBandwidth,
  formatBytes,
  formatBytesDecimal,
  formatDuration,
  formatFlops,
  formatNumber,
  formatPercent,
  formatRatio,
  formatTokens,
} from '../../lib/format';
import type {
  ReloadRecomputeRequest,
  ReloadRecomputeResult,
  SetupFigures,
} from '../../worker/offloadMethods';
import {
  FIGURES_REQUEST,
  MIN_BW_DEFAULTS,
  RELOAD_DEFAULTS,
  minBwArgs,
  OBJECT_STORE_LATENCY_US,
  objectStoreArgs,
  reloadArgs,
  smallModelArgs,
  type ProseSetup,
} from './schema';
import { formatBytesPerMflop } from './MinLinkBandwidth';

const tokens = (x: number | undefined) =>
  x === undefined ? '—' : `${formatNumber(Math.round(x), 6)} tokens`;

const SETUP_METRICS = {
  kv: (f: SetupFigures) => formatBytes(f.kvBytesPerToken),
  kvBytes: (f: SetupFigures) => `${formatNumber(f.kvBytesPerToken, 6)} bytes`,
  bandwidth: (f: SetupFigures) => formatBandwidth(f.bandwidth),
  latency: (f: SetupFigures) => formatDuration(f.latency),
  linkName: (f: SetupFigures) => f.linkName,
  linkCount: (f: SetupFigures) => formatNumber(f.linkCount),
  flops: (f: SetupFigures) => formatFlops(f.flops, true),
  memBandwidth: (f: SetupFigures) => formatBandwidth(f.memBandwidth),
  weights: (f: SetupFigures) => formatBytesDecimal(f.weightBytes),
  streamedWeights: (f: SetupFigures) => formatBytesDecimal(f.streamedWeightBytes),
  bodyFlops: (f: SetupFigures) => formatFlops(2 * f.bodyParams),
  attnPair: (f: SetupFigures) => formatFlops(f.attentionFlopsPerPair),
  floor: (f: SetupFigures) => formatDuration(f.floor),
  weightStream: (f: SetupFigures) => formatDuration(f.streamedWeightBytes / f.memBandwidth),
  reloadPerToken: (f: SetupFigures) => formatDuration(f.reloadPerToken),
  recomputePerTokenStart: (f: SetupFigures) => formatDuration(f.recomputePerTokenStart),
  recomputePerTokenEnd: (f: SetupFigures) => formatDuration(f.recomputePerTokenEnd),
  crossing0: (f: SetupFigures) => tokens(f.crossings[0]),
  crossing1: (f: SetupFigures) => tokens(f.crossings[1]),
  crossingCount: (f: SetupFigures) => formatNumber(f.crossings.length),
  beyond0: (f: SetupFigures) => tokens(f.crossingsBeyond[0]),
  criticalBandwidth: (f: SetupFigures) => formatBandwidth(f.criticalBandwidth),
  attnFlops: (f: SetupFigures) => formatFlops(f.attentionFlops, true),
  gemmEff: (f: SetupFigures) => formatPercent(f.gemmEfficiency),
  attnEff: (f: SetupFigures) => formatPercent(f.attentionEfficiency),
  overhead: (f: SetupFigures) => formatDuration(f.iterationOverheadS),
  arPerToken: (f: SetupFigures) => formatDuration(f.allReduce.perToken),
  arFixed: (f: SetupFigures) => formatDuration(f.allReduce.fixed),
  arLatency: (f: SetupFigures) => formatDuration(f.allReduce.latency),
  arBandwidth: (f: SetupFigures) => formatBandwidth(f.allReduce.busBandwidth),
  arLink: (f: SetupFigures) => f.allReduce.linkId,
  prefixAllReduce: (f: SetupFigures) => formatDuration(f.prefix.allReduceTime),
  alwaysWins: (f: SetupFigures) => formatBandwidth(f.alwaysWins),
  prefixTokens: (f: SetupFigures) => `${formatNumber(f.prefix.tokens, 6)} tokens`,
  prefixKv: (f: SetupFigures) => formatBytesDecimal(f.prefix.kvBytes),
  prefixFlops: (f: SetupFigures) => formatFlops(f.prefix.flops),
  prefixReload: (f: SetupFigures) => formatDuration(f.prefix.reload),
  prefixRecompute: (f: SetupFigures) => formatDuration(f.prefix.recompute),
  prefixMinBandwidth: (f: SetupFigures) => formatBandwidth(f.prefix.minBandwidth),
  prefixSpeedup: (f: SetupFigures) => formatRatio(f.prefix.speedup, 3),
  prefixFaster: (f: SetupFigures) => f.prefix.faster,
} as const;

export type SetupMetric = keyof typeof SETUP_METRICS;
export const SETUP_METRIC_KEYS = Object.keys(SETUP_METRICS) as SetupMetric[];

/** A figure of one of the lesson's setups (schema.ts PROSE_SETUPS), e.g. the upper break-even length. */
export function OffloadFig({ s, m }: { s: ProseSetup; m: SetupMetric }) {
  const sim = useSimulation('offloadFigures', FIGURES_REQUEST);
  const f = sim.result?.setups[s];
  const setup = FIGURES_REQUEST.setups[s];
  return (
    <InlineFigure
      value={f ? SETUP_METRICS[m](f) : null}
      title={`${setup.modelId} on ${setup.tp} × ${setup.acceleratorId}, GEMM efficiency ${setup.gemmEfficiency}, link ${setup.linkId}`}
    />
  );
}

const RELOAD_METRICS = {
  /** The prefix length at which B*(p) peaks: above B*(there), reload wins at every length. */
  alwaysWinsAt: (r: ReloadRecomputeResult) => tokens(r.alwaysWins.atTokens ?? undefined),
} as const;

/** Text of a figure of the first widget's own result at its defaults (exported for the tests). */
export function reloadFigureText(r: ReloadRecomputeResult, m: keyof typeof RELOAD_METRICS): string {
  return RELOAD_METRICS[m](r);
}

/** A figure of the first widget's result at `args` (the same worker call as the widget's at those settings). */
function FirstWidgetFig({
  args,
  text,
  title,
}: {
  args: ReloadRecomputeRequest;
  text: (r: ReloadRecomputeResult) => string;
  title: string;
}) {
  const sim = useSimulation('reloadVsRecompute', args);
  const r = sim.result;
  return <InlineFigure value={r ? text(r) : null} failed={sim.status === 'error'} title={title} />;
}

/** A figure of the first widget's result at its defaults. */
export function ReloadFig({ m }: { m: keyof typeof RELOAD_METRICS }) {
  return (
    <FirstWidgetFig
      args={reloadArgs(RELOAD_DEFAULTS)}
      text={(r) => reloadFigureText(r, m)}
      title="The first widget at its defaults"
    />
  );
}

/** The band where recompute wins ("from 261 to 44,451 tokens"), or "none" when reload wins at every length. */
export function bandText(r: ReloadRecomputeResult): string {
  const band = r.segments.find((s) => s.faster === 'recompute');
  return band
    ? `from ${formatNumber(Math.round(band.from), 6)} to ${formatNumber(Math.round(band.to), 6)} tokens`
    : 'none';
}

/** The small-model Try this item's band (schema.ts SMALL_MODEL_ITEM), as the widget shows it after "Show me". */
export function SmallModelBandFig() {
  return (
    <FirstWidgetFig
      args={smallModelArgs()}
      text={bandText}
      title="The first widget with Llama 3.1 8B on one B200 and one NVMe Gen4 drive"
    />
  );
}

/**
 * The storage-tier bullet's object stores: the first widget with its custom link at an object store's latency. Recompute
 * wins every prefix below the one crossing (regime "reload-wins-above"); the bullet quotes that length, so that it
 * and the Try this item that sets the same latency say the same thing.
 */
export function objectStoreFigureText(
  r: ReloadRecomputeResult,
  m: 'latency' | 'bandwidth' | 'recomputeBelow',
): string {
  if (m === 'latency') return formatDuration(r.link.latency);
  if (m === 'bandwidth') return formatBandwidth(r.link.bandwidth);
  return r.breakEven.regime === 'reload-wins-above' ? tokens(r.breakEven.crossings[0]) : '—';
}

/** A figure of the first widget with its custom link at one of the object-store latencies (schema.ts). */
export function ObjectStoreFig({
  at,
  m,
}: {
  at: keyof typeof OBJECT_STORE_LATENCY_US;
  m: 'latency' | 'bandwidth' | 'recomputeBelow';
}) {
  return (
    <FirstWidgetFig
      args={objectStoreArgs(at)}
      text={(r) => objectStoreFigureText(r, m)}
      title="The first widget with its custom link at an object store's latency"
    />
  );
}

/** Mooncake FAST'25 Eq. 2 in its Table 1 setting, and this course's model of the same replica. */
export function MooncakeFig({ m }: { m: 'theirs' | 'ours' | 'h2d' | 'nic' | 'prefix' }) {
  const sim = useSimulation('offloadFigures', FIGURES_REQUEST);
  const r = sim.result?.mooncake;
  if (m === 'prefix')
    return <InlineFigure value={`${formatNumber(FIGURES_REQUEST.mooncakePrefix, 6)} tokens`} />;
  return (
    <InlineFigure
      value={r ? formatBandwidth(r[m]) : null}
      title="Qin et al., Mooncake, FAST'25, §2.2 Eq. 2 and Table 1"
    />
  );
}

/** A model's figure in the minimum-bandwidth widget at its defaults. */
export function ModelBwFig({
  model,
  m,
}: {
  model: string;
  m:
    'minBandwidth' | 'alwaysWins' | 'bytesPerFlop' | 'bytesPerFlopOneCopy' | 'copies' | 'kv' | 'prefixTokens';
}) {
  const sim = useSimulation('minBandwidthByModel', minBwArgs(MIN_BW_DEFAULTS));
  const row = sim.result?.rows.find((x) => x.id === model);
  if (!row) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const figures: Record<typeof m, () => string> = {
    minBandwidth: () => formatBandwidth(row.minBandwidth),
    alwaysWins: () => formatBandwidth(row.alwaysWinsBandwidth),
    // What the replica's copies hold per FLOP, and one copy's share of it.
    bytesPerFlop: () => formatBytesPerMflop(row.kvBytesPerFlop),
    bytesPerFlopOneCopy: () => formatBytesPerMflop(row.kvBytesPerFlop / row.kvCopies),
    copies: () => formatNumber(row.kvCopies),
    prefixTokens: () => `${formatNumber(row.prefixTokens, 6)} tokens`,
    kv: () => formatBytes(row.kvBytesPerToken),
  };
  const value = figures[m]();
  return (
    <InlineFigure
      value={value}
      title={`${row.name}, ${formatTokens(row.prefixTokens)} prefix, defaults of the widget below`}
    />
  );
}

/** The widest spread of minimum bandwidths across the catalog models (widget defaults). */
export function ModelBwSpread() {
  const sim = useSimulation('minBandwidthByModel', minBwArgs(MIN_BW_DEFAULTS));
  const vals = sim.result?.rows.map((x) => x.minBandwidth).filter((x): x is number => x !== null);
  return (
    <InlineFigure
      value={vals && vals.length ? formatRatio(Math.max(...vals) / Math.min(...vals), 2) : null}
    />
  );
}

/** A catalog link's effective bandwidth (or latency), straight from src/sim/engine/catalog/links.ts. */
export function LinkFig({
  id,
  m = 'bandwidth',
  count = 1,
}: {
  id: string;
  m?: 'bandwidth' | 'latency' | 'lineRate';
  count?: number;
}) {
  const l = findLink(id);
  if (!l) return <span className="figure-missing">[unknown link {id}]</span>;
  const value =
    m === 'latency'
      ? formatDuration(l.latency)
      : formatBandwidth((m === 'lineRate' ? l.lineRate : l.effectiveBandwidth) * count);
  return <InlineFigure value={value} title={l.source} />;
}
