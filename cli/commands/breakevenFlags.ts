/** The flags of `sim breakeven`, as its help lists them and as it accepts them. */
import { GPUS_PER_REPLICA } from '../../src/sim/engine/cost';
import { LINKS } from '../../src/sim/engine/catalog/links';
import { DTYPES } from '../../src/sim/engine/catalog/models';
import { GPU_FLAG, MODEL_FLAG } from './catalogFlags';
import { EFFICIENCY_FLAGS } from './efficiencyFlags';
import type { FlagHelp } from './index';

/** A model field a flag overrides: a whole number ≥ 1, the catalog's figure by default. */
const override = (name: string, meaning: string): FlagHelp => ({
  name,
  value: 'N',
  default: 'catalog',
  meaning: `${meaning}, a whole number ≥ 1`,
});

export const BREAKEVEN_FLAGS: readonly FlagHelp[] = [
  MODEL_FLAG,
  GPU_FLAG,
  {
    name: 'gpus',
    value: 'N',
    default: '1',
    meaning: `GPUs in the replica = tensor-parallel degree, ${GPUS_PER_REPLICA.min}–${GPUS_PER_REPLICA.max} (same as --tp; they must agree if both are given)`,
  },
  { name: 'tp', value: 'N', default: '1', meaning: 'tensor-parallel degree (same as --gpus)' },
  ...EFFICIENCY_FLAGS,
  { name: 'link', value: '<id>', meaning: `catalog link: ${LINKS.map((l) => l.id).join(', ')}` },
  { name: 'link-gbps', value: 'X', meaning: 'or a custom link of X gigabytes/s (X > 0)' },
  {
    name: 'link-gbit',
    value: 'X',
    meaning: 'or a custom link of X gigabits/s (X > 0; 100 = --link-gbps 12.5)',
  },
  {
    name: 'link-count',
    value: 'N',
    default: 'tp for a PCIe link, else 1',
    meaning: 'parallel links the KV is striped over, a whole number ≥ 1',
  },
  {
    name: 'link-latency-us',
    value: 'X',
    default: "the link's (10 for a custom one)",
    meaning: 'per-transfer latency in microseconds, ≥ 0',
  },
  {
    name: 'prefix',
    value: 'N',
    meaning:
      "also report reload and recompute times for a prefix of N tokens (1 to the model's context) and the minimum link bandwidth",
  },
  {
    name: 'max-tokens',
    value: 'N',
    default: "the model's context",
    meaning: "upper end in tokens of the prefix range searched for crossings, 2 to the model's context",
  },
  { name: 'kv-dtype', value: '<d>', default: 'bf16', meaning: `KV element type: ${DTYPES.join(', ')}` },
  {
    name: 'weight-dtype',
    value: '<d>',
    default: 'bf16',
    meaning: `weight element type: ${DTYPES.join(', ')}`,
  },
  { name: 'compute-dtype', value: 'bf16|fp8', default: 'bf16', meaning: 'which peak FLOP/s applies' },
  {
    name: 'bytes-per-elem',
    value: '1|2|4',
    meaning: 'shorthand setting both KV and weight dtype (fp8, bf16, fp32)',
  },
  override('layers', 'model layers'),
  override('hidden', 'hidden size'),
  override('heads', 'attention heads'),
  override('kv-heads', 'KV heads (refused for an MLA model)'),
  override('head-dim', 'head dimension (refused for an MLA model)'),
  { name: 'params', value: 'N', default: 'catalog', meaning: 'total parameters, e.g. 70.6e9 or 70.6B' },
  {
    name: 'active-params',
    value: 'N',
    default: 'catalog',
    meaning: 'active parameters per token (MoE), e.g. 22B',
  },
  override('vocab', 'vocabulary size'),
  {
    name: 'tflops',
    value: 'X',
    default: 'catalog',
    meaning: 'peak dense TFLOP/s per GPU for the compute dtype, > 0',
  },
  { name: 'hbm-gbps', value: 'X', default: 'catalog', meaning: 'HBM bandwidth per GPU, GB/s, > 0' },
  { name: 'hbm-gb', value: 'X', default: 'catalog', meaning: 'HBM capacity per GPU, GB (1e9 bytes), > 0' },
];
