/**
 * Flags shared by the commands that build a HardwareConfig: the fitted efficiencies and overhead of the cost
 * model (src/sim/engine/cost.ts), each overridable, and `--mfu` kept as an alias that sets both efficiencies.
 */
import { numberFlag, UsageError, type ParsedArgs } from '../args';
import { defaultGemmEfficiency, type HardwareConfig } from '../../src/sim/engine/cost';

export const EFFICIENCY_FLAGS = [
  'gemm-eff',
  'attn-eff',
  'mfu',
  'mbu',
  'overhead-ms',
  'gpus-per-node',
] as const;

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
  const overheadMs = numberFlag(args, 'overhead-ms', { min: 0, max: 1000 });
  if (overheadMs !== undefined) hw.iterationOverheadS = overheadMs / 1000;
  const perNode = numberFlag(args, 'gpus-per-node', { min: 1, max: 72, integer: true });
  if (perNode !== undefined) hw.gpusPerNode = perNode;
}
