import { checkKnownFlags, numberFlag, stringFlag, UsageError, type ParsedArgs } from '../args';
import {
  CatalogError,
  customLink,
  resolveAccelerator,
  resolveLink,
  resolveModel,
} from '../../src/sim/engine/catalog/index';
import type { AcceleratorSpec } from '../../src/sim/engine/catalog/accelerators';
import { LINKS, type LinkSpec } from '../../src/sim/engine/catalog/links';
import {
  DTYPE_BYTES,
  DTYPES,
  kvBytesPerToken,
  weightBytes,
  type Dtype,
  type ModelSpec,
} from '../../src/sim/engine/catalog/models';
import { breakEven, minLinkBandwidth, recomputeTime, reloadTime } from '../../src/sim/engine/breakeven';
import {
  defaultHardware,
  GPUS_PER_REPLICA,
  peakFlops,
  prefillCost,
  type HardwareConfig,
} from '../../src/sim/engine/cost';
import { kvReplication } from '../../src/sim/engine/flopsAndBytes';
import { flagNames, type Command } from './index';
import { modelAndGpuIds } from './catalogFlags';
import { BREAKEVEN_FLAGS as FLAGS } from './breakevenFlags';
import { applyEfficiencyFlags, EFFICIENCY_USAGE } from './efficiencyFlags';

export const BREAKEVEN_USAGE =
  'breakeven --model <id> --gpu <id> [--gpus N] [--tp N] ' +
  EFFICIENCY_USAGE +
  ' (--link <id> | --link-gbps X | --link-gbit X) ' +
  '[--link-count N] [--link-latency-us X] [--prefix N] [--max-tokens N] [--kv-dtype d] [--weight-dtype d] [--compute-dtype bf16|fp8] ' +
  '[--bytes-per-elem 1|2|4] [--layers N] [--hidden N] [--heads N] [--kv-heads N] [--head-dim N] [--params N] [--active-params N] [--vocab N] ' +
  '[--tflops X] [--hbm-gbps X] [--hbm-gb X]';

/** A parameter count: a plain number (70e9, 70600000000) or with a B/M suffix (70.6B, 500M). */
function countFlag(args: ParsedArgs, name: string): number | undefined {
  const s = stringFlag(args, name);
  if (s === undefined) return undefined;
  const m = /^\s*([0-9]*\.?[0-9]+(?:e[+-]?[0-9]+)?)\s*([bBmMkK]?)\s*$/.exec(s);
  if (!m) throw new UsageError(`--${name} must be a count like 70.6e9 or 70.6B, got "${s}"`);
  const mult = { b: 1e9, m: 1e6, k: 1e3, '': 1 }[m[2].toLowerCase() as 'b' | 'm' | 'k' | ''];
  const v = Number(m[1]) * mult;
  if (!(v > 0)) throw new UsageError(`--${name} must be positive, got "${s}"`);
  return v;
}

function dtypeFlag(args: ParsedArgs, name: string): Dtype | undefined {
  const s = stringFlag(args, name);
  if (s === undefined) return undefined;
  if (!DTYPES.includes(s as Dtype))
    throw new UsageError(`--${name} must be one of ${DTYPES.join(', ')}, got "${s}"`);
  return s as Dtype;
}

const round = (x: number, digits = 4) => (Number.isFinite(x) ? Number(x.toPrecision(digits)) : x);

function wrap<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof CatalogError || e instanceof RangeError) throw new UsageError(e.message);
    throw e;
  }
}

export const breakevenCommand: Command = {
  name: 'breakeven',
  usage: BREAKEVEN_USAGE,
  flags: FLAGS,
  summary:
    'reload-vs-recompute break-even prefix lengths for a model, GPU and link (and, with --prefix, the minimum link bandwidth)',
  run(args: ParsedArgs) {
    checkKnownFlags(args, flagNames(FLAGS));
    if (args.positionals.length) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
    const { modelId, gpuId } = modelAndGpuIds(args);

    // ---- model, with overrides
    const base = wrap(() => resolveModel(modelId));
    const overridden: string[] = [];
    const mo: Partial<ModelSpec> = {};
    const intOverride = (
      flag: string,
      field: 'layers' | 'hiddenSize' | 'attentionHeads' | 'kvHeads' | 'headDim' | 'vocabSize',
    ) => {
      const v = numberFlag(args, flag, { min: 1, integer: true });
      if (v !== undefined) {
        mo[field] = v;
        overridden.push(`--${flag}`);
      }
    };
    if (base.attention.kind === 'mla') {
      for (const f of ['kv-heads', 'head-dim'])
        if (args.flags.has(f))
          throw new UsageError(
            `--${f} does not apply to ${base.id}: it uses MLA, whose KV cache is one latent of kv_lora_rank + rope_dim per layer`,
          );
    }
    intOverride('layers', 'layers');
    intOverride('hidden', 'hiddenSize');
    intOverride('heads', 'attentionHeads');
    intOverride('kv-heads', 'kvHeads');
    intOverride('head-dim', 'headDim');
    intOverride('vocab', 'vocabSize');
    const params = countFlag(args, 'params');
    if (params !== undefined) {
      mo.totalParams = params;
      overridden.push('--params');
    }
    const active = countFlag(args, 'active-params');
    if (active !== undefined) {
      mo.activeParams = active;
      overridden.push('--active-params');
    }
    const model = wrap(() => resolveModel(base, mo));

    // ---- accelerator and hardware
    // One replica: GPUS_PER_REPLICA, as every core function that takes a GPU count checks it.
    const gpus = numberFlag(args, 'gpus', { ...GPUS_PER_REPLICA, integer: true });
    const tpFlag = numberFlag(args, 'tp', { ...GPUS_PER_REPLICA, integer: true });
    if (gpus !== undefined && tpFlag !== undefined && gpus !== tpFlag)
      throw new UsageError(
        `--gpus ${gpus} and --tp ${tpFlag} differ: a replica here is one tensor-parallel group (pipeline and data parallelism are not modelled)`,
      );
    const tp = tpFlag ?? gpus ?? 1;
    const computeDtype = stringFlag(args, 'compute-dtype') ?? 'bf16';
    if (computeDtype !== 'bf16' && computeDtype !== 'fp8')
      throw new UsageError(`--compute-dtype must be bf16 or fp8, got "${computeDtype}"`);
    const ao: Partial<AcceleratorSpec> = {};
    const tflops = numberFlag(args, 'tflops');
    if (tflops !== undefined) {
      if (!(tflops > 0)) throw new UsageError(`--tflops must be positive, got ${tflops}`);
      ao[computeDtype === 'fp8' ? 'fp8Flops' : 'bf16Flops'] = tflops * 1e12;
    }
    const hbmGbps = numberFlag(args, 'hbm-gbps');
    if (hbmGbps !== undefined) {
      if (!(hbmGbps > 0)) throw new UsageError(`--hbm-gbps must be positive, got ${hbmGbps}`);
      ao.memBandwidth = hbmGbps * 1e9;
    }
    const hbmGb = numberFlag(args, 'hbm-gb');
    if (hbmGb !== undefined) {
      if (!(hbmGb > 0)) throw new UsageError(`--hbm-gb must be positive, got ${hbmGb}`);
      ao.memoryBytes = hbmGb * 1e9;
    }
    const accelerator = wrap(() => resolveAccelerator(gpuId, ao));

    const bpe = numberFlag(args, 'bytes-per-elem');
    let kvDtype = dtypeFlag(args, 'kv-dtype');
    let weightDtype = dtypeFlag(args, 'weight-dtype');
    if (bpe !== undefined) {
      const d = ({ 1: 'fp8', 2: 'bf16', 4: 'fp32' } as Record<number, Dtype>)[bpe];
      if (!d) throw new UsageError(`--bytes-per-elem must be 1, 2 or 4, got ${bpe}`);
      if ((kvDtype && DTYPE_BYTES[kvDtype] !== bpe) || (weightDtype && DTYPE_BYTES[weightDtype] !== bpe))
        throw new UsageError('--bytes-per-elem contradicts --kv-dtype/--weight-dtype');
      kvDtype ??= d;
      weightDtype ??= d;
    }
    const hw: HardwareConfig = {
      ...defaultHardware(accelerator, tp),
      kvDtype: kvDtype ?? 'bf16',
      weightDtype: weightDtype ?? 'bf16',
      computeDtype,
    };
    applyEfficiencyFlags(args, hw);
    wrap(() => peakFlops(hw)); // FP8 on a part without FP8 → usage error

    // ---- link
    const linkId = stringFlag(args, 'link');
    const linkGbps = numberFlag(args, 'link-gbps');
    const linkGbit = numberFlag(args, 'link-gbit');
    const given = [linkId, linkGbps, linkGbit].filter((x) => x !== undefined).length;
    if (given !== 1)
      throw new UsageError(
        `give exactly one of --link <id>, --link-gbps <GB/s> or --link-gbit <Gb/s> (link ids: ${LINKS.map((l) => l.id).join(', ')})`,
      );
    const latencyUs = numberFlag(args, 'link-latency-us', { min: 0 });
    let link: LinkSpec;
    if (linkId !== undefined)
      link = wrap(() =>
        resolveLink(linkId, latencyUs !== undefined ? { latency: latencyUs * 1e-6 } : undefined),
      );
    else {
      if (linkGbps !== undefined && !(linkGbps > 0))
        throw new UsageError(`--link-gbps must be positive, got ${linkGbps}`);
      if (linkGbit !== undefined && !(linkGbit > 0))
        throw new UsageError(`--link-gbit must be positive, got ${linkGbit}`);
      const bw = linkGbps !== undefined ? linkGbps * 1e9 : ((linkGbit as number) * 1e9) / 8;
      link = wrap(() =>
        customLink(
          bw,
          (latencyUs ?? 10) * 1e-6,
          linkGbps !== undefined ? `${linkGbps} GB/s link` : `${linkGbit} Gb/s link`,
        ),
      );
    }
    const linkCount =
      numberFlag(args, 'link-count', { min: 1, integer: true }) ?? (link.kind === 'pcie' ? tp : 1);
    const path = { bandwidth: link.effectiveBandwidth * linkCount, latency: link.latency };

    // Token counts within what the model holds, as `sim cost` takes them: past the context there is no prefix to
    // reload or recompute, and a figure for one would size a fleet for a request that cannot exist.
    const tokenCount = (flag: string, min: number) => {
      const n = numberFlag(args, flag, { min, integer: true });
      if (n !== undefined && n > model.maxContext)
        throw new UsageError(`--${flag} ${n} is past ${model.id}'s context of ${model.maxContext}`);
      return n;
    };
    const maxTokens = tokenCount('max-tokens', 2) ?? model.maxContext;
    const prefix = tokenCount('prefix', 1);

    const r = wrap(() => breakEven(model, hw, path, { maxTokens }));
    const kvPerToken = kvBytesPerToken(model, hw.kvDtype);
    const kvCopies = kvReplication(model, tp);

    const warnings: string[] = [];
    const weights = weightBytes(model, hw.weightDtype);
    if (weights > tp * accelerator.memoryBytes)
      warnings.push(
        `weights (${round(weights / 1e9)} GB at ${hw.weightDtype}) do not fit in ${tp} × ${accelerator.id} (${round((tp * accelerator.memoryBytes) / 1e9)} GB): the figures assume they do`,
      );
    if (
      overridden.length &&
      !overridden.includes('--params') &&
      !overridden.includes('--active-params') &&
      overridden.some((f) => ['--layers', '--hidden'].includes(f))
    )
      warnings.push(
        '--layers/--hidden changed but --params/--active-params did not: FLOPs and weight bytes still use the catalog parameter counts',
      );

    const notes = [
      `reload(p) = latency + p × kvBytesPerToken × kvCopies / bandwidth; recompute(p) = prefill of p tokens from scratch, max(GEMM FLOPs / (tp·peak·gemmEfficiency) + attention FLOPs / (tp·peak·attentionEfficiency), bytes / (tp·HBM·mbu)) + tensor-parallel all-reduce + iterationOverheadS (src/sim/engine/cost.ts; sim cost prints the terms)`,
      link.kind === 'pcie' && linkCount === tp && tp > 1
        ? `each of the ${tp} GPUs loads its shard over its own ${link.name} (linkCount = tp); as on a DGX H100, where each GPU has its own x16 to its CPU and the eight reads stay under the host DRAM's peak (src/sim/engine/catalog/nodes.ts); a server whose GPUs share PCIe switch uplinks gets less: set --link-count to the number of uplinks`
        : `bandwidth = ${linkCount} × ${round(link.effectiveBandwidth / 1e9)} GB/s`,
      'crossings are prefix lengths where the faster option changes; token counts are rounded in breakEvenTokens, exact in breakEvenTokensExact',
    ];
    // The core reloads every copy the GPUs hold (src/sim/engine/cost.ts replicaKvBytesPerToken): said here, so
    // kvBytesPerToken (one copy) is not read as what crosses the link.
    if (kvCopies > 1)
      notes.push(
        model.attention.kind === 'mla'
          ? `MLA under tensor parallelism: every one of the ${tp} GPUs holds the whole latent KV and reloads its own, so reload moves ${kvCopies} copies (kvCopies) over the links`
          : `${tp} GPUs for ${model.kvHeads} KV heads: each head is stored on ${kvCopies} GPUs and each reloads its own, so reload moves ${kvCopies} copies (kvCopies) over the links`,
      );

    let prefixOut: Record<string, unknown> | undefined;
    if (prefix !== undefined) {
      const reload = reloadTime(model, hw, path, prefix);
      const recompute = recomputeTime(model, hw, prefix);
      const minBw = minLinkBandwidth(model, hw, prefix, path.latency);
      prefixOut = {
        tokens: prefix,
        kvBytes: prefix * kvPerToken,
        reloadSeconds: round(reload),
        recomputeSeconds: round(recompute),
        recomputeBound: prefillCost(model, hw, prefix, 0).bound,
        faster: reload < recompute ? 'reload' : 'recompute',
        speedup: round(Math.max(reload, recompute) / Math.min(reload, recompute), 3),
        minLinkGBps: Number.isFinite(minBw) ? round(minBw / 1e9) : null,
        minLinkGbit: Number.isFinite(minBw) ? round((minBw * 8) / 1e9) : null,
        minLinkNote: Number.isFinite(minBw)
          ? `aggregate bandwidth at which reloading ${prefix} tokens (with ${round(path.latency * 1e6)} µs latency) takes as long as recomputing them; reload wins above it`
          : `the latency alone (${round(path.latency * 1e6)} µs) exceeds the recompute time: no bandwidth makes reload win`,
      };
    }

    return {
      model: {
        id: model.id,
        name: model.name,
        attention: model.attention.kind,
        layers: model.layers,
        hiddenSize: model.hiddenSize,
        attentionHeads: model.attentionHeads,
        kvHeads: model.kvHeads,
        headDim: model.headDim,
        totalParams: model.totalParams,
        activeParams: model.activeParams,
        maxContext: model.maxContext,
        overridden,
      },
      hardware: {
        accelerator: accelerator.id,
        tp,
        gemmEfficiency: hw.gemmEfficiency,
        attentionEfficiency: hw.attentionEfficiency,
        mbu: hw.mbu,
        iterationOverheadS: hw.iterationOverheadS,
        computeDtype: hw.computeDtype,
        weightDtype: hw.weightDtype,
        kvDtype: hw.kvDtype,
        peakFlopsPerGpu: peakFlops(hw),
        memBandwidthPerGpu: accelerator.memBandwidth,
      },
      link: {
        id: link.id,
        name: link.name,
        kind: link.kind,
        effectiveGBpsPerLink: round(link.effectiveBandwidth / 1e9),
        linkCount,
        bandwidthGBps: round(path.bandwidth / 1e9),
        latencyUs: round(path.latency * 1e6),
        source: link.source,
      },
      kvBytesPerToken: kvPerToken,
      kvCopies,
      breakEvenTokens: r.crossings.map((x) => Math.round(x)),
      breakEvenTokensExact: r.crossings,
      breakEvenTokensBeyondRange: r.crossingsBeyondDomain.map((x) => Math.round(x)),
      maxTokens: r.maxTokens,
      regime: r.regime,
      explanation: r.explanation,
      perToken: {
        reloadSecondsPerToken: round(r.reloadSecondsPerToken),
        recomputeSecondsPerTokenAtStart: round(r.recomputeSecondsPerTokenAtStart),
        recomputeSecondsPerTokenAtMaxTokens: round(r.recomputeSecondsPerTokenAtEnd),
        recomputeFloorSeconds: round(r.recomputeFloorSeconds),
        reloadLatencySeconds: round(r.reloadLatency),
      },
      ...(prefixOut ? { prefix: prefixOut } : {}),
      notes,
      warnings,
    };
  },
};
