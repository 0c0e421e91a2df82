/**
 * Worker methods of lesson 07.04 (the KV memory hierarchy): the memory ladder of one node for one model and
 * context length (capacity, bandwidth and latency of each tier's path into HBM, contexts held, reload time of one
 * context against its recompute time, where N agents wait), and the lesson's inline figures. Plain structured-
 * cloneable arguments (catalog ids); every figure comes from src/sim/lessons/memoryLadder.ts and the catalogs.
 */
import { asRefusal, BadRequest, within } from './badRequest';
import { acceleratorHardware } from './replicaHardware';
import { resolveAccelerator, resolveLink, resolveModel, resolveNode } from '../sim/engine/catalog/index';
import type { LinkSpec } from '../sim/engine/catalog/links';
import type { NodeSpec } from '../sim/engine/catalog/nodes';
import {
  DEFAULT_GEMM_EFFICIENCY,
  effectiveFlops,
  effectiveMemBandwidth,
  prefillCost,
} from '../sim/engine/cost';
import { computeFootprint } from '../sim/engine/footprint';
import { ladderHardware, memoryLadder, type LadderResult } from '../sim/lessons/memoryLadder';
import { DTYPE_BYTES, MODELS, type Dtype } from '../sim/engine/catalog/models';
import * as Comlink from 'comlink';
import { transferables, type FleetFrame } from '../sim/engine/fleet/frames';
import { runScenario } from '../sim/engine/fleet/run';
import { ScenarioError } from '../sim/engine/fleet/scenario';
import {
  checkHierarchyArgs,
  checkHierarchyLimits,
  hierarchyCannotRun,
  FRAME_INTERVAL_S,
  HIERARCHY_DURATION_S,
  HIERARCHY_PAGE_TOKENS,
  hierarchyScenario,
  hierarchySummary,
  pageBytes,
  sharedHeadHashes,
  type HierarchyArgs,
  type HierarchySummary,
} from '../sim/lessons/hierarchyLab';
import type { CannotRun } from '../sim/engine/cannotRun';
import type { JobContext } from './job';
import { FOOTPRINT_LIMITS, LADDER_LIMITS } from './limits/hierarchy';

export type LadderDtype = 'bf16' | 'fp8';

/** The node's data drives ('node': as catalogued) or a different kind and count of drive in their place. */
export type NvmeChoice = 'node' | 'one-drive' | 'gen5';

/** The path to the remote pool: the node's own NICs at their derived effective rate, or a catalog link id. */
export type RemoteChoice = 'node-nics' | string;

export interface LadderRequest {
  nodeId: string;
  modelId: string;
  kvDtype: LadderDtype;
  weightDtype: LadderDtype;
  contextTokens: number;
  agents: number;
  /** Host DRAM given to the KV cache, TB (10¹² bytes). */
  dramTB: number;
  nvme: NvmeChoice;
  remote: RemoteChoice;
  /** Remote pool capacity for this node's agents, TB. */
  poolTB: number;
}

/** Fixed settings of the ladder, shared with the calculator's defaults. */
export const LADDER_MEMORY_UTILIZATION = 0.9;
/** The cost model's fitted default (src/sim/engine/cost.ts). */
export const LADDER_GEMM_EFFICIENCY = DEFAULT_GEMM_EFFICIENCY;

export interface LadderResponse extends LadderResult {
  request: LadderRequest;
  nodeName: string;
  modelName: string;
  modelMaxContext: number;
  acceleratorName: string;
  gpus: number;
  /** The node's own host DRAM and its data drives, as catalogued. */
  nodeHostDramBytes: number;
  nodeNvme: { drives: number; capacityBytes: number; linkName: string };
  /** The node's scale-out NICs: count, line rate of one, and all of them at their effective rate. */
  nodeNics: {
    count: number;
    perNicLineRate: number;
    lineRate: number;
    effectiveBandwidth: number;
    linkName: string;
  };
  /** Line rate of the chosen remote path (count × line rate of one), bytes/s. */
  remoteLineRate: number;
  memoryUtilization: number;
  gemmEfficiency: number;
  attentionEfficiency: number;
  iterationOverheadS: number;
  /** Replica FLOP/s and HBM bytes/s achieved for the recompute (tp · peak · gemmEfficiency, tp · bw · mbu). */
  replicaFlops: number;
  /** The recompute's tensor-parallel all-reduce time, s (two per layer over NVLink). */
  recomputeAllReduceS: number;
  replicaMemBandwidth: number;
  recomputeFlops: number;
  recomputeBytes: number;
  notes: string[];
}

function checkDtype(name: string, v: string): LadderDtype {
  if (v !== 'bf16' && v !== 'fp8') throw new BadRequest(`${name} must be bf16 or fp8, got ${String(v)}`);
  return v;
}

function anyDtype(name: string, v: string): Dtype {
  if (!(v in DTYPE_BYTES))
    throw new BadRequest(`${name} must be one of ${Object.keys(DTYPE_BYTES).join(', ')}, got ${String(v)}`);
  return v as Dtype;
}

function nvmePath(
  node: NodeSpec,
  choice: NvmeChoice,
): { link: LinkSpec; drives: number; capacityBytes: number } {
  const perDrive = node.nvme.capacityBytes / Math.max(1, node.nvme.drives);
  switch (choice) {
    case 'node':
      return {
        link: resolveLink(node.nvme.link),
        drives: node.nvme.drives,
        capacityBytes: node.nvme.capacityBytes,
      };
    case 'one-drive':
      return { link: resolveLink(node.nvme.link), drives: 1, capacityBytes: perDrive };
    case 'gen5':
      return {
        link: resolveLink('nvme-gen5'),
        drives: node.nvme.drives,
        capacityBytes: node.nvme.capacityBytes,
      };
    default:
      throw new BadRequest(`nvme must be node, one-drive or gen5, got ${String(choice)}`);
  }
}

function remotePath(node: NodeSpec, choice: RemoteChoice): { link: LinkSpec; count: number } {
  if (choice === 'node-nics') {
    if (!node.nics.length) throw new BadRequest(`node ${node.id} has no scale-out NICs`);
    const g = node.nics[0];
    return { link: resolveLink(g.link), count: g.count };
  }
  const link = resolveLink(choice);
  if (link.kind !== 'rdma' && link.kind !== 'ethernet')
    throw new BadRequest(
      `the remote pool is reached over the network: pick an RDMA or Ethernet link, not ${link.id}`,
    );
  return { link, count: 1 };
}

export function memoryLadderMethod(req: LadderRequest): LadderResponse {
  const kvDtype = checkDtype('kvDtype', req.kvDtype);
  const weightDtype = checkDtype('weightDtype', req.weightDtype);
  const contextTokens = within(LADDER_LIMITS.contextTokens, req.contextTokens);
  const agents = within(LADDER_LIMITS.agents, req.agents);
  const dramTB = within(LADDER_LIMITS.dramTB, req.dramTB);
  const poolTB = within(LADDER_LIMITS.poolTB, req.poolTB);
  return asRefusal(() => {
    const node = resolveNode(req.nodeId);
    const model = resolveModel(req.modelId);
    const accelerator = resolveAccelerator(node.accelerator);
    const hostLink = resolveLink(accelerator.hostLink);
    const nvme = nvmePath(node, req.nvme);
    const remote = remotePath(node, req.remote);
    const input = {
      node,
      accelerator,
      model,
      kvDtype,
      weightDtype,
      memoryUtilization: LADDER_MEMORY_UTILIZATION,
      gemmEfficiency: LADDER_GEMM_EFFICIENCY,
      contextTokens,
      agents,
      dramForKvBytes: dramTB * 1e12,
      hostLink,
      nvmeLink: nvme.link,
      nvmeDrives: nvme.drives,
      nvmeCapacityBytes: nvme.capacityBytes,
      remoteLink: remote.link,
      remoteCount: remote.count,
      poolBytes: poolTB * 1e12,
    };
    const r = memoryLadder(input);
    const hw = ladderHardware(input);
    const cost = prefillCost(model, hw, contextTokens, 0);
    const nicGroup = node.nics[0];
    const nicLink = resolveLink(nicGroup.link);
    const nodeNics = {
      count: nicGroup.count,
      perNicLineRate: nicLink.lineRate,
      lineRate: nicLink.lineRate * nicGroup.count,
      effectiveBandwidth: nicLink.effectiveBandwidth * nicGroup.count,
      linkName: nicLink.name,
    };
    const remoteLineRate = remote.link.lineRate * remote.count;
    const notes: string[] = [];
    if (!r.weightsFit)
      notes.push(
        `The weights (${(r.weightBytes / 1e9).toFixed(0)} GB) do not fit in ${(r.usableHbmBytes / 1e9).toFixed(0)} GB of usable HBM: no KV fits, and the recompute time assumes a node that could hold them.`,
      );
    if (dramTB * 1e12 > node.hostDramBytes)
      notes.push(
        `More host DRAM than the ${node.name.split(' (')[0]} has (${node.hostDramBytes / 1e12} TB): a node with larger DIMMs.`,
      );
    if (remoteLineRate > nodeNics.lineRate * (1 + 1e-9))
      notes.push(
        `The chosen remote path's line rate is more than this node's NICs carry (${nodeNics.count} × ${(nicLink.lineRate * 8) / 1e9} Gb/s).`,
      );
    if (contextTokens > model.maxContext)
      notes.push(
        `${contextTokens.toLocaleString('en-US')} tokens is longer than ${model.name}'s ${model.maxContext.toLocaleString('en-US')}-token context.`,
      );
    return {
      ...r,
      request: { ...req },
      nodeName: node.name,
      modelName: model.name,
      modelMaxContext: model.maxContext,
      acceleratorName: accelerator.name,
      gpus: node.gpuCount,
      nodeHostDramBytes: node.hostDramBytes,
      nodeNvme: {
        drives: node.nvme.drives,
        capacityBytes: node.nvme.capacityBytes,
        linkName: resolveLink(node.nvme.link).name,
      },
      nodeNics,
      remoteLineRate,
      memoryUtilization: LADDER_MEMORY_UTILIZATION,
      gemmEfficiency: LADDER_GEMM_EFFICIENCY,
      attentionEfficiency: hw.attentionEfficiency,
      iterationOverheadS: hw.iterationOverheadS,
      replicaFlops: effectiveFlops(hw),
      recomputeAllReduceS: cost.allReduceTime,
      replicaMemBandwidth: effectiveMemBandwidth(hw),
      recomputeFlops: cost.flops,
      recomputeBytes: cost.bytes,
      notes,
    };
  });
}

/** Contexts that fit in HBM after the weights, for every catalog model on one node (the calculator's bars). */
export interface ContextsPerModelRequest {
  acceleratorId: string;
  gpus: number;
  kvDtype: Dtype;
  weightDtype: Dtype;
  contextTokens: number;
  memoryUtilization: number;
}

export interface ContextsPerModelRow {
  id: string;
  name: string;
  mla: boolean;
  kvBytesPerToken: number;
  contextBytes: number;
  weightBytes: number;
  kvBudgetBytes: number;
  weightsFit: boolean;
  contexts: number;
}

export function contextsPerModel(req: ContextsPerModelRequest): ContextsPerModelRow[] {
  const kvDtype = anyDtype('kvDtype', req.kvDtype);
  const weightDtype = anyDtype('weightDtype', req.weightDtype);
  const contextTokens = within(FOOTPRINT_LIMITS.contextTokens, req.contextTokens);
  const memoryUtilization = within(FOOTPRINT_LIMITS.memoryUtilization, req.memoryUtilization);
  const { accelerator, hw } = acceleratorHardware(req.acceleratorId, req.gpus);
  const gpus = hw.tp;
  return MODELS.map((m) => {
    const f = computeFootprint({
      model: m,
      accelerator,
      kvDtype,
      weightDtype,
      contextTokens,
      gpus,
      memoryUtilization,
    });
    return {
      id: m.id,
      name: m.name,
      mla: m.attention.kind === 'mla',
      kvBytesPerToken: f.kvBytesPerToken,
      contextBytes: f.contextBytes,
      weightBytes: f.weightBytesTotal,
      kvBudgetBytes: f.kvBudgetBytes,
      weightsFit: f.weightsFit,
      contexts: f.concurrentContexts,
    };
  });
}

/** The lesson's inline figures: the ladder for a few named setups (the first is the widget's default). */
export interface HierarchyFiguresRequest {
  setups: Record<string, LadderRequest>;
}

export function hierarchyFigures(req: HierarchyFiguresRequest): Record<string, LadderResponse> {
  const out: Record<string, LadderResponse> = {};
  for (const [k, s] of Object.entries(req.setups)) out[k] = memoryLadderMethod(s);
  return out;
}

// ───────────────────────────── the animation's run ─────────────────────────────

export interface KvHierarchyRunResult {
  args: HierarchyArgs;
  frames: number;
  durationS: number;
  frameIntervalS: number;
  pageTokens: number;
  pageBytes: number;
  /** Hashes of the shared head's pages (drawn as shared). */
  sharedHashes: number[];
  /** Prompt tokens reused from each tier (hbm, dram, nvme, remote) and prefilled, over the run. */
  reusedTokens: { hbm: number; dram: number; nvme: number; remote: number };
  prefilledTokens: number;
}

/**
 * One run of the hierarchy animation (src/sim/lessons/hierarchyLab.ts): its frames streamed as they are made
 * (typed arrays, transferred), a cooperative yield every few thousand events so a newer request cancels it.
 */
async function kvHierarchyRun(
  args: HierarchyArgs,
  ctx: JobContext<FleetFrame>,
): Promise<KvHierarchyRunResult | CannotRun> {
  // Controls each in range that cannot run together: an outcome the widget draws, not an error.
  const cannot = asRefusal(() => {
    checkHierarchyLimits(args);
    return hierarchyCannotRun(args);
  });
  if (cannot) return cannot;
  const scenario = asRefusal(() => {
    checkHierarchyArgs(args);
    return hierarchyScenario(args);
  });
  let frames = 0;
  try {
    const r = await runScenario(scenario, {
      onFrame: (f) => {
        frames++;
        return ctx.emit(Comlink.transfer(f, transferables(f)));
      },
      checkpoint: () => ctx.checkpoint(),
      checkpointEvery: 4000,
      includeSeries: false,
    });
    const tok = r.metrics.tokens;
    return {
      args,
      frames,
      durationS: HIERARCHY_DURATION_S,
      frameIntervalS: FRAME_INTERVAL_S,
      pageTokens: HIERARCHY_PAGE_TOKENS,
      pageBytes: pageBytes(args.modelId),
      sharedHashes: sharedHeadHashes(),
      reusedTokens: { ...tok.reused },
      prefilledTokens: tok.prefilled,
    };
  } catch (e) {
    if (e instanceof ScenarioError) throw new BadRequest(e.message);
    throw e;
  }
}

/** The animation's run reduced to its totals, for the lessons' inline figures (no frames). */
function kvHierarchySummary(args: HierarchyArgs): HierarchySummary {
  return asRefusal(() => hierarchySummary(args));
}

export const hierarchyMethods = {
  kvHierarchySummary,
  memoryLadder: memoryLadderMethod,
  contextsPerModel,
  hierarchyFigures,
  kvHierarchyRun,
};
