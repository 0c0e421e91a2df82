/**
 * Flags shared by the commands that build a HardwareConfig: the fitted efficiencies and overhead of the cost
 * model (src/sim/engine/cost.ts), each overridable, and `--mfu` kept as an alias that sets both efficiencies.
 */
import { numberFlag, UsageError, type ParsedArgs } from '../args';
import {
  DEFAULT_ATTENTION_EFFICIENCY,
  DEFAULT_FP8_GEMM_EFFICIENCY,
  DEFAULT_GEMM_EFFICIENCY,
  DEFAULT_ITERATION_OVERHEAD_S,
  DEFAULT_MBU,
  defaultGemmEfficiency,
  type HardwareConfig,
} from '../../src/sim/engine/cost';
import { DEFAULT_GPUS_PER_NODE } from '../../src/sim/engine/tensorParallel';
import type { FlagHelp } from './index';

/** The bounds applyEfficiencyFlags enforces, stated once for the check and the help. */
const OVERHEAD_MS = { min: 0, max: 1000 };
const GPUS_PER_NODE = { min: 1, max: 72, integer: true };

export const EFFICIENCY_FLAGS: readonly FlagHelp[] = [
  {
    name: 'gemm-eff',
    value: 'x',
    default: `${DEFAULT_GEMM_EFFICIENCY} (${DEFAULT_FP8_GEMM_EFFICIENCY} with FP8 compute)`,
    meaning: 'share of peak FLOP/s the matmuls achieve, in (0, 1]',
  },
  {
    name: 'attn-eff',
    value: 'x',
    default: String(DEFAULT_ATTENTION_EFFICIENCY),
    meaning: 'share of peak BF16 FLOP/s attention achieves, in (0, 1]',
  },
  { name: 'mfu', value: 'x', meaning: 'legacy: sets --gemm-eff and --attn-eff both, in (0, 1]' },
  {
    name: 'mbu',
    value: 'x',
    default: String(DEFAULT_MBU),
    meaning: 'share of HBM bandwidth achieved, in (0, 1]',
  },
  {
    name: 'overhead-ms',
    value: 'X',
    default: String(DEFAULT_ITERATION_OVERHEAD_S * 1000),
    meaning: `fixed milliseconds per iteration beyond the roofline and the all-reduce, ${OVERHEAD_MS.min}–${OVERHEAD_MS.max}`,
  },
  {
    name: 'gpus-per-node',
    value: 'N',
    default: `the node catalog's (${DEFAULT_GPUS_PER_NODE})`,
    meaning: `GPUs per node, ${GPUS_PER_NODE.min}–${GPUS_PER_NODE.max}: a --tp above it all-reduces over the node's NICs`,
  },
];

export const EFFICIENCY_USAGE =
  '[--gemm-eff x] [--attn-eff x] [--mfu x (sets both)] [--mbu x] [--overhead-ms X] [--gpus-per-node N]';

function share(args: ParsedArgs, name: string): number | undefined {
  const v = numberFlag(args, name);
  if (v !== undefined && !(v > 0 && v <= 1)) throw new UsageError(`--${name} must be in (0, 1], got ${v}`);
  return v;
}

/** Applies the efficiency flags to `hw` (which already carries its dtypes), in place. */
export function applyEfficiencyFlags(args: ParsedArgs, hw: HardwareConfig): void {
  hw.gemmEfficiency = defaultGemmEfficiency(hw.computeDtype);
  const mfu = share(args, 'mfu');
  if (mfu !== undefined) {
    hw.gemmEfficiency = mfu;
    hw.attentionEfficiency = mfu;
  }
  hw.gemmEfficiency = share(args, 'gemm-eff') ?? hw.gemmEfficiency;
  hw.attentionEfficiency = share(args, 'attn-eff') ?? hw.attentionEfficiency;
  hw.mbu = share(args, 'mbu') ?? hw.mbu;
  const overheadMs = numberFlag(args, 'overhead-ms', OVERHEAD_MS);
  if (overheadMs !== undefined) hw.iterationOverheadS = overheadMs / 1000;
  const perNode = numberFlag(args, 'gpus-per-node', GPUS_PER_NODE);
  if (perNode !== undefined) hw.gpusPerNode = perNode;
}
