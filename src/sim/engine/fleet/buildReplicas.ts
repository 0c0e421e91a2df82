/**
 * A fleet's replicas as a scenario describes them: each with its own tiered KV cache (HBM, then DRAM, NVMe and the
 * shared pool if configured) and scheduler, sharing what the fleet shares (the pool and its bandwidth, the schemas'
 * costs, the index of computed pages).
 */
import { KvCache, type TierConfig } from '../kvcache/cache';
import type { KvPool } from '../kvcache/pool';
import { createRng } from '../rng';
import { SchemaCosts } from './grammar';
import type { LogHistogram } from './metrics';
import { Replica, type ReplicaHost } from './replica';
import type { ResolvedScenario } from './scenario';
import { PageIndex } from './pageIndex';

export function buildReplicas(
  rs: ResolvedScenario,
  pool: KvPool | null,
  reportsMetrics: boolean,
  host: ReplicaHost,
  gaps: LogHistogram,
): { caches: KvCache[]; replicas: Replica[] } {
  const s = rs.scenario;
  const seed = s.seed;
  const caches: KvCache[] = [];
  const replicas: Replica[] = [];
  const poolLink =
    rs.pool && rs.pool.sharedBytesPerS > 0 ? { bytesPerS: rs.pool.sharedBytesPerS, freeAt: 0 } : null;
  // One compile time and mask cost per schema, the same on every replica (fleet/grammar.ts).
  const schemaCosts = new SchemaCosts(seed ^ 0x67726d72, rs.compileTime, rs.maskCost);
  // Pages computed anywhere in the fleet, for reuse at the engine's block size inside a page (fleet/tails.ts).
  const pages = rs.engineBlockSize < rs.blockSize ? new PageIndex() : null;
  for (let i = 0; i < rs.replicas; i++) {
    const tiers: TierConfig[] = [{ name: 'hbm', capacityBlocks: rs.hbmBlocks }];
    for (const name of ['dram', 'nvme'] as const) {
      const t = rs[name];
      if (t) tiers.push({ name, capacityBytes: t.capacityBytes, link: t.link, write: t.write });
    }
    if (pool && rs.pool) tiers.push({ name: 'remote', pool, link: rs.pool.link });
    const cache = new KvCache({
      id: i,
      blockSize: rs.blockSize,
      bytesPerBlock: rs.bytesPerBlock,
      tiers,
      promoteOnHit: s.kv?.promoteOnHit ?? true,
    });
    caches.push(cache);
    replicas.push(
      new Replica(
        {
          index: i,
          model: rs.model,
          hw: rs.hw,
          cache,
          blockSize: rs.blockSize,
          engineBlockSize: rs.engineBlockSize,
          pages,
          maxBatchSeqs: rs.maxBatchSeqs,
          tokenBudget: rs.tokenBudget,
          chunk: rs.chunk,
          preemption: rs.preemption,
          toolPause: rs.toolPause,
          schemaCosts,
          // Sessions are the only workload whose requests carry schemas (traces and shared-prefix stages: none).
          schemas:
            s.workload.kind !== 'trace' &&
            s.workload.kind !== 'shared-prefix' &&
            s.workload.classes.some((k) => (k.structuredOutput?.prob ?? 0) > 0),
          grammarCapacity: rs.grammarCapacity,
          maskThreads: rs.maskThreads,
          tiers: cache.tierNames,
          poolLink,
          reportsMetrics,
          rng: createRng((seed ^ 0x67726d72) + i * 7919),
        },
        host,
        gaps,
      ),
    );
  }
  return { caches, replicas };
}
