/**
 * Lesson 07.06 (tool calls in the loop): the lab's replica, workload and pause policies, as plain data with no
 * simulator code, so widgets and prose can name them without pulling the engine into the page.
 */
import type { AgentClass } from '../engine/fleet/workload';
import type { ToolLatencyPreset } from '../engine/fleet/dist';
import { limit } from '../engine/limits';

export const PAUSE_MODEL = 'qwen3-32b';
export const PAUSE_ACCELERATOR = 'h100-sxm';
export const PAUSE_TP = 2;
export const PAUSE_BLOCK_SIZE = 256;
/** Host DRAM for offloaded KV, GB per replica (the link is the accelerator's PCIe, one per GPU). */
export const PAUSE_DRAM_GB = 500;
export const PAUSE_SYSTEM_TOKENS = 2000;
export const PAUSE_TOOL_TOKENS = 6000;
/** Simulated seconds of the arena's runs (closed loop: a new session starts when one ends). */
export const PAUSE_DURATION_S = 600;
/** TTFT and TPOT p90 objectives for goodput. */
export const PAUSE_SLO = { ttftP90S: 2, tpotP90S: 0.1 } as const;

/** The agent sessions: a shared 8k-token head, a task, 10–30 turns of reasoning + tool call + tool result. */
export function pauseAgent(tool: ToolLatencyPreset): AgentClass {
  return {
    kind: 'agent',
    name: 'agent',
    apps: 1,
    systemTokens: { kind: 'constant', value: PAUSE_SYSTEM_TOKENS },
    toolSchemaTokens: { kind: 'constant', value: PAUSE_TOOL_TOKENS },
    taskTokens: { kind: 'lognormal', median: 1500, sigma: 0.5, max: 8000 },
    turns: { kind: 'uniform', min: 10, max: 30 },
    outputTokens: { kind: 'lognormal', median: 200, sigma: 0.6, max: 2000 },
    toolResultTokens: { kind: 'lognormal', median: 1500, sigma: 0.8, max: 12000 },
    toolLatency: tool,
  };
}

export const PAUSE_POLICIES = [
  'hold',
  'lru',
  'write-through',
  'offload',
  'evict',
  'ttl-offload',
  'ttl-evict',
] as const;
export type PausePolicyId = (typeof PAUSE_POLICIES)[number];

export const PAUSE_POLICY_LABELS: Readonly<Record<PausePolicyId, string>> = {
  hold: 'Hold (pin in HBM)',
  lru: 'Leave to LRU',
  'write-through': 'Write through to DRAM, LRU',
  offload: 'Offload to DRAM',
  evict: 'Evict (recompute)',
  'ttl-offload': 'TTL, then offload',
  'ttl-evict': 'TTL, then evict',
};

/** Short names for charts and tables. */
export const PAUSE_POLICY_SHORT: Readonly<Record<PausePolicyId, string>> = {
  hold: 'hold',
  lru: 'LRU',
  'write-through': 'write-through',
  offload: 'offload',
  evict: 'evict',
  'ttl-offload': 'TTL→offload',
  'ttl-evict': 'TTL→evict',
};

export const TOOL_PRESET_LABELS: Readonly<Record<ToolLatencyPreset, string>> = {
  local: 'Local tools (read, edit)',
  shell: 'Shell commands',
  web: 'Web / API calls',
  human: 'Human in the loop',
  'coding-mix': 'Coding-agent mix',
  'coding-step': 'Coding-agent steps (parallel calls)',
};

/**
 * What the pause arena (pauseLab.ts's checkArenaArgs) accepts for the fields its controls set, declared once: the
 * check refuses anything outside, the widget's schema (src/widgets/tool-pause/schema.ts) spreads these.
 */
export const PAUSE_ARENA_LIMITS = {
  ttlS: limit('the time-to-live', 0.01, 3600, { unit: 's' }),
  agents: limit('the agents in flight', 1, 48, { integer: true, unit: 'agents' }),
} as const;
