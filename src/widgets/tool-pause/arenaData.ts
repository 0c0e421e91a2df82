/**
 * What the pause arena draws and exports, derived from its runs: idle sessions' KV in HBM, the shared DRAM scale,
 * the trade-off chart's points and labels, and the export's rows.
 */
import type { PointMarker } from '../kit/charts/types';
import type { LineSeries } from '../kit/charts/LineChart';
import { seriesColor } from '../kit/charts/theme';
import type { PauseRun, PauseSummary } from '../../sim/lessons/pauseLab';
import {
  PAUSE_ACCELERATOR,
  PAUSE_BLOCK_SIZE,
  PAUSE_DRAM_GB,
  PAUSE_MODEL,
  PAUSE_POLICY_SHORT,
  PAUSE_SYSTEM_TOKENS,
  PAUSE_TOOL_TOKENS,
  PAUSE_TP,
  pauseAgent,
  type PausePolicyId,
} from '../../sim/lessons/pauseLabSetup';
import { replicaName } from '../../sim/engine/catalog/names';

/** Idle sessions' KV in HBM (pinned and cached), bytes; `bpb` = bytes per KV block. */
export function idleHbmBytes(s: PauseSummary, bpb: number): number {
  return (s.idlePinnedBlocks + s.idleCachedBlocks) * bpb;
}

/**
 * The largest DRAM occupancy of any run, GB: once every policy is in, the occupancy chart draws them all on this
 * one scale, so switching policies compares at a glance.
 */
export function dramMaxGB(runs: readonly PauseRun[]): number {
  let m = 0;
  for (const x of runs)
    for (let i = 0; i < x.track.t.length; i++)
      m = Math.max(m, (x.track.dramIdle[i] + x.track.dramOther[i]) * x.bytesPerBlock);
  return m / 1e9;
}

export interface TradeOff {
  series: LineSeries[];
  markers: PointMarker[];
  /** The largest idle KV in HBM, GB (at least 1), for the x domain. */
  maxIdleGB: number;
  /** The resume TTFT axis (log), s: every policy's p90 with room for its label. */
  yDomain: [number, number];
}

/**
 * Each policy's colour on the trade-off chart. Hold and TTL then offload, the pair lessons 07.06 and 07.12 compare, in
 * the palette's two most distinct hues (blue, vermillion); the policies that land beside hold (LRU, write-through)
 * in bluish green and ochre; offload, evict and TTL then evict, beside TTL then offload, in reddish purple, violet
 * and grey. Slot order would give hold and TTL then offload the palette's blue and sky blue, which read as one on a
 * projector; sky blue is left out. Each point keeps its slot's symbol and is named on the chart.
 */
export const PAUSE_POLICY_COLORS: Readonly<Record<PausePolicyId, string>> = {
  hold: seriesColor(0),
  lru: seriesColor(4),
  'write-through': seriesColor(2),
  offload: seriesColor(3),
  evict: seriesColor(7),
  'ttl-offload': seriesColor(1),
  'ttl-evict': seriesColor(6),
};

/** Every policy in so far as a point: idle sessions' KV in HBM (GB) against resume TTFT p90. */
export function tradeOff(ordered: readonly PauseRun[], bpb: number, current: PausePolicyId): TradeOff {
  const series = ordered.map((x) => ({
    name: PAUSE_POLICY_SHORT[x.summary.policy],
    color: PAUSE_POLICY_COLORS[x.summary.policy],
    points: [{ x: idleHbmBytes(x.summary, bpb) / 1e9, y: x.summary.resumes.ttft.p90 }],
  }));
  // Every policy labelled on the chart itself (legible on a projector), a thin ring round its point that leaves the
  // policy's colour showing (ringsSymbol); the chosen policy's ring and label in ink, the others' in grey.
  const maxIdleGB = Math.max(1, ...ordered.map((x) => idleHbmBytes(x.summary, bpb) / 1e9));
  // Of two policies that land close together (LRU and write-through at light load), one takes its label under
  // its point, so neither hides the other: within 15% of the idle-HBM axis and 12% in resume TTFT.
  const markers: PointMarker[] = ordered.map((x) => ({
    kind: 'point',
    x: idleHbmBytes(x.summary, bpb) / 1e9,
    y: x.summary.resumes.ttft.p90,
    label: PAUSE_POLICY_SHORT[x.summary.policy],
    tone: x.summary.policy === current ? 'fg' : 'muted',
    ringsSymbol: true,
  }));
  markers.forEach((m, i) => {
    const near = (o: PointMarker) =>
      Math.abs(o.x - m.x) < 0.15 * maxIdleGB && Math.abs(Math.log(o.y / m.y)) < Math.log(1.12);
    const o = markers.slice(0, i).find((p) => !p.labelBelow && near(p));
    if (!o) return;
    // The one further right goes under its point (labels run rightwards, so the left one's label is above it).
    if (o.x > m.x) o.labelBelow = true;
    else m.labelBelow = true;
  });
  const ttfts = ordered.map((x) => x.summary.resumes.ttft.p90).filter((t) => t > 0);
  const yDomain: [number, number] = [Math.min(0.1, ...ttfts) * 0.7, Math.max(1, ...ttfts) * 1.5];
  return { series, markers, maxIdleGB, yDomain };
}

/** A policy's row of the data export (GB for sizes). */
export function arenaExportRow(s: PauseSummary, bpb: number) {
  return {
    policy: s.policy,
    ttlS: s.ttlS ?? '',
    idleHbmPinnedGB: (s.idlePinnedBlocks * bpb) / 1e9,
    idleHbmCachedGB: (s.idleCachedBlocks * bpb) / 1e9,
    idleDramGB: (s.idleDramBlocks * bpb) / 1e9,
    hbmUsedGB: (s.hbmUsedBlocks * bpb) / 1e9,
    resumes: s.resumes.count,
    resumesInHbm: s.resumes.inHbmShare,
    contextFromHbm: s.resumes.source.hbm,
    contextFromDram: s.resumes.source.dram,
    contextRecomputed: s.resumes.source.recomputed,
    resumeTtftP50S: s.resumes.ttft.p50,
    resumeTtftP90S: s.resumes.ttft.p90,
    resumeTtftP99S: s.resumes.ttft.p99,
    pcieUpGB: s.pcieUpBytes / 1e9,
    pcieDownGB: s.pcieDownBytes / 1e9,
    outputTokensPerS: s.outputTokensPerS,
    goodputShare: s.goodputShare,
    prefilledTokens: s.prefilledTokens,
    promptTokens: s.promptTokens,
  };
}

/** A run's occupancy track as plain arrays (typed arrays serialise to JSON as objects keyed by index). */
export function trackJson(x: PauseRun) {
  const t = x.track;
  return {
    t: Array.from(t.t),
    hbmActive: Array.from(t.hbmActive),
    hbmIdlePinned: Array.from(t.hbmIdlePinned),
    hbmIdleCached: Array.from(t.hbmIdleCached),
    hbmDone: Array.from(t.hbmDone),
    dramIdle: Array.from(t.dramIdle),
    dramOther: Array.from(t.dramOther),
  };
}

/**
 * The arena's fixed setup as its caption states it, from the constants the lab runs (pauseLabSetup.ts): the
 * replica, its pages, the sessions' turns and shared head, host DRAM and one PCIe link per GPU.
 */
export const arenaSetup = (() => {
  const turns = pauseAgent('local').turns;
  const range = turns.kind === 'uniform' ? `${turns.min}–${turns.max}` : '';
  return {
    replica: replicaName(PAUSE_MODEL, PAUSE_TP, PAUSE_ACCELERATOR),
    blockTokens: PAUSE_BLOCK_SIZE,
    turns: range,
    sharedPrompt: `${(PAUSE_SYSTEM_TOKENS + PAUSE_TOOL_TOKENS) / 1000}k-token`,
    dram: `${PAUSE_DRAM_GB} GB`,
    hostLinks: PAUSE_TP,
  };
})();
