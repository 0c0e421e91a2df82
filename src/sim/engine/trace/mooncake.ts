/**
 * Mooncake FAST'25 trace format (kvcache-ai/Mooncake, FAST25-release/README.md): one JSON object per line,
 * `timestamp` (arrival, ms, relative), `input_length` and `output_length` (tokens), `hash_ids` (remapped
 * *chained* hashes of the prompt's blocks, 512 tokens per block; the last block may be partial, so
 * len(hash_ids) = ceil(input_length / 512)). Other fields are ignored.
 */
import { describeValue, ErrorSink, FieldError, type ReadOptions, type TraceIssue } from './errors';
import { isBlank, numberedLines, type LineSource } from './lines';

export interface MooncakeRequest {
  line: number;
  timestampMs: number;
  inputLength: number;
  outputLength: number;
  hashIds: number[];
}

export const MOONCAKE_BLOCK_SIZE = 512;

function nonNegInt(o: Record<string, unknown>, key: string): number {
  const v = o[key];
  if (v === undefined) throw new FieldError(`missing "${key}"`);
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new FieldError(`"${key}" must be a non-negative integer, got ${describeValue(v)}`);
  return v;
}

/** Validate one parsed record (throws FieldError with the reason). */
export function mooncakeRecord(o: unknown, line: number): MooncakeRequest {
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw new FieldError(`expected a JSON object, got ${describeValue(o)}`);
  const r = o as Record<string, unknown>;
  const ts = r.timestamp;
  if (ts === undefined) throw new FieldError('missing "timestamp"');
  if (typeof ts !== 'number' || !Number.isFinite(ts) || ts < 0)
    throw new FieldError(`"timestamp" must be a non-negative number (ms), got ${describeValue(ts)}`);
  const inputLength = nonNegInt(r, 'input_length');
  const outputLength = nonNegInt(r, 'output_length');
  const h = r.hash_ids;
  if (h === undefined) throw new FieldError('missing "hash_ids"');
  if (!Array.isArray(h))
    throw new FieldError(`"hash_ids" must be an array of non-negative integers, got ${describeValue(h)}`);
  for (let i = 0; i < h.length; i++) {
    const x = h[i];
    if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0)
      throw new FieldError(`"hash_ids"[${i}] must be a non-negative integer, got ${describeValue(x)}`);
  }
  return { line, timestampMs: ts, inputLength, outputLength, hashIds: h as number[] };
}

/** Parse one line; throws FieldError (without line number) when malformed. Blank lines are the caller's business. */
export function parseMooncakeLine(text: string, line: number): MooncakeRequest {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch (e) {
    throw new FieldError(`not valid JSON (${(e as Error).message})`);
  }
  return mooncakeRecord(o, line);
}

/** Stream the records of a Mooncake trace to `onRecord`; malformed lines go to the sink (skip) or throw (stop). */
export function forEachMooncake(
  source: LineSource,
  sink: ErrorSink,
  onRecord: (r: MooncakeRequest) => void,
): void {
  for (const [n, text] of numberedLines(source)) {
    if (isBlank(text)) continue;
    let r: MooncakeRequest;
    try {
      r = parseMooncakeLine(text, n);
    } catch (e) {
      if (e instanceof FieldError) {
        sink.report(n, e.message);
        continue;
      }
      throw e;
    }
    onRecord(r);
  }
}

export interface MooncakeReadResult {
  requests: MooncakeRequest[];
  errors: TraceIssue[];
  errorCount: number;
}

/** Read a whole Mooncake trace into records. */
export function readMooncake(source: LineSource, opts: ReadOptions = {}): MooncakeReadResult {
  const sink = new ErrorSink(opts);
  const requests: MooncakeRequest[] = [];
  forEachMooncake(source, sink, (r) => requests.push(r));
  return { requests, errors: sink.issues, errorCount: sink.count };
}
