/**
 * Per-stage figures as inference-perf reports them (kubernetes-sigs/inference-perf
 * `inference_perf/reportgen/base.py` summarize_requests, as of Sept. 2025), computed from the fleet's per-request
 * table, and the across-stage summary llm-d's benchmark reports print (the mean of the per-stage figures: the
 * 73-capacity README's "Summary across QPS" row for precise-scheduling, 8,730.0 output tokens/s, is the mean of its
 * sixteen per-stage values).
 *
 * For the requests of one stage (those the stage scheduled), inference-perf takes
 *  - total_time = last end − first start (the send, not the scheduled time), over all its requests;
 *  - output tokens/s = output tokens of the successful ones (as it counts them: re-tokenised, `countedOutputShare`)
 *    / total_time, requests/s likewise;
 *  - TTFT = first streamed token − start, over the successful ones; percentiles by numpy's default interpolation.
 * A failed request (timed out, rejected, dropped) counts in total_time and in the failures, never in TTFT.
 */
import { percentileSorted } from './metrics';
import type { RequestTable } from './run';

export interface StageFigures {
  stage: number;
  requests: number;
  successes: number;
  failures: number;
  ttftP90S: number;
  ttftMeanS: number;
  outputTokensPerS: number;
  requestsPerS: number;
}

/**
 * Figures per stage; `stageOf[i]` is the stage of request i (the fleet numbers requests in arrival order).
 * `countedOutputShare`: the share of each request's generated tokens the harness counts (sharedPrefix.ts
 * SharedPrefixWorkload.countedOutputShare: inference-perf re-tokenises the streamed text).
 */
export function stageFigures(
  table: RequestTable,
  stageOf: ArrayLike<number>,
  stages: number,
  countedOutputShare = 1,
): StageFigures[] {
  const d = table.data;
  const n = d.status.length;
  const out: StageFigures[] = [];
  const ttfts: number[][] = Array.from({ length: stages }, () => []);
  const first = new Float64Array(stages).fill(Infinity);
  const last = new Float64Array(stages).fill(-Infinity);
  const tokens = new Float64Array(stages);
  const count = new Float64Array(stages);
  const ok = new Float64Array(stages);
  for (let i = 0; i < n && i < stageOf.length; i++) {
    const k = stageOf[i];
    const status = d.status[i];
    if (status === 0) continue; // still in flight at the horizon: the harness would still be waiting
    count[k]++;
    // The send: arrival (created) + the wait for a client slot.
    const start = d.arrival[i] + (Number.isNaN(d.clientWaitS[i]) ? 0 : d.clientWaitS[i]);
    if (start < first[k]) first[k] = start;
    // A failure ends when its client learns of it: the timeout, or at once for a rejection or a drop.
    const end = start + (status === 1 ? d.e2e[i] : d.failedAfterS[i]);
    if (end > last[k]) last[k] = end;
    if (status === 1) {
      ok[k]++;
      tokens[k] += d.outputTokens[i] * countedOutputShare;
      ttfts[k].push(d.ttft[i]);
    }
  }
  for (let k = 0; k < stages; k++) {
    const total = last[k] - first[k];
    const t = ttfts[k].sort((a, b) => a - b);
    out.push({
      stage: k,
      requests: count[k],
      successes: ok[k],
      failures: count[k] - ok[k],
      ttftP90S: t.length ? percentileSorted(t, 0.9) : NaN,
      ttftMeanS: t.length ? t.reduce((a, b) => a + b, 0) / t.length : NaN,
      outputTokensPerS: total > 0 ? tokens[k] / total : NaN,
      requestsPerS: total > 0 ? ok[k] / total : NaN,
    });
  }
  return out;
}

/** The mean of per-stage figures over `stages` (e.g. the ladder without its warm-up), as llm-d's summary row. */
export function meanOverStages(figs: StageFigures[], pick: (f: StageFigures) => number, from = 0): number {
  const xs = figs
    .slice(from)
    .map(pick)
    .filter((x) => Number.isFinite(x));
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}
