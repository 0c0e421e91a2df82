/**
 * Lesson 07.12 (agents per megawatt): the lab's node, replicas, workload and levers as plain data with no
 * simulator code, so widgets and prose can name them without pulling the engine into the page.
 *
 * The unit of deployment is an 8-GPU node (src/sim/engine/catalog/nodes.ts) split into replicas of Qwen3-32B on
 * 2 GPUs each; the agents are lesson 07.06's (a shared 8k-token head, 10–30 turns, a tool call between turns).
 */
import type { ToolLatencyPreset } from '../engine/fleet/dist';
import { limit } from '../engine/limits';
import { replicasPerNode } from './economics';

export const ECON_MODEL = 'qwen3-32b';
export const ECON_TP = 2;

/** Replicas of the lab's tensor-parallel degree that fit on a node of the lab's catalog. */
export function econReplicasPerNode(node: { gpuCount: number }): number {
  return replicasPerNode(node.gpuCount, ECON_TP);
}
/** Prefill replicas of the disaggregated node (the rest of its replicas decode). */
export const ECON_PREFILL_REPLICAS = 1;
/** Tokens per page the lab's fleet tracks (reuse is at the engine's 16-token blocks: fleet/tails.ts). */
export const ECON_BLOCK_SIZE = 256;
export const ECON_DRAM_GB = 500;
/** Simulated seconds of every run (closed loop: a new session starts when one ends). */
export const ECON_DURATION_S = 600;
export const ECON_RAMP_S = 20;
export const ECON_NODES = ['dgx-h100', 'dgx-h200', 'dgx-b200'] as const;
export type EconNodeId = (typeof ECON_NODES)[number];
export const ECON_NODE_LABELS: Readonly<Record<EconNodeId, string>> = {
  'dgx-h100': 'DGX H100 (8 × H100 SXM, 10.2 kW)',
  'dgx-h200': 'DGX H200 (8 × H200, 10.2 kW)',
  'dgx-b200': 'DGX B200 (8 × B200, 14.3 kW)',
};
export const ECON_TOOLS: readonly ToolLatencyPreset[] = ['coding-mix', 'web', 'shell', 'local'];

/** Concurrencies per replica the sweep tries, in order; it stops a little past the first failure. */
export const SWEEP_GRID: readonly number[] = [2, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64];
/** Points the sweep runs after the first that misses an SLO (to draw the wall). */
export const SWEEP_PAST_FAILURE = 2;
/** Concurrencies per replica the lever grid searches (bisection over this list). */
export const LEVER_GRID: readonly number[] = [1, 2, 3, 4, 5, 6, 8, 10, 12, 14, 16, 20, 24];

/** The routers the lever grid compares. */
export const ECON_ROUTERS = ['round-robin', 'cache-aware'] as const;
/**
 * Every router the lesson's model runs: the grid's two, and llm-d's scheduler over its approximate index (what it
 * routed, not what the replicas hold) as it ships today and as llm-d benchmarked it in September 2025, the latter
 * also for an agent that sends its tool schemas in the request's `tools` field (which that index does not hash),
 * which the prose quotes beside them, one cell at a time.
 */
export const ECON_ALL_ROUTERS = [
  ...ECON_ROUTERS,
  'llm-d-approximate',
  'llm-d-approximate-2025',
  'llm-d-approximate-2025-messages',
] as const;
export type EconRouterId = (typeof ECON_ALL_ROUTERS)[number];
export const ECON_ROUTER_LABELS: Readonly<Record<EconRouterId, string>> = {
  'round-robin': 'Round-robin',
  'cache-aware': 'Cache-aware',
  'llm-d-approximate': 'llm-d, approximate index',
  'llm-d-approximate-2025': 'llm-d, approximate index (September 2025)',
  'llm-d-approximate-2025-messages': 'llm-d, approximate index (September 2025), tool schemas in the tools field',
};
export const ECON_POLICIES = ['hold', 'ttl-offload', 'write-through', 'evict'] as const;
export type EconPolicyId = (typeof ECON_POLICIES)[number];
export const ECON_POLICY_LABELS: Readonly<Record<EconPolicyId, string>> = {
  hold: 'Hold in HBM',
  'ttl-offload': 'TTL 2 s, then offload',
  'write-through': 'Write through to DRAM, LRU',
  evict: 'Evict (recompute)',
};
export const ECON_POLICY_SHORT: Readonly<Record<EconPolicyId, string>> = {
  hold: 'hold',
  'ttl-offload': 'TTL→offload',
  'write-through': 'write-through',
  evict: 'evict',
};
export const ECON_TTL_S = 2;

/** Assumptions the learner sets (defaults only; every one is an editable parameter of the widgets). */
export const DEFAULT_GPU_HOUR_USD = 2;
export const DEFAULT_KWH_USD = 0.1;
export const DEFAULT_PUE = 1.3;

/**
 * What the economics runs (economicsLab.ts's checkEconArgs) accept for the SLO a control sets, declared once: the
 * check refuses anything outside, the widgets' schemas (src/widgets/agents-per-mw/schema.ts) offer ranges inside.
 */
export const ECON_LIMITS = {
  ttftP90S: limit('the TTFT p90 objective', 0.01, 60, { unit: 's' }),
  tpotP90S: limit('the TPOT p90 objective', 0.001, 2, { unit: 's' }),
} as const;
