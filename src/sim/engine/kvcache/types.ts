/** Shared types of the tiered KV cache: tier names, links, transfer-time model. */

/** Storage tiers, fastest first. A cache uses a subset of them, in this order, starting with `hbm`. */
export type TierName = 'hbm' | 'dram' | 'nvme' | 'remote';

export const TIER_ORDER: readonly TierName[] = ['hbm', 'dram', 'nvme', 'remote'];

/** A block's identity: a chained hash (see hash.ts) or a Mooncake `hash_id`. A non-negative safe integer. */
export type BlockHash = number;

/** Sequence (running request) identifier chosen by the caller. */
export type SeqId = number | string;

/**
 * The link from a tier to the tier above it (for `dram`: host-to-device, e.g. PCIe; for `nvme`: the drive; for
 * `remote`: the NIC). Plain numbers so the cache does not depend on a link catalog.
 */
export interface LinkSpec {
  /** Bandwidth in GB/s (1 GB = 1e9 bytes). Must be > 0. */
  bandwidthGBps: number;
  /** Fixed cost of one transfer (one batch of blocks) over this link, seconds. */
  latencyS: number;
}

/**
 * How a transfer that crosses several links is timed:
 * - `pipelined` (default): blocks stream through the chain, so time = Σ latency + bytes / min(bandwidth).
 * - `store-and-forward`: each hop completes before the next starts, time = Σ (latency + bytes / bandwidth).
 */
export type TransferModel = 'pipelined' | 'store-and-forward';

/** Time to move `bytes` over a chain of links (in any order). Zero bytes cost nothing (no transfer is made). */
export function transferTimeS(
  bytes: number,
  links: readonly LinkSpec[],
  model: TransferModel = 'pipelined',
): number {
  if (bytes <= 0 || links.length === 0) return 0;
  if (model === 'store-and-forward') {
    let t = 0;
    for (const l of links) t += l.latencyS + bytes / (l.bandwidthGBps * 1e9);
    return t;
  }
  let lat = 0;
  let minBw = Infinity;
  for (const l of links) {
    lat += l.latencyS;
    if (l.bandwidthGBps < minBw) minBw = l.bandwidthGBps;
  }
  return lat + bytes / (minBw * 1e9);
}
