/**
 * Lesson 07.03 (cache-aware routing): the lab's fleet and workload, and the routing policies it compares.
 * Plain data and catalog arithmetic with no simulator code, so widgets can import it without pulling the engine
 * into the page.
 */
import type { AgentClass } from '../../engine/fleet/workload';
import { resolveModel } from '../../engine/catalog';
import { kvBytesPerToken } from '../../engine/catalog/models';

export const LAB_MODEL = 'qwen3-32b';
export const LAB_ACCELERATOR = 'h100-sxm';
export const LAB_TP = 2;
export const LAB_BLOCK_SIZE = 256;

/** Bytes of one of the lab's KV blocks (BF16): a catalog figure, so a widget can print it before any run ends. */
export function labBytesPerBlock(): number {
  return kvBytesPerToken(resolveModel(LAB_MODEL), 'bf16') * LAB_BLOCK_SIZE;
}

/** System prompt and tool schemas of the one app every session belongs to (tokens). */
export const LAB_SYSTEM_TOKENS = 2000;
export const LAB_TOOL_TOKENS = 3000;
export const LAB_SHARED_TOKENS = LAB_SYSTEM_TOKENS + LAB_TOOL_TOKENS;

/** The agent sessions: a shared 5k-token head, a task, 6–16 turns of reasoning + tool call + tool result. */
export const LAB_AGENT: AgentClass = {
  kind: 'agent',
  name: 'agent',
  apps: 1,
  systemTokens: { kind: 'constant', value: LAB_SYSTEM_TOKENS },
  toolSchemaTokens: { kind: 'constant', value: LAB_TOOL_TOKENS },
  taskTokens: { kind: 'lognormal', median: 1500, sigma: 0.5, max: 8000 },
  turns: { kind: 'uniform', min: 6, max: 16 },
  outputTokens: { kind: 'lognormal', median: 150, sigma: 0.5, max: 1000 },
  toolResultTokens: { kind: 'lognormal', median: 2500, sigma: 0.8, max: 16000 },
  toolLatency: 'web',
};

export const ROUTER_POLICIES = [
  'round-robin',
  'random',
  'least-load',
  'power-of-two',
  'session-affinity',
  'cache-aware',
] as const;
/**
 * llm-d's scheduler with its default weights over its approximate index (of the prompt as rendered, or of the chat
 * messages alone, as for an agent that sends its tool schemas in the request's `tools` field), and with the precise
 * scorer and the weights of llm-d's benchmark: run for the prose's figures, not offered in the widgets' policy lists.
 */
export const LLMD_POLICIES = ['llm-d-approximate', 'llm-d-approximate-messages', 'llm-d-precise'] as const;
export type RouterPolicy = (typeof ROUTER_POLICIES)[number] | (typeof LLMD_POLICIES)[number];

export const POLICY_LABELS: Readonly<Record<RouterPolicy, string>> = {
  'round-robin': 'Round-robin',
  random: 'Random',
  'least-load': 'Least load',
  'power-of-two': 'Power of two',
  'session-affinity': 'Session affinity',
  'cache-aware': 'Cache-aware',
  'llm-d-approximate': 'llm-d (approximate)',
  'llm-d-approximate-messages': 'llm-d (approximate, messages only)',
  'llm-d-precise': 'llm-d (precise)',
};

export type CacheViewKind = 'exact' | 'approximate';

/** Offered loads of the policy sweep, new sessions per second per replica. */
export const DEFAULT_PER_REPLICA_RATES = [0.05, 0.1, 0.15, 0.2, 0.3, 0.4] as const;

/** The policies compared on 1…R replicas: two that spread a session, one that keeps it together. */
export const SPREAD_POLICIES: readonly RouterPolicy[] = ['round-robin', 'random', 'session-affinity'];
