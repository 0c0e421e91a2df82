/**
 * `sim cost`: the cost model's answer for one prefill or one decode step, with the terms it came from, so a
 * figure in a lesson can be checked by hand (src/sim/engine/cost.ts, src/sim/engine/tensorParallel.ts).
 */
import { checkKnownFlags, numberFlag, stringFlag, UsageError, type ParsedArgs } from '../args';
import { CatalogError, resolveAccelerator, resolveModel } from '../../src/sim/engine/catalog';
import { DTYPES, type Dtype } from '../../src/sim/engine/catalog/models';
import {
  decodeCost,
  defaultHardware,
  GPUS_PER_REPLICA,
  prefillCost,
  type HardwareConfig,
  type PassCost,
} from '../../src/sim/engine/cost';
import { allReducePath, ringBusBandwidth } from '../../src/sim/engine/tensorParallel';
import { applyEfficiencyFlags, EFFICIENCY_FLAGS, EFFICIENCY_USAGE } from './efficiencyFlags';
import { flagNames, type Command, type FlagHelp } from './index';
import { GPU_FLAG, MODEL_FLAG, modelAndGpuIds } from './catalogFlags';

const FLAGS: readonly FlagHelp[] = [
  MODEL_FLAG,
  GPU_FLAG,
  {
    name: 'tp',
    value: 'N',
    default: '1',
    meaning: `GPUs of the replica (tensor parallel), ${GPUS_PER_REPLICA.min}–${GPUS_PER_REPLICA.max}`,
  },
  { name: 'prefill', value: 'N', meaning: 'one prefill of N new tokens (N ≥ 1); or --decode-batch' },
  {
    name: 'cached',
    value: 'C',
    default: '0',
    meaning: "with --prefill: tokens already in the KV cache (C ≥ 0; C + N ≤ the model's context)",
  },
  { name: 'decode-batch', value: 'B', meaning: 'one decode step of B sequences (B ≥ 1); needs --context' },
  {
    name: 'context',
    value: 'L',
    meaning: "with --decode-batch: tokens each sequence attends to (1 to the model's context)",
  },
  {
    name: 'weight-dtype',
    value: '<d>',
    default: 'bf16',
    meaning: `weight element type: ${DTYPES.join(', ')}`,
  },
  { name: 'kv-dtype', value: '<d>', default: 'bf16', meaning: `KV element type: ${DTYPES.join(', ')}` },
  {
    name: 'compute-dtype',
    value: 'bf16|fp8',
    default: 'bf16',
    meaning: 'tensor-core dtype of the matmuls (fp8 selects the FP8 GEMM fit)',
  },
  ...EFFICIENCY_FLAGS,
];

export const COST_USAGE =
  'cost --model <id> --gpu <id> [--tp N] (--prefill N [--cached C] | --decode-batch B --context L) ' +
  '[--weight-dtype d] [--kv-dtype d] [--compute-dtype bf16|fp8] ' +
  EFFICIENCY_USAGE;

function dtype(args: ParsedArgs, name: string): Dtype | undefined {
  const s = stringFlag(args, name);
  if (s === undefined) return undefined;
  if (!DTYPES.includes(s as Dtype))
    throw new UsageError(`--${name} must be one of ${DTYPES.join(', ')}, got "${s}"`);
  return s as Dtype;
}

function terms(c: PassCost) {
  return {
    gemmFlops: c.gemmFlops,
    gemmS: c.gemmTime,
    attentionFlops: c.attentionFlops,
    attentionS: c.attentionTime,
    memoryBytes: c.bytes,
    memoryS: c.memoryTime,
    bound: c.bound,
    allReduceBytes: c.allReduceBytes,
    allReduceS: c.allReduceTime,
    overheadS: c.overheadTime,
    formula: 'max(gemmS + attentionS, memoryS) + allReduceS + overheadS',
  };
}

export const costCommand: Command = {
  name: 'cost',
  usage: COST_USAGE,
  summary:
    'seconds of one prefill (--prefill) or one decode step (--decode-batch), with the terms they come from',
  flags: FLAGS,
  run(args: ParsedArgs) {
    checkKnownFlags(args, flagNames(FLAGS));
    if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const { modelId, gpuId } = modelAndGpuIds(args);
    let model;
    let accelerator;
    try {
      model = resolveModel(modelId);
      accelerator = resolveAccelerator(gpuId);
    } catch (e) {
      if (e instanceof CatalogError) throw new UsageError(e.message);
      throw e;
    }
    const tp = numberFlag(args, 'tp', { ...GPUS_PER_REPLICA, integer: true }) ?? 1;
    const prefill = numberFlag(args, 'prefill', { min: 1, integer: true });
    const cached = numberFlag(args, 'cached', { min: 0, integer: true });
    const batch = numberFlag(args, 'decode-batch', { min: 1, integer: true });
    const context = numberFlag(args, 'context', { min: 1, integer: true });
    if ((prefill === undefined) === (batch === undefined))
      throw new UsageError(
        'give either --prefill N (prefill) or --decode-batch B --context L (one decode step)',
      );
    if (batch !== undefined && context === undefined)
      throw new UsageError('--decode-batch needs --context L (tokens each sequence attends to)');
    if (prefill !== undefined && context !== undefined)
      throw new UsageError('--context goes with --decode-batch');
    if (cached !== undefined && prefill === undefined) throw new UsageError('--cached goes with --prefill');
    const computeDtype = stringFlag(args, 'compute-dtype') ?? 'bf16';
    if (computeDtype !== 'bf16' && computeDtype !== 'fp8')
      throw new UsageError(`--compute-dtype must be bf16 or fp8, got "${computeDtype}"`);
    if (computeDtype === 'fp8' && !(accelerator.fp8Flops > 0))
      throw new UsageError(`${accelerator.id} has no FP8 tensor path; use --compute-dtype bf16`);
    const hw: HardwareConfig = {
      ...defaultHardware(accelerator, tp),
      weightDtype: dtype(args, 'weight-dtype') ?? 'bf16',
      kvDtype: dtype(args, 'kv-dtype') ?? 'bf16',
      computeDtype,
    };
    applyEfficiencyFlags(args, hw);
    const cachedTokens = cached ?? 0;
    if (prefill !== undefined && prefill + cachedTokens > model.maxContext)
      throw new UsageError(
        `--prefill + --cached is ${prefill + cachedTokens} tokens, past ${model.id}'s context of ${model.maxContext}`,
      );
    if (context !== undefined && context > model.maxContext)
      throw new UsageError(`--context ${context} is past ${model.id}'s context of ${model.maxContext}`);
    const path = allReducePath(accelerator, tp, hw.gpusPerNode);
    const setup = {
      model: model.id,
      gpu: accelerator.id,
      tp,
      weightDtype: hw.weightDtype,
      kvDtype: hw.kvDtype,
      computeDtype: hw.computeDtype,
      gemmEfficiency: hw.gemmEfficiency,
      attentionEfficiency: hw.attentionEfficiency,
      mbu: hw.mbu,
      iterationOverheadS: hw.iterationOverheadS,
      allReduce: {
        scope: path.scope,
        link: path.linkId,
        busBandwidthBytesPerS: tp > 1 ? ringBusBandwidth(path, tp) : null,
        latencyS: path.latency,
        formula: 'calls = 2 · layers; each 2(tp−1)/tp · tokens · hidden · 2 B / busBandwidth + latency',
      },
    };
    if (prefill !== undefined) {
      const c = prefillCost(model, hw, prefill, cachedTokens);
      return { ...setup, prefillTokens: prefill, cachedTokens, prefillS: c.time, terms: terms(c) };
    }
    const c = decodeCost(model, hw, batch!, batch! * context!);
    return { ...setup, decodeBatch: batch, contextTokens: context, decodeStepS: c.time, terms: terms(c) };
  },
};
