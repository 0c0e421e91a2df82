/**
 * Worker methods of lesson 07.08 (structured output): the real grammar engine's mask traced through a JSON
 * document, and the "asking nicely" sampler. The engine (XGrammar WASM + the o200k vocabulary) is imported
 * and set up lazily on the first call, so that importing methods.ts (in Node tests too) stays light.
 */
import { askNicelySteps, type AskNicelyRequest, type AskNicelyResult } from '../sim/lessons/grammar/slip';
import { finishCooperatively } from '../sim/engine/cooperative';
import { SchemaError } from '../sim/lessons/grammar/schema';
import {
  documentLimitMessage,
  documentTokensMessage,
  MAX_DOCUMENT_TOKENS,
  schemaLimitMessage,
} from '../sim/lessons/grammar/limits';
import * as Comlink from 'comlink';
import type { TraceProgress, TraceResult } from './grammarEngine';
import type { LogitTrace, LogitTraceRequest } from './grammarLogitsEngine';
import { directContext, type JobContext } from './job';
import { pacedCheckpoint } from './pacedCheckpoint';
import type { JobProgress } from './progress';
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

/**
 * Either the trace, or a message the widget shows under the editor it is about (the widget stays usable, and
 * what the learner typed stays in the editors).
 */
export type MaskTraceResponse =
  { ok: true; trace: TraceResult } | { ok: false; message: string; field: 'schema' | 'document' };

/** A trace's phase as a job's progress (progress.ts): compiling, then masking step i of n. */
export function traceJobProgress(p: TraceProgress): JobProgress {
  return p.phase === 'compiling'
    ? { label: 'Compiling the schema', unit: 'steps', done: 0, total: 0, stage: 1, stages: 2 }
    : { label: 'Masking', unit: 'steps', done: p.step, total: p.steps, stage: 2, stages: 2 };
}

/**
 * The mask stepper's trace. The size and depth limits (grammar/limits.ts) are checked before any work, the
 * document's tokens before compiling; progress streams as frames (compiling, then masking step i of n every few
 * steps) and a superseded or cancelled trace stops at its next checkpoint. The compile itself is one
 * call into the engine, not cancellable inside: the schema limit bounds it (grammar/limits.ts, about a second).
 */
async function grammarMaskTrace(
  req: MaskTraceRequest,
  ctx: JobContext<JobProgress>,
): Promise<MaskTraceResponse> {
  const over = schemaLimitMessage(req.schema);
  if (over) return { ok: false, message: over, field: 'schema' };
  const long = documentLimitMessage(req.document);
  if (long) return { ok: false, message: long, field: 'document' };
  const { traceDocument, engineCrashed } = await import('./grammarEngine');
  try {
    const trace = await traceDocument(req.schema, req.document, 12, false, {
      checkpoint: () => ctx.checkpoint(),
      // Every frame the engine gives (compiling, then every 8 steps of at least 2 ms): no throttle needed.
      progress: (p) => ctx.emit(traceJobProgress(p)),
      maxTokens: MAX_DOCUMENT_TOKENS,
      tooManyTokens: (n) => documentTokensMessage(n) ?? `${n} tokens`,
    });
    return { ok: true, trace };
  } catch (e) {
    if (e instanceof SchemaError) {
      if (engineCrashed()) restartThisWorkerSoon();
      return { ok: false, message: e.message, field: e.field };
    }
    throw e;
  }
}

/**
 * A crashed engine cannot be repaired inside its worker. In a worker, an error thrown outside any call fires the
 * Worker's `error` event: the client drops this worker and the next call starts a fresh one (client.ts). The
 * delay lets this call's answer reach the page first. Nothing happens outside a worker (tests).
 */
function restartThisWorkerSoon() {
  if (typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'undefined') return;
  setTimeout(() => {
    throw new Error('the grammar engine crashed; this worker is restarted');
  }, 200);
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

/**
 * Cooperative: about 0.2 s of sampling at the widget's maxima (2,000 calls of 2,000 tokens), yielding often. The
 * sampler refuses settings outside ASK_NICELY_LIMITS (grammar/limits.ts, which the controls offer from) in words.
 */
function grammarAskNicely(
  req: AskNicelyRequest,
  ctx: JobContext = directContext(),
): Promise<AskNicelyResult> {
  return finishCooperatively(askNicelySteps(req), pacedCheckpoint(ctx));
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
    const t = await traceDocument(text, JSON.stringify(sp.doc), 1, true, {
      checkpoint: () => ctx.checkpoint(),
    });
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
