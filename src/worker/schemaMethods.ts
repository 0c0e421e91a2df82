/**
 * Worker methods of lesson 07.07 (the tool schema tax). Token counts come from a real tokenizer, gpt-tokenizer's
 * o200k_base, imported lazily on the first call (a 2 MB chunk that only the worker ever loads); the arithmetic
 * is src/sim/lessons/toolSchema.ts, prefill times src/sim/engine/cost.ts.
 */
import { BadRequest, within } from './badRequest';
import { replicaHardware } from './replicaHardware';
import { BLOCK_SIZE } from './limits/common';
import { SEED_LIMIT } from '../sim/engine/rng';
import { prefillTime } from '../sim/engine/cost';
import { finishCooperatively } from '../sim/engine/cooperative';
import { ADDED_TOOL, AGENT_TOOLS } from '../sim/lessons/tools/agentTools';
import { sessionToolCost, sessionToolSeries, type SessionToolCost } from '../sim/lessons/toolSchema';
import {
  parseToolDefinitions,
  renderTool,
  type ParseError,
  type ToolFormat,
} from '../sim/lessons/toolDefinitions';
import { LAYOUTS, simulateLayoutSteps, type LayoutId, type LayoutResult } from '../sim/lessons/toolLayouts';
import { directContext, type JobContext } from './job';
import { pacedCheckpoint } from './pacedCheckpoint';
import { progressFrames, withStage, type JobProgress } from './progress';
import { fitted } from './fitted';
import { LAYOUT_LIMITS as LAYOUT, TOOL_TAX_LIMITS as TAX } from './limits/schema';

type Encode = (text: string) => number[];
let encoder: Promise<Encode> | null = null;

/** The o200k_base encoder, loaded on first use. */
function loadEncoder(): Promise<Encode> {
  if (!encoder)
    encoder = import('gpt-tokenizer/encoding/o200k_base')
      .then((m) => m.encode as Encode)
      .catch((e: unknown) => {
        encoder = null;
        throw e;
      });
  return encoder;
}

const counts = new Map<string, number>();
/** Tokens of a text with o200k_base (memoised: the same definitions are counted again on every change). */
export async function countTokens(text: string): Promise<number> {
  const hit = counts.get(text);
  if (hit !== undefined) return hit;
  const encode = await loadEncoder();
  const n = encode(text).length;
  if (counts.size > 5000) counts.clear();
  counts.set(text, n);
  return n;
}

/** Token ids of a text (for the tests and the lesson's tokenizer read-out). */
export async function encodeText(req: { text: string }): Promise<{ ids: number[]; tokens: number }> {
  const encode = await loadEncoder();
  const ids = encode(req.text);
  return { ids, tokens: ids.length };
}

function format(f: string): ToolFormat {
  if (f !== 'openai' && f !== 'anthropic') throw new BadRequest(`Unknown tool format "${f}".`);
  return f;
}

export interface ToolTaxRequest {
  /** How many of the shipped tools, in their listed order. */
  toolCount: number;
  format: string;
  pretty: boolean;
  turns: number;
  /** The tool block changes every this many turns; 0 = never. */
  changeEvery: number;
  inputPerMTok: number;
  writeMultiplier: number;
  readMultiplier: number;
  modelId: string;
  acceleratorId: string;
  gpus: number;
  /** Pasted JSON; when it parses, it replaces the shipped tools. */
  custom: string | null;
}

export interface ToolCount {
  name: string;
  group: string;
  tokens: number;
  chars: number;
}

export interface ToolTaxResult {
  source: 'shipped' | 'custom';
  tokenizer: 'o200k_base';
  tools: ToolCount[];
  /** Shipped tools available (the slider's range). */
  available: number;
  toolTokens: number;
  toolChars: number;
  session: SessionToolCost;
  /** Cumulative figures after each turn. */
  series: ReturnType<typeof sessionToolSeries>;
  /** Prefill of the tool block alone, from scratch, on the chosen replica. */
  prefillSeconds: number;
  modelName: string;
  acceleratorName: string;
  /** Why a paste was not used (the shipped tools are shown instead). */
  customError: ParseError | null;
}

export async function toolSchemaTax(req: ToolTaxRequest): Promise<ToolTaxResult> {
  const f = format(req.format);
  const n = within(TAX.toolCount, req.toolCount);
  const turns = within(TAX.turns, req.turns);
  const changeEvery = within(TAX.changeEvery, req.changeEvery);
  const price = {
    inputPerMTok: within(TAX.inputPerMTok, req.inputPerMTok),
    writeMultiplier: within(TAX.writeMultiplier, req.writeMultiplier),
    readMultiplier: within(TAX.readMultiplier, req.readMultiplier),
  };
  const { model, accelerator: acc, hw } = replicaHardware(req.modelId, req.acceleratorId, req.gpus);
  let customError: ParseError | null = null;
  let defs: {
    name: string;
    description: string;
    parameters: (typeof AGENT_TOOLS)[number]['parameters'];
    group: string;
  }[] = AGENT_TOOLS.slice(0, n);
  let source: ToolTaxResult['source'] = 'shipped';
  if (req.custom !== null) {
    const parsed = parseToolDefinitions(req.custom);
    if (parsed.ok) {
      defs = parsed.tools.map((t) => ({ ...t, group: 'pasted' }));
      source = 'custom';
    } else customError = parsed.error;
  }
  const tools: ToolCount[] = [];
  for (const d of defs) {
    const text = renderTool(d, f, req.pretty);
    tools.push({ name: d.name, group: d.group, tokens: await countTokens(text), chars: text.length });
  }
  const toolTokens = tools.reduce((s, t) => s + t.tokens, 0);
  return {
    source,
    tokenizer: 'o200k_base',
    tools,
    available: AGENT_TOOLS.length,
    toolTokens,
    toolChars: tools.reduce((s, t) => s + t.chars, 0),
    session: sessionToolCost(toolTokens, turns, changeEvery, price),
    series: sessionToolSeries(toolTokens, turns, changeEvery, price),
    prefillSeconds: prefillTime(model, hw, toolTokens, 0),
    modelName: model.name,
    acceleratorName: acc.name,
    customError,
  };
}

export interface LayoutRequest {
  toolCount: number;
  format: string;
  systemTokens: number;
  newTokens: number;
  outputTokens: number;
  timestampTokens: number;
  turns: number;
  blockSize: number;
  changeTurn: number;
  seed: number;
  modelId: string;
  acceleratorId: string;
  gpus: number;
}

export interface LayoutWithTime extends LayoutResult {
  /** Prefill seconds of each turn (its re-prefilled tokens on top of its hit), alone on the replica. */
  seconds: number[];
  totalSeconds: number;
}

export interface LayoutsResponse {
  toolTokens: number;
  toolCount: number;
  addedToolTokens: number;
  modelName: string;
  acceleratorName: string;
  gpus: number;
  layouts: LayoutWithTime[];
}

/**
 * The six layouts' sessions. Cooperative (a newer request cancels it inside a turn), with progress: layout i of 6,
 * in prompt tokens replayed (≈19 s at the widget's maxima under load, docs/reliability.md).
 */
export async function toolLayouts(
  req: LayoutRequest,
  ctx: JobContext<JobProgress> = directContext(),
): Promise<LayoutsResponse> {
  const f = format(req.format);
  const n = within(LAYOUT.toolCount, req.toolCount);
  const { model, accelerator: acc, hw } = replicaHardware(req.modelId, req.acceleratorId, req.gpus);
  const tools: { name: string; tokens: number }[] = [];
  for (const t of AGENT_TOOLS.slice(0, n))
    tools.push({ name: t.name, tokens: await countTokens(renderTool(t, f)) });
  const addedTool = { name: ADDED_TOOL.name, tokens: await countTokens(renderTool(ADDED_TOOL, f)) };
  const setup = {
    tools,
    addedTool,
    systemTokens: within(LAYOUT.systemTokens, req.systemTokens),
    newTokens: within(LAYOUT.newTokens, req.newTokens),
    outputTokens: within(LAYOUT.outputTokens, req.outputTokens),
    timestampTokens: within(LAYOUT.timestampTokens, req.timestampTokens),
    turns: within(LAYOUT.turns, req.turns),
    blockSize: within(BLOCK_SIZE, req.blockSize),
    changeTurn: within(LAYOUT.changeTurn, req.changeTurn),
    seed: within(SEED_LIMIT, req.seed),
  };
  const layouts: LayoutWithTime[] = [];
  const checkpoint = pacedCheckpoint(ctx, progressFrames(ctx).sink);
  for (const [i, id] of (LAYOUTS as readonly LayoutId[]).entries()) {
    const stage = {
      label: 'Replaying the prompt layouts',
      unit: 'prompt tokens',
      stage: i + 1,
      stages: LAYOUTS.length,
    };
    const r = await finishCooperatively(simulateLayoutSteps(setup, id), withStage(checkpoint, stage));
    const seconds = r.turns.map((t) => prefillTime(model, hw, t.prefillTokens, t.hitTokens));
    layouts.push({ ...r, seconds, totalSeconds: seconds.reduce((a, b) => a + b, 0) });
  }
  return {
    toolTokens: tools.reduce((s, t) => s + t.tokens, 0),
    toolCount: n,
    addedToolTokens: addedTool.tokens,
    modelName: model.name,
    acceleratorName: acc.name,
    gpus: hw.tp,
    layouts,
  };
}

export const schemaMethods = {
  // As the widgets call them: a replica with no room for KV is a "cannot run" outcome (fitted.ts), not a prefill
  // time for a replica that could not start.
  toolSchemaTax: fitted('gpus', toolSchemaTax),
  toolLayouts: fitted('gpus', toolLayouts),
  encodeText,
};
