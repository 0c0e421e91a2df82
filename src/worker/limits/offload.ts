/**
 * What 07.05's worker methods (src/worker/offloadMethods.ts, offloadPath.ts, minBandwidthMethods.ts) accept for each request field a control sets, declared
 * once: the methods check these, the widgets' schemas (src/widgets/kv-offload/schema.ts) offer ranges inside them.
 * The GEMM efficiency is the engine's GEMM_EFFICIENCY (src/sim/engine/hardware.ts), GPUs per replica
 * GPUS_PER_REPLICA.
 */
import { limit } from '../../sim/engine/limits';
import { MODELS } from '../../sim/engine/catalog/models';

/** The longest context window in the catalog: a prefix no model can hold is refused (131,072 for every model). */
const LONGEST_WINDOW = Math.max(...MODELS.map((m) => m.maxContext));

export const OFFLOAD_LIMITS = {
  /** Real-valued (the methods round it); reloadVsRecompute also refuses one past the chosen model's window. */
  prefixTokens: limit('the prefix', 1, LONGEST_WINDOW, { unit: 'tokens' }),
  /** A custom link: from 1 MB/s to 100 TB/s, past any link in the catalog either way. */
  customGBps: limit('the custom link bandwidth', 1e-3, 1e5, { unit: 'GB/s' }),
  /** Per-transfer latency, µs: from none to 100 s. */
  customLatencyUs: limit('the custom link latency', 0, 1e8, { unit: 'µs' }),
  latencyUs: limit('the per-transfer latency', 0, 1e8, { unit: 'µs' }),
  /** Links the KV is striped over: up to 64 (8 NICs on each of 8 nodes). */
  linkCount: limit('the links in parallel', 1, 64, { integer: true, unit: 'links' }),
  /** Points of the curves' log grid. */
  points: limit('the points of the curves', 10, 4000, { integer: true }),
} as const;
