/**
 * 07.05's exercises: the answers come from the same worker methods as the widgets, and every figure their texts
 * name comes from the exercises' setups (schema.ts) and the catalog entries those name.
 */
import { Exercise } from '../../lessons-kit/Exercise';
import { useSimulation } from '../kit/useSimulation';
import {
  formatBandwidth,
  formatBytes,
  formatDuration,
  formatFlops,
  formatNumber,
  formatTokens,
} from '../../lib/format';
import { findAccelerator } from '../../sim/engine/catalog/accelerators';
import { findLink } from '../../sim/engine/catalog/links';
import { DTYPE_BYTES, findModel } from '../../sim/engine/catalog/models';
import { acceleratorName, modelName, shortName } from '../../sim/engine/catalog/names';
import { DEFAULT_ATTENTION_EFFICIENCY, DEFAULT_ITERATION_OVERHEAD_S } from '../../sim/engine/cost';
import { attentionFlopsPerPair, bodyParams } from '../../sim/engine/flopsAndBytes';
import type { ModelBandwidthRow } from '../../worker/minBandwidthMethods';
import type { ReloadRecomputeResult } from '../../worker/offloadMethods';
import { autoLinkCount } from '../../worker/offloadPath';
import {
  EXERCISE_CROSSING,
  EXERCISE_MIN_BW,
  EXERCISE_MIN_BW_DRIVE,
  EXERCISE_MIN_BW_MODEL,
  EXERCISE_MIN_BW_MORE_GPUS,
  PROSE_SETUPS,
} from './schema';
import { LinkFig } from './figures';
import { countWord, foldWord } from '../../lib/numberWords';

/** The setup of the lesson's figures the crossing exercise's explanation compares with (the same NIC on H100s). */
export const CROSSING_CONTRAST = PROSE_SETUPS.nic100;

/** The crossing exercise's link, and how many of them the worker stripes the KV over (its own rule for 'auto'). */
const CROSSING_LINK = findLink(EXERCISE_CROSSING.linkId);
export const CROSSING_LINK_COUNT =
  EXERCISE_CROSSING.linkCount === 'auto'
    ? CROSSING_LINK
      ? autoLinkCount(CROSSING_LINK.kind, EXERCISE_CROSSING.tp)
      : 1
    : EXERCISE_CROSSING.linkCount;

/** A network link's line rate as ports are sold: "100 Gb/s". */
const gbits = (bytesPerS: number | undefined) =>
  bytesPerS === undefined ? '—' : `${formatNumber((bytesPerS * 8) / 1e9)} Gb/s`;

const percent = (efficiency: number) => formatNumber(efficiency * 100);

export function CrossingQuestion() {
  const x = EXERCISE_CROSSING;
  const n = CROSSING_LINK_COUNT;
  /** "one 100 Gb/s RDMA NIC" */
  const nics = `${countWord(n)} ${gbits(CROSSING_LINK?.lineRate)} RDMA NIC${n === 1 ? '' : 's'}`;
  return (
    <p>
      A replica serves {modelName(x.modelId)} on {x.tp} × {shortName(acceleratorName(x.acceleratorId))} (the
      GEMMs at {percent(x.gemmEfficiency)}% of peak BF16 FLOP/s). A session&apos;s KV was offloaded to a
      remote pool and comes back through {nics} (
      <LinkFig id={x.linkId} /> effective, <LinkFig id={x.linkId} m="latency" /> per transfer). Short prefixes
      reload faster than they recompute, then recompute wins for a while. Above what prefix length does reload
      win again? Predict first, then check with the first widget (model, accelerator and link).
    </p>
  );
}

export function CrossingHint({ r }: { r: ReloadRecomputeResult }) {
  return (
    <p>
      Past a few hundred tokens recompute is compute-bound, and each token of a p-token prefix costs on
      average 2·N / G + A·p / (2·G_a) + β: 2·N = {formatFlops(2 * r.model.bodyParams)} per token for the body,
      A = {formatFlops(r.model.attentionFlopsPerPair)} per (query, key) pair, G = {r.hardware.tp} × peak ×{' '}
      {r.hardware.gemmEfficiency} = {formatFlops(r.hardware.flops, true)} for the GEMMs, G_a ={' '}
      {formatFlops(r.hardware.attentionFlops, true)} for attention, and β ={' '}
      {formatDuration(r.hardware.allReduce.perToken)} per token of all-reduce (2 per layer, 2(TP−1)/TP ×
      hidden × 2 B over {formatBandwidth(r.hardware.allReduce.busBandwidth)} of NVLink). Reload costs k / B ={' '}
      {formatBytes(r.model.kvBytesPerToken)} / {formatBandwidth(r.link.bandwidth)} per token. Set the two
      per-token costs equal and solve for p (the latency and the LM head are negligible here).
    </p>
  );
}

/** The upper crossing: the prefix length above which reload wins again (null unless there are two). */
export const upperCrossing = (r: ReloadRecomputeResult | null): number | null =>
  r && r.breakEven.crossings.length === 2 ? r.breakEven.crossings[1] : null;

export function CrossingExplanation({ r, upper }: { r: ReloadRecomputeResult; upper: number }) {
  const s = r.breakEven.reloadSecondsPerToken;
  const c = CROSSING_CONTRAST;
  return (
    <p>
      Reload costs {formatDuration(s)} per token. Prefill costs{' '}
      {formatDuration(r.breakEven.recomputeSecondsPerTokenAtStart)} per token at the start of the context and
      more with every token, because each new token attends to all before it. Equal averages give p ≈
      2·G_a·(k/B − 2·N/G − β)/A = 2 × {formatFlops(r.hardware.attentionFlops, true)} × ({formatDuration(s)} −{' '}
      {formatDuration((2 * r.model.bodyParams) / r.hardware.flops)} −{' '}
      {formatDuration(r.hardware.allReduce.perToken)}) / {formatFlops(r.model.attentionFlopsPerPair)} ≈{' '}
      {formatTokens(
        (2 *
          r.hardware.attentionFlops *
          (s - (2 * r.model.bodyParams) / r.hardware.flops - r.hardware.allReduce.perToken)) /
          r.model.attentionFlopsPerPair,
      )}
      ; the core solves the exact quadratic (with the latencies, the overhead and the LM head) and gets{' '}
      {formatNumber(Math.round(upper), 6)}. Below {formatNumber(Math.round(r.breakEven.crossings[0]), 6)}{' '}
      tokens reload wins too: recompute never takes less than{' '}
      {formatDuration(r.breakEven.recomputeFloorSeconds)}: streaming the weights once, the{' '}
      {r.hardware.allReduce.calls} all-reduce latencies and the iteration overhead. On {c.tp} ×{' '}
      {acceleratorName(c.acceleratorId)} the same NIC wins at every length (the lesson&apos;s figures above):
      the {shortName(acceleratorName(EXERCISE_CROSSING.acceleratorId))} recomputes faster, and a faster
      recompute raises the bar the link must clear.
    </p>
  );
}

export function CrossingExercise() {
  const sim = useSimulation('reloadVsRecompute', EXERCISE_CROSSING);
  const r = sim.result;
  const upper = upperCrossing(r);
  return (
    <Exercise
      id="07-05-nic-break-even"
      question={<CrossingQuestion />}
      answer={upper}
      tolerance={0.05}
      unit="tokens"
      format={(v) => `${formatNumber(Math.round(v), 6)} tokens`}
      hint={r ? <CrossingHint r={r} /> : null}
      explanation={r && upper !== null ? <CrossingExplanation r={r} upper={upper} /> : null}
    />
  );
}

export function MinBandwidthQuestion() {
  const x = EXERCISE_MIN_BW;
  const gpu = findAccelerator(x.acceleratorId);
  return (
    <p>
      {modelName(EXERCISE_MIN_BW_MODEL)} runs on {x.tp === 1 ? 'a single' : `${x.tp} ×`}{' '}
      {acceleratorName(x.acceleratorId)} (GEMMs at {percent(x.gemmEfficiency)}% of{' '}
      {gpu ? formatFlops(gpu.bf16Flops, true) : '—'}, attention at {percent(DEFAULT_ATTENTION_EFFICIENCY)}%,{' '}
      {formatDuration(DEFAULT_ITERATION_OVERHEAD_S)} per iteration, KV in {x.kvDtype.toUpperCase()}). What is
      the smallest link bandwidth, in GB/s, at which reloading a {formatNumber(x.prefixTokens, 6)}-token
      prefix is as fast as recomputing it? Could one Gen4 NVMe drive serve it? Predict, then check with the
      second widget (set the TP to {x.tp}).
    </p>
  );
}

export function MinBandwidthHint() {
  const model = findModel(EXERCISE_MIN_BW_MODEL);
  if (!model) return null;
  return (
    <p>
      KV bytes per token: 2 × {model.layers} layers × {model.kvHeads} KV heads × {model.headDim} ×{' '}
      {DTYPE_BYTES[EXERCISE_MIN_BW.kvDtype]} bytes. Recompute FLOPs: 2 ×{' '}
      {formatNumber(bodyParams(model) / 1e9)} B body parameters per token, plus 2 × {model.layers} layers ×{' '}
      {model.attentionHeads} heads × {2 * model.headDim} = {formatNumber(attentionFlopsPerPair(model), 6)}{' '}
      FLOP per (query, key) pair over about p²/2 pairs. Divide the body by G and attention by G_a, add the
      iteration overhead, then B* = p × KV bytes per token / t.
    </p>
  );
}

export function MinBandwidthExplanation({ row, G }: { row: ModelBandwidthRow; G: number }) {
  return (
    <p>
      The prefix is {formatNumber(row.prefixTokens, 6)} × {formatBytes(row.kvBytesPerToken)} of KV.
      Recomputing its {formatFlops(row.flopsPerToken * row.prefixTokens)} (GEMMs at {formatFlops(G, true)},
      attention slower) takes {formatDuration(row.recompute)}, so B* = {formatBandwidth(row.minBandwidth)}:{' '}
      {formatBytes(row.kvBytesPerToken)} per token over the seconds each token takes to recompute. One Gen4
      NVMe drive (<LinkFig id={EXERCISE_MIN_BW_DRIVE} />) clears it. Put the same model on{' '}
      {EXERCISE_MIN_BW_MORE_GPUS} GPUs and recompute gets faster, though less than{' '}
      {foldWord(EXERCISE_MIN_BW_MORE_GPUS / EXERCISE_MIN_BW.tp)} since every layer now all-reduces over
      NVLink, and B* rises past what one drive delivers.
    </p>
  );
}

export function MinBandwidthExercise() {
  const sim = useSimulation('minBandwidthByModel', EXERCISE_MIN_BW);
  const row = sim.result?.rows.find((m) => m.id === EXERCISE_MIN_BW_MODEL);
  const G = sim.result?.flops;
  return (
    <Exercise
      id="07-05-min-bandwidth-8b"
      question={<MinBandwidthQuestion />}
      answer={row && row.minBandwidth !== null ? row.minBandwidth / 1e9 : null}
      tolerance={0.05}
      unit="GB/s"
      format={(v) => formatBandwidth(v * 1e9)}
      hint={<MinBandwidthHint />}
      explanation={row && G !== undefined ? <MinBandwidthExplanation row={row} G={G} /> : null}
    />
  );
}
