/**
 * Worker methods of lesson 07.08 (structured output): the real grammar engine's mask traced through a JSON
 * document, and the "asking nicely" sampler. The engine (XGrammar WASM + the o200k vocabulary) is imported
 * and set up lazily on the first call, so that importing methods.ts (in Node tests too) stays light.
 */
import { askNicely, type AskNicelyRequest, type AskNicelyResult } from '../sim/grammar/slip';
import { SchemaError } from '../sim/grammar/schema';
import type { TraceResult } from './grammarEngine';

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

function grammarAskNicely(req: AskNicelyRequest): AskNicelyResult {
  if (!(req.eps > 0 && req.eps < 1)) throw new Error('The slip probability must be between 0 and 1.');
  return askNicely({ ...req, tokens: Math.max(1, Math.round(req.tokens)), calls: Math.max(1, Math.min(5000, Math.round(req.calls))) });
}

export const grammarMethods = { grammarMaskTrace, grammarAskNicely };
