/**
 * A trace as a compact request table (typed arrays, block ids renumbered densely 0..unique−1), built in one
 * pass from either format. This is what the statistics run on, and what a replay can walk without objects.
 */
import { segmentBlockHashes } from '../kvcache/hash';
import { ErrorSink, FieldError, TraceError, type ReadOptions, type TraceIssue } from './errors';
import { Builder } from './builder';
import { decodeLine, isBlank, numberedLines, type LineSource } from './lines';
import { ByteScanner } from './mooncakeScan';
import { forEachMooncake, MOONCAKE_BLOCK_SIZE, parseMooncakeLine } from './mooncake';
import { forEachNative, NativeParser } from './native';

export type TraceFormat = 'mooncake' | 'native';

export interface RequestTable {
  format: TraceFormat;
  blockSize: number;
  count: number;
  /** Arrival times in seconds, in file order. */
  arrivalS: Float64Array;
  inputTokens: Float64Array;
  outputTokens: Float64Array;
  /** Request i's blocks are blocks[blockStart[i] .. blockStart[i+1]). */
  blockStart: Int32Array;
  /** Dense block ids (equal ids = equal chained hashes). */
  blocks: Int32Array;
  uniqueBlocks: number;
  /** Dense session index per request (native), or −1 (Mooncake). */
  session: Int32Array;
  sessions: number;
  /** Source line of each request. */
  line: Int32Array;
  /** Requests whose block count is not ceil(input / blockSize) (Mooncake traces can disagree). */
  lengthMismatches: number;
}

export interface TableReadOptions extends ReadOptions {
  /** Tokens per block: the block size of Mooncake `hash_ids` (512), or the size to cut native segments in. */
  blockSize?: number;
}

export interface TableReadResult {
  table: RequestTable;
  errors: TraceIssue[];
  errorCount: number;
}

const utf8Encoder = new TextEncoder();

/** No lone surrogate (so UTF-8 encodes the text exactly). */
function wellFormed(s: string): boolean {
  const f = (s as { isWellFormed?: () => boolean }).isWellFormed;
  return f ? f.call(s) : !/[\uD800-\uDFFF]/.test(s);
}

function checkBlockSize(b: number): void {
  if (!Number.isSafeInteger(b) || b < 1)
    throw new RangeError(`block size must be a positive integer, got ${b}`);
}

export function mooncakeTable(source: LineSource, opts: TableReadOptions = {}): TableReadResult {
  const blockSize = opts.blockSize ?? MOONCAKE_BLOCK_SIZE;
  checkBlockSize(blockSize);
  const sink = new ErrorSink(opts);
  const b = new Builder('mooncake', blockSize);
  // A text is scanned as its UTF-8 bytes (one scanner for both: encoding is one native pass, and the byte
  // scanner reads loads where a text scanner calls charCodeAt). A text with a lone surrogate, which has no UTF-8
  // form, is read line by line in full instead, so that every line reads as its own text.
  if (typeof source === 'string' && wellFormed(source)) scanBytes(utf8Encoder.encode(source), b, sink);
  else if (source instanceof Uint8Array) scanBytes(source, b, sink);
  else
    forEachMooncake(source, sink, (r) =>
      b.add(r.line, r.timestampMs / 1000, r.inputLength, r.outputLength, r.hashIds, null),
    );
  return { table: b.table(), errors: sink.issues, errorCount: sink.count };
}

/** A line the scanner did not accept: blank (ignored), or parsed and validated in full. */
function parseSlowly(text: string, n: number, b: Builder, sink: ErrorSink): void {
  if (isBlank(text)) return;
  try {
    const r = parseMooncakeLine(text, n);
    b.add(n, r.timestampMs / 1000, r.inputLength, r.outputLength, r.hashIds, null);
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    sink.report(n, e.message);
  }
}

/** One pass over UTF-8 bytes without a string per line: only the lines the scanner does not accept are decoded. */
function scanBytes(source: Uint8Array, b: Builder, sink: ErrorSink): void {
  const fast = new ByteScanner(source);
  const line = fast.out;
  let start = 0;
  let n = 0;
  const len = source.length;
  while (start < len) {
    n++;
    // The scanner finds the line's end itself; only a line it refuses needs a search.
    let end = fast.scan(start);
    if (end >= 0) b.add(n, line.timestamp / 1000, line.input, line.output, line.ids, null, line.count);
    else {
      end = source.indexOf(10 /* \n */, start);
      if (end < 0) end = len;
      parseSlowly(decodeLine(source, start, end), n, b, sink);
    }
    start = end + 1;
  }
}

/** Native traces: segments are cut into blocks of `blockSize` (default: the header's, else 512) and hashed. */
export function nativeTable(source: LineSource, opts: TableReadOptions = {}): TableReadResult {
  const sink = new ErrorSink(opts);
  const parser = new NativeParser();
  let b: Builder | null = null;
  forEachNative(
    source,
    sink,
    (t) => {
      if (!b) {
        const size = opts.blockSize ?? parser.header?.blockSize ?? MOONCAKE_BLOCK_SIZE;
        checkBlockSize(size);
        b = new Builder('native', size);
      }
      const { hashes } = segmentBlockHashes(t.input, b.blockSize);
      b.add(t.line, t.t, t.inputTokens, t.output.tokens, hashes, t.session);
    },
    parser,
  );
  const builder: Builder =
    b ?? new Builder('native', opts.blockSize ?? parser.header?.blockSize ?? MOONCAKE_BLOCK_SIZE);
  return { table: builder.table(), errors: sink.issues, errorCount: sink.count };
}

/**
 * Guess the format from the first non-blank line: `hash_ids` → mooncake; `session` or a `format` header →
 * native. Throws a TraceError naming the line when it cannot tell.
 */
export function detectFormat(source: LineSource): TraceFormat {
  for (const [n, text] of numberedLines(source)) {
    if (isBlank(text)) continue;
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch {
      throw new TraceError(n, 'cannot detect the trace format: the first line is not valid JSON');
    }
    if (typeof o === 'object' && o !== null && !Array.isArray(o)) {
      if ('hash_ids' in o) return 'mooncake';
      if ('session' in o || 'format' in o) return 'native';
    }
    throw new TraceError(
      n,
      'cannot detect the trace format (no "hash_ids" for Mooncake, no "session"/"format" for native); pass the format',
    );
  }
  throw new TraceError(0, 'the trace is empty');
}

/**
 * Read a trace of either format (or `auto`; only for a whole text or its bytes, which can be read twice) into a
 * table.
 */
export function readTraceTable(
  source: LineSource,
  opts: TableReadOptions & { format?: TraceFormat | 'auto' } = {},
): TableReadResult {
  let format = opts.format ?? 'auto';
  if (format === 'auto') {
    if (typeof source !== 'string' && !(source instanceof Uint8Array))
      throw new RangeError('format "auto" needs the whole text; pass the format for a line iterator');
    format = detectFormat(source);
  }
  return format === 'mooncake' ? mooncakeTable(source, opts) : nativeTable(source, opts);
}
