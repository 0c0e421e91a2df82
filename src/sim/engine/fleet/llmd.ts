/**
 * llm-d's scheduler (the endpoint picker, EPP): every scorer gives each pod a score in [0, 1], the profile adds
 * them up weighted, and a picker takes the pod with the highest total.
 *
 * Config (router), names stable:
 *   { "kind": "llm-d",
 *     "scorers": [ { "type": "queue", "weight": 2 },
 *                  { "type": "kv-cache-utilization", "weight": 2 },
 *                  { "type": "prefix-cache", "weight": 3 } ],   // the default list (llm-d-router's defaults)
 *     "picker": "max-score",                                     // or "random", "weighted-random"
 *     "tieBreak": "random",                                      // max-score ties: "random" (llm-d) or "order"
 *     "view": { "kind": "llm-d-approximate" } }                  // what the prefix scorers read
 * Scorer types: "prefix-cache" (matched / hashed blocks, the approximate scorer's formula), "precise-prefix-cache"
 * (matched / prompt blocks, or min–max over the pods that match: `"normalize": "min-max"`), "queue" (waiting
 * requests, min–max), "kv-cache-utilization" (1 − KV in use), "load-aware" (llm-d's own: 0.5 at an empty queue,
 * falling to 0 at `queueThreshold` waiting requests, default 128).
 *
 * Sources (formulas and defaults):
 *  - Weighted sum: kubernetes-sigs/gateway-api-inference-extension v1.0.0
 *    pkg/epp/scheduling/framework/scheduler_profile.go `runScorerPlugins` (Σ clamp(score, 0, 1) × weight).
 *  - queue: same repo, plugins/scorer/queue.go: (max − q) / (max − min) over the pods' waiting queues, 1 for all
 *    when they are equal. kv-cache-utilization: plugins/scorer/kvcache_utilization.go: 1 − KVCacheUsagePercent,
 *    which vLLM reports as the share of KV blocks not free, and a cached block no request holds is free
 *    (vllm/v1/core/block_pool.py `get_usage`): the lab counts the blocks running requests pin.
 *  - prefix-cache: plugins/multi/prefix/plugin.go `Score`: matched blocks / hashed blocks.
 *  - precise-prefix-cache: llm-d/llm-d-inference-scheduler v0.3.0 pkg/plugins/scorer/utils.go
 *    `indexedScoresToNormalizedScoredPods` (min–max over the pods with a match, 1 when only one value, 0 for the
 *    rest); llm-d-router HEAD (2026-05, #1107) preciseprefixcache/utils.go `absoluteScoredPods`
 *    (matched / total, the default here). The blocks matched are llm-d-kv-cache's `LongestPrefixScorer`
 *    (pkg/kvcache/kvblock_scorer.go: consecutive blocks from the first).
 *  - load-aware: llm-d-inference-scheduler v0.3.0 pkg/plugins/scorer/load_aware.go (QueueThresholdDefault 128).
 *  - max-score picker: GAIE v1.0.0 plugins/picker/max_score_picker.go (shuffle, then stable sort by score: ties
 *    are broken uniformly at random); random-picker: random_picker.go; weighted-random: weighted_random_picker.go
 *    (probability proportional to the score).
 *  - Default weights: llm-d/llm-d-inference-scheduler (llm-d-router) HEAD 520af47,
 *    pkg/epp/config/loader/defaults.go `loadDefaultConfig`: queue-scorer 2, kv-cache-utilization-scorer 2,
 *    prefix-cache-scorer 3, max-score-picker; llm-d's scheduling benchmark (llm-d-kv-cache
 *    benchmarking/73-capacity) ran estimated 1/1/1 and precise 3/2/2.
 *
 * The pods' metrics (waiting queue, KV usage) are read as the EPP reads them: from its last scrape of each pod's
 * metrics endpoint, every `metricsRefreshS` (GAIE v1.0.0 pkg/epp/backend/metrics/pod_metrics.go `startRefreshLoop`,
 * one ticker per pod at `--refresh-metrics-interval`, 50 ms), and what the scrape sees is the engine's stats as of
 * its last step (Replica.reported): a pod in the middle of a 0.4 s prefill step still reports the queue it had
 * when the step began. Every request routed in between sees the same numbers, so a load-only profile sends a burst
 * to the same pod. The scrapes of all pods happen at the same instants: GAIE runs one ticker per pod, started as
 * the pod joins the datastore, and the pods of a running pool all join when the EPP lists the pool at start-up,
 * so their tickers run nearly in step. (Spread evenly over the interval instead, they move llm-d's benchmark:
 * the approximate router's throughput from 7,539 to 8,115 tok/s, docs/validation.md.)
 */
import type { RouteDecision, RouteInput, Router, RouterEnv } from './router';
import { matchWindow } from './views/capabilities';

export type LlmdScorerConfig =
  | { type: 'prefix-cache'; weight?: number }
  | { type: 'precise-prefix-cache'; weight?: number; normalize?: 'absolute' | 'min-max' }
  | { type: 'queue'; weight?: number }
  | { type: 'kv-cache-utilization'; weight?: number }
  | { type: 'load-aware'; weight?: number; queueThreshold?: number };

export type LlmdScorerType = LlmdScorerConfig['type'];
export const LLMD_SCORER_TYPES: readonly LlmdScorerType[] = [
  'prefix-cache',
  'precise-prefix-cache',
  'queue',
  'kv-cache-utilization',
  'load-aware',
];
export const LLMD_PICKERS = ['max-score', 'random', 'weighted-random'] as const;
export type LlmdPicker = (typeof LLMD_PICKERS)[number];

export interface LlmdRouterConfig {
  kind: 'llm-d';
  /** Default: llm-d-router's default profile (queue 2, kv-cache-utilization 2, prefix-cache 3). */
  scorers?: LlmdScorerConfig[];
  picker?: LlmdPicker;
  /** How max-score breaks ties: "random" (llm-d shuffles first) or "order" (the lowest replica index). */
  tieBreak?: 'random' | 'order';
  /** Seconds between the EPP's scrapes of each pod's metrics; 0 reads them live. Default 0.05 (GAIE). */
  metricsRefreshS?: number;
}

/** GAIE v1.0.0 pkg/epp/server/runserver.go `DefaultRefreshMetricsInterval` (the `--refresh-metrics-interval` flag). */
export const GAIE_REFRESH_METRICS_S = 0.05;

/** llm-d-router pkg/epp/config/loader/defaults.go `loadDefaultConfig` (HEAD 520af47, 2026-05). */
export const LLMD_DEFAULT_SCORERS: readonly LlmdScorerConfig[] = [
  { type: 'queue', weight: 2 },
  { type: 'kv-cache-utilization', weight: 2 },
  { type: 'prefix-cache', weight: 3 },
];

/** A scorer's weight when the config names none: GAIE config loader `DefaultScorerWeight` (1). */
const DEFAULT_WEIGHT = 1;
/** llm-d-inference-scheduler v0.3.0 load_aware.go `QueueThresholdDefault`. */
const LOAD_AWARE_QUEUE_THRESHOLD = 128;

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);

/** One scorer's scores for every pod, written into `out`. */
function scoreInto(
  s: LlmdScorerConfig,
  req: RouteInput,
  env: RouterEnv,
  matched: Int32Array,
  out: Float64Array,
): void {
  const loads = env.loads;
  const n = loads.length;
  switch (s.type) {
    case 'prefix-cache': {
      const total = matchWindow(env.view, req.promptBlocks);
      for (let i = 0; i < n; i++) out[i] = total > 0 ? matched[i] / total : 0;
      return;
    }
    case 'precise-prefix-cache': {
      const total = req.promptBlocks;
      if ((s.normalize ?? 'absolute') === 'absolute') {
        for (let i = 0; i < n; i++) out[i] = total > 0 ? matched[i] / total : 0;
        return;
      }
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < n; i++)
        if (matched[i] > 0) {
          if (matched[i] < lo) lo = matched[i];
          if (matched[i] > hi) hi = matched[i];
        }
      for (let i = 0; i < n; i++)
        out[i] = matched[i] <= 0 ? 0 : hi === lo ? 1 : (matched[i] - lo) / (hi - lo);
      return;
    }
    case 'queue': {
      let lo = Infinity;
      let hi = -Infinity;
      for (const l of loads) {
        if (l.waitingRequests < lo) lo = l.waitingRequests;
        if (l.waitingRequests > hi) hi = l.waitingRequests;
      }
      for (let i = 0; i < n; i++) out[i] = hi === lo ? 1 : (hi - loads[i].waitingRequests) / (hi - lo);
      return;
    }
    case 'kv-cache-utilization':
      for (let i = 0; i < n; i++) out[i] = 1 - loads[i].kvInUse;
      return;
    case 'load-aware': {
      const th = s.queueThreshold ?? LOAD_AWARE_QUEUE_THRESHOLD;
      for (let i = 0; i < n; i++) {
        const q = Math.min(loads[i].waitingRequests, th);
        out[i] = q === 0 ? 0.5 : 0.5 * (1 - q / th);
      }
      return;
    }
  }
}

export function usesPrefix(s: LlmdScorerConfig): boolean {
  return (s.type === 'prefix-cache' || s.type === 'precise-prefix-cache') && (s.weight ?? DEFAULT_WEIGHT) > 0;
}

export class LlmdRouter implements Router {
  readonly name = 'llm-d';
  readonly usesCache: boolean;
  readonly needsKvUsage: boolean;
  readonly metricsRefreshS: number;
  private readonly scorers: readonly LlmdScorerConfig[];
  private totals = new Float64Array(0);
  private one = new Float64Array(0);
  private readonly none = new Int32Array(0);

  constructor(private readonly c: LlmdRouterConfig) {
    this.scorers = c.scorers ?? LLMD_DEFAULT_SCORERS;
    this.usesCache = this.scorers.some(usesPrefix);
    this.needsKvUsage = this.scorers.some((s) => s.type === 'kv-cache-utilization');
    this.metricsRefreshS = c.metricsRefreshS ?? GAIE_REFRESH_METRICS_S;
  }

  /** Each pod's weighted total (the array is reused by the next call). */
  scores(req: RouteInput, env: RouterEnv, matched: Int32Array): Float64Array {
    const n = env.loads.length;
    if (this.totals.length !== n) {
      this.totals = new Float64Array(n);
      this.one = new Float64Array(n);
    }
    this.totals.fill(0);
    for (const s of this.scorers) {
      const w = s.weight ?? DEFAULT_WEIGHT;
      if (w === 0) continue;
      scoreInto(s, req, env, matched, this.one);
      for (let i = 0; i < n; i++) this.totals[i] += clamp01(this.one[i]) * w;
    }
    return this.totals;
  }

  route(req: RouteInput, env: RouterEnv): RouteDecision {
    const n = env.loads.length;
    const matched = this.usesCache ? env.view.match(req.hashes, req.promptBlocks) : this.none;
    const total = this.scores(req, env, matched);
    const pick = this.pick(total, n, env);
    return { replica: pick, reason: 'weighted-score', matchedBlocks: this.usesCache ? matched[pick] : -1 };
  }

  private pick(total: Float64Array, n: number, env: RouterEnv): number {
    const picker = this.c.picker ?? 'max-score';
    if (picker === 'random') return env.rng.int(n);
    if (picker === 'weighted-random') {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += total[i];
      if (!(sum > 0)) return env.rng.int(n);
      let x = env.rng.next() * sum;
      for (let i = 0; i < n; i++) {
        x -= total[i];
        if (x < 0) return i;
      }
      return n - 1;
    }
    // max-score: the highest total; ties uniformly at random (reservoir over the tied pods) or by index.
    const random = (this.c.tieBreak ?? 'random') === 'random';
    let best = 0;
    let ties = 1;
    for (let i = 1; i < n; i++) {
      if (total[i] > total[best]) {
        best = i;
        ties = 1;
      } else if (total[i] === total[best] && random) {
        ties++;
        if (env.rng.int(ties) === 0) best = i;
      }
    }
    return best;
  }
}
