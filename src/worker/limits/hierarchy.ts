/**
 * What 07.04's worker methods accept for each request field a control sets, declared once: the methods check these
 * (kvFootprint in src/worker/basicMethods.ts; contextsPerModel and memoryLadder in src/worker/hierarchyMethods.ts),
 * the widgets' schemas (src/widgets/kv-footprint, src/widgets/memory-ladder) offer ranges inside them. The
 * hierarchy animation's limits sit beside its core check (HIERARCHY_LIMITS, src/sim/lessons/hierarchyLab.ts).
 *
 * Both are closed-form models, linear in the context and the agents, so the limits are where a figure stops
 * meaning anything rather than where the arithmetic fails: ten million tokens is 76× the longest context window in
 * the catalog (131,072), and a context past the model's window is computed with a note (memoryLadder).
 */
import { limit } from '../../sim/engine/limits';

const context = limit('the agent context', 1, 10_000_000, { integer: true, unit: 'tokens' });

export const FOOTPRINT_LIMITS = {
  contextTokens: context,
  /** vLLM's gpu_memory_utilization: a share of the GPU's memory in (0, 1]. */
  memoryUtilization: limit('the usable share of HBM', 0.01, 1),
} as const;

export const LADDER_LIMITS = {
  contextTokens: context,
  /** Concurrent agents on the node: 0 leaves every tier empty. */
  agents: limit('the number of agents on the node', 0, 1_000_000, { integer: true, unit: 'agents' }),
  /** Host DRAM given to KV, TB: 25× a DGX's 4 TB at most (more is computed with a note). */
  dramTB: limit('the host DRAM for KV', 0, 100, { unit: 'TB' }),
  /** This node's share of a remote pool, TB. */
  poolTB: limit('the remote pool', 0, 100_000, { unit: 'TB' }),
} as const;
