/**
 * Lesson 07.03: figures of a fleet run computed from its per-request table, up to any time t (so the animated
 * router's read-outs are a function of (result, t)). Pure, and free of the simulator itself, so the main
 * thread can import it without pulling the engine into its bundle.
 */
import { percentileSorted } from '../../engine/fleet/metrics';
import type { RequestTable } from '../../engine/fleet/run';

import { LAB_BLOCK_SIZE, LAB_SHARED_TOKENS } from './constants';

/** The columns of the per-request table the widgets use, compact. Index = request id (= arrival order). */
export interface RequestRows {
  count: number;
  session: Int32Array;
  turn: Uint16Array;
  replica: Uint16Array;
  arrival: Float64Array;
  /** Time of the first token (NaN if none). */
  firstToken: Float64Array;
  /** Time it finished (NaN if it did not). */
  finished: Float64Array;
  promptTokens: Float64Array;
  outputTokens: Float64Array;
  /** Prompt tokens computed (prefill), summed over admissions (a preempted request recomputes). */
  prefilledTokens: Float64Array;
  /** Prompt tokens served from cache (any tier), summed over admissions. */
  reusedTokens: Float64Array;
  /** Of those, the tokens reloaded from the shared pool (not from the replica's own HBM). */
  reusedPoolTokens: Float64Array;
  gpuSeconds: Float64Array;
  /** The routing decision: reason (index into ROUTE_REASONS, 255 unknown), prefix pages the router saw (−1: did not look), requests queued on the replica it chose. */
  reason: Uint8Array;
  matched: Int32Array;
  queued: Uint16Array;
}

export function requestRows(t: RequestTable): RequestRows {
  const d = t.data;
  const n = d.session.length;
  const rows: RequestRows = {
    count: n,
    session: new Int32Array(n),
    turn: new Uint16Array(n),
    replica: new Uint16Array(n),
    arrival: new Float64Array(n),
    firstToken: new Float64Array(n),
    finished: new Float64Array(n),
    promptTokens: new Float64Array(n),
    outputTokens: new Float64Array(n),
    prefilledTokens: new Float64Array(n),
    reusedTokens: new Float64Array(n),
    reusedPoolTokens: new Float64Array(n),
    gpuSeconds: new Float64Array(n),
    reason: new Uint8Array(n),
    matched: new Int32Array(n),
    queued: new Uint16Array(n),
  };
  const z = (x: number) => (Number.isNaN(x) ? 0 : x);
  for (let i = 0; i < n; i++) {
    rows.session[i] = d.session[i];
    rows.turn[i] = d.turn[i];
    rows.replica[i] = d.replica[i];
    rows.arrival[i] = d.arrival[i];
    rows.firstToken[i] = d.arrival[i] + d.ttft[i]; // NaN when unfinished
    rows.finished[i] = d.status[i] === 1 ? d.arrival[i] + d.e2e[i] : NaN;
    rows.promptTokens[i] = d.promptTokens[i];
    rows.outputTokens[i] = d.outputTokens[i];
    rows.prefilledTokens[i] = z(d.prefilled[i]);
    rows.reusedTokens[i] = z(d.reusedHbm[i]) + z(d.reusedDram[i]) + z(d.reusedNvme[i]) + z(d.reusedRemote[i]);
    rows.reusedPoolTokens[i] = z(d.reusedRemote[i]);
    rows.gpuSeconds[i] = z(d.gpuSeconds[i]);
    // Tables made before the route columns existed (or by hand) have none: unknown reason, did not look.
    const reason = d.routeReason?.[i];
    rows.reason[i] = reason === undefined || Number.isNaN(reason) ? 255 : reason;
    const matched = d.routeMatched?.[i];
    rows.matched[i] = matched === undefined || Number.isNaN(matched) ? -1 : matched;
    rows.queued[i] = z(d.routeQueued?.[i] ?? 0);
  }
  return rows;
}

export interface PolicySummary {
  /** Requests counted (first token by the cut-off). */
  requests: number;
  /**
   * Σ reused ÷ Σ (reused + prefilled) tokens over those requests: the share of prompt work served from cache
   * (the fleet simulator's reuseRatio; without preemptions reused + prefilled is the prompt).
   */
  hitRate: number;
  reusedTokens: number;
  /** Σ (reused + prefilled): the prompt tokens served, counting a preempted request's readmissions. */
  servedTokens: number;
  promptTokens: number;
  ttftP50: number;
  ttftP90: number;
  /** max ÷ mean over replicas of the GPU-seconds of the requests each finished by the cut-off (1 = even). */
  imbalance: number;
  /** GPU-seconds per replica behind `imbalance`. */
  gpuSecondsPerReplica: number[];
  /** Turns after the first that landed on the replica that served the session's previous turn, as a share. */
  warmTurnShare: number;
  /** Hit rate of the session-private part of the prompts (beyond the shared head). */
  privateHitRate: number;
  /**
   * The hit rate theory.ts predicts for these very turns if they were spread over R replicas with nothing of
   * the session cached on a cold replica: Σ (S + (C_{k−1} − S)/R) ÷ Σ P_k (first turns: S ÷ P_0).
   */
  spreadBoundHitRate: number;
  /** Prompt tokens reloaded from the shared pool instead of recomputed, and the requests that reloaded any. */
  poolReusedTokens: number;
  poolHits: number;
  /**
   * Of the requests routed on a prefix the router believed the replica held (matched > 0), the share whose
   * replica served at least one page less from cache than that: the router's view was stale (an approximate view
   * that never hears of evictions, or an eviction between routing and admission).
   */
  staleRouteShare: number;
}

/** The figures of a run up to time `upTo` (requests whose first token came by then; all by default). */
export function summarizeRows(
  rows: RequestRows,
  replicas: number,
  upTo = Infinity,
  sharedTokens = LAB_SHARED_TOKENS,
  blockSize = LAB_BLOCK_SIZE,
): PolicySummary {
  let reused = 0;
  let served = 0;
  let prompt = 0;
  let privReused = 0;
  let privPrompt = 0;
  const ttfts: number[] = [];
  const gpu = new Array<number>(replicas).fill(0);
  const lastReplica = new Map<number, number>();
  /** Context (prompt + output) of each session's latest turn. */
  const lastContext = new Map<number, number>();
  let bound = 0;
  let poolReused = 0;
  let poolHits = 0;
  let warm = 0;
  let later = 0;
  let believed = 0;
  let stale = 0;
  for (let i = 0; i < rows.count; i++) {
    if (rows.arrival[i] > upTo) break; // rows are in arrival order
    const s = rows.session[i];
    if (s >= 0) {
      const prev = lastReplica.get(s);
      if (prev !== undefined) {
        later++;
        if (prev === rows.replica[i]) warm++;
      }
      lastReplica.set(s, rows.replica[i]);
    }
    const prevContext = s >= 0 ? lastContext.get(s) : undefined;
    if (s >= 0) lastContext.set(s, rows.promptTokens[i] + rows.outputTokens[i]);
    const ft = rows.firstToken[i];
    if (!(ft <= upTo)) continue;
    ttfts.push(ft - rows.arrival[i]);
    reused += rows.reusedTokens[i];
    poolReused += rows.reusedPoolTokens[i];
    if (rows.reusedPoolTokens[i] > 0) poolHits++;
    served += rows.reusedTokens[i] + rows.prefilledTokens[i];
    prompt += rows.promptTokens[i];
    privReused += Math.max(0, rows.reusedTokens[i] - sharedTokens);
    privPrompt += Math.max(0, rows.promptTokens[i] - sharedTokens);
    const shared = Math.min(sharedTokens, rows.promptTokens[i]);
    bound += prevContext === undefined ? shared : shared + Math.max(0, prevContext - shared) / replicas;
    if (rows.finished[i] <= upTo) gpu[rows.replica[i]] += rows.gpuSeconds[i];
    if (rows.matched[i] > 0) {
      believed++;
      if (rows.reusedTokens[i] <= (rows.matched[i] - 1) * blockSize) stale++;
    }
  }
  ttfts.sort((a, b) => a - b);
  const mean = gpu.reduce((a, b) => a + b, 0) / replicas;
  const max = Math.max(...gpu);
  return {
    requests: ttfts.length,
    hitRate: served > 0 ? reused / served : NaN,
    reusedTokens: reused,
    servedTokens: served,
    promptTokens: prompt,
    ttftP50: ttfts.length ? percentileSorted(ttfts, 0.5) : NaN,
    ttftP90: ttfts.length ? percentileSorted(ttfts, 0.9) : NaN,
    imbalance: mean > 0 ? max / mean : NaN,
    gpuSecondsPerReplica: gpu,
    warmTurnShare: later > 0 ? warm / later : NaN,
    privateHitRate: privPrompt > 0 ? privReused / privPrompt : NaN,
    spreadBoundHitRate: prompt > 0 ? bound / prompt : NaN,
    poolReusedTokens: poolReused,
    poolHits,
    staleRouteShare: believed > 0 ? stale / believed : NaN,
  };
}

/** Index of the frame shown at time t (the last one at or before t). */
export function frameAt(frames: { count: number; t: Float64Array }, time: number): number {
  let lo = 0;
  let hi = frames.count - 1;
  if (hi < 0) return -1;
  if (time <= frames.t[0]) return 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (frames.t[mid] <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The highest offered load at which p90 TTFT stays within `slo`, reading the curve piecewise-linearly between
 * sweep points (null when even the lightest load misses it; the last load when none does).
 */
export function capacityAtSlo(
  points: readonly { sessionsPerS: number; ttftP90: number }[],
  slo: number,
): { load: number; beyond: boolean } | null {
  const pts = [...points].sort((a, b) => a.sessionsPerS - b.sessionsPerS);
  if (!pts.length || !(pts[0].ttftP90 <= slo)) return null;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1];
    const b = pts[i];
    if (b.ttftP90 > slo) {
      const u = (slo - a.ttftP90) / (b.ttftP90 - a.ttftP90);
      return { load: a.sessionsPerS + u * (b.sessionsPerS - a.sessionsPerS), beyond: false };
    }
  }
  return { load: pts[pts.length - 1].sessionsPerS, beyond: true };
}
