/**
 * Block sizes: the engine's (the unit of prefix reuse) and the page the fleet simulator tracks (the unit of
 * allocation, eviction and transfer). Plain constants, so that pages can name them without the simulator.
 */

/** vLLM's default block size: vllm/config/cache.py CacheConfig.DEFAULT_BLOCK_SIZE = 16. SGLang's radix tree reuses per token. */
export const ENGINE_BLOCK_SIZE = 16;

/** The page the fleet tracks by default: 256 tokens keeps a fleet of thousands of sessions fast (fleet/tails.ts). */
export const DEFAULT_PAGE_TOKENS = 256;

/** The smallest multiple of the engine's block size that is at least DEFAULT_PAGE_TOKENS. */
export function defaultPageTokens(engineBlockSize: number): number {
  return Math.ceil(DEFAULT_PAGE_TOKENS / engineBlockSize) * engineBlockSize;
}
