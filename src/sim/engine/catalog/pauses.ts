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
      source: 'NVIDIA Dynamo, agentic-inference blog (ai-dynamo/dynamo docs/blogs/agentic-inference)',
    },
    {
      value: 30,
      label: '30 s',
      source: 'NVIDIA Dynamo, agentic-inference blog (ai-dynamo/dynamo docs/blogs/agentic-inference)',
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

/** TraceLab's coding-agent tool calls (Claude Code): the heavy tail in calls and in time. */
export const TRACELAB_TOOL_TAIL = {
  source: TRACELAB_TOOLS,
  meanS: 16.8,
  claudeMedianS: 0.129,
  codexMedianS: 0.626,
  /** Claude Code: calls under 1 s are ≈ 70% of calls and under 1% of tool time. */
  underOneSecond: { calls: 0.7, time: 0.01 },
  /** Claude Code: calls over 1 min are 4.9% of calls and ≈ 92% of tool time. */
  overOneMinute: { calls: 0.049, time: 0.92 },
  /** Codex: calls over 1 min are 3.1% of calls and 61% of tool time. */
  codexOverOneMinute: { calls: 0.031, time: 0.61 },
} as const;

/** TraceLab's human reply times (the gap from the model's output to the next user message). */
export const TRACELAB_HUMAN_WAIT = {
  source: TRACELAB_HUMAN,
  medianS: 86,
  p90S: 1260,
  p99S: 14 * 3600,
  /** Waits that end within 5 minutes: share of waits (Claude) and their share of idle time. */
  withinFiveMinutes: { waits: 0.796, time: 0.028 },
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
  /** Share of end-to-end time spent recomputing KV under discard. */
  recomputeShareOfTime: 0.37,
  /** Share of GPU memory wasted. */
  wastedMemoryShare: 0.27,
  /** Higher sustainable arrival rate than vLLM: 1.6–2×. */
  arrivalRateGain: [1.6, 2] as const,
  /** Lower normalized latency per output token: 1.9–5.7×. */
  latencyGain: [1.9, 5.7] as const,
} as const;
