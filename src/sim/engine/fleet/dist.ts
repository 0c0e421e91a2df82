/**
 * Distributions for workload parameters (token counts, tool durations, think times, compile times), as plain
 * JSON-able objects so a scenario file can state them, plus the presets the lessons start from.
 *
 * Every sample comes from the Rng passed in (a seeded sfc32 stream), never from Math.random. A scenario file's
 * distributions are checked by distValidation.ts before they reach here.
 */
import { TRACELAB_STEP_MIX } from '../catalog/pauses';
import type { Rng } from '../rng';

export type Dist =
  | { kind: 'constant'; value: number }
  | { kind: 'uniform'; min: number; max: number }
  | { kind: 'exponential'; mean: number; min?: number; max?: number }
  /** Log-normal by its median and log-space sigma; optionally clipped to [min, max]. */
  | { kind: 'lognormal'; median: number; sigma: number; min?: number; max?: number }
  /** Normal, clipped to [min, max] (min defaults to 0). */
  | { kind: 'normal'; mean: number; sd: number; min?: number; max?: number }
  /** Draw one of `values` with the given weights (uniform when absent). */
  | { kind: 'choice'; values: number[]; weights?: number[] }
  /** A mixture: pick a component by weight, then sample it. */
  | { kind: 'mixture'; components: { weight: number; dist: Dist }[] }
  /**
   * A step that waits for parallel calls: `calls` of them (a count: constant or choice of whole numbers ≥ 1), each
   * lasting a draw of `each`; the step waits for the longest. An agent's round can issue several tool calls at once
   * and its next turn starts when the last returns, which is the idle gap its KV sits through (TraceLab's
   * eviction_tradeoff takes "the max leading tool-result duration").
   */
  | { kind: 'parallel'; calls: Dist; each: Dist };

function clip(x: number, min: number | undefined, max: number | undefined): number {
  if (min !== undefined && x < min) return min;
  if (max !== undefined && x > max) return max;
  return x;
}

export function sample(d: Dist, rng: Rng): number {
  switch (d.kind) {
    case 'constant':
      return d.value;
    case 'uniform':
      return rng.uniform(d.min, d.max);
    case 'exponential':
      return clip(rng.exponential(d.mean), d.min, d.max);
    case 'lognormal':
      return clip(rng.lognormal(d.median, d.sigma), d.min, d.max);
    case 'normal':
      return clip(d.mean + d.sd * rng.normal(), d.min ?? 0, d.max);
    case 'choice': {
      const w = d.weights;
      if (!w) return d.values[rng.int(d.values.length)];
      let total = 0;
      for (const x of w) total += x;
      let u = rng.next() * total;
      for (let i = 0; i < d.values.length; i++) {
        u -= w[i];
        if (u < 0) return d.values[i];
      }
      return d.values[d.values.length - 1];
    }
    case 'mixture': {
      let total = 0;
      for (const c of d.components) total += c.weight;
      let u = rng.next() * total;
      for (const c of d.components) {
        u -= c.weight;
        if (u < 0) return sample(c.dist, rng);
      }
      return sample(d.components[d.components.length - 1].dist, rng);
    }
    case 'parallel': {
      const n = sampleInt(d.calls, rng, 1);
      let longest = sample(d.each, rng);
      for (let i = 1; i < n; i++) longest = Math.max(longest, sample(d.each, rng));
      return longest;
    }
  }
}

/**
 * The same distribution as an object of one shape: every field of every kind present (undefined where unused), in
 * one order, mixtures' components too. sample() reads `kind`, `min` and `max` of whatever it is given; a scenario's
 * distributions arrive as objects of a dozen shapes (one per kind, and per optional field given or not), which made
 * those reads megamorphic (V8's --log-ic) in the fleet's hottest sampling sites. Samples are unchanged: every
 * unused field reads as undefined either way.
 */
export function uniformShape(d: Dist): Dist {
  const x = d as Partial<Record<string, unknown>>;
  return {
    kind: d.kind,
    value: x.value,
    min: x.min,
    max: x.max,
    mean: x.mean,
    median: x.median,
    sigma: x.sigma,
    sd: x.sd,
    values: x.values,
    weights: x.weights,
    components:
      d.kind === 'mixture'
        ? d.components.map((c) => ({ weight: c.weight, dist: uniformShape(c.dist) }))
        : undefined,
    calls: d.kind === 'parallel' ? uniformShape(d.calls) : undefined,
    each: d.kind === 'parallel' ? uniformShape(d.each) : undefined,
  } as Dist;
}

/** A sample rounded to a non-negative integer (token counts, turn counts). */
export function sampleInt(d: Dist, rng: Rng, min = 0): number {
  const x = Math.round(sample(d, rng));
  return x < min ? min : x;
}

/** The median of a distribution where it has a closed form (for docs and tests); NaN otherwise. */
export function median(d: Dist): number {
  switch (d.kind) {
    case 'constant':
      return d.value;
    case 'uniform':
      return (d.min + d.max) / 2;
    case 'exponential':
      return clip(d.mean * Math.LN2, d.min, d.max);
    case 'lognormal':
      return clip(d.median, d.min, d.max);
    case 'normal':
      return clip(d.mean, d.min ?? 0, d.max);
    default:
      return NaN;
  }
}

/** Quantile z-scores used to fit log-normals to published percentiles. */
const Z90 = 1.2815515655446004;
const Z99 = 2.3263478740408408;

/** A log-normal component of a mixture, by weight, median (s) and log-space sigma. */
function ln(weight: number, median: number, sigma: number): { weight: number; dist: Dist } {
  return { weight, dist: { kind: 'lognormal', median, sigma } };
}

/*
 * Coding agents' tool calls, per agent, from TraceLab (uw-syfi/TraceLab, CC BY 4.0 data; 432,510 tool records
 * from 43 developers). Published figures (artifacts/tool_calls/tool_latency_distribution/README.md, "SyFI
 * result analysis"):
 *   Claude Code: median ≈ 129 ms; calls < 1 s ≈ 70% of calls and < 1% of tool time; calls > 1 min ≈ 4.9% of
 *                calls and ≈ 92% of time; ≈ 1,251 tool-hours.
 *   Codex:       median ≈ 626 ms, a near-vertical step around 1 s; calls < 10 s ≈ 88% of calls and ≈ 12% of
 *                time; calls > 1 min ≈ 3.1% of calls and ≈ 61% of time; ≈ 413 tool-hours.
 * Means are not published per agent. Derived: tool-hours over call counts, Claude 1,251 h / ≈ 141k calls
 * (tool_call_counts: Bash 67k + Read 32k + Edit 18k are the top three, 82.76% of calls per
 * trace_facts/paper_macros) = 31.9 s; Codex 413 h / ≈ 290k calls (codex_wall_internal_gap: 253k both-timed
 * calls are 87.3% of Codex calls) = 5.1 s. Both are lower bounds: calls without a positive latency are left out
 * of the hours but not of the counts (the merged mean over positive latencies is 18.4 s,
 * session_timing_distribution.tex, against 13.9 s for hours over all calls), so each mean may be up to ≈ 1.33×
 * higher.
 * Merged figures used as further targets: median 0.3 s, p90 13.6 s, p99 3.6 min, mean 18.4 s
 * (session_timing_distribution.tex, "per individual latency"); 3.97% of calls > 1 min carrying 84.68% of time
 * (paper_macros.tex); < 1 s ≈ 61% of calls (tool_category_distribution README).
 *
 * Form: per agent a mixture of three log-normals (a fast body, a cluster near one second, a heavy tail),
 * unclipped so the closed-form mean is the sampled mean. Fitted jointly by weighted least squares on the log
 * ratio of ours to published, every figure above, with the two agents mixed 48.3% Claude / 51.7% Codex (the
 * share that makes the merged 3.97% over a minute from 4.9% and 3.1%). Residuals (ours / published), asserted by
 * validation/rows/tracelab.ts:
 *   Claude: median 1.00, P(< 1 s) 1.01, time < 1 s 0.61% (< 1%), P(> 1 min) 1.02, time > 1 min 0.98,
 *           mean 28.7 s against ≥ 31.9 s (0.90).
 *   Codex:  median 1.00, P(< 10 s) 1.03, time < 10 s 1.00, P(> 1 min) 1.00, time > 1 min 0.96,
 *           mean 6.35 s against ≥ 5.1 s (1.24, inside the 1.33× the lower bound allows).
 *   Merged: median 0.99, p90 0.96, p99 1.05, mean 0.93, P(> 1 min) 1.01, time > 1 min 1.00, P(< 1 s) 0.99.
 */

/** Per-agent tool-call durations (s): TraceLab's Claude Code and Codex, fitted as described above. */
export const AGENT_TOOL_LATENCY = {
  'claude-code': {
    kind: 'mixture',
    components: [ln(0.48, 0.054, 0.3), ln(0.185, 0.86, 0.2), ln(0.335, 5, 2.38)],
  },
  codex: {
    kind: 'mixture',
    components: [ln(0.509, 0.0261, 1.5), ln(0.397, 1.7, 0.15), ln(0.094, 41, 0.865)],
  },
} satisfies Record<string, Dist>;

/** Claude Code's share of the coding mix's tool calls (see above). */
export const CODING_MIX_CLAUDE_SHARE = 0.483;

/*
 * Human waits (previous event → next user message), TraceLab
 * artifacts/human_in_the_loop/human_input_wait/README.md: median ≈ 86 s (Claude 79 s, Codex 95 s); within
 * 5 min 79.6% / 69.8% of waits carrying 2.8% / 1.5% of idle time; within 1 h 96.4% / 94.9% of waits carrying
 * 11.6% / 8.9% of idle time; mean 2,401 s (Claude) / 3,260 s (Codex). Merged p90 20.6 min, p99 13.9 h, mean
 * 46.7 min (session_timing_distribution.tex, "per individual latency").
 * Form: per agent three log-normals (replies within minutes, a cluster near 15 min to an hour, waits of hours
 * to days), unclipped (the source's longest gap is ≈ 31 days). Fitted like the tool calls, the agents mixed
 * 53.3% Claude (the share that puts the merged mean at 46.7 min). Residuals (ours / published):
 *   Claude: median 1.01, ≤ 5 min 1.02, ≤ 1 h 1.00, time ≤ 5 min 0.99, time ≤ 1 h 1.00, mean 0.99.
 *   Codex:  median 1.00, ≤ 5 min 0.99, ≤ 1 h 1.00, time ≤ 5 min 1.00, time ≤ 1 h 1.00, mean 1.00.
 *   Merged: median 0.99, p90 1.00, p99 1.00, mean 1.00.
 */

/** Per-agent human reply times (s), fitted as described above. */
export const AGENT_HUMAN_WAIT = {
  'claude-code': {
    kind: 'mixture',
    components: [ln(0.914, 69, 1.22), ln(0.079, 3160, 0.3), ln(0.007, 73_000, 1.64)],
  },
  codex: {
    kind: 'mixture',
    components: [ln(0.865, 67, 1.78), ln(0.0945, 1000, 0.3), ln(0.0405, 39_000, 1.11)],
  },
} satisfies Record<string, Dist>;

/** Claude Code's share of the merged human waits (see above). */
export const HUMAN_WAIT_CLAUDE_SHARE = 0.533;

/** Both agents' human waits as one distribution. */
const HUMAN_WAIT: Dist = {
  kind: 'mixture',
  components: [
    { weight: HUMAN_WAIT_CLAUDE_SHARE, dist: AGENT_HUMAN_WAIT['claude-code'] },
    { weight: 1 - HUMAN_WAIT_CLAUDE_SHARE, dist: AGENT_HUMAN_WAIT.codex },
  ],
};

/** Both agents' tool calls as one distribution (the `coding-mix` preset). */
const CODING_MIX: Dist = {
  kind: 'mixture',
  components: [
    { weight: CODING_MIX_CLAUDE_SHARE, dist: AGENT_TOOL_LATENCY['claude-code'] },
    { weight: 1 - CODING_MIX_CLAUDE_SHARE, dist: AGENT_TOOL_LATENCY.codex },
  ],
};

/**
 * How many tool calls a coding agent's round issues at once, when it issues any: TraceLab counts 101.4 tool calls
 * and 73.6 tool-initiated steps a session (artifacts/session/session_internal_counts), and each tool-initiated
 * step follows one round that called tools, so such a round issues 101.4 / 73.6 = 1.38 calls on average. Form: a
 * geometric count from 1 with that mean, P(n) = (1 − q) qⁿ⁻¹, q = 1 − 73.6 / 101.4 (cut at 12, which leaves out
 * 2·10⁻⁷). With the 10.8% of rounds that call none (8.9 user-initiated steps of 82.5), its percentiles over every
 * round are those the same table publishes: p25 and p50 1, p90 2, p99 4 (asserted in tests/parallel-calls.test.ts).
 */
export const CALLS_PER_TOOL_ROUND: Dist = (() => {
  const q = 1 - TRACELAB_STEP_MIX.toolStepsPerSession / TRACELAB_STEP_MIX.toolCallsPerSession;
  const values = Array.from({ length: 12 }, (_, i) => i + 1);
  return { kind: 'choice', values, weights: values.map((n) => (1 - q) * Math.pow(q, n - 1)) };
})();

/**
 * Tool-call duration presets (seconds). The fit and the source are stated beside each. A scenario may use a
 * preset by name or give any `Dist`.
 */
export const TOOL_LATENCY_PRESETS = {
  /**
   * Fast local tools (file read/edit/grep). TraceLab (uw-syfi/TraceLab,
   * artifacts/tool_calls/tool_latency_distribution/README.md and its tool_latency_summary.csv): Read p50 36 ms,
   * Edit p50 95 ms; "fast file/edit primitives cluster in the tens-to-hundreds of milliseconds with tight
   * boxes". Median 50 ms, sigma 0.8 (5th–95th ≈ 13–190 ms), clipped at 10 s.
   */
  local: { kind: 'lognormal', median: 0.05, sigma: 0.8, max: 10 },
  /**
   * Shell commands. TraceLab, same README/CSV: Claude Code `Bash` p50 ≈ 409 ms, spanning ms to minutes.
   * Median 0.45 s, sigma 1.5 (p90 ≈ 3.1 s), clipped at 10 min.
   */
  shell: { kind: 'lognormal', median: 0.45, sigma: 1.5, max: 600 },
  /**
   * Web / API calls: seconds. NVIDIA Dynamo agentic-inference blog (ai-dynamo/dynamo
   * docs/blogs/agentic-inference/agentic-inference.md): a tool-call pause of "2–30 seconds while the agent
   * waits for an external API". Log-normal with that range as its 1st–99th percentiles: median √(2·30) =
   * 7.75 s, sigma ln(30/2) / (2 z₉₉) = 0.582 (mean 9.2 s); 1% of calls fall under 2 s and 1% over 30 s.
   * Unclipped.
   */
  web: { kind: 'lognormal', median: Math.sqrt(2 * 30), sigma: Math.log(30 / 2) / (2 * Z99) },
  /** A human in the loop: TraceLab's human waits, both agents (fit above). */
  human: HUMAN_WAIT,
  /**
   * A coding agent's mix of tools as a whole: TraceLab's Claude Code and Codex tool calls, mixed 48.3% / 51.7%
   * (fit above): median 0.30 s, mean 17.1 s, 4.0% of calls over a minute carrying 84% of tool time.
   */
  'coding-mix': CODING_MIX,
  /**
   * A coding agent's step rather than its call: the round's parallel calls (CALLS_PER_TOOL_ROUND, 1.38 on average)
   * drawn independently from the coding mix, the step waiting for the longest. The mechanism is TraceLab's own
   * definition of a tool step's gap (eviction_tradeoff: "the max leading tool-result duration"); independence is
   * this preset's assumption, and TraceLab's measured gaps say it overstates the body: Codex's tool steps wait a
   * median of about 0.25 s (p90 about 30 s; cache_hit_idle_relationship README), under its calls' 0.63 s, where
   * independent draws give 1.5 s (p90 20 s). So the lessons price a pause with a call (`coding-mix`) and this
   * preset shows what parallel calls would add.
   */
  'coding-step': { kind: 'parallel', calls: CALLS_PER_TOOL_ROUND, each: CODING_MIX },
} satisfies Record<string, Dist>;

export type ToolLatencyPreset = keyof typeof TOOL_LATENCY_PRESETS;

/**
 * Human think time between chat turns (seconds): TraceLab's human waits (the `human` preset), clipped at
 * 30 min so a chat session ends within a lesson-sized horizon (the clip moves the 30 min+ waits, ≈ 8% of them,
 * to 30 min; the median is untouched).
 */
export const CHAT_THINK_TIME: Dist = { kind: 'mixture', components: clipComponents(HUMAN_WAIT, 1800) };

/** A mixture's log-normal components with each clipped at `max` (a clip of the mixture, component-wise). */
function clipComponents(d: Dist, max: number): { weight: number; dist: Dist }[] {
  if (d.kind === 'lognormal') return [{ weight: 1, dist: { ...d, max } }];
  if (d.kind !== 'mixture') throw new Error('clipComponents expects log-normals and mixtures of them');
  let total = 0;
  for (const c of d.components) total += c.weight;
  return d.components.flatMap((c) =>
    clipComponents(c.dist, max).map((cc) => ({ weight: (c.weight / total) * cc.weight, dist: cc.dist })),
  );
}

/**
 * Structured-output grammar compile time presets (seconds), MaskBench (guidance-ai/jsonschemabench
 * maskbench/README.md, 11,306 schemas, single-threaded; XGrammar 0.1.17, LLGuidance 0.7.10): XGrammar p50 0.92 s /
 * p90 11.6 s; LLGuidance p50 ≈ 1.0 ms / p90 3.0 ms. Log-normals through p50 and p90, clipped at the same table's
 * p100 (XGrammar's is MaskBench's 900 s timeout, LLGuidance's 229 ms). MaskBench's time to first mask is one figure
 * per schema, so the fleet draws one compile time per schema id from these (fleet/grammar.ts, SchemaCosts), not per
 * compile.
 */
export const GRAMMAR_COMPILE_PRESETS = {
  xgrammar: { kind: 'lognormal', median: 0.919, sigma: Math.log(11.6 / 0.919) / Z90, max: 900 },
  llguidance: { kind: 'lognormal', median: 0.001037, sigma: Math.log(3.03 / 1.037) / Z90, max: 0.229367 },
} as const satisfies Record<string, Dist>;

/**
 * MaskBench's time-between-masks figures (µs), as lesson 07.09's table cites them: p50, p99, p100 (the slowest
 * mask of any schema), mean. The same table as the compile presets above.
 */
export const MASKBENCH_MASK_US = {
  xgrammar: { p50: 9, p99: 5687, p100: 6_283_834, mean: 728 },
  llguidance: { p50: 46, p99: 533, p100: 33_055, mean: 64 },
} as const;

/**
 * Log-normal through a mean and a p99: ln(p99 / mean) = z·σ − σ²/2, of whose two roots the smaller σ (the
 * thinner tail) is taken.
 */
function lognormalThroughMeanP99(meanS: number, p99S: number, maxS: number): Dist {
  const sigma = Z99 - Math.sqrt(Z99 * Z99 - 2 * Math.log(p99S / meanS));
  return { kind: 'lognormal', median: meanS / Math.exp((sigma * sigma) / 2), sigma, max: maxS };
}

/**
 * Per-schema mask cost (seconds of one CPU thread per constrained sequence per decode step). MaskBench pools its
 * per-token times over all schemas; the fleet gives each schema one cost, its mean over its tokens, drawn from a
 * log-normal through the pooled mean (which sets the CPU load a batch makes) and the pooled p99 (a schema's mean
 * averages its tokens, so across schemas it spreads less than single tokens do). That puts the median schema at
 * 360 µs for XGrammar (σ 1.19) and 30 µs for LLGuidance (σ 1.24), above the per-token medians (9 and 46 µs), as
 * means of right-skewed per-token times are. Simplified: MaskBench publishes no per-schema figure, so the shape
 * is inferred; a schema's steps all cost its mean (the spread of its own tokens is dropped). Capped at each
 * engine's slowest single mask in the same table (p100: 6.28 s for XGrammar, 33 ms for LLGuidance), which no
 * schema's mean can exceed.
 */
export const GRAMMAR_MASK_COST_PRESETS = {
  xgrammar: lognormalThroughMeanP99(
    MASKBENCH_MASK_US.xgrammar.mean * 1e-6,
    MASKBENCH_MASK_US.xgrammar.p99 * 1e-6,
    MASKBENCH_MASK_US.xgrammar.p100 * 1e-6,
  ),
  llguidance: lognormalThroughMeanP99(
    MASKBENCH_MASK_US.llguidance.mean * 1e-6,
    MASKBENCH_MASK_US.llguidance.p99 * 1e-6,
    MASKBENCH_MASK_US.llguidance.p100 * 1e-6,
  ),
} as const satisfies Record<keyof typeof GRAMMAR_COMPILE_PRESETS, Dist>;

/**
 * How an engine spreads a batch's mask work over CPU threads (vllm-project/vllm
 * vllm/v1/structured_output/__init__.py, StructuredOutputManager): up to `serialUpTo` constrained sequences the
 * masks are filled one after another on the engine thread (fill_bitmask_parallel_threshold = 128); above it, in
 * tasks of `chunk` sequences (fill_bitmask_parallel_batch_size = 16) on a pool of `threads` workers
 * (max(1, min(cpu_count // 2, 8)): 8 on any host with 16 or more logical CPUs, as every H100 server has).
 * Grammar compiles go to their own pool; the fleet gives it the same `threads` (vLLM's compile pool has
 * (cpu_count + 1) // 2 workers, more than 8 on such a host, so this is conservative).
 */
export const GRAMMAR_CPU_DEFAULTS = { threads: 8, serialUpTo: 128, chunk: 16 } as const;
