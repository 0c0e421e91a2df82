/**
 * One place to resolve a model, accelerator, link or node from a catalog id OR a user-defined object, with any
 * field overridable. Everything returned is validated (positive finite numbers, whole numbers where a count is
 * meant, consistent shapes), so the cost model can trust it. Invalid input throws a CatalogError whose message
 * names the bad id or field and, for an unknown id, lists the valid ones.
 */
import { ACCELERATORS, type AcceleratorSpec } from './accelerators';
import { LINKS, type LinkKind, type LinkSpec } from './links';
import { MODELS, type ModelSpec } from './models';
import { NODES, type NodeSpec } from './nodes';

export { ACCELERATORS, LINKS, MODELS, NODES };
export type { AcceleratorSpec, LinkSpec, ModelSpec, NodeSpec };

export class CatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogError';
  }
}

type Overrides<T> = { [K in keyof T]?: T[K] };

function lookup<T extends { id: string }>(kind: string, list: readonly T[], id: string): T {
  const found = list.find((x) => x.id === id);
  if (!found)
    throw new CatalogError(`unknown ${kind} "${id}" (valid ids: ${list.map((x) => x.id).join(', ')})`);
  return found;
}

function checkNumber(
  what: string,
  field: string,
  v: unknown,
  opts: { allowZero?: boolean; integer?: boolean; max?: number } = {},
): void {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new CatalogError(`${what}: ${field} must be a finite number, got ${String(v)}`);
  if (opts.allowZero ? v < 0 : v <= 0)
    throw new CatalogError(
      `${what}: ${field} must be ${opts.allowZero ? 'zero or more' : 'positive'}, got ${v}`,
    );
  if (opts.integer && !Number.isInteger(v))
    throw new CatalogError(`${what}: ${field} must be a whole number, got ${v}`);
  if (opts.max !== undefined && v > opts.max)
    throw new CatalogError(`${what}: ${field} must be at most ${opts.max}, got ${v}`);
}

function checkString(what: string, field: string, v: unknown): void {
  if (typeof v !== 'string' || v.length === 0)
    throw new CatalogError(`${what}: ${field} must be a non-empty string`);
}

function checkKnownKeys(what: string, o: object, known: readonly string[]): void {
  for (const k of Object.keys(o))
    if (!known.includes(k))
      throw new CatalogError(`${what}: unknown field "${k}" (fields: ${known.join(', ')})`);
}

function apply<T extends object>(base: T, overrides: Overrides<T> | undefined): T {
  if (!overrides) return { ...base };
  const out = { ...base };
  for (const [k, v] of Object.entries(overrides))
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  return out;
}

const MODEL_FIELDS = [
  'id',
  'name',
  'layers',
  'hiddenSize',
  'attentionHeads',
  'kvHeads',
  'headDim',
  'totalParams',
  'activeParams',
  'vocabSize',
  'maxContext',
  'attention',
  'moe',
  'source',
] as const;

export function validateModel(m: ModelSpec): ModelSpec {
  const what = `model "${m?.id ?? '?'}"`;
  if (typeof m !== 'object' || m === null) throw new CatalogError('model must be an object');
  checkKnownKeys(what, m, MODEL_FIELDS);
  checkString(what, 'id', m.id);
  checkString(what, 'name', m.name);
  for (const f of [
    'layers',
    'hiddenSize',
    'attentionHeads',
    'kvHeads',
    'headDim',
    'vocabSize',
    'maxContext',
  ] as const)
    checkNumber(what, f, m[f], { integer: true });
  checkNumber(what, 'totalParams', m.totalParams);
  checkNumber(what, 'activeParams', m.activeParams);
  if (m.activeParams > m.totalParams)
    throw new CatalogError(
      `${what}: activeParams (${m.activeParams}) cannot exceed totalParams (${m.totalParams})`,
    );
  if (m.kvHeads > m.attentionHeads)
    throw new CatalogError(
      `${what}: kvHeads (${m.kvHeads}) cannot exceed attentionHeads (${m.attentionHeads})`,
    );
  if (m.attention?.kind === 'mla') {
    for (const f of ['kvLoraRank', 'ropeHeadDim', 'qkHeadDim', 'vHeadDim'] as const)
      checkNumber(what, `attention.${f}`, m.attention[f], { integer: true });
    if (m.attention.qLoraRank !== undefined)
      checkNumber(what, 'attention.qLoraRank', m.attention.qLoraRank, { integer: true });
  } else if (m.attention?.kind !== 'gqa') {
    throw new CatalogError(
      `${what}: attention must be { kind: 'gqa' } or { kind: 'mla', kvLoraRank, ropeHeadDim, qkHeadDim, vHeadDim }`,
    );
  }
  if (m.moe !== undefined) {
    checkNumber(what, 'moe.experts', m.moe.experts, { integer: true });
    checkNumber(what, 'moe.activeExperts', m.moe.activeExperts, { integer: true, max: m.moe.experts });
  }
  // The cost model treats the input embedding and the LM head (vocab × hidden each, untied) apart from the
  // transformer body, so the active parameters must hold both.
  const embed = m.vocabSize * m.hiddenSize;
  if (2 * embed >= m.activeParams)
    throw new CatalogError(
      `${what}: activeParams (${m.activeParams}) must exceed input embedding + LM head, 2 × vocabSize × hiddenSize (${2 * embed})`,
    );
  if (m.moe !== undefined && m.activeParams < m.totalParams) {
    if (m.moe.activeExperts >= m.moe.experts)
      throw new CatalogError(
        `${what}: moe.activeExperts (${m.moe.activeExperts}) must be below moe.experts (${m.moe.experts}) when activeParams < totalParams`,
      );
    const perExpert = (m.totalParams - m.activeParams) / (m.moe.experts - m.moe.activeExperts);
    const shared = m.activeParams - m.moe.activeExperts * perExpert;
    if (shared < 2 * embed)
      throw new CatalogError(
        `${what}: inconsistent MoE split: derived always-active parameters ${shared.toExponential(3)} (activeParams − activeExperts × expert size) are less than embedding + LM head`,
      );
  }
  if (typeof m.source !== 'string') throw new CatalogError(`${what}: source must be a string`);
  return m;
}

/**
 * A catalog model by id, or a user-defined ModelSpec, with overrides applied and the result validated.
 * A dense model (activeParams === totalParams) stays dense when only totalParams is overridden.
 */
export function resolveModel(idOrSpec: string | ModelSpec, overrides?: Overrides<ModelSpec>): ModelSpec {
  const base = typeof idOrSpec === 'string' ? lookup('model', MODELS, idOrSpec) : idOrSpec;
  if (typeof base !== 'object' || base === null)
    throw new CatalogError('model must be a catalog id or a ModelSpec object');
  const out = apply(base, overrides);
  if (
    overrides?.totalParams !== undefined &&
    overrides.activeParams === undefined &&
    base.activeParams === base.totalParams
  )
    out.activeParams = overrides.totalParams;
  return validateModel(out);
}

const ACCELERATOR_FIELDS = [
  'id',
  'name',
  'vendor',
  'memoryBytes',
  'memorySource',
  'memBandwidth',
  'bf16Flops',
  'fp8Flops',
  'powerW',
  'hostLink',
  'scaleUpBandwidth',
  'source',
] as const;

export function validateAccelerator(a: AcceleratorSpec): AcceleratorSpec {
  if (typeof a !== 'object' || a === null) throw new CatalogError('accelerator must be an object');
  const what = `accelerator "${a.id ?? '?'}"`;
  checkKnownKeys(what, a, ACCELERATOR_FIELDS);
  checkString(what, 'id', a.id);
  checkString(what, 'name', a.name);
  for (const f of ['memoryBytes', 'memBandwidth', 'bf16Flops', 'powerW'] as const) checkNumber(what, f, a[f]);
  checkNumber(what, 'fp8Flops', a.fp8Flops, { allowZero: true });
  checkNumber(what, 'scaleUpBandwidth', a.scaleUpBandwidth, { allowZero: true });
  checkString(what, 'hostLink', a.hostLink);
  if (typeof a.source !== 'string') throw new CatalogError(`${what}: source must be a string`);
  if (typeof a.memorySource !== 'string') throw new CatalogError(`${what}: memorySource must be a string`);
  return a;
}

export function resolveAccelerator(
  idOrSpec: string | AcceleratorSpec,
  overrides?: Overrides<AcceleratorSpec>,
): AcceleratorSpec {
  const base = typeof idOrSpec === 'string' ? lookup('accelerator', ACCELERATORS, idOrSpec) : idOrSpec;
  if (typeof base !== 'object' || base === null)
    throw new CatalogError('accelerator must be a catalog id or an AcceleratorSpec object');
  return validateAccelerator(apply(base, overrides));
}

const LINK_KINDS: readonly LinkKind[] = ['pcie', 'nvlink', 'nvme', 'rdma', 'ethernet'];
const LINK_FIELDS = [
  'id',
  'name',
  'kind',
  'lineRate',
  'effectiveBandwidth',
  'effectiveBasis',
  'latency',
  'latencyBasis',
  'source',
] as const;

export function validateLink(l: LinkSpec): LinkSpec {
  if (typeof l !== 'object' || l === null) throw new CatalogError('link must be an object');
  const what = `link "${l.id ?? '?'}"`;
  checkKnownKeys(what, l, LINK_FIELDS);
  checkString(what, 'id', l.id);
  checkString(what, 'name', l.name);
  if (!LINK_KINDS.includes(l.kind))
    throw new CatalogError(`${what}: kind must be one of ${LINK_KINDS.join(', ')}, got ${String(l.kind)}`);
  checkNumber(what, 'lineRate', l.lineRate);
  checkNumber(what, 'effectiveBandwidth', l.effectiveBandwidth);
  checkNumber(what, 'latency', l.latency, { allowZero: true });
  if (typeof l.source !== 'string') throw new CatalogError(`${what}: source must be a string`);
  return l;
}

export function resolveLink(idOrSpec: string | LinkSpec, overrides?: Overrides<LinkSpec>): LinkSpec {
  const base = typeof idOrSpec === 'string' ? lookup('link', LINKS, idOrSpec) : idOrSpec;
  if (typeof base !== 'object' || base === null)
    throw new CatalogError('link must be a catalog id or a LinkSpec object');
  return validateLink(apply(base, overrides));
}

/** A user-defined link from an effective bandwidth (bytes/s) and a latency (s); line rate taken equal to it. */
export function customLink(effectiveBandwidth: number, latency: number, name = 'custom link'): LinkSpec {
  return validateLink({
    id: 'custom',
    name,
    kind: 'rdma',
    lineRate: effectiveBandwidth,
    effectiveBandwidth,
    effectiveBasis: 'derived',
    latency,
    latencyBasis: 'assumed',
    source: 'user-defined',
  });
}

export function resolveNode(idOrSpec: string | NodeSpec, overrides?: Overrides<NodeSpec>): NodeSpec {
  const base = typeof idOrSpec === 'string' ? lookup('node', NODES, idOrSpec) : idOrSpec;
  if (typeof base !== 'object' || base === null)
    throw new CatalogError('node must be a catalog id or a NodeSpec object');
  const n = apply(base, overrides);
  const what = `node "${n.id ?? '?'}"`;
  checkString(what, 'id', n.id);
  lookup('accelerator', ACCELERATORS, n.accelerator);
  checkNumber(what, 'gpuCount', n.gpuCount, { integer: true });
  checkNumber(what, 'hostDramBytes', n.hostDramBytes, { allowZero: true });
  checkNumber(what, 'powerW', n.powerW);
  lookup('link', LINKS, n.nvme.link);
  checkNumber(what, 'nvme.drives', n.nvme.drives, { allowZero: true, integer: true });
  checkNumber(what, 'nvme.capacityBytes', n.nvme.capacityBytes, { allowZero: true });
  lookup('link', LINKS, n.scaleUpLink);
  for (const g of n.nics) {
    lookup('link', LINKS, g.link);
    checkNumber(what, 'nics.count', g.count, { integer: true });
  }
  if (n.hostMemory !== undefined) {
    checkNumber(what, 'hostMemory.channels', n.hostMemory.channels, { integer: true });
    checkNumber(what, 'hostMemory.transfersPerS', n.hostMemory.transfersPerS);
  }
  return n;
}
