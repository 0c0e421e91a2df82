/**
 * What both of lesson 07.05's widgets stand on: the replica a learner picks (accelerator, TP, GEMM efficiency, KV
 * dtype), the reload path (a catalog or custom link, striped over one or more links), and the search for the
 * bandwidth above which reload beats recompute at every prefix length.
 */
import { asRefusal, BadRequest, within } from './badRequest';
import { acceleratorHardware } from './replicaHardware';
import { OFFLOAD_LIMITS as L } from './limits/offload';
import { GEMM_EFFICIENCY, type HardwareConfig } from '../sim/engine/cost';
import { minLinkBandwidth, recomputeTime, type ReloadPath } from '../sim/engine/breakeven';
import { customLink, resolveLink } from '../sim/engine/catalog/index';
import type { LinkKind, LinkSpec } from '../sim/engine/catalog/links';
import type { ModelSpec } from '../sim/engine/catalog/models';

/** The KV dtype choices of the widgets. */
export type KvDtypeChoice = 'bf16' | 'fp8';

/** The replica a widget's controls describe: the accelerator at this TP, its GEMM efficiency and KV dtype. */
export function offloadReplica(
  acceleratorId: string,
  tp: number,
  gemmEfficiency: number,
  kvDtype: KvDtypeChoice = 'bf16',
): HardwareConfig {
  const { hw } = acceleratorHardware(acceleratorId, tp);
  if (kvDtype !== 'bf16' && kvDtype !== 'fp8')
    throw new BadRequest(`kvDtype must be bf16 or fp8, got ${String(kvDtype)}`);
  return {
    ...hw,
    gemmEfficiency: within(GEMM_EFFICIENCY, gemmEfficiency),
    kvDtype,
  };
}

/**
 * How many links the KV is striped over when the learner leaves it on "auto": one per GPU for a PCIe host link
 * (each GPU loads its shard over its own x16), one otherwise. The same rule as `npm run sim -- breakeven`
 * (cli/commands/breakeven.ts), so the widget and the CLI agree.
 */
export function autoLinkCount(kind: LinkKind, tp: number): number {
  return kind === 'pcie' ? tp : 1;
}

export interface LinkChoice {
  /** A catalog link id, or 'custom' (then customGBps and customLatencyUs apply). */
  linkId: string;
  /** 'auto' (see autoLinkCount) or a whole number of links in parallel. */
  linkCount: 'auto' | number;
  /** Custom link: effective bandwidth, GB/s (10⁹ bytes/s). */
  customGBps: number;
  /** Custom link: per-transfer latency, µs. */
  customLatencyUs: number;
}

export interface ResolvedPath extends ReloadPath {
  id: string;
  name: string;
  kind: LinkKind;
  /** Effective bandwidth of one link, bytes/s. */
  perLinkBandwidth: number;
  lineRate: number;
  count: number;
  countIsAuto: boolean;
  basis: LinkSpec['effectiveBasis'];
  source: string;
}

export function resolvePath(choice: LinkChoice, tp: number): ResolvedPath {
  let link: LinkSpec;
  // The custom link's settings are checked whenever they are sent (the widget always sends them), not only when
  // the custom link is picked: a control never holds a value the core would refuse once the link changes.
  const gbps = within(L.customGBps, choice.customGBps);
  const us = within(L.customLatencyUs, choice.customLatencyUs);
  if (choice.linkId === 'custom')
    link = asRefusal(() => customLink(gbps * 1e9, us / 1e6, `custom ${gbps} GB/s, ${us} µs`));
  else link = asRefusal(() => resolveLink(choice.linkId));
  const auto = choice.linkCount === 'auto';
  const count = auto ? autoLinkCount(link.kind, tp) : within(L.linkCount, choice.linkCount as number);
  return {
    id: link.id,
    name: link.name,
    kind: link.kind,
    perLinkBandwidth: link.effectiveBandwidth,
    lineRate: link.lineRate,
    count,
    countIsAuto: auto,
    basis: link.effectiveBasis,
    source: link.source,
    bandwidth: link.effectiveBandwidth * count,
    latency: link.latency,
  };
}

/** Log-spaced prefix lengths from 1 to max (inclusive), plus any extra points, sorted and unique. */
export function logGrid(max: number, n: number, extra: readonly number[] = []): number[] {
  const pts: number[] = [1, max];
  for (let i = 1; i < n; i++) pts.push(Math.exp((Math.log(max) * i) / n));
  for (const e of extra) if (e >= 1 && e <= max) pts.push(e);
  pts.sort((a, b) => a - b);
  const out: number[] = [];
  for (const p of pts) if (!out.length || p - out[out.length - 1] > 1e-9 * p) out.push(p);
  return out;
}

/**
 * The smallest aggregate bandwidth at which reload is at least as fast as recompute for EVERY prefix length in
 * [1, maxTokens]: sup_p B*(p), B*(p) = p·k / (recompute(p) − λ). B* rises while the fixed costs per token
 * (t_fix / p, and the memory floor at the shortest prefixes) outweigh attention's (A·p / 2G_a), and falls past the
 * point where they are equal: for the 07.05 default thousands of tokens, well past the roofline knee (a few
 * hundred). It is found on a log grid and refined by golden-section search. Null (with `latencyBoundBelow`) when the latency alone loses
 * for the shortest prefixes: recompute(p) ≤ λ there, and no bandwidth helps.
 */
export function alwaysWinsBandwidth(
  model: ModelSpec,
  hw: HardwareConfig,
  latency: number,
  maxTokens: number,
): { bandwidth: number | null; atTokens: number | null; latencyBoundBelow: number | null } {
  if (recomputeTime(model, hw, 1) <= latency) {
    // recompute is increasing in p: bisect for the last p whose recompute does not exceed λ.
    let lo = 1;
    let hi = maxTokens;
    if (recomputeTime(model, hw, hi) <= latency)
      return { bandwidth: null, atTokens: null, latencyBoundBelow: maxTokens };
    for (let i = 0; i < 100; i++) {
      const mid = Math.sqrt(lo * hi);
      if (recomputeTime(model, hw, mid) <= latency) lo = mid;
      else hi = mid;
    }
    return { bandwidth: null, atTokens: null, latencyBoundBelow: hi };
  }
  const B = (p: number) => minLinkBandwidth(model, hw, p, latency);
  const grid = logGrid(maxTokens, 600);
  let best = 0;
  for (let i = 1; i < grid.length; i++) if (B(grid[i]) > B(grid[best])) best = i;
  // Golden-section on ln p between the neighbours of the best grid point.
  let a = Math.log(grid[Math.max(0, best - 1)]);
  let b = Math.log(grid[Math.min(grid.length - 1, best + 1)]);
  const g = (Math.sqrt(5) - 1) / 2;
  let c = b - g * (b - a);
  let d = a + g * (b - a);
  for (let i = 0; i < 80; i++) {
    if (B(Math.exp(c)) > B(Math.exp(d))) b = d;
    else a = c;
    c = b - g * (b - a);
    d = a + g * (b - a);
  }
  const candidates = [grid[best], Math.exp((a + b) / 2)];
  const at = B(candidates[1]) >= B(candidates[0]) ? candidates[1] : candidates[0];
  return { bandwidth: B(at), atTokens: at, latencyBoundBelow: null };
}
