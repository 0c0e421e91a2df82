/**
 * The scenario format: everything a fleet run needs, as plain JSON (documented in docs/scenarios.md), and its
 * resolution: `resolveScenario` turns a valid scenario into the runtime configuration (catalog entries resolved,
 * defaults applied, KV capacities derived). `validateScenario` (scenarioValidation.ts) returns every problem as
 * {path, message}.
 */
import type { AcceleratorSpec } from '../catalog/accelerators';
import { resolveAccelerator, resolveLink, resolveModel } from '../catalog/index';
import type { LinkSpec as CatalogLink } from '../catalog/links';
import { weightBytes, type Dtype, type ModelSpec } from '../catalog/models';
import {
  DEFAULT_ATTENTION_EFFICIENCY,
  DEFAULT_ITERATION_OVERHEAD_S,
  DEFAULT_MBU,
  defaultGemmEfficiency,
  replicaKvBytesPerToken,
  type HardwareConfig,
} from '../cost';
import { kvBudget, VLLM_GPU_MEMORY_UTILIZATION, type KvBudget } from '../hbm';
import type { CannotRun } from '../cannotRun';
import { noRoomForKv } from './replicaFit';
import { defaultPageTokens } from '../blocks';
export { ENGINE_BLOCK_SIZE } from '../blocks';

import type { LinkSpec as KvLink } from '../kvcache/types';
import { GRAMMAR_COMPILE_PRESETS, GRAMMAR_CPU_DEFAULTS, GRAMMAR_MASK_COST_PRESETS, type Dist } from './dist';
import { resolveDisaggregation, type DisaggregationSpec, type ResolvedDisaggregation } from './disaggSpec';
import type { RouterConfig } from './router';
import type { CacheViewConfig } from './view';
import type { SessionClass, ToolLatency } from './workload';
import type { ClientsConfig } from './clients';
import { gatewayMaxInFlight, type GatewayConfig } from './gateway';
import { resolveOverhead, type RequestOverheadConfig, type RequestOverheadRef } from './overhead';
import type { SharedPrefixWorkload } from './sharedPrefix';
import type { ValidationError } from './schemaValidator';
import { engineBlockSizeOf, validateScenario } from './scenarioValidation';
export type { ValidationError } from './schemaValidator';
export { validateScenario } from './scenarioValidation';

export class ScenarioError extends Error {
  constructor(readonly errors: ValidationError[]) {
    super(`invalid scenario:\n${errors.map((e) => `  ${e.path}: ${e.message}`).join('\n')}`);
    this.name = 'ScenarioError';
  }
}

/** A valid scenario whose replica cannot run (no room for KV): a widget shows `outcome` as a state of its picture. */
export class ReplicaCannotRun extends ScenarioError {
  constructor(
    errors: ValidationError[],
    readonly outcome: CannotRun,
  ) {
    super(errors);
  }
}

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

// ───────────────────────────── resolution ─────────────────────────────

export interface ResolvedTier {
  capacityBytes: number;
  /** dram / nvme: how the tier is filled from the one above. */
  write: KvWritePolicy;
  link: KvLink;
  /** The catalog entry or a description, for the metrics. */
  linkName: string;
  /** Pool only: its own aggregate bandwidth, bytes/s (0: unlimited). */
  sharedBytesPerS: number;
}

export interface ResolvedScenario {
  scenario: Scenario;
  model: ModelSpec;
  hw: HardwareConfig;
  replicas: number;
  /** Tokens per page the cache tracks (kv.pageTokens): the unit of allocation, eviction and transfer. */
  blockSize: number;
  /** The engine's block size (kv.blockSize): the unit of prefix reuse (a page's tail is matched at it). */
  engineBlockSize: number;
  /** Bytes of one page of KV as stored (one copy), and as held across the tp GPUs (replication). */
  bytesPerBlock: number;
  hbmBlocks: number;
  /** How the HBM KV budget was derived (engine/hbm.ts), per replica. */
  hbm: KvBudget;
  dram?: ResolvedTier;
  nvme?: ResolvedTier;
  pool?: ResolvedTier;
  maxBatchSeqs: number;
  tokenBudget: number;
  /** Chunk size, or 0 for no chunking. */
  chunk: number;
  preemption: 'recompute' | 'swap';
  toolPause: ToolPausePolicy;
  compileTime: Dist;
  grammarCapacity: number;
  /** Per-schema mask cost (s of one thread per mask). */
  maskCost: Dist;
  maskThreads: { threads: number; serialUpTo: number; chunk: number };
  gpuHourUSD: number;
  sloTtftS: number;
  sloTpotS: number;
  /** Requests waiting per replica at most (Infinity: unbounded). */
  maxWaiting: number;
  /** Client bound on requests in flight (Infinity: none) and timeout in s (Infinity: none). */
  clientMaxInFlight: number;
  clientTimeoutS: number;
  /** Requests through the gateway at most (Infinity: no limit); one more is rejected. */
  gatewayMaxInFlight: number;
  overhead: Required<RequestOverheadConfig>;
  frameIntervalS: number;
  sampleIntervalS: number;
  endS: number;
  /** Prefill and decode pools (fleet/disagg.ts), or undefined: every replica does both. */
  disaggregation?: ResolvedDisaggregation;
}

function linkOf(
  ref: LinkRef | undefined,
  fallback: string,
  parallel: number,
): { link: KvLink; name: string } {
  if (ref === undefined || typeof ref === 'string') {
    const l: CatalogLink = resolveLink(ref ?? fallback);
    return {
      link: { bandwidthGBps: (l.effectiveBandwidth * parallel) / 1e9, latencyS: l.latency },
      name: parallel > 1 ? `${parallel} × ${l.id}` : l.id,
    };
  }
  return {
    link: { bandwidthGBps: ref.bandwidthGBps * parallel, latencyS: ref.latencyS ?? 0 },
    name: `${ref.bandwidthGBps} GB/s${parallel > 1 ? ` × ${parallel}` : ''}`,
  };
}

/** Validates (throwing ScenarioError with every problem) and resolves a scenario. */
export function resolveScenario(input: unknown): ResolvedScenario {
  const errors = validateScenario(input);
  if (errors.length) throw new ScenarioError(errors);
  const s = input as Scenario;
  const model =
    typeof s.model === 'string' ? resolveModel(s.model) : resolveModel(s.model.base, stripBase(s.model));
  const acc =
    typeof s.hardware.accelerator === 'string'
      ? resolveAccelerator(s.hardware.accelerator)
      : resolveAccelerator(s.hardware.accelerator.base, stripBase(s.hardware.accelerator));
  const hw: HardwareConfig = {
    accelerator: acc,
    tp: s.hardware.tp ?? 1,
    gemmEfficiency:
      s.hardware.gemmEfficiency ?? s.hardware.mfu ?? defaultGemmEfficiency(s.hardware.computeDtype),
    attentionEfficiency: s.hardware.attentionEfficiency ?? s.hardware.mfu ?? DEFAULT_ATTENTION_EFFICIENCY,
    mbu: s.hardware.mbu ?? DEFAULT_MBU,
    iterationOverheadS: s.hardware.iterationOverheadS ?? DEFAULT_ITERATION_OVERHEAD_S,
    gpusPerNode: s.hardware.gpusPerNode,
    weightDtype: s.hardware.weightDtype ?? 'bf16',
    kvDtype: s.hardware.kvDtype ?? 'bf16',
    computeDtype: s.hardware.computeDtype ?? 'bf16',
  };
  if (hw.computeDtype === 'fp8' && !(acc.fp8Flops > 0))
    throw new ScenarioError([{ path: 'hardware.computeDtype', message: `${acc.id} has no FP8 tensor path` }]);
  const kv = s.kv ?? {};
  const engineBlockSize = engineBlockSizeOf(s);
  const blockSize = kv.pageTokens ?? defaultPageTokens(engineBlockSize);
  // What a page occupies across the replica's GPUs, and so what it takes in a lower tier and on a link.
  const bytesPerBlock = replicaKvBytesPerToken(model, hw.kvDtype, hw.tp) * blockSize;
  const util = s.hardware.memoryUtilization ?? VLLM_GPU_MEMORY_UTILIZATION;
  const hbm = kvBudget({
    accelerator: acc,
    gpus: hw.tp,
    memoryUtilization: util,
    weightBytes: weightBytes(model, hw.weightDtype),
    reserveBytesPerGpu: s.hardware.reserveGiB === undefined ? undefined : s.hardware.reserveGiB * 2 ** 30,
  });
  const hbmBlocks = kv.hbmBlocks ?? Math.floor(hbm.kvBytes / bytesPerBlock);
  if (!(hbmBlocks >= 1)) {
    // The same budget and block for other GPU counts and models: what the fixes offer is what this then accepts.
    const fitsAt = (gpus: number, m: ModelSpec) => {
      const b = kvBudget({
        accelerator: acc,
        gpus,
        memoryUtilization: util,
        weightBytes: weightBytes(m, hw.weightDtype),
        reserveBytesPerGpu: s.hardware.reserveGiB === undefined ? undefined : s.hardware.reserveGiB * 2 ** 30,
      });
      return Math.floor(b.kvBytes / (replicaKvBytesPerToken(m, hw.kvDtype, gpus) * blockSize)) >= 1;
    };
    const outcome = noRoomForKv({
      model,
      accelerator: acc,
      gpus: hw.tp,
      memoryUtilization: util,
      budget: hbm,
      fitsAt,
    });
    throw new ReplicaCannotRun(
      [
        {
          path: 'hardware',
          // Said as a reader of a widget would put it (GPUs per replica, not `tp`); the scenario fields follow.
          message:
            `${model.name}'s weights (${(hbm.weightBytes / 1e9).toFixed(1)} GB) and the engine's reserve ` +
            `(${(hbm.reserveBytes / 1e9).toFixed(1)} GB) fill ${hw.tp} × ${acc.name} at ${Math.round(util * 100)}% of ` +
            `memory, leaving no room for the KV cache: use more GPUs per replica or a smaller model ` +
            `(in a scenario: raise hardware.tp, or set kv.hbmBlocks)`,
        },
      ],
      outcome,
    );
  }
  const tier = (
    t: TierSpec | undefined,
    fallback: string,
    defParallel: number,
    write: KvWritePolicy = 'write-back',
  ): ResolvedTier | undefined => {
    if (!t) return undefined;
    const { link, name } = linkOf(t.link, fallback, t.parallel ?? defParallel);
    return {
      capacityBytes: t.capacityGB * 1e9,
      write: t.write ?? write,
      link,
      linkName: name,
      sharedBytesPerS: (t.bandwidthGBps ?? 0) * 1e9,
    };
  };
  const sched = s.scheduler ?? {};
  const tokenBudget = sched.tokenBudget ?? 8192;
  const chunk =
    sched.chunkedPrefill === false ? 0 : Math.min(sched.chunkedPrefill ?? tokenBudget, tokenBudget);
  const so = s.policies?.structuredOutput ?? {};
  const preset = typeof so.compileTime === 'string' ? so.compileTime : 'xgrammar';
  const compileTime: Dist =
    typeof so.compileTime === 'object' ? so.compileTime : GRAMMAR_COMPILE_PRESETS[preset];
  const drain = s.drainS ?? Infinity;
  return {
    scenario: s,
    model,
    hw,
    replicas: s.replicas,
    blockSize,
    engineBlockSize,
    bytesPerBlock,
    hbmBlocks,
    hbm,
    // The write-through pause policy is a DRAM write policy (validated above).
    dram: tier(
      kv.dram,
      acc.hostLink,
      hw.tp,
      s.policies?.toolPause?.kind === 'write-through' ? 'write-through' : 'write-back',
    ),
    nvme: tier(kv.nvme, 'nvme-gen4', 1),
    pool: tier(kv.pool, 'rdma-400g-cx7', 1),
    maxBatchSeqs: sched.maxBatchSeqs ?? 256,
    tokenBudget,
    chunk,
    preemption: sched.preemption ?? 'recompute',
    toolPause: s.policies?.toolPause ?? { kind: 'lru' },
    compileTime,
    grammarCapacity: so.cacheCapacity ?? 64,
    maskCost:
      so.maskCostS !== undefined
        ? { kind: 'constant', value: so.maskCostS }
        : GRAMMAR_MASK_COST_PRESETS[preset],
    maskThreads: {
      threads: so.cpuThreads ?? GRAMMAR_CPU_DEFAULTS.threads,
      serialUpTo: so.serialMaskUpTo ?? GRAMMAR_CPU_DEFAULTS.serialUpTo,
      chunk: GRAMMAR_CPU_DEFAULTS.chunk,
    },
    gpuHourUSD: s.hardware.gpuHourUSD ?? 2,
    sloTtftS: s.slo?.ttftP90S ?? 2,
    sloTpotS: s.slo?.tpotP90S ?? 0.1,
    maxWaiting: sched.maxWaiting ?? Infinity,
    clientMaxInFlight: s.clients?.maxInFlight ?? Infinity,
    clientTimeoutS: s.clients?.timeoutS ?? Infinity,
    gatewayMaxInFlight: gatewayMaxInFlight(s.gateway),
    overhead: resolveOverhead(s.requestOverhead),
    frameIntervalS: s.output?.frameIntervalS ?? 0,
    sampleIntervalS: s.output?.sampleIntervalS ?? s.durationS / 100,
    endS: s.durationS + drain,
    disaggregation: resolveDisaggregation(s.disaggregation, hw.tp),
  };
}

function stripBase<T extends { base?: string }>(o: T): Omit<T, 'base'> {
  const { base: _base, ...rest } = o;
  return rest;
}

export type { ToolLatency };
