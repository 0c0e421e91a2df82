/**
 * Published figures on tool-call pauses and idle KV (lesson 07.06), each quoted from its source. Times in
 * seconds, shares as fractions. The tool-latency presets that the simulator samples are fitted to some of these
 * (src/sim/engine/fleet/dist.ts); these are the measured values they are compared with.
 */

const TRACELAB_TOOLS = 'TraceLab (uw-syfi/TraceLab), artifacts/tool_calls/tool_latency_distribution';
const TRACELAB_HUMAN = 'TraceLab (uw-syfi/TraceLab), artifacts/human_in_the_loop/human_input_wait';
const TRACELAB_EVICTION = 'TraceLab (uw-syfi/TraceLab), artifacts/prefix_cache/eviction_tradeoff';

export interface PublishedMark {
  /** Seconds. */
  value: number;
  label: string;
  source: string;
}

/** Published medians (and, where marked, other percentiles) shown as reference marks beside each preset's CDF. */
export const TOOL_LATENCY_MARKS: Readonly<Record<string, readonly PublishedMark[]>> = {
  local: [
    { value: 0.036, label: 'Read 36 ms', source: TRACELAB_TOOLS },
    { value: 0.095, label: 'Edit 95 ms', source: TRACELAB_TOOLS },
  ],
  shell: [{ value: 0.409, label: 'Bash 409 ms', source: TRACELAB_TOOLS }],
  web: [
    {
      value: 2,
      label: 'Dynamo: 2 s',
      source:
        'NVIDIA Dynamo blog, "Full Stack Optimizations for Agentic Inference with Dynamo" (ai-dynamo/dynamo docs/blogs/agentic-inference/agentic-inference.md)',
    },
    {
      value: 30,
      label: '30 s',
      source:
        'NVIDIA Dynamo blog, "Full Stack Optimizations for Agentic Inference with Dynamo" (ai-dynamo/dynamo docs/blogs/agentic-inference/agentic-inference.md)',
    },
  ],
  human: [
    { value: 86, label: '86 s', source: TRACELAB_HUMAN },
    { value: 1260, label: 'p90 21 min', source: TRACELAB_HUMAN },
  ],
  'coding-mix': [
    { value: 0.129, label: 'Claude 129 ms', source: TRACELAB_TOOLS },
    { value: 0.626, label: 'Codex 626 ms', source: TRACELAB_TOOLS },
  ],
};

const TRACELAB_TIMING = 'TraceLab (uw-syfi/TraceLab), artifacts/session/session_timing_distribution';
const TRACELAB_MACROS = 'TraceLab (uw-syfi/TraceLab), artifacts/trace_facts/paper_macros/paper_macros.tex';

/**
 * TraceLab's coding-agent tool calls, per agent (tool_latency_distribution README, "SyFI result analysis").
 * `meanLowerBoundS` is derived, not published: the agent's tool-hours (same README: Claude ≈ 1,251 h, Codex
 * ≈ 413 h) over its call count (Claude ≈ 141k: tool_call_counts' Bash 67k + Read 32k + Edit 18k are 82.76% of
 * its calls per paper_macros.tex; Codex ≈ 290k: codex_wall_internal_gap's 253k both-timed calls are 87.3% of its
 * calls). Calls without a positive latency count in the calls but not in the hours, so the true mean over timed
 * calls is higher, by up to ≈ 1.33× (the merged mean over positive latencies, 18.4 s, against 13.9 s for all
 * hours over all 432,510 tool records).
 */
export const TRACELAB_TOOL_TAIL = {
  source: TRACELAB_TOOLS,
  claude: {
    medianS: 0.129,
    toolHours: 1251,
    calls: 141_000,
    /** Calls under 1 s: ≈ 70% of calls and "under 1%" of tool time (an upper bound). */
    underOneSecond: { calls: 0.7, time: 0.01 },
    /** Calls over 1 min: ≈ 4.9% of calls and ≈ 92% of tool time. */
    overOneMinute: { calls: 0.049, time: 0.92 },
  },
  codex: {
    medianS: 0.626,
    toolHours: 413,
    calls: 290_000,
    /** Calls under 10 s: ≈ 88% of calls and ≈ 12% of tool time. */
    underTenSeconds: { calls: 0.88, time: 0.12 },
    /** Calls over 1 min: ≈ 3.1% of calls and ≈ 61% of tool time. */
    overOneMinute: { calls: 0.031, time: 0.61 },
  },
  /**
   * Both agents: per positive tool latency, mean 18.4 s, p50 0.3 s, p90 13.6 s, p99 3.6 min
   * (session_timing_distribution.tex, "per individual latency"); tool time per LLM step averages 16.8 s (the
   * "≈ 16.8 s" the tool-latency README calls the average tool call is this per-step figure: 1,664 tool-hours over
   * 357,161 steps); 3.97% of calls over 1 min carrying 84.68% of the time (paper_macros.tex); calls under 1 s
   * ≈ 61% (tool_category_distribution README).
   */
  merged: {
    source: `${TRACELAB_TIMING}; ${TRACELAB_MACROS}`,
    meanS: 18.4,
    medianS: 0.3,
    p90S: 13.6,
    p99S: 3.6 * 60,
    perStepMeanS: 16.8,
    overOneMinute: { calls: 0.0397, time: 0.8468 },
    underOneSecondCalls: 0.61,
  },
} as const;

/** Per-agent mean tool call (s) derived from tool-hours over calls: a lower bound (see TRACELAB_TOOL_TAIL). */
export function tracelabMeanLowerBoundS(agent: 'claude' | 'codex'): number {
  const a = TRACELAB_TOOL_TAIL[agent];
  return (a.toolHours * 3600) / a.calls;
}

/** TraceLab's human waits (previous event → next user message), human_input_wait README and timing table. */
export const TRACELAB_HUMAN_WAIT = {
  source: TRACELAB_HUMAN,
  medianS: 86,
  /** Merged p90 20.6 min, p99 13.9 h, mean 46.7 min (session_timing_distribution.tex). */
  p90S: 20.6 * 60,
  p99S: 13.9 * 3600,
  meanS: 46.7 * 60,
  claude: {
    medianS: 79,
    meanS: 2401,
    /** Waits that end within 5 minutes / 1 hour: share of waits and their share of idle time. */
    withinFiveMinutes: { waits: 0.796, time: 0.028 },
    withinOneHour: { waits: 0.964, time: 0.116 },
  },
  codex: {
    medianS: 95,
    meanS: 3260,
    withinFiveMinutes: { waits: 0.698, time: 0.015 },
    withinOneHour: { waits: 0.949, time: 0.089 },
  },
} as const;

/**
 * The trace's step mix and cache ceiling, for replaying the idle-timeout sweep from the presets: user-initiated
 * against tool-initiated steps per session (artifacts/session/session_internal_counts, 8.9 and 73.6 on average),
 * the token-weighted prefix hit rate of the deployed caches (paper_macros.tex, 95.746%) and the share of
 * appended tokens that are genuinely new (artifacts/prefix_cache/redundant_prefill, 19.0%).
 */
export const TRACELAB_STEP_MIX = {
  source:
    'TraceLab (uw-syfi/TraceLab), artifacts/session/session_internal_counts; prefix_cache/redundant_prefill',
  userStepsPerSession: 8.9,
  toolStepsPerSession: 73.6,
  /** Tool calls per session, and per round (every LLM round, 0 for a round that calls none): avg, p50, p90, p99. */
  toolCallsPerSession: 101.4,
  toolCallsPerRound: { mean: 1.2, p50: 1, p90: 2, p99: 4 },
  deployedHitRate: 0.95746,
  freshShareOfAppend: 0.19,
} as const;

/**
 * TraceLab's idle-timeout sweep of an ideal prefix cache: hit rate and the storage ratio R (suspended KV over
 * active KV, R(τ) = Σ min(gᵢ, τ) / Σ generation time) at three eviction timeouts; and the effective timeout of
 * the providers' deployed caches.
 */
export const TRACELAB_EVICTION_SWEEP = {
  source: TRACELAB_EVICTION,
  points: [
    { timeoutS: 60, hitRate: 0.854, storageRatio: 0.74 },
    { timeoutS: 300, hitRate: 0.943, storageRatio: 1.9 },
    { timeoutS: 3600, hitRate: 0.986, storageRatio: 5.07 },
  ],
  effectiveTimeoutS: 8 * 60,
} as const;

/** InferCept (Abhyankar et al., ICML'24, arXiv 2402.01869): what discard-and-recompute costs vLLM. */
export const INFERCEPT = {
  source:
    'Abhyankar et al., "InferCept: Efficient Intercept Support for Augmented Large Language Model Inference", ICML 2024 (arXiv 2402.01869)',
  /**
   * Share of time spent recomputing KV under discard: the paper's abstract gives 37–40% of model forwarding time;
   * its authors' blog (WukLab, "InferCept", mlsys.wuklab.io/posts/infercept) 37% of end-to-end execution time.
   */
  recomputeShareOfTime: 0.37,
  /** Share of GPU memory wasted as a result, under vLLM's discard: from the authors' blog (above), not the paper. */
  wastedMemoryShare: 0.27,
  /** Higher sustainable arrival rate than vLLM: 1.6–2×. */
  arrivalRateGain: [1.6, 2] as const,
  /** Lower normalized latency per output token: 1.9–5.7×. */
  latencyGain: [1.9, 5.7] as const,
} as const;
