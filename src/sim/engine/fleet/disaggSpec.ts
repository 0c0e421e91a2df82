/**
 * The `disaggregation` scenario option (fleet/disagg.ts runs it): its fields, defaults with their sources,
 * validation and resolution.
 */
import { resolveLink } from '../catalog/index';
import type { LinkRef } from './scenario';
import { isObj, type Obj, type SchemaValidator } from './schemaValidator';

export type TransferMode = 'after-prefill' | 'layerwise';
export const TRANSFER_MODES: readonly TransferMode[] = ['after-prefill', 'layerwise'];

/** The scenario option. */
export interface DisaggregationSpec {
  prefillReplicas: number;
  decodeReplicas: number;
  /** The link each NIC is (catalog id or {bandwidthGBps, latencyS}). Default rdma-400g-cx7. */
  transfer?: LinkRef;
  /** NICs per replica used in parallel (each tensor-parallel rank sends its own KV shard). Default: tp. */
  parallel?: number;
  /** When the KV moves: after the prefill (default, vLLM NixlConnector) or layer by layer during it. */
  mode?: TransferMode;
  /** Prompts whose uncached part at the decode worker is shorter than this prefill there. Default 1000 (Dynamo). */
  localPrefillBelow?: number;
  /** Prefill locally when every prefill worker has this many requests outstanding. Default: no bound (llm-d). */
  maxPrefillQueue?: number;
}

/**
 * Defaults, with their sources:
 *  - transfer link: one ConnectX-7 400 Gb/s NIC per GPU, as the DGX H100 carries eight (NVIDIA DGX H100 user guide,
 *    "8 × single-port ConnectX-7, 400 Gb/s"), the catalog's rdma-400g-cx7 (50 GB/s × 0.87 effective, Mooncake's
 *    measured efficiency, catalog/links.ts);
 *  - mode: after-prefill (vLLM NixlConnector, which llm-d's P/D guide and Dynamo's vLLM backend use);
 *  - localPrefillBelow: 1000 tokens (the 2025 Dynamo router's DisaggRouterConf::default max_local_prefill_length,
 *    disagg_router.rs at 3454aa8b; today's Dynamo rule is experimental and off by default; llm-d's
 *    nonCachedTokens defaults to 0, which disables its P/D, so its guides set a value).
 */
export const DISAGG_DEFAULTS = {
  transfer: 'rdma-400g-cx7',
  mode: 'after-prefill' as TransferMode,
  localPrefillBelow: 1000,
} as const;

export interface ResolvedDisaggregation {
  prefillReplicas: number;
  decodeReplicas: number;
  /** Bytes/s of one replica's NICs together, and the per-transfer latency. */
  bytesPerS: number;
  latencyS: number;
  linkName: string;
  mode: TransferMode;
  localPrefillBelow: number;
  maxPrefillQueue: number;
}

const KEYS = [
  'prefillReplicas',
  'decodeReplicas',
  'transfer',
  'parallel',
  'mode',
  'localPrefillBelow',
  'maxPrefillQueue',
];

/** Problems with scenario.disaggregation, into the scenario's validator. */
export function validateDisaggregation(v: SchemaValidator, s: Obj): void {
  const o = s.disaggregation;
  if (o === undefined) return;
  const p = 'disaggregation';
  if (!isObj(o)) return v.err(p, 'must be an object');
  v.known(o, p, KEYS);
  v.whole(o, 'prefillReplicas', p, { min: 1, required: true });
  v.whole(o, 'decodeReplicas', p, { min: 1, required: true });
  v.whole(o, 'parallel', p, { min: 1 });
  v.whole(o, 'localPrefillBelow', p, { min: 0 });
  v.whole(o, 'maxPrefillQueue', p, { min: 1 });
  v.oneOf(o, 'mode', p, TRANSFER_MODES);
  const t = o.transfer;
  if (typeof t === 'string') {
    try {
      resolveLink(t);
    } catch (e) {
      v.err(`${p}.transfer`, e instanceof Error ? e.message : String(e));
    }
  } else if (t !== undefined) {
    const bw = isObj(t) ? t.bandwidthGBps : undefined;
    const lat = isObj(t) ? t.latencyS : undefined;
    if (typeof bw !== 'number' || !(bw > 0) || (lat !== undefined && !(typeof lat === 'number' && lat >= 0)))
      v.err(`${p}.transfer`, 'must be a link catalog id or {bandwidthGBps > 0, latencyS ≥ 0}');
  }
  const np = o.prefillReplicas;
  const nd = o.decodeReplicas;
  if (typeof np === 'number' && typeof nd === 'number' && s.replicas !== np + nd)
    v.err(
      'replicas',
      `must equal disaggregation.prefillReplicas + decodeReplicas (${np} + ${nd} = ${np + nd}, got ${JSON.stringify(s.replicas)})`,
    );
}

/** The option with its defaults applied; `tp` sets the default NIC count. */
export function resolveDisaggregation(
  d: DisaggregationSpec | undefined,
  tp: number,
): ResolvedDisaggregation | undefined {
  if (!d) return undefined;
  const parallel = d.parallel ?? tp;
  const ref = d.transfer ?? DISAGG_DEFAULTS.transfer;
  let bytesPerS: number;
  let latencyS: number;
  let name: string;
  if (typeof ref === 'string') {
    const l = resolveLink(ref);
    bytesPerS = l.effectiveBandwidth * parallel;
    latencyS = l.latency;
    name = l.id;
  } else {
    bytesPerS = ref.bandwidthGBps * 1e9 * parallel;
    latencyS = ref.latencyS ?? 0;
    name = `${ref.bandwidthGBps} GB/s`;
  }
  return {
    prefillReplicas: d.prefillReplicas,
    decodeReplicas: d.decodeReplicas,
    bytesPerS,
    latencyS,
    linkName: parallel > 1 ? `${parallel} × ${name}` : name,
    mode: d.mode ?? DISAGG_DEFAULTS.mode,
    localPrefillBelow: d.localPrefillBelow ?? DISAGG_DEFAULTS.localPrefillBelow,
    maxPrefillQueue: d.maxPrefillQueue ?? Infinity,
  };
}
