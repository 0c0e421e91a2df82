/**
 * The metrics of a disaggregated run (fleet/disagg.ts): TTFT of the requests prefilled on a prefill worker split
 * into its parts (prefill queue, prefill, transfer, and the decode worker's queue and first step), transfer bytes
 * and times, and each pool's utilisation. The decode pool's TPOT is the fleet's (every request decodes there).
 */
import type { Disaggregation, DisaggColumns } from './disagg';
import { pick, round, roundSummary, summarize, type Summary } from './metrics';
import type { Replica } from './replica';

export interface DisaggMetrics {
  prefillReplicas: number;
  decodeReplicas: number;
  link: string;
  mode: string;
  localPrefillBelow: number;
  /** Requests prefilled on a prefill worker, and on their decode worker (short or cached prompts). */
  remotePrefills: number;
  localPrefills: number;
  transfer: {
    count: number;
    bytes: number;
    bytesPerRequest: Summary;
    /** Prefill done → KV in place, s (what the transfer adds to TTFT). */
    seconds: Summary;
    /** Of which waiting for a busy NIC, s. */
    waitS: Summary;
  };
  /** TTFT of the remotely prefilled requests and its parts, s. */
  ttftRemote: {
    total: Summary;
    prefillQueueS: Summary;
    prefillS: Summary;
    transferS: Summary;
    /** KV in place → first token: the decode worker's queue and its first step. */
    decodeFirstS: Summary;
  };
  /** TTFT of the requests prefilled on their decode worker, s. */
  ttftLocal: Summary;
  /** Busy share of each pool, mean over its replicas. */
  utilisation: { prefill: number; decode: number };
}

export function disaggMetrics(
  d: Disaggregation,
  replicas: readonly Replica[],
  cols: { ttft: Float64Array; status: Float64Array },
  simulatedS: number,
): DisaggMetrics {
  const c: DisaggColumns = d.cols;
  const done = (i: number) => cols.status[i] === 1;
  const remote = (i: number) => c.remote[i] === 1 && done(i) && Number.isFinite(c.handoffAt[i]);
  const ttft = Array.from(cols.ttft);
  // KV in place → first token = TTFT − (handoff − arrival), and handoff − arrival = queue + prefill + transfer.
  const decodeFirst = c.handoffAt.map(
    (_, i) => ttft[i] - (c.prefillQueueS[i] + c.prefillS[i] + c.transferS[i]),
  );
  const util = (from: number, to: number) => {
    let s = 0;
    for (let i = from; i < to; i++) s += simulatedS > 0 ? replicas[i].stats.busyS / simulatedS : 0;
    return round(to > from ? s / (to - from) : 0);
  };
  const np = d.cfg.prefillReplicas;
  const transferred = (i: number) => c.remote[i] === 1 && Number.isFinite(c.transferBytes[i]);
  return {
    prefillReplicas: np,
    decodeReplicas: d.cfg.decodeReplicas,
    link: d.cfg.linkName,
    mode: d.cfg.mode,
    localPrefillBelow: d.cfg.localPrefillBelow,
    remotePrefills: c.remote.filter((x) => x === 1).length,
    localPrefills: c.remote.filter((x) => x === 0).length,
    transfer: {
      count: d.transfers,
      bytes: d.bytesTransferred,
      bytesPerRequest: roundSummary(summarize(pick(c.transferBytes, transferred))),
      seconds: roundSummary(summarize(pick(c.transferS, transferred))),
      waitS: roundSummary(summarize(pick(c.transferWaitS, transferred))),
    },
    ttftRemote: {
      total: roundSummary(summarize(pick(ttft, remote))),
      prefillQueueS: roundSummary(summarize(pick(c.prefillQueueS, remote))),
      prefillS: roundSummary(summarize(pick(c.prefillS, remote))),
      transferS: roundSummary(summarize(pick(c.transferS, remote))),
      decodeFirstS: roundSummary(summarize(pick(decodeFirst, remote))),
    },
    ttftLocal: roundSummary(summarize(pick(ttft, (i) => c.remote[i] === 0 && done(i)))),
    utilisation: { prefill: util(0, np), decode: util(np, replicas.length) },
  };
}
