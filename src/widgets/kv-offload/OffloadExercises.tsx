/** 07.05's exercises: the answers come from the same worker methods as the widgets. */
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
import { findModel } from '../../sim/engine/catalog/models';
import { DEFAULT_ATTENTION_EFFICIENCY, DEFAULT_ITERATION_OVERHEAD_S } from '../../sim/engine/cost';
import { attentionFlopsPerPair, bodyParams } from '../../sim/engine/flopsAndBytes';
import { EXERCISE_CROSSING, EXERCISE_MIN_BW, EXERCISE_MIN_BW_MODEL } from './schema';
import { LinkFig } from './figures';

export function CrossingExercise() {
  const sim = useSimulation('reloadVsRecompute', EXERCISE_CROSSING);
  const r = sim.result;
  const upper = r && r.breakEven.crossings.length === 2 ? r.breakEven.crossings[1] : null;
  const s = r?.breakEven.reloadSecondsPerToken;
  return (
    <Exercise
      id="07-05-nic-break-even"
      question={
        <p>
          A replica serves Llama 3.1 70B on 8 × B200 (the GEMMs at{' '}
          {formatNumber(EXERCISE_CROSSING.gemmEfficiency * 100)}% of peak BF16 FLOP/s). A session&apos;s KV
          was offloaded to a remote pool and comes back through one 100 Gb/s RDMA NIC (
          <LinkFig id="rdma-100g" /> effective, <LinkFig id="rdma-100g" m="latency" /> per transfer). Short
          prefixes reload faster than they recompute, then recompute wins for a while. Above what prefix
          length does reload win again? Predict first, then check with the first widget (model, accelerator
          and link).
        </p>
      }
      answer={upper}
      tolerance={0.05}
      unit="tokens"
      format={(v) => `${formatNumber(Math.round(v), 6)} tokens`}
      hint={
        r ? (
          <p>
            Past a few hundred tokens recompute is compute-bound, and each token of a p-token prefix costs on
            average 2·N / G + A·p / (2·G_a) + β: 2·N = {formatFlops(2 * r.model.bodyParams)} per token for the
            body, A = {formatFlops(r.model.attentionFlopsPerPair)} per (query, key) pair, G = {r.hardware.tp}{' '}
            × peak × {r.hardware.gemmEfficiency} = {formatFlops(r.hardware.flops, true)} for the GEMMs, G_a ={' '}
            {formatFlops(r.hardware.attentionFlops, true)} for attention, and β ={' '}
            {formatDuration(r.hardware.allReduce.perToken)} per token of all-reduce (2 per layer, 2(TP−1)/TP ×
            hidden × 2 B over {formatBandwidth(r.hardware.allReduce.busBandwidth)} of NVLink). Reload costs k
            / B = {formatBytes(r.model.kvBytesPerToken)} / {formatBandwidth(r.link.bandwidth)} per token. Set
            the two per-token costs equal and solve for p (the latency and the LM head are negligible here).
          </p>
        ) : null
      }
      explanation={
        r && upper !== null && s !== undefined ? (
          <p>
            Reload costs {formatDuration(s)} per token. Prefill costs{' '}
            {formatDuration(r.breakEven.recomputeSecondsPerTokenAtStart)} per token at the start of the
            context and more with every token, because each new token attends to all before it. Equal averages
            give p ≈ 2·G_a·(k/B − 2·N/G − β)/A = 2 × {formatFlops(r.hardware.attentionFlops, true)} × (
            {formatDuration(s)} − {formatDuration((2 * r.model.bodyParams) / r.hardware.flops)} −{' '}
            {formatDuration(r.hardware.allReduce.perToken)}) / {formatFlops(r.model.attentionFlopsPerPair)} ≈{' '}
            {formatTokens(
              (2 *
                r.hardware.attentionFlops *
                (s - (2 * r.model.bodyParams) / r.hardware.flops - r.hardware.allReduce.perToken)) /
                r.model.attentionFlopsPerPair,
            )}
            ; the core solves the exact quadratic (with the latencies, the overhead and the LM head) and gets{' '}
            {formatNumber(Math.round(upper), 6)}. Below{' '}
            {formatNumber(Math.round(r.breakEven.crossings[0]), 6)} tokens reload wins too: recompute never
            takes less than {formatDuration(r.breakEven.recomputeFloorSeconds)}: streaming the weights once,
            the {r.hardware.allReduce.calls} all-reduce latencies and the iteration overhead. On 8 × H100 the
            same NIC wins at every length (the lesson&apos;s figures above): the B200 recomputes faster, and a
            faster recompute raises the bar the link must clear.
          </p>
        ) : null
      }
    />
  );
}

export function MinBandwidthExercise() {
  const sim = useSimulation('minBandwidthByModel', EXERCISE_MIN_BW);
  const row = sim.result?.rows.find((m) => m.id === EXERCISE_MIN_BW_MODEL);
  const G = sim.result?.flops;
  const model = findModel(EXERCISE_MIN_BW_MODEL);
  const gpu = findAccelerator(EXERCISE_MIN_BW.acceleratorId);
  return (
    <Exercise
      id="07-05-min-bandwidth-8b"
      question={
        <p>
          Llama 3.1 8B runs on a single H100 SXM (GEMMs at{' '}
          {formatNumber(EXERCISE_MIN_BW.gemmEfficiency * 100)}% of{' '}
          {gpu ? formatFlops(gpu.bf16Flops, true) : '—'}, attention at{' '}
          {formatNumber(DEFAULT_ATTENTION_EFFICIENCY * 100)}%, {formatDuration(DEFAULT_ITERATION_OVERHEAD_S)}{' '}
          per iteration, KV in BF16). What is the smallest link bandwidth, in GB/s, at which reloading a{' '}
          {formatNumber(EXERCISE_MIN_BW.prefixTokens, 6)}-token prefix is as fast as recomputing it? Could one
          Gen4 NVMe drive serve it? Predict, then check with the second widget (set the TP to 1).
        </p>
      }
      answer={row && row.minBandwidth !== null ? row.minBandwidth / 1e9 : null}
      tolerance={0.05}
      unit="GB/s"
      format={(v) => formatBandwidth(v * 1e9)}
      hint={
        model ? (
          <p>
            KV bytes per token: 2 × {model.layers} layers × {model.kvHeads} KV heads × {model.headDim} × 2
            bytes. Recompute FLOPs: 2 × {formatNumber(bodyParams(model) / 1e9)} B body parameters per token,
            plus 2 × {model.layers} layers × {model.attentionHeads} heads × {2 * model.headDim} ={' '}
            {formatNumber(attentionFlopsPerPair(model), 6)} FLOP per (query, key) pair over about p²/2 pairs.
            Divide the body by G and attention by G_a, add the iteration overhead, then B* = p × KV bytes per
            token / t.
          </p>
        ) : null
      }
      explanation={
        row && G !== undefined ? (
          <p>
            The prefix is {formatNumber(row.prefixTokens, 6)} × {formatBytes(row.kvBytesPerToken)} of KV.
            Recomputing its {formatFlops(row.flopsPerToken * row.prefixTokens)} (GEMMs at{' '}
            {formatFlops(G, true)}, attention slower) takes {formatDuration(row.recompute)}, so B* ={' '}
            {formatBandwidth(row.minBandwidth)}: {formatBytes(row.kvBytesPerToken)} per token over the seconds
            each token takes to recompute. One Gen4 NVMe drive (<LinkFig id="nvme-gen4" />) clears it. Put the
            same model on 8 GPUs and recompute gets faster, though less than eightfold since every layer now
            all-reduces over NVLink, and B* rises past what one drive delivers.
          </p>
        ) : null
      }
    />
  );
}
