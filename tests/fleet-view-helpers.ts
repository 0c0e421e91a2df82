/** Small fixtures for the router-view and llm-d scheduler tests: caches, prompts, loads, route inputs. */
import { KvCache } from '../src/sim/engine/kvcache/cache';
import { chainHashes } from '../src/sim/engine/kvcache/hash';
import type { ReplicaLoad, RouteInput } from '../src/sim/engine/fleet/router';

export const PAGE = 16;

export function caches(n: number, hbmBlocks: number): KvCache[] {
  return Array.from(
    { length: n },
    (_, id) =>
      new KvCache({
        id,
        blockSize: PAGE,
        bytesPerBlock: 1,
        tiers: [{ name: 'hbm', capacityBlocks: hbmBlocks }],
      }),
  );
}

/** A prompt of `blocks` full blocks whose content ids start at `base` (distinct bases: distinct prefixes). */
export function prompt(base: number, blocks: number): number[] {
  return chainHashes(Array.from({ length: blocks }, (_, i) => base + i));
}

export function load(o: Partial<ReplicaLoad> = {}): ReplicaLoad {
  return { outstandingTokens: 0, outstandingRequests: 0, kvUsage: 0, waitingRequests: 0, kvInUse: 0, ...o };
}

export function routeInput(hashes: number[]): RouteInput {
  return {
    session: 0,
    request: 0,
    hashes,
    promptBlocks: hashes.length,
    promptTokens: hashes.length * PAGE,
    blockSize: PAGE,
  };
}
