/**
 * A scenario's validation: every problem as {path, message}, in the user's words, collected in one pass by the
 * scenario's validator (schemaValidator.ts); the parts a module owns (router, clients, gateway, request overhead,
 * workload, disaggregation) are checked by that module with the same validator.
 */
import type { AcceleratorSpec } from '../catalog/accelerators';
import {
  ACCELERATORS,
  CatalogError,
  MODELS,
  resolveAccelerator,
  resolveLink,
  resolveModel,
} from '../catalog/index';
import { DTYPES, type ModelSpec } from '../catalog/models';
import { ENGINE_BLOCK_SIZE } from '../blocks';
import { SEED_LIMIT } from '../rng';
import { GPUS_PER_REPLICA } from './replicaFit';
import { GRAMMAR_COMPILE_PRESETS } from './dist';
import { validateDist } from './distValidation';
import { scaleErrors } from './scale';
import { validateDisaggregation } from './disaggSpec';
import { validateRouter } from './routerSchema';
import { validateClients } from './clients';
import { validateGateway } from './gateway';
import { validateOverhead } from './overhead';
import { validateWorkload } from './workloadValidation';
import { isObj, SchemaValidator, type Obj, type ValidationError } from './schemaValidator';
import type { Scenario } from './scenario';

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
      const { base, ...over } = x as Obj;
      if (typeof base !== 'string')
        return v.err(`${path}.base`, `must name the catalog ${kind} to start from`);
      // A figure typed as text ("80") is named by its own path and shown as given (the catalog's check said
      // "memoryBytes must be a finite number, got 80").
      const entry = [...MODELS, ...ACCELERATORS].find((e) => e.id === base) as Obj | undefined;
      const text = Object.keys(over).filter(
        (k) => typeof entry?.[k] === 'number' && typeof over[k] !== 'number',
      );
      for (const k of text) v.err(`${path}.${k}`, `must be a number (got ${JSON.stringify(over[k])})`);
      if (text.length) return;
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
  // The generators read a seed modulo 2³²: 4,294,967,297 replayed seed 1's run without a word.
  if (s.seed === undefined) v.err('seed', 'is required');
  else v.limit(s, 'seed', '', SEED_LIMIT);
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
    // A chunk size or false: anything else is refused naming both, not as "a finite number" (true was).
    const chunk = sch.chunkedPrefill;
    if (chunk !== undefined && chunk !== false && !(Number.isInteger(chunk) && (chunk as number) >= 1))
      v.err('scheduler.chunkedPrefill', `must be a whole number ≥ 1 or false (got ${JSON.stringify(chunk)})`);
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

  validateWorkload(v, s);

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
      else if (so.compileTime !== undefined) validateDist(v, so.compileTime, `${p}.compileTime`);
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

/** kv.blockSize, or its default: the Mooncake trace's block size for a Mooncake trace, else vLLM's 16. */
export function engineBlockSizeOf(s: Obj | Scenario): number {
  const kv = isObj(s.kv) ? s.kv : {};
  if (typeof kv.blockSize === 'number') return kv.blockSize;
  const w = isObj(s.workload) ? s.workload : {};
  if (w.kind === 'trace' && w.format === 'mooncake')
    return typeof w.traceBlockSize === 'number' ? w.traceBlockSize : 512;
  return ENGINE_BLOCK_SIZE;
}
