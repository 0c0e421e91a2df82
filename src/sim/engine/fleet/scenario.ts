/**
 * The scenario format: everything a fleet run needs, as plain JSON (documented in docs/scenarios.md), and its
 * validation. `validateScenario` returns every problem as {path, message}; `resolveScenario` turns a valid
 * scenario into the runtime configuration (catalog entries resolved, defaults applied, KV capacities derived).
 */
import type { AcceleratorSpec } from '../catalog/accelerators';
import { CatalogError, resolveAccelerator, resolveLink, resolveModel } from '../catalog/index';
import type { LinkSpec as CatalogLink } from '../catalog/links';
import { DTYPES, kvBytesPerToken, weightBytes, type Dtype, type ModelSpec } from '../catalog/models';
import {
  DEFAULT_ATTENTION_EFFICIENCY,
  DEFAULT_ITERATION_OVERHEAD_S,
  DEFAULT_MBU,
  defaultGemmEfficiency,
  kvReplication,
  type HardwareConfig,
} from '../cost';
import { kvBudget, VLLM_GPU_MEMORY_UTILIZATION, type KvBudget } from '../hbm';
import type { CannotRun } from '../cannotRun';
import { GPUS_PER_REPLICA, noRoomForKv } from './replicaFit';
import { defaultPageTokens, ENGINE_BLOCK_SIZE } from '../blocks';
export { ENGINE_BLOCK_SIZE } from '../blocks';

import type { LinkSpec as KvLink } from '../kvcache/types';
import {
  GRAMMAR_COMPILE_PRESETS,
  GRAMMAR_CPU_DEFAULTS,
  GRAMMAR_MASK_COST_PRESETS,
  TOOL_LATENCY_PRESETS,
  validateDist,
  type Dist,
} from './dist';
import { scaleErrors } from './scale';
import {
  resolveDisaggregation,
  validateDisaggregation,
  type DisaggregationSpec,
  type ResolvedDisaggregation,
} from './disaggSpec';
import type { RouterConfig } from './router';
import { validateRouter } from './routerSchema';
import type { CacheViewConfig } from './view';
import { CLASS_DISTS, type SessionClass, type ToolLatency } from './workload';
import { validateClients, type ClientsConfig } from './clients';
import { gatewayMaxInFlight, validateGateway, type GatewayConfig } from './gateway';
import {
  resolveOverhead,
  validateOverhead,
  type RequestOverheadConfig,
  type RequestOverheadRef,
} from './overhead';
import { validateSharedPrefix, type SharedPrefixWorkload } from './sharedPrefix';
import { isObj, SchemaValidator, type Obj, type ValidationError } from './schemaValidator';
export type { ValidationError } from './schemaValidator';

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

// ───────────────────────────── validation ─────────────────────────────

function validateLinkRef(v: SchemaValidator, x: unknown, path: string): void {
  if (x === undefined) return;
  if (typeof x === 'string') {
    try {
      resolveLink(x);
    } catch (e) {
      v.err(path, e instanceof Error ? e.message : String(e));
    }
    return;
  }
  if (!isObj(x)) return v.err(path, 'must be a link catalog id or {bandwidthGBps, latencyS}');
  v.known(x, path, ['bandwidthGBps', 'latencyS']);
  v.num(x, 'bandwidthGBps', path, { required: true, gt: 0 });
  v.num(x, 'latencyS', path, { min: 0 });
}

function validateTier(v: SchemaValidator, t: Obj | undefined, path: string): void {
  if (!t) return;
  v.known(
    t,
    path,
    path === 'kv.pool'
      ? ['capacityGB', 'link', 'parallel', 'bandwidthGBps']
      : ['capacityGB', 'link', 'parallel', 'write'],
  );
  if (path !== 'kv.pool') v.oneOf(t, 'write', path, ['write-through', 'write-back', 'none']);
  v.num(t, 'bandwidthGBps', path, { gt: 0 });
  v.num(t, 'capacityGB', path, { required: true, min: 0 });
  validateLinkRef(v, t.link, `${path}.link`);
  v.num(t, 'parallel', path, { min: 1, integer: true });
}

function validateToolLatency(v: SchemaValidator, x: unknown, path: string): void {
  if (typeof x === 'string') {
    if (!(x in TOOL_LATENCY_PRESETS))
      v.err(path, `unknown preset "${x}" (presets: ${Object.keys(TOOL_LATENCY_PRESETS).join(', ')})`);
    return;
  }
  if (isObj(x) && 'mix' in x) {
    if (!Array.isArray(x.mix) || x.mix.length === 0)
      return v.err(`${path}.mix`, 'must be a non-empty array of {weight, tool}');
    x.mix.forEach((m: unknown, i: number) => {
      const p = `${path}.mix[${i}]`;
      if (!isObj(m)) return v.err(p, 'must be {weight, tool}');
      v.num(m, 'weight', p, { required: true, min: 0 });
      validateToolLatency(v, m.tool, `${p}.tool`);
    });
    return;
  }
  validateDist(x, path, v.errors);
}

function validateStructured(v: SchemaValidator, so: Obj | undefined, path: string): void {
  if (!so) return;
  v.known(so, path, ['prob', 'schemas']);
  v.num(so, 'prob', path, { required: true, min: 0, max: 1 });
  v.num(so, 'schemas', path, { required: true, min: 1, integer: true });
}

function validateClass(v: SchemaValidator, c: unknown, path: string): void {
  if (!isObj(c)) return v.err(path, 'must be a session class object');
  const dists = (keys: readonly string[], optional: readonly string[] = []) => {
    for (const k of keys) {
      if (c[k] === undefined) v.err(`${path}.${k}`, 'is required');
      else validateDist(c[k], `${path}.${k}`, v.errors);
    }
    for (const k of optional) if (c[k] !== undefined) validateDist(c[k], `${path}.${k}`, v.errors);
  };
  if (typeof c.name !== 'string' || !c.name) v.err(`${path}.name`, 'must be a non-empty string');
  v.num(c, 'weight', path, { min: 0 });
  v.num(c, 'apps', path, { min: 1, integer: true, max: 4095 });
  if (c.kind === 'agent') {
    v.known(c, path, [
      'kind',
      'name',
      'weight',
      'apps',
      'systemTokens',
      'toolSchemaTokens',
      'taskTokens',
      'turns',
      'outputTokens',
      'finalOutputTokens',
      'toolResultTokens',
      'toolLatency',
      'nonExtension',
      'structuredOutput',
    ]);
    dists(CLASS_DISTS.agent.required, CLASS_DISTS.agent.optional);
    if (c.toolLatency === undefined) v.err(`${path}.toolLatency`, 'is required');
    else validateToolLatency(v, c.toolLatency, `${path}.toolLatency`);
    const ne = v.obj(c, 'nonExtension', path);
    if (ne) {
      const p = `${path}.nonExtension`;
      v.known(ne, p, ['compaction', 'timestampTokens', 'reorderToolsProb']);
      const comp = v.obj(ne, 'compaction', p);
      if (comp) {
        v.known(comp, `${p}.compaction`, ['thresholdTokens', 'summaryTokens']);
        v.num(comp, 'thresholdTokens', `${p}.compaction`, { required: true, gt: 0 });
        v.num(comp, 'summaryTokens', `${p}.compaction`, { required: true, min: 1, integer: true });
      }
      v.num(ne, 'timestampTokens', p, { min: 1, integer: true });
      v.num(ne, 'reorderToolsProb', p, { min: 0, max: 1 });
    }
    validateStructured(v, v.obj(c, 'structuredOutput', path), `${path}.structuredOutput`);
  } else if (c.kind === 'chat') {
    v.known(c, path, [
      'kind',
      'name',
      'weight',
      'apps',
      'systemTokens',
      'userTokens',
      'outputTokens',
      'turns',
      'thinkTime',
      'structuredOutput',
    ]);
    dists(CLASS_DISTS.chat.required, CLASS_DISTS.chat.optional);
    validateStructured(v, v.obj(c, 'structuredOutput', path), `${path}.structuredOutput`);
  } else {
    v.err(`${path}.kind`, `must be "agent" or "chat" (got ${JSON.stringify(c.kind)})`);
  }
}

function validateCatalogRef(
  v: SchemaValidator,
  x: unknown,
  path: string,
  kind: 'model' | 'accelerator',
): void {
  try {
    if (typeof x === 'string') {
      if (kind === 'model') resolveModel(x);
      else resolveAccelerator(x);
    } else if (isObj(x)) {
      const { base, ...over } = x as { base?: unknown };
      if (typeof base !== 'string')
        return v.err(`${path}.base`, `must name the catalog ${kind} to start from`);
      if (kind === 'model') resolveModel(base, over as Partial<ModelSpec>);
      else resolveAccelerator(base, over as Partial<AcceleratorSpec>);
    } else v.err(path, `must be a catalog ${kind} id or {base, ...overrides}`);
  } catch (e) {
    v.err(path, e instanceof CatalogError || e instanceof Error ? e.message : String(e));
  }
}

/** Every problem with a scenario, as {path, message}; empty when it is valid. */
export function validateScenario(input: unknown): ValidationError[] {
  const v = new SchemaValidator();
  if (!isObj(input)) {
    v.err('', 'a scenario must be a JSON object');
    return v.errors;
  }
  const s = input;
  v.known(s, '', [
    '$schema',
    'name',
    'description',
    'seed',
    'durationS',
    'drainS',
    'model',
    'hardware',
    'replicas',
    'scheduler',
    'kv',
    'router',
    'workload',
    'policies',
    'slo',
    'output',
    'clients',
    'gateway',
    'requestOverhead',
    'disaggregation',
  ]);
  validateClients(v, s.clients);
  validateGateway(v, s.gateway);
  validateOverhead(v, s.requestOverhead);
  if (s.name !== undefined && typeof s.name !== 'string') v.err('name', 'must be a string');
  if (s.description !== undefined && typeof s.description !== 'string')
    v.err('description', 'must be a string');
  v.num(s, 'seed', '', { required: true, integer: true });
  v.num(s, 'durationS', '', { required: true, gt: 0 });
  v.num(s, 'drainS', '', { min: 0 });
  if (s.model === undefined) v.err('model', 'is required');
  else validateCatalogRef(v, s.model, 'model', 'model');
  v.num(s, 'replicas', '', { required: true, min: 1, max: 4096, integer: true });

  const hw = v.obj(s, 'hardware', '', true);
  if (hw) {
    v.known(hw, 'hardware', [
      'accelerator',
      'tp',
      'gemmEfficiency',
      'attentionEfficiency',
      'mfu',
      'mbu',
      'iterationOverheadS',
      'gpusPerNode',
      'weightDtype',
      'kvDtype',
      'computeDtype',
      'memoryUtilization',
      'reserveGiB',
      'gpuHourUSD',
    ]);
    if (hw.accelerator === undefined) v.err('hardware.accelerator', 'is required');
    else validateCatalogRef(v, hw.accelerator, 'hardware.accelerator', 'accelerator');
    v.limit(hw, 'tp', 'hardware', GPUS_PER_REPLICA);
    v.num(hw, 'gemmEfficiency', 'hardware', { gt: 0, max: 1 });
    v.num(hw, 'attentionEfficiency', 'hardware', { gt: 0, max: 1 });
    v.num(hw, 'mfu', 'hardware', { gt: 0, max: 1 });
    v.num(hw, 'iterationOverheadS', 'hardware', { min: 0, max: 1 });
    v.num(hw, 'gpusPerNode', 'hardware', { min: 1, max: 72, integer: true });
    v.num(hw, 'mbu', 'hardware', { gt: 0, max: 1 });
    v.oneOf(hw, 'weightDtype', 'hardware', DTYPES);
    v.oneOf(hw, 'kvDtype', 'hardware', DTYPES);
    v.oneOf(hw, 'computeDtype', 'hardware', ['bf16', 'fp8']);
    v.num(hw, 'memoryUtilization', 'hardware', { gt: 0, max: 1 });
    v.num(hw, 'reserveGiB', 'hardware', { min: 0 });
    v.num(hw, 'gpuHourUSD', 'hardware', { min: 0 });
  }

  const sch = v.obj(s, 'scheduler', '');
  if (sch) {
    v.known(sch, 'scheduler', ['maxBatchSeqs', 'tokenBudget', 'chunkedPrefill', 'preemption', 'maxWaiting']);
    v.num(sch, 'maxWaiting', 'scheduler', { min: 0, integer: true });
    v.num(sch, 'maxBatchSeqs', 'scheduler', { min: 1, integer: true });
    v.num(sch, 'tokenBudget', 'scheduler', { min: 1, integer: true });
    if (sch.chunkedPrefill !== undefined && sch.chunkedPrefill !== false)
      v.num(sch, 'chunkedPrefill', 'scheduler', { min: 1, integer: true });
    v.oneOf(sch, 'preemption', 'scheduler', ['recompute', 'swap']);
  }

  const kv = v.obj(s, 'kv', '');
  if (kv) {
    v.known(kv, 'kv', ['blockSize', 'pageTokens', 'hbmBlocks', 'dram', 'nvme', 'pool', 'promoteOnHit']);
    v.num(kv, 'blockSize', 'kv', { min: 1, integer: true, max: 65536 });
    v.num(kv, 'pageTokens', 'kv', { min: 1, integer: true, max: 65536 });
    if (
      typeof kv.pageTokens === 'number' &&
      Number.isInteger(kv.pageTokens) &&
      kv.pageTokens % engineBlockSizeOf(s) !== 0
    )
      v.err(
        'kv.pageTokens',
        `must be a multiple of the block size ${engineBlockSizeOf(s)} (got ${kv.pageTokens})`,
      );
    v.num(kv, 'hbmBlocks', 'kv', { min: 1, integer: true });
    validateTier(v, v.obj(kv, 'dram', 'kv'), 'kv.dram');
    validateTier(v, v.obj(kv, 'nvme', 'kv'), 'kv.nvme');
    validateTier(v, v.obj(kv, 'pool', 'kv'), 'kv.pool');
    if (kv.promoteOnHit !== undefined && typeof kv.promoteOnHit !== 'boolean')
      v.err('kv.promoteOnHit', 'must be true or false');
  }

  const r = v.obj(s, 'router', '', true);
  if (r) validateRouter(v, r);

  const w = v.obj(s, 'workload', '', true);
  if (w) {
    if (w.kind === 'shared-prefix') validateSharedPrefix(v, w);
    else if (w.kind === 'trace') {
      v.known(w, 'workload', [
        'kind',
        'format',
        'records',
        'text',
        'path',
        'replay',
        'traceBlockSize',
        'timeScale',
        'limit',
        'onError',
      ]);
      v.oneOf(w, 'format', 'workload', ['mooncake', 'native'], true);
      if (w.records === undefined && w.path === undefined && w.text === undefined)
        v.err('workload', 'a trace workload needs "records", "text" or "path"');
      if (w.records !== undefined && (!Array.isArray(w.records) || w.format !== 'mooncake'))
        v.err('workload.records', 'must be an array of Mooncake records (format "mooncake")');
      if (w.path !== undefined && typeof w.path !== 'string') v.err('workload.path', 'must be a string');
      if (w.text !== undefined && typeof w.text !== 'string')
        v.err('workload.text', 'must be a string (JSONL)');
      v.oneOf(w, 'replay', 'workload', ['timestamps', 'sessions']);
      if (w.replay === 'sessions' && w.format === 'mooncake')
        v.err('workload.replay', '"sessions" needs a native trace (Mooncake records have no sessions)');
      v.oneOf(w, 'onError', 'workload', ['skip', 'stop']);
      if (w.format === 'mooncake') {
        const tb = typeof w.traceBlockSize === 'number' ? w.traceBlockSize : 512;
        const kvb = isObj(s.kv) ? s.kv.blockSize : undefined;
        if (kvb !== undefined && kvb !== tb)
          v.err(
            'kv.blockSize',
            `must equal the Mooncake trace's block size ${tb} (its hash ids name ${tb}-token blocks)`,
          );
        const kvp = isObj(s.kv) ? s.kv.pageTokens : undefined;
        if (kvp !== undefined && kvp !== tb)
          v.err(
            'kv.pageTokens',
            `must equal the Mooncake trace's block size ${tb} (a hash id names one ${tb}-token block)`,
          );
      }
      v.num(w, 'traceBlockSize', 'workload', { min: 1, integer: true });
      v.num(w, 'timeScale', 'workload', { gt: 0 });
      v.num(w, 'limit', 'workload', { min: 1, integer: true });
    } else {
      v.known(w, 'workload', ['kind', 'arrival', 'sessions', 'classes']);
      if (w.kind !== undefined && w.kind !== 'sessions')
        v.err('workload.kind', 'must be "sessions", "trace" or "shared-prefix"');
      v.num(w, 'sessions', 'workload', { required: true, min: 1, integer: true, max: 16_000_000 });
      const a = v.obj(w, 'arrival', 'workload', true);
      if (a) {
        v.oneOf(a, 'kind', 'workload.arrival', ['poisson', 'closed'], true);
        if (a.kind === 'poisson') {
          v.known(a, 'workload.arrival', ['kind', 'sessionsPerS']);
          v.num(a, 'sessionsPerS', 'workload.arrival', { required: true, gt: 0 });
        } else if (a.kind === 'closed') {
          v.known(a, 'workload.arrival', ['kind', 'concurrency', 'rampS']);
          v.num(a, 'concurrency', 'workload.arrival', { required: true, min: 1, integer: true });
          v.num(a, 'rampS', 'workload.arrival', { min: 0 });
        }
      }
      if (!Array.isArray(w.classes) || w.classes.length === 0)
        v.err('workload.classes', 'must be a non-empty array of session classes');
      else {
        w.classes.forEach((c: unknown, i: number) => validateClass(v, c, `workload.classes[${i}]`));
        if (w.classes.length > 15) v.err('workload.classes', 'at most 15 classes');
      }
    }
  }

  const pol = v.obj(s, 'policies', '');
  if (pol) {
    v.known(pol, 'policies', ['toolPause', 'structuredOutput']);
    const tp = v.obj(pol, 'toolPause', 'policies');
    if (tp) {
      const p = 'policies.toolPause';
      v.oneOf(tp, 'kind', p, ['lru', 'hold', 'offload', 'evict', 'ttl', 'write-through'], true);
      if (tp.kind === 'write-through') {
        const dram = isObj(s.kv) && isObj(s.kv.dram) ? s.kv.dram : undefined;
        if (!dram)
          v.err(`${p}.kind`, '"write-through" writes blocks to DRAM: it needs kv.dram to be configured');
        else if (dram.write !== undefined && dram.write !== 'write-through')
          v.err(
            `${p}.kind`,
            `"write-through" needs kv.dram.write "write-through" (or unset), not "${String(dram.write)}"`,
          );
      }
      if (tp.kind === 'offload') {
        v.known(tp, p, ['kind', 'tier']);
        v.oneOf(tp, 'tier', p, ['dram', 'nvme', 'remote'], true);
      } else if (tp.kind === 'ttl') {
        v.known(tp, p, ['kind', 'ttlS', 'then', 'tier']);
        v.num(tp, 'ttlS', p, { required: true, min: 0 });
        v.oneOf(tp, 'then', p, ['offload', 'evict', 'lru'], true);
        if (tp.then === 'offload') v.oneOf(tp, 'tier', p, ['dram', 'nvme', 'remote'], true);
      } else v.known(tp, p, ['kind']);
      const tier = tp.tier as string | undefined;
      if (tier && (tp.kind === 'offload' || tp.then === 'offload')) {
        const kvo = isObj(s.kv) ? s.kv : {};
        const key = tier === 'remote' ? 'pool' : tier;
        if (!isObj(kvo[key])) v.err(`${p}.tier`, `offloading to "${tier}" needs kv.${key} to be configured`);
      }
    }
    const so = v.obj(pol, 'structuredOutput', 'policies');
    if (so) {
      const p = 'policies.structuredOutput';
      v.known(so, p, ['compileTime', 'cacheCapacity', 'maskCostS', 'cpuThreads', 'serialMaskUpTo']);
      if (typeof so.compileTime === 'string')
        v.oneOf(so, 'compileTime', p, Object.keys(GRAMMAR_COMPILE_PRESETS));
      else if (so.compileTime !== undefined) validateDist(so.compileTime, `${p}.compileTime`, v.errors);
      v.num(so, 'cacheCapacity', p, { min: 0, integer: true });
      v.num(so, 'maskCostS', p, { min: 0 });
      v.num(so, 'cpuThreads', p, { min: 1, max: 1024, integer: true });
      v.num(so, 'serialMaskUpTo', p, { min: 0, integer: true });
    }
  }
  const sch2 = isObj(s.scheduler) ? s.scheduler : {};
  if (sch2.preemption === 'swap' && !(isObj(s.kv) && isObj(s.kv.dram)))
    v.err('scheduler.preemption', '"swap" needs kv.dram to be configured');

  const slo = v.obj(s, 'slo', '');
  if (slo) {
    v.known(slo, 'slo', ['ttftP90S', 'tpotP90S']);
    v.num(slo, 'ttftP90S', 'slo', { gt: 0 });
    v.num(slo, 'tpotP90S', 'slo', { gt: 0 });
  }
  const out = v.obj(s, 'output', '');
  if (out) {
    v.known(out, 'output', ['frameIntervalS', 'sampleIntervalS']);
    v.num(out, 'frameIntervalS', 'output', { min: 0 });
    v.num(out, 'sampleIntervalS', 'output', { gt: 0 });
  }
  validateDisaggregation(v, s);
  // Valid field by field, but within what one run can hold? Checked before anything is allocated (scale.ts).
  if (
    v.errors.length === 0 &&
    isObj(s.workload) &&
    s.workload.kind !== 'trace' &&
    s.workload.kind !== 'shared-prefix'
  )
    v.errors.push(...scaleErrors(s.workload as Parameters<typeof scaleErrors>[0]));
  return v.errors;
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
  const bytesPerBlock = kvBytesPerToken(model, hw.kvDtype) * blockSize;
  const util = s.hardware.memoryUtilization ?? VLLM_GPU_MEMORY_UTILIZATION;
  const hbm = kvBudget({
    accelerator: acc,
    gpus: hw.tp,
    memoryUtilization: util,
    weightBytes: weightBytes(model, hw.weightDtype),
    reserveBytesPerGpu: s.hardware.reserveGiB === undefined ? undefined : s.hardware.reserveGiB * 2 ** 30,
  });
  const hbmBlocks = kv.hbmBlocks ?? Math.floor(hbm.kvBytes / (bytesPerBlock * kvReplication(model, hw.tp)));
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
      return (
        Math.floor(b.kvBytes / (kvBytesPerToken(m, hw.kvDtype) * blockSize * kvReplication(m, gpus))) >= 1
      );
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

/** kv.blockSize, or its default: the Mooncake trace's block size for a Mooncake trace, else vLLM's 16. */
function engineBlockSizeOf(s: Obj | Scenario): number {
  const kv = isObj(s.kv) ? s.kv : {};
  if (typeof kv.blockSize === 'number') return kv.blockSize;
  const w = isObj(s.workload) ? s.workload : {};
  if (w.kind === 'trace' && w.format === 'mooncake')
    return typeof w.traceBlockSize === 'number' ? w.traceBlockSize : 512;
  return ENGINE_BLOCK_SIZE;
}

function stripBase<T extends { base?: string }>(o: T): Omit<T, 'base'> {
  const { base: _base, ...rest } = o;
  return rest;
}

export type { ToolLatency };
