/**
 * N agent contexts filling the HBM KV budget block by block (07.04's footprint animation): pure, no DOM.
 *
 * The budget is drawn as cells of `blockTokens` tokens each: vLLM's 16-token block (vllm/config/cache.py
 * CacheConfig.DEFAULT_BLOCK_SIZE) times the smallest power of two that keeps the grid within `maxCells`, so a
 * cell stands for 2^k engine blocks (the caption says how many). The agents' contexts grow one after another,
 * each taking blocks as its tokens arrive (a block is allocated when its first token is written, as a paged KV
 * cache does); the context after the last whole one that fits runs out of room, and its blocks that do not fit
 * are counted as overflow.
 */
export const ENGINE_BLOCK_TOKENS = 16;

export interface FillPlan {
  blockTokens: number;
  /** Engine blocks per cell. */
  engineBlocksPerCell: number;
  budgetCells: number;
  contextCells: number;
  contextTokens: number;
  /** Contexts drawn: every one that fits, and the one that does not. */
  agents: number;
}

export function fillPlan(
  budgetBytes: number,
  kvBytesPerToken: number,
  contextTokens: number,
  maxCells = 3000,
  maxAgents = 64,
): FillPlan {
  const budgetTokens = kvBytesPerToken > 0 ? Math.max(0, budgetBytes) / kvBytesPerToken : 0;
  let per = 1;
  while (budgetTokens / (ENGINE_BLOCK_TOKENS * per) > maxCells) per *= 2;
  const blockTokens = ENGINE_BLOCK_TOKENS * per;
  const budgetCells = Math.floor(budgetTokens / blockTokens);
  const contextCells = Math.ceil(Math.max(1, contextTokens) / blockTokens);
  const fits = Math.floor(budgetCells / contextCells);
  return {
    blockTokens,
    engineBlocksPerCell: per,
    budgetCells,
    contextCells,
    contextTokens,
    agents: Math.max(1, Math.min(maxAgents, fits + 1)),
  };
}

export interface FillState {
  /** Cells used, in allocation order; cell i belongs to agent owner(i). */
  usedCells: number;
  /** Blocks asked for that found no room (the context that does not fit). */
  overflowCells: number;
  /** The agent growing now (0-based) and its tokens so far. */
  agent: number;
  agentTokens: number;
  /** Contexts complete and resident. */
  whole: number;
}

/** Tokens written over the whole animation: every drawn context at full length. */
export function fillDuration(p: FillPlan): number {
  return p.agents * p.contextTokens;
}

/** The grid after `tokens` tokens of the agents' contexts have been written, one context after another. */
export function fillAt(p: FillPlan, tokens: number): FillState {
  const t = Math.min(fillDuration(p), Math.max(0, tokens));
  const agent = Math.min(p.agents - 1, Math.floor(t / p.contextTokens));
  const agentTokens = t - agent * p.contextTokens;
  const done = agent * p.contextCells;
  const asked = done + Math.ceil(agentTokens / p.blockTokens);
  const usedCells = Math.min(p.budgetCells, asked);
  const whole = Math.min(
    Math.floor(p.budgetCells / p.contextCells),
    agent + (agentTokens >= p.contextTokens ? 1 : 0),
  );
  return { usedCells, overflowCells: asked - usedCells, agent, agentTokens, whole };
}

/** The agent owning cell i (contexts take their cells one after another). */
export function ownerOf(p: FillPlan, cell: number): number {
  return Math.floor(cell / p.contextCells);
}
