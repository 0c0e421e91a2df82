/**
 * A scenario's resolution: `resolveScenario` turns a valid scenario (its format: scenarioFormat.ts, documented in
 * docs/scenarios.md) into the runtime configuration (catalog entries resolved, defaults applied, KV capacities
 * derived). `validateScenario` (scenarioValidation.ts) returns every problem as {path, message}. The scenario module's
 * entry point: importers take the format's types, the validator and the resolver from here.
 */
import { resolveAccelerator, resolveLink, resolveModel } from '../catalog/index';
import { DEFAULT_POOL_LINK, type LinkSpec as CatalogLink } from '../catalog/links';
import { weightBytes, type ModelSpec } from '../catalog/models';
import {
  DEFAULT_ATTENTION_EFFICIENCY,
  DEFAULT_ITERATION_OVERHEAD_S,
  DEFAULT_MBU,
  defaultGemmEfficiency,
  type HardwareConfig,
} from '../cost';
import { replicaKvBytesPerToken } from '../flopsAndBytes';
import { kvBudget, VLLM_GPU_MEMORY_UTILIZATION, type KvBudget } from '../hbm';
import type { CannotRun } from '../cannotRun';
import { noRoomForKv } from './replicaFit';
import { defaultPageTokens } from '../blocks';
export { ENGINE_BLOCK_SIZE } from '../blocks';

import type { LinkSpec as KvLink } from '../kvcache/types';
import { GRAMMAR_COMPILE_PRESETS, GRAMMAR_CPU_DEFAULTS, GRAMMAR_MASK_COST_PRESETS, type Dist } from './dist';
import { resolveDisaggregation, type ResolvedDisaggregation } from './disaggSpec';
import type { ToolLatency } from './workload';
import { gatewayMaxInFlight } from './gateway';
import { resolveOverhead, type RequestOverheadConfig } from './overhead';
import type { KvWritePolicy, LinkRef, Scenario, TierSpec, ToolPausePolicy } from './scenarioFormat';
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

export type {
  KvWritePolicy,
  LinkRef,
  MooncakeRecord,
  Scenario,
  SessionsWorkload,
  TierSpec,
  ToolPausePolicy,
  TraceWorkload,
} from './scenarioFormat';

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
    pool: tier(kv.pool, DEFAULT_POOL_LINK, 1),
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
