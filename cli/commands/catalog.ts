import { checkKnownFlags, stringFlag, UsageError, type ParsedArgs } from '../args';
import { ACCELERATORS } from '../../src/sim/engine/catalog/accelerators';
import { LINKS } from '../../src/sim/engine/catalog/links';
import { DTYPES, kvBytesPerToken, MODELS, weightBytes } from '../../src/sim/engine/catalog/models';
import { NODES, nodeTotals } from '../../src/sim/engine/catalog/nodes';
import { flagNames, type Command, type FlagHelp } from './index';

const KINDS = ['models', 'accelerators', 'links', 'nodes'] as const;
type Kind = (typeof KINDS)[number];

const FLAGS: readonly FlagHelp[] = [
  { name: 'kind', value: '<kind>', default: 'all four', meaning: `print only one list: ${KINDS.join(', ')}` },
];

const round = (x: number, digits = 4) => Number(x.toPrecision(digits));

function models() {
  return MODELS.map((m) => ({
    id: m.id,
    name: m.name,
    layers: m.layers,
    hiddenSize: m.hiddenSize,
    attentionHeads: m.attentionHeads,
    kvHeads: m.kvHeads,
    headDim: m.headDim,
    attention: m.attention,
    totalParams: m.totalParams,
    activeParams: m.activeParams,
    ...(m.moe ? { moe: m.moe } : {}),
    vocabSize: m.vocabSize,
    maxContext: m.maxContext,
    derived: {
      kvBytesPerToken: Object.fromEntries(DTYPES.map((d) => [d, kvBytesPerToken(m, d)])),
      kvFormula:
        m.attention.kind === 'mla'
          ? `layers ${m.layers} × (kv_lora_rank ${m.attention.kvLoraRank} + rope_dim ${m.attention.ropeHeadDim}) × bytes/elem`
          : `2 × layers ${m.layers} × kv_heads ${m.kvHeads} × head_dim ${m.headDim} × bytes/elem`,
      weightBytes: { bf16: weightBytes(m, 'bf16'), fp8: weightBytes(m, 'fp8') },
    },
    source: m.source,
  }));
}

function accelerators() {
  return ACCELERATORS.map((a) => ({
    ...a,
    derived: {
      memoryGB: a.memoryBytes / 1e9,
      memBandwidthTBps: a.memBandwidth / 1e12,
      bf16Tflops: a.bf16Flops / 1e12,
      fp8Tflops: a.fp8Flops / 1e12,
      /** FLOP per byte of HBM traffic above which a kernel is compute-bound (bf16 peak / bandwidth). */
      ridgeFlopsPerByteBf16: round(a.bf16Flops / a.memBandwidth),
    },
  }));
}

function links() {
  return LINKS.map((l) => ({
    ...l,
    derived: {
      lineRateGBps: round(l.lineRate / 1e9),
      effectiveGBps: round(l.effectiveBandwidth / 1e9),
      efficiency: round(l.effectiveBandwidth / l.lineRate, 3),
      latencyUs: round(l.latency * 1e6),
    },
  }));
}

function nodes() {
  return NODES.map((n) => {
    const t = nodeTotals(n);
    return {
      ...n,
      derived: {
        hbmBytes: t.hbmBytes,
        hbmBandwidth: t.hbmBandwidth,
        nvmeReadBandwidth: t.nvmeReadBandwidth,
        nicLineRate: t.nicLineRate,
        nicEffectiveBandwidth: t.nicEffectiveBandwidth,
        hostLinkEffectiveBandwidth: t.hostLinkEffectiveBandwidth,
        // Only where the node's CPUs and DIMM population are published (JSON drops an undefined field).
        hostDramPeakBandwidth: t.hostDramPeakBandwidth,
        powerWPerGpu: t.powerWPerGpu,
      },
    };
  });
}

export const catalogCommand: Command = {
  name: 'catalog',
  usage: 'catalog [--kind models|accelerators|links|nodes]',
  summary:
    'catalog figures with their sources: models (with derived KV bytes/token per dtype), accelerators, links, nodes',
  flags: FLAGS,
  run(args: ParsedArgs) {
    checkKnownFlags(args, flagNames(FLAGS));
    if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const kind = stringFlag(args, 'kind') as Kind | undefined;
    if (kind !== undefined && !KINDS.includes(kind))
      throw new UsageError(`unknown --kind "${kind}" (one of: ${KINDS.join(', ')})`);
    const units =
      'SI: bytes, bytes/s, FLOP/s, seconds, watts; fields under "derived" are computed from the cited figures';
    const all: Record<Kind, () => unknown> = { models, accelerators, links, nodes };
    if (kind) return { units, [kind]: all[kind]() };
    return { units, models: models(), accelerators: accelerators(), links: links(), nodes: nodes() };
  },
};
