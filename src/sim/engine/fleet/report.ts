/**
 * A run's report: the metrics a finished fleet simulation gives (per class, per replica, per tier, routing, pool
 * and disaggregation), its KV occupancy series and, if asked for, the per-request table. run.ts runs a scenario
 * and calls `reportRun` at its end.
 */
import { TIER_ORDER } from '../kvcache/types';
import type { FleetSim, OccupancySeries } from './engine';
import { REQUEST_COLUMNS, type RequestColumn } from './requestColumns';
import { disaggMetrics, type DisaggMetrics } from './disaggMetrics';
import { pick, round, roundSummary, summarize, type Summary } from './metrics';
import { ROUTE_REASONS } from './router';
import type { ResolvedScenario } from './scenario';
import type { ReplicaStats } from './replica';

export interface TierTokens {
  hbm: number;
  dram: number;
  nvme: number;
  remote: number;
}

export interface ClassMetrics {
  name: string;
  sessions: number;
  requests: number;
  ttft: Summary;
  /** TTFT of turns after the first (the resume after a tool call or think time). */
  resumeTtft: Summary;
  tpot: Summary;
  sessionWallS: Summary;
  turns: Summary;
  gpuSecondsPerSession: Summary;
  costUSDPerSession: Summary;
}

/** A replica's counters as the report prints them (busy time as a share of the run: `utilisation`). */
export interface ReplicaMetrics extends Omit<ReplicaStats, 'busyS'> {
  replica: number;
  utilisation: number;
  meanBatch: number;
  maxBatch: number;
  /** KV blocks used per tier: time mean and max over the samples, and capacity. */
  kv: Record<string, { meanBlocks: number; maxBlocks: number; capacityBlocks: number }>;
  /** Blocks pinned by idle sessions held through a pause: time mean and max. */
  heldBlocks: { mean: number; max: number };
  grammar: { hits: number; joined: number; compiles: number; compileSeconds: number; evictions: number };
}

export interface FleetMetrics {
  scenario: string;
  seed: number;
  /** Simulated seconds until the last event. */
  simulatedS: number;
  events: number;
  config: {
    model: string;
    accelerator: string;
    tp: number;
    replicas: number;
    router: string;
    view: string;
    /** Tokens per page the cache tracks (kv.pageTokens); hbmBlocksPerReplica counts these. */
    blockSize: number;
    /** The engine's block size, the unit of prefix reuse (kv.blockSize). */
    engineBlockSize: number;
    hbmBlocksPerReplica: number;
    tiers: string[];
    tokenBudget: number;
    chunk: number | false;
    toolPause: string;
  };
  requests: {
    created: number;
    finished: number;
    dropped: number;
    /** Given up by their client after clients.timeoutS (failed, not dropped by the engine). */
    timedOut: number;
    /** Turned away: at the gateway (gateway.maxInFlight) or at admission (scheduler.maxWaiting). */
    rejected: number;
    /** dropped + timedOut + rejected. */
    failed: number;
    unfinished: number;
    /** True when requests were left queued with no event that could ever move them (a bug guard: never expected). */
    stalled: boolean;
    dropReasons: Record<string, number>;
    ttft: Summary;
    tpot: Summary;
    interTokenGap: Summary;
    queueS: Summary;
    /** Waits at the client for a free slot (clients.maxInFlight) before the send; latencies count from the send. */
    clientWaitS: Summary;
    e2e: Summary;
    kvLoadS: Summary;
    grammarWaitS: Summary;
    preemptions: number;
  };
  tokens: {
    prompt: number;
    prefilled: number;
    reused: TierTokens;
    /** Reused / prompt tokens. */
    reuseRatio: number;
    output: number;
  };
  /** Bytes over each link, summed over replicas: up (reloads) and down (offloads, demotions). */
  bytesMoved: Record<string, { up: number; down: number }>;
  sessions: { started: number; finished: number; dropped: number; perClass: ClassMetrics[] };
  replicas: ReplicaMetrics[];
  fleet: {
    outputTokensPerS: number;
    requestsPerS: number;
    gpuSeconds: number;
    costUSD: number;
    slo: { ttftP90S: number; tpotP90S: number };
    /**
     * Finished requests meeting both SLOs: per second, as a share of finished, as a share of every request that
     * ended (finished or failed: a failure is never good), and their output tokens per second.
     */
    goodput: { requestsPerS: number; share: number; shareOfEnded: number; outputTokensPerS: number };
    /** Whether the fleet's p90s meet the SLOs. */
    sloMet: { ttft: boolean; tpot: boolean };
  };
  routing: Record<string, number>;
  /** Prefill and decode pools (scenario.disaggregation). */
  disaggregation?: DisaggMetrics;
  pool?: {
    puts: number;
    dedupPuts: number;
    fetches: number;
    evictions: number;
    usedBlocks: number;
    capacityBlocks: number;
  };
}

export interface RequestTable {
  columns: readonly string[];
  data: Record<string, Float64Array>;
}

export interface FleetResult {
  metrics: FleetMetrics;
  series?: OccupancySeries;
  requests?: RequestTable;
}

function sum(a: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) if (!Number.isNaN(a[i])) s += a[i];
  return s;
}

/** What a finished simulation reports: its metrics, and the occupancy series and request table if asked for. */
export function reportRun(
  sim: FleetSim,
  rs: ResolvedScenario,
  options: { includeRequests?: boolean; includeSeries?: boolean },
): FleetResult {
  const s = rs.scenario;
  // Read once and shared: nothing below writes into a column's array.
  const arrays = sim.columnArrays();
  const col = (k: RequestColumn) => arrays[k];
  const status = col('status');
  const ttft = col('ttft');
  const tpot = col('tpot');
  const cls = col('cls');
  const turn = col('turn');
  const grammarWait = col('grammarWaitS');
  const created = status.length;
  // Where the summaries sort and the picks gather (summarize, pick): two arrays for the whole report.
  const sortBuf = new Float64Array(created);
  const pickBuf = new Float64Array(created);
  let finished = 0;
  let dropped = 0;
  let timedOut = 0;
  let rejected = 0;
  for (let i = 0; i < created; i++) {
    if (status[i] === 1) finished++;
    else if (status[i] === 2) dropped++;
    else if (status[i] === 3) timedOut++;
    else if (status[i] === 4) rejected++;
  }
  const failed = dropped + timedOut + rejected;
  const simulatedS = sim.finishedAt > 0 ? sim.finishedAt : sim.now;
  const outputTokens = sum(pick(col('outputTokens'), (i) => status[i] === 1, pickBuf));
  const prompt = sum(col('promptTokens'));
  const reused: TierTokens = {
    hbm: sum(col('reusedHbm')),
    dram: sum(col('reusedDram')),
    nvme: sum(col('reusedNvme')),
    remote: sum(col('reusedRemote')),
  };
  const reusedTotal = reused.hbm + reused.dram + reused.nvme + reused.remote;
  const prefilledTotal = sum(col('prefilled'));
  // The summary of the values whose index passes `mask`, picked and sorted in the report's two arrays.
  const summaryWhere = (values: Float64Array, mask: (i: number) => boolean) =>
    summarize(pick(values, mask, pickBuf), sortBuf);
  const ttftAll = summarize(ttft, sortBuf);
  const tpotAll = summarize(tpot, sortBuf);
  // Goodput: finished requests within both SLOs (a single-token request has no TPOT and meets it).
  let good = 0;
  let goodTokens = 0;
  const outTok = col('outputTokens');
  for (let i = 0; i < created; i++) {
    if (status[i] !== 1) continue;
    if (ttft[i] <= rs.sloTtftS && (Number.isNaN(tpot[i]) || tpot[i] <= rs.sloTpotS)) {
      good++;
      goodTokens += outTok[i];
    }
  }
  // Bytes per link, by the tier below the link.
  const bytesMoved: Record<string, { up: number; down: number }> = {};
  for (const cache of sim.caches) {
    const k = cache.counters();
    k.tiers.forEach((t, i) => {
      if (i === 0) return;
      const name = `${t}→hbm`;
      const e = (bytesMoved[name] ??= { up: 0, down: 0 });
      e.up += k.bytesUp[i];
      e.down += k.bytesDown[i];
    });
  }
  // Sessions per class.
  const classes =
    s.workload.kind === 'trace' || s.workload.kind === 'shared-prefix'
      ? [{ name: s.workload.kind }]
      : s.workload.classes;
  const perClass: ClassMetrics[] = classes.map((k, ci) => {
    const rts = sim.sessions.filter((x) => x && x.cls === ci);
    const doneRts = rts.filter((x) => x.done && !x.dropped);
    const gpu = Float64Array.from(doneRts.map((x) => x.gpuSeconds));
    const inClass = (i: number) => cls[i] === ci;
    return {
      name: k.name,
      sessions: rts.length,
      requests: classes.length === 1 ? created : pick(status, inClass, pickBuf).length,
      // One class: its requests are all of them (the summaries above, not sorted again).
      ttft: roundSummary(classes.length === 1 ? ttftAll : summaryWhere(ttft, inClass)),
      resumeTtft: roundSummary(summaryWhere(ttft, (i) => inClass(i) && turn[i] > 0)),
      tpot: roundSummary(classes.length === 1 ? tpotAll : summaryWhere(tpot, inClass)),
      sessionWallS: roundSummary(summarize(doneRts.map((x) => x.end - x.start))),
      turns: roundSummary(summarize(doneRts.map((x) => x.turns))),
      gpuSecondsPerSession: roundSummary(summarize(gpu)),
      costUSDPerSession: roundSummary(summarize(gpu.map((g) => (g / 3600) * rs.gpuHourUSD))),
    };
  });
  const sessionsStarted = sim.sessions.filter(Boolean).length;
  const sessionsFinished = sim.sessions.filter((x) => x && x.done && !x.dropped).length;
  const sessionsDropped = sim.sessions.filter((x) => x && x.dropped).length;
  const replicas: ReplicaMetrics[] = sim.replicas.map((r, ri) => {
    const kv: ReplicaMetrics['kv'] = {};
    const occ = r.cache.occupancy();
    for (const o of occ) {
      const ti = TIER_ORDER.indexOf(o.tier);
      const series = sim.occupancy.used[ri].map((row) => row[ti]);
      const mean = series.length ? series.reduce((a, b) => a + b, 0) / series.length : 0;
      kv[o.tier] = {
        meanBlocks: round(mean),
        maxBlocks: series.length ? Math.max(...series) : 0,
        capacityBlocks: o.capacityBlocks,
      };
    }
    const g = r.grammar.cache.counters;
    return {
      replica: ri,
      iterations: r.stats.iterations,
      utilisation: round(simulatedS > 0 ? r.stats.busyS / simulatedS : 0),
      meanBatch: round(r.batchSize.mean(simulatedS)),
      maxBatch: r.batchSize.max,
      tokensPrefilled: r.stats.tokensPrefilled,
      tokensDecoded: r.stats.tokensDecoded,
      preemptions: r.stats.preemptions,
      swaps: r.stats.swaps,
      heldReleases: r.stats.heldReleases,
      dropped: r.stats.dropped,
      kv,
      heldBlocks: { mean: round(r.pauses.occupancy.mean(simulatedS)), max: r.pauses.occupancy.max },
      grammar: {
        hits: g.hits,
        joined: g.joined,
        compiles: g.compiles,
        compileSeconds: round(g.compileSeconds),
        evictions: g.evictions,
      },
    };
  });
  const gpuSeconds = sum(col('gpuSeconds'));
  const routing: Record<string, number> = {};
  for (const name of ROUTE_REASONS) routing[name] = 0;
  // Routing reasons are tallied from the per-frame log only when frames are on; count from the router log here.
  for (const [k, v] of sim.routeCounts) routing[ROUTE_REASONS[k]] = v;
  for (const k of Object.keys(routing)) if (routing[k] === 0) delete routing[k];
  const view = s.router.view?.kind ?? 'exact';
  const pc = sim.pool?.counters();
  const po = sim.pool?.occupancy();
  const metrics: FleetMetrics = {
    scenario: s.name ?? '',
    seed: s.seed,
    simulatedS: round(simulatedS),
    events: sim.events,
    config: {
      model: rs.model.id,
      accelerator: rs.hw.accelerator.id,
      tp: rs.hw.tp,
      replicas: rs.replicas,
      router: s.router.kind,
      view,
      blockSize: rs.blockSize,
      engineBlockSize: rs.engineBlockSize,
      hbmBlocksPerReplica: rs.hbmBlocks,
      tiers: sim.caches[0].tierNames,
      tokenBudget: rs.tokenBudget,
      chunk: rs.chunk > 0 ? rs.chunk : false,
      toolPause:
        rs.toolPause.kind +
        ('tier' in rs.toolPause && rs.toolPause.tier ? `:${rs.toolPause.tier}` : '') +
        (rs.toolPause.kind === 'ttl' ? `:${rs.toolPause.ttlS}s→${rs.toolPause.then}` : ''),
    },
    requests: {
      created,
      finished,
      dropped,
      timedOut,
      rejected,
      failed,
      unfinished: created - finished - failed,
      stalled: sim.stalled,
      dropReasons: Object.fromEntries(sim.dropReasons),
      ttft: roundSummary(ttftAll),
      tpot: roundSummary(tpotAll),
      interTokenGap: roundSummary(sim.gaps.summary()),
      queueS: roundSummary(summarize(col('queueS'), sortBuf)),
      clientWaitS: roundSummary(summarize(col('clientWaitS'), sortBuf)),
      e2e: roundSummary(summarize(col('e2e'), sortBuf)),
      kvLoadS: roundSummary(summarize(col('loadS'), sortBuf)),
      grammarWaitS: roundSummary(summarize(grammarWait.filter((x) => x > 0))),
      preemptions: sum(col('preemptions')),
    },
    tokens: {
      prompt,
      prefilled: prefilledTotal,
      reused,
      // Share of the prompt tokens brought into a batch that came from cache. Both counts include every
      // admission of a preempted request, so this stays in [0, 1] where reused / prompt would not.
      reuseRatio: round(reusedTotal + prefilledTotal > 0 ? reusedTotal / (reusedTotal + prefilledTotal) : 0),
      output: outputTokens,
    },
    bytesMoved,
    sessions: { started: sessionsStarted, finished: sessionsFinished, dropped: sessionsDropped, perClass },
    replicas,
    fleet: {
      outputTokensPerS: round(simulatedS > 0 ? outputTokens / simulatedS : 0),
      requestsPerS: round(simulatedS > 0 ? finished / simulatedS : 0),
      gpuSeconds: round(gpuSeconds),
      costUSD: round((gpuSeconds / 3600) * rs.gpuHourUSD),
      slo: { ttftP90S: rs.sloTtftS, tpotP90S: rs.sloTpotS },
      goodput: {
        requestsPerS: round(simulatedS > 0 ? good / simulatedS : 0),
        share: round(finished > 0 ? good / finished : 0),
        shareOfEnded: round(finished + failed > 0 ? good / (finished + failed) : 0),
        outputTokensPerS: round(simulatedS > 0 ? goodTokens / simulatedS : 0),
      },
      sloMet: { ttft: ttftAll.p90 <= rs.sloTtftS, tpot: tpotAll.p90 <= rs.sloTpotS },
    },
    routing,
  };
  if (pc && po) {
    metrics.pool = {
      puts: pc.puts,
      dedupPuts: pc.dedupPuts,
      fetches: pc.fetches,
      evictions: pc.evictions,
      usedBlocks: po.usedBlocks,
      capacityBlocks: po.capacityBlocks,
    };
  }
  if (sim.disagg)
    metrics.disaggregation = disaggMetrics(sim.disagg, sim.replicas, { ttft, status }, simulatedS);
  const result: FleetResult = { metrics };
  if (options.includeSeries ?? true) result.series = sim.occupancy;
  if (options.includeRequests) {
    const data: Record<string, Float64Array> = {};
    for (const k of REQUEST_COLUMNS) data[k] = col(k);
    const columns: string[] = [...REQUEST_COLUMNS];
    if (sim.disagg)
      for (const [k, v] of Object.entries(sim.disagg.cols)) {
        data[`disagg.${k}`] = Float64Array.from(v as number[]);
        columns.push(`disagg.${k}`);
      }
    result.requests = { columns, data };
  }
  return result;
}
