/**
 * The scenario format: everything a fleet run needs, as plain JSON (documented in docs/scenarios.md). Types only;
 * scenario.ts resolves a scenario into the runtime configuration and scenarioValidation.ts checks one.
 */
import type { AcceleratorSpec } from '../catalog/accelerators';
import type { Dtype, ModelSpec } from '../catalog/models';
import type { Dist, GRAMMAR_COMPILE_PRESETS } from './dist';
import type { DisaggregationSpec } from './disaggSpec';
import type { RouterConfig } from './router';
import type { CacheViewConfig } from './view';
import type { SessionClass } from './workload';
import type { ClientsConfig } from './clients';
import type { GatewayConfig } from './gateway';
import type { RequestOverheadRef } from './overhead';
import type { SharedPrefixWorkload } from './sharedPrefix';

/** A link: a catalog id, or bandwidth (GB/s, 1 GB = 1e9 B) and per-transfer latency (s). */
export type LinkRef = string | { bandwidthGBps: number; latencyS?: number };

export interface TierSpec {
  /** Capacity per replica (dram, nvme) or in total (pool), GB (1e9 bytes). */
  capacityGB: number;
  /** Link to the tier above. Defaults: dram → the accelerator's host link; nvme → nvme-gen4; pool → rdma-400g-cx7. */
  link?: LinkRef;
  /**
   * Links used in parallel (e.g. each of the tp GPUs has its own PCIe link to host DRAM). Default: tp for dram,
   * 1 otherwise.
   */
  parallel?: number;
  /** Pool only: the store's own aggregate bandwidth, GB/s, shared by all replicas (default: unlimited). */
  bandwidthGBps?: number;
  /**
   * dram / nvme: how the tier is filled from the one above (kvcache/cacheTypes.ts WritePolicy): `write-back`
   * (default: on eviction), `write-through` (each full block once, as it is computed), `none` (offloads only).
   */
  write?: KvWritePolicy;
}

export type KvWritePolicy = 'write-through' | 'write-back' | 'none';

export type ToolPausePolicy =
  /** Do nothing: the blocks stay cached in HBM, unpinned, and LRU may evict them (vLLM's behaviour). */
  | { kind: 'lru' }
  /** Keep the session's blocks pinned in HBM until its next turn. */
  | { kind: 'hold' }
  /** Move them to a lower tier right away; reloaded on resume. */
  | { kind: 'offload'; tier: 'dram' | 'nvme' | 'remote' }
  /** Drop them; recomputed on resume. */
  | { kind: 'evict' }
  /**
   * Leave them cached in HBM, unpinned, as `lru` does, with every full block written through to DRAM as it is
   * computed (kv.dram.write becomes `write-through`): an eviction then moves nothing and a resume reloads what
   * LRU took. The default of LMCache and vLLM's OffloadingConnector (kvcache/cacheTypes.ts cites their code).
   */
  | { kind: 'write-through' }
  /** Hold for ttlS seconds, then offload (to `tier`), evict, or leave to LRU. */
  | { kind: 'ttl'; ttlS: number; then: 'offload' | 'evict' | 'lru'; tier?: 'dram' | 'nvme' | 'remote' };

export interface SessionsWorkload {
  kind?: 'sessions';
  /** Open loop (Poisson sessions/s) or closed loop (N sessions in flight, a new one when one ends). */
  arrival:
    { kind: 'poisson'; sessionsPerS: number } | { kind: 'closed'; concurrency: number; rampS?: number };
  /** Sessions to start in all (arrivals also stop at durationS). */
  sessions: number;
  classes: SessionClass[];
}

export interface MooncakeRecord {
  timestamp: number;
  input_length: number;
  output_length: number;
  hash_ids: number[];
}

export interface TraceWorkload {
  kind: 'trace';
  /** Mooncake JSONL (chained 512-token block hashes) or the native sal-trace format (docs/traces.md). */
  format: 'mooncake' | 'native';
  /** Mooncake records inline, or … */
  records?: MooncakeRecord[];
  /** … the JSONL text, or … */
  text?: string;
  /** … a file the command line reads (relative to the scenario file) into `text`. */
  path?: string;
  /** `timestamps` (default): each request at its recorded time. `sessions` (native): closed loop per session. */
  replay?: 'timestamps' | 'sessions';
  /** Tokens per Mooncake hash id (512); the fleet's kv.blockSize must equal it. */
  traceBlockSize?: number;
  /** Multiply times by this (0.5 = twice the rate). Default 1. */
  timeScale?: number;
  /** Use only the first N records. */
  limit?: number;
  /** Malformed lines: stop with an error naming the line (default), or skip them (counted in the metrics). */
  onError?: 'skip' | 'stop';
}

export interface Scenario {
  name?: string;
  description?: string;
  seed: number;
  /** Seconds during which sessions arrive. */
  durationS: number;
  /** Extra seconds after durationS to let sessions in flight finish (default: until everything finishes). */
  drainS?: number;
  model: string | ({ base: string } & Partial<ModelSpec>);
  hardware: {
    accelerator: string | ({ base: string } & Partial<AcceleratorSpec>);
    /** GPUs per replica (tensor parallel). Default 1. */
    tp?: number;
    /** Share of peak FLOP/s the matmuls achieve. Default 0.64 (BF16), 0.53 (FP8): src/sim/engine/cost.ts. */
    gemmEfficiency?: number;
    /** Share of peak BF16 FLOP/s attention achieves. Default 0.56. */
    attentionEfficiency?: number;
    /** Legacy alias: sets gemmEfficiency and attentionEfficiency both (when those are not given). */
    mfu?: number;
    mbu?: number;
    /** Fixed seconds per iteration beyond the roofline and all-reduce. Default 0.0025. */
    iterationOverheadS?: number;
    /** GPUs per node: tp above it all-reduces over the NIC. Default from the node catalog (8). */
    gpusPerNode?: number;
    weightDtype?: Dtype;
    kvDtype?: Dtype;
    computeDtype?: 'bf16' | 'fp8';
    /** Share of HBM the engine may use (vLLM gpu_memory_utilization). Default 0.9. */
    memoryUtilization?: number;
    /**
     * Per GPU, GiB (2³⁰ bytes) held back from KV for activations and memory outside PyTorch, as vLLM's profiling
     * run measures it. Default: the profile in engine/hbm.ts (3.05 GiB at tp 1, 4.84 GiB at tp > 1).
     */
    reserveGiB?: number;
    /** Price of one GPU-hour for session cost, USD. Default 2 (an illustrative figure: set your own). */
    gpuHourUSD?: number;
  };
  replicas: number;
  scheduler?: {
    /** Sequences in a batch at most (vLLM max_num_seqs). Default 256. */
    maxBatchSeqs?: number;
    /** Tokens per iteration at most (vLLM max_num_batched_tokens). Default 8192. */
    tokenBudget?: number;
    /** Chunk size for chunked prefill, or false for whole-prompt prefill iterations. Default: tokenBudget. */
    chunkedPrefill?: number | false;
    /** When KV runs out during decode: recompute (free and redo) or swap (to DRAM, reload). Default recompute. */
    preemption?: 'recompute' | 'swap';
    /** Requests waiting per replica at most; one more is rejected (fleet/admission.ts). Default: unbounded (vLLM). */
    maxWaiting?: number;
  };
  kv?: {
    /**
     * The engine's block size: the unit of prefix reuse. Default 16, vLLM's (vllm/config/cache.py
     * CacheConfig.DEFAULT_BLOCK_SIZE); 512 for a Mooncake trace (its hash ids name 512-token blocks).
     */
    blockSize?: number;
    /**
     * Tokens per page the simulator tracks (allocation, eviction, transfers): a multiple of blockSize. Default the
     * smallest multiple of blockSize ≥ 256. Reuse inside a sequence's last page is still matched at blockSize
     * (fleet/tails.ts).
     */
    pageTokens?: number;
    /** HBM KV capacity per replica in pages (default: derived from memory, weights and memoryUtilization). */
    hbmBlocks?: number;
    dram?: TierSpec;
    nvme?: TierSpec;
    /** A remote pool shared by all replicas (capacity is the pool's total). */
    pool?: TierSpec;
    /** Blocks brought up from a lower tier stay in HBM after use (default true). */
    promoteOnHit?: boolean;
  };
  router: RouterConfig & { view?: CacheViewConfig };
  workload: SessionsWorkload | TraceWorkload | SharedPrefixWorkload;
  /** The clients in front of the fleet: a concurrency bound and a timeout (fleet/clients.ts). Default: neither. */
  clients?: ClientsConfig;
  /** The gateway's concurrency limit: one request past it is rejected (fleet/gateway.ts). Default: none. */
  gateway?: GatewayConfig;
  /** Per-request work outside the GPU (fleet/overhead.ts): a preset or seconds. Default: none. */
  requestOverhead?: RequestOverheadRef;
  policies?: {
    toolPause?: ToolPausePolicy;
    structuredOutput?: {
      /**
       * Compile-time distribution (s), drawn once per schema, or a preset: xgrammar (default), llguidance. The
       * preset also sets the per-schema mask cost distribution.
       */
      compileTime?: Dist | keyof typeof GRAMMAR_COMPILE_PRESETS;
      /** Compiled grammars kept per replica. Default 64. */
      cacheCapacity?: number;
      /** Seconds of one CPU thread per mask, the same for every schema. Default: drawn per schema from the preset. */
      maskCostS?: number;
      /** CPU threads for masks (above serialMaskUpTo) and for compiles, per replica. Default 8 (vLLM). */
      cpuThreads?: number;
      /** Up to this many constrained sequences in a step, masks are filled serially. Default 128 (vLLM). */
      serialMaskUpTo?: number;
    };
  };
  slo?: { ttftP90S?: number; tpotP90S?: number };
  /** Prefill and decode pools with KV transfer between them (fleet/disagg.ts); replicas = prefill + decode. */
  disaggregation?: DisaggregationSpec;
  output?: {
    /** Seconds of simulated time between animation frames (0 or absent: none). */
    frameIntervalS?: number;
    /** Seconds between KV-occupancy samples in the metrics (default: durationS / 100). */
    sampleIntervalS?: number;
  };
}
