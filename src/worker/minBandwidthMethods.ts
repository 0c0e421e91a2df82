/**
 * Worker method of lesson 07.05's second widget: the minimum link bandwidth at which reload beats recompute, per
 * catalog model, for one replica and prefix length, with the catalog links drawn as reference rules.
 */
import { within } from './badRequest';
import { alwaysWinsBandwidth, offloadReplica, type KvDtypeChoice } from './offloadPath';
import { OFFLOAD_LIMITS as L } from './limits/offload';
import { minLinkBandwidth } from '../sim/engine/breakeven';
import { LINKS, type LinkSpec } from '../sim/engine/catalog/links';
import { MODELS, kvBytesPerToken, weightBytes } from '../sim/engine/catalog/models';
import { effectiveFlops, prefillCost } from '../sim/engine/cost';
import { kvReplication } from '../sim/engine/flopsAndBytes';

export interface MinBandwidthRequest {
  acceleratorId: string;
  tp: number;
  gemmEfficiency: number;
  kvDtype: KvDtypeChoice;
  prefixTokens: number;
  /** Per-transfer latency, µs. */
  latencyUs: number;
}

export interface ModelBandwidthRow {
  id: string;
  name: string;
  attention: 'gqa' | 'mla';
  moe: boolean;
  /** One copy of a token's KV. */
  kvBytesPerToken: number;
  /**
   * Copies of it the replica's GPUs hold (kvReplication): each GPU writes its own in prefill and reloads its own, so
   * reload moves kvBytesPerToken × kvCopies per token.
   */
  kvCopies: number;
  /** Prefill FLOPs of the prefix / p: the average FLOPs recompute spends per token of this prefix. */
  flopsPerToken: number;
  /** The KV bytes reload moves per FLOP recompute spends: kvBytesPerToken × kvCopies / flopsPerToken. */
  kvBytesPerFlop: number;
  recompute: number;
  bound: 'compute' | 'memory';
  /** B*(p), bytes/s; null when the latency alone loses. */
  minBandwidth: number | null;
  /** sup over 1 … context of B*(p), bytes/s: above it reload wins at every prefix length. */
  alwaysWinsBandwidth: number | null;
  weightsFit: boolean;
  /** The prefix was capped at the model's context. */
  prefixTokens: number;
}

export interface ReferenceLink {
  id: string;
  name: string;
  short: string;
  bandwidth: number;
  basis: LinkSpec['effectiveBasis'];
}

/**
 * The catalog links drawn as reference rules, with short labels that fit beside a rule. Four, spaced so that their
 * labels (three rows, cycled in this order) do not collide even on a phone.
 */
export const REFERENCE_LINKS: readonly { id: string; short: string }[] = [
  { id: 'nvme-gen4', short: 'NVMe4' },
  { id: 'rdma-100g', short: '100G' },
  { id: 'pcie-gen5-x16', short: 'PCIe5' },
  { id: 'rdma-800g-cx8', short: '800G' },
];

export interface MinBandwidthResult {
  acceleratorName: string;
  tp: number;
  gemmEfficiency: number;
  kvDtype: KvDtypeChoice;
  flops: number;
  latency: number;
  prefixTokens: number;
  rows: ModelBandwidthRow[];
  references: ReferenceLink[];
}

export function minBandwidthByModel(req: MinBandwidthRequest): MinBandwidthResult {
  const hw = offloadReplica(req.acceleratorId, req.tp, req.gemmEfficiency, req.kvDtype);
  const latency = within(L.latencyUs, req.latencyUs) / 1e6;
  const pReq = within(L.prefixTokens, req.prefixTokens);
  const rows = MODELS.map((model): ModelBandwidthRow => {
    const p = Math.min(pReq, model.maxContext);
    const cost = prefillCost(model, hw, p, 0);
    const k = kvBytesPerToken(model, hw.kvDtype);
    const copies = kvReplication(model, hw.tp);
    const b = minLinkBandwidth(model, hw, p, latency);
    const w = weightBytes(model, hw.weightDtype);
    const all = alwaysWinsBandwidth(model, hw, latency, model.maxContext);
    return {
      id: model.id,
      name: model.name,
      attention: model.attention.kind,
      moe: model.activeParams < model.totalParams,
      kvBytesPerToken: k,
      kvCopies: copies,
      flopsPerToken: cost.flops / p,
      kvBytesPerFlop: (k * copies) / (cost.flops / p),
      recompute: cost.time,
      bound: cost.bound,
      minBandwidth: Number.isFinite(b) ? b : null,
      alwaysWinsBandwidth: all.bandwidth,
      weightsFit: w <= hw.tp * hw.accelerator.memoryBytes,
      prefixTokens: p,
    };
  });
  const references = REFERENCE_LINKS.map(({ id, short }) => {
    const l = LINKS.find((x) => x.id === id);
    if (!l) throw new Error(`reference link ${id} is not in the catalog`);
    return { id, name: l.name, short, bandwidth: l.effectiveBandwidth, basis: l.effectiveBasis };
  });
  return {
    acceleratorName: hw.accelerator.name,
    tp: hw.tp,
    gemmEfficiency: hw.gemmEfficiency,
    kvDtype: req.kvDtype,
    flops: effectiveFlops(hw),
    latency,
    prefixTokens: pReq,
    rows,
    references,
  };
}
