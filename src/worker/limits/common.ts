/**
 * Request fields several lessons' worker methods share, declared once. (The seed's range is the generator's own,
 * SEED_LIMIT in src/sim/engine/rng.ts.)
 */
import { limit } from '../../sim/engine/limits';

/** Tokens per KV block; engines use 16 (vLLM), 1 to 64 (SGLang's page size), llm-d's index up to 256. */
export const BLOCK_SIZE = limit('the KV block size', 1, 4096, { integer: true, unit: 'tokens' });
