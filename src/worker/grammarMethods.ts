/**
 * Worker methods of lesson 07.08 (structured output): the real grammar engine's mask traced through a JSON
 * document, and the "asking nicely" sampler. The engine (XGrammar WASM + the o200k vocabulary) is imported
 * and set up lazily on the first call, so that importing methods.ts (in Node tests too) stays light.
 */
import { askNicely, type AskNicelyRequest, type AskNicelyResult } from '../sim/lessons/grammar/slip';
import { SchemaError } from '../sim/lessons/grammar/schema';
import * as Comlink from 'comlink';
import type { TraceResult } from './grammarEngine';
import type { LogitTrace, LogitTraceRequest } from './grammarLogitsEngine';
import type { JobContext } from './job';
import {
  boundedDocument,
  boundedSchema,
  MAX_LENGTHS,
  percentile,
  TOOL_COUNTS,
  toolsDocument,
  toolsSchema,
} from '../sim/lessons/grammar/costSchemas';

export interface MaskTraceRequest {
  schema: string;
  document: string;
}

/** Either the trace, or a message the widget shows beside the schema (the widget stays usable). */
export type MaskTraceResponse = { ok: true; trace: TraceResult } | { ok: false; message: string };

async function grammarMaskTrace(req: MaskTraceRequest): Promise<MaskTraceResponse> {
  const { traceDocument } = await import('./grammarEngine');
  try {
    return { ok: true, trace: await traceDocument(req.schema, req.document) };
  } catch (e) {
    if (e instanceof SchemaError) return { ok: false, message: e.message };
    throw e;
  }
}

/**
 * Every step's full mask and the illustrative logits under it. The masks travel as one Uint32Array whose
 * buffer is transferred, not copied (about 25 KB a step); the worker keeps its own copy for the next call.
 */
async function grammarMaskLogits(req: LogitTraceRequest, ctx: JobContext): Promise<LogitTrace> {
  if (req.mode !== 'whole-reply' && req.mode !== 'tool-span')
    throw new Error('Constrain either the whole reply or only the tool-call span.');
  if (!Number.isInteger(req.seed) || req.seed < 0) throw new Error('The seed must be a whole number ≥ 0.');
  const { logitTrace } = await import('./grammarLogitsEngine');
  const kept = await logitTrace(req, ctx);
  const result: LogitTrace = { ...kept, masks: kept.masks.slice() };
  return Comlink.transfer(result, [result.masks.buffer]);
}

function grammarAskNicely(req: AskNicelyRequest): AskNicelyResult {
  if (!(req.eps > 0 && req.eps < 1)) throw new Error('The slip probability must be between 0 and 1.');
  return askNicely({
    ...req,
    tokens: Math.max(1, Math.round(req.tokens)),
    calls: Math.max(1, Math.min(5000, Math.round(req.calls))),
  });
}

export interface CostSweepRequest {
  family: 'tools' | 'maxLength';
}

/** One schema of a sweep: its size, the cold compile time and the per-step mask times of one valid call. */
export interface CostPoint {
  /** Tools in the anyOf, or the string bound (0 = unbounded). */
  size: number;
  label: string;
  schemaChars: number;
  compileMs: number;
  steps: number;
  maskP50Us: number;
  maskP99Us: number;
  maskMaxUs: number;
  /** Mask time summed over the whole call, µs. */
  maskTotalUs: number;
}

export interface CostSweepResult {
  family: CostSweepRequest['family'];
  points: CostPoint[];
  setupMs: number;
}

/** Compile each schema of a family cold with the real engine and trace one valid call; stream each point. */
async function grammarCostSweep(req: CostSweepRequest, ctx: JobContext<CostPoint>): Promise<CostSweepResult> {
  const { traceDocument, compileOnlyMs } = await import('./grammarEngine');
  const specs =
    req.family === 'tools'
      ? TOOL_COUNTS.map((n) => ({
          size: n,
          label: `${n} tool${n === 1 ? '' : 's'}`,
          schema: toolsSchema(n),
          doc: toolsDocument(n),
        }))
      : MAX_LENGTHS.map((l) => ({
          size: l ?? 0,
          label: l === null ? 'no bound' : `maxLength ${l}`,
          schema: boundedSchema(l),
          doc: boundedDocument(),
        }));
  const points: CostPoint[] = [];
  let setupMs = 0;
  // Warm the engine (set-up, JIT) on a schema outside the sweep, so the first point is not charged for it.
  await traceDocument('{"type":"boolean"}', 'true', 1, true);
  for (const sp of specs) {
    await ctx.checkpoint();
    const text = JSON.stringify(sp.schema);
    const t = await traceDocument(text, JSON.stringify(sp.doc), 1, true);
    setupMs = t.setup.vocabMs + t.setup.tokenizerInfoMs;
    const us = t.steps.map((s) => s.maskUs);
    // The faster of two cold compiles: the machine's other work only ever adds time.
    const again = await compileOnlyMs(text, true);
    const p: CostPoint = {
      size: sp.size,
      label: sp.label,
      schemaChars: text.length,
      compileMs: Math.min(t.compileMs, again),
      steps: t.steps.length,
      maskP50Us: percentile(us, 0.5),
      maskP99Us: percentile(us, 0.99),
      maskMaxUs: Math.max(...us),
      maskTotalUs: us.reduce((a, b) => a + b, 0),
    };
    points.push(p);
    await ctx.emit(p);
  }
  return { family: req.family, points, setupMs };
}

export const grammarMethods = { grammarMaskTrace, grammarMaskLogits, grammarAskNicely, grammarCostSweep };
