/**
 * Published statistics of real request traces, used as reference marks next to generated workloads.
 * Each figure is quoted from its source; derived figures (ratios) are computed from them, never typed in.
 */

export interface PublishedTraceStats {
  id: string;
  /** Short name for legends and tables. */
  name: string;
  /** Where the figures come from. */
  source: string;
  requests: number;
  /** Mean prompt (input) tokens per request. */
  avgInputTokens: number;
  /** Mean generated (output) tokens per request. */
  avgOutputTokens: number;
  /** Share of prompt tokens that hit a prefix cache, as the source defines it (0..1). */
  cacheRatio: number;
}

/**
 * Mooncake, USENIX FAST'25: Ruoyu Qin et al., "Mooncake: Trading More Storage for Less Computation — A
 * KVCache-centric Architecture for Serving LLM Chatbot", Table 2 ("Workload statistics") for the traces released
 * in kvcache-ai/Mooncake FAST25-release/traces/. Kimi production traffic, 512-token blocks, one hour each.
 * The released conversation trace reproduces the averages exactly (12,035.06 / 342.62 over 12,031 requests,
 * checked with `npm run sim -- trace-stats`); the ideal prefix hit ratio this core computes on it is 37.4% of
 * tokens, the paper's "cache ratio" 40%.
 */
export const MOONCAKE_CONVERSATION: PublishedTraceStats = {
  id: 'mooncake-conversation',
  name: 'Mooncake conversation',
  source: "Qin et al., Mooncake, FAST'25, Table 2",
  requests: 12_031,
  avgInputTokens: 12_035,
  avgOutputTokens: 343,
  cacheRatio: 0.4,
};

/** Mooncake FAST'25, Table 2: the tool & agent trace (toolagent_trace.jsonl). */
export const MOONCAKE_TOOL_AGENT: PublishedTraceStats = {
  id: 'mooncake-tool-agent',
  name: 'Mooncake tool & agent',
  source: "Qin et al., Mooncake, FAST'25, Table 2",
  requests: 23_608,
  avgInputTokens: 8_596,
  avgOutputTokens: 182,
  cacheRatio: 0.59,
};

/**
 * The ideal prefix hit ratio (tokens, infinite cache, arrival order; trace/stats.ts) that this core computes on the
 * released conversation_trace.jsonl (12,031 requests): `npm run sim -- trace-stats conversation_trace.jsonl`.
 * The file is not shipped with the course; tests/lesson-07-01.test.ts recomputes it when the file is present.
 */
export const MOONCAKE_CONVERSATION_IDEAL_HIT_RATIO = 0.3736;

export const MOONCAKE_PUBLISHED: readonly PublishedTraceStats[] = [
  MOONCAKE_CONVERSATION,
  MOONCAKE_TOOL_AGENT,
];

/**
 * Coding-agent traces (Codex with GPT-5.4 on SWE-bench Pro, 610 trajectories (the blog does not say whether they include failed trials)): the vLLM project's
 * blog post "Serving Agentic Workloads at Scale with vLLM x Mooncake" (2026-05-06): a 94.2% prefix cache hit
 * rate, an input-to-output token ratio of about 131:1, contexts of roughly 80k tokens by turn 30. Turns (LLM
 * calls per trial) from the dataset card, huggingface.co/datasets/Inferact/codex_swebenchpro_traces README,
 * "Per-Trial Statistics": mean 33, p50 30, p90 57, p99 90. (The blog's "a median of 33 turns" is the card's
 * mean.)
 */
export const CODEX_SWEBENCH_PRO = {
  name: 'Codex on SWE-bench Pro',
  source:
    'vLLM blog, "Serving Agentic Workloads at Scale with vLLM x Mooncake", 2026-05-06; turns: dataset card Inferact/codex_swebenchpro_traces',
  trajectories: 610,
  meanTurns: 33,
  medianTurns: 30,
  cacheHitRate: 0.942,
  inputOutputRatio: 131,
  contextTokensByTurn30: 80_000,
} as const;

/** Σ input / Σ output of a published trace: the ratio of its two means. */
export function publishedIoRatio(t: PublishedTraceStats): number {
  return t.avgInputTokens / t.avgOutputTokens;
}
