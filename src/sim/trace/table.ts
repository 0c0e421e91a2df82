/**
 * A trace as a compact request table (typed arrays, block ids renumbered densely 0..unique−1), built in one
 * pass from either format. This is what the statistics run on, and what a replay can walk without objects.
 */
import { segmentBlockHashes } from '../kvcache/hash';
import { ErrorSink, TraceError, type ReadOptions, type TraceIssue } from './errors';
import { isBlank, numberedLines, type LineSource } from './lines';
import { forEachMooncake, MOONCAKE_BLOCK_SIZE } from './mooncake';
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

class F64 {
  a = new Float64Array(1024);
  n = 0;
  push(x: number): void {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = x;
  }
  done(): Float64Array {
    return this.a.slice(0, this.n);
  }
}
class I32 {
  a = new Int32Array(1024);
  n = 0;
  push(x: number): void {
    if (this.n === this.a.length) {
      const b = new Int32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = x;
  }
  done(): Int32Array {
    return this.a.slice(0, this.n);
  }
}

class Builder {
  readonly arrival = new F64();
  readonly input = new F64();
  readonly output = new F64();
  readonly start = new I32();
  readonly blocks = new I32();
  readonly session = new I32();
  readonly line = new I32();
  readonly ids = new Map<number, number>();
  readonly sessionIds = new Map<string, number>();
  mismatches = 0;
  constructor(
    readonly format: TraceFormat,
    readonly blockSize: number,
  ) {
    this.start.push(0);
  }
  add(line: number, arrivalS: number, input: number, output: number, hashes: ArrayLike<number>, session: string | null): void {
    this.arrival.push(arrivalS);
    this.input.push(input);
    this.output.push(output);
    this.line.push(line);
    const ids = this.ids;
    for (let i = 0; i < hashes.length; i++) {
      const h = hashes[i];
      let id = ids.get(h);
      if (id === undefined) {
        id = ids.size;
        ids.set(h, id);
      }
      this.blocks.push(id);
    }
    this.start.push(this.blocks.n);
    if (hashes.length !== Math.ceil(input / this.blockSize)) this.mismatches++;
    if (session === null) this.session.push(-1);
    else {
      let s = this.sessionIds.get(session);
      if (s === undefined) {
        s = this.sessionIds.size;
        this.sessionIds.set(session, s);
      }
      this.session.push(s);
    }
  }
  table(): RequestTable {
    return {
      format: this.format,
      blockSize: this.blockSize,
      count: this.arrival.n,
      arrivalS: this.arrival.done(),
      inputTokens: this.input.done(),
      outputTokens: this.output.done(),
      blockStart: this.start.done(),
      blocks: this.blocks.done(),
      uniqueBlocks: this.ids.size,
      session: this.session.done(),
      sessions: this.sessionIds.size,
      line: this.line.done(),
      lengthMismatches: this.mismatches,
    };
  }
}

function checkBlockSize(b: number): void {
  if (!Number.isSafeInteger(b) || b < 1) throw new RangeError(`block size must be a positive integer, got ${b}`);
}

export function mooncakeTable(source: LineSource, opts: TableReadOptions = {}): TableReadResult {
  const blockSize = opts.blockSize ?? MOONCAKE_BLOCK_SIZE;
  checkBlockSize(blockSize);
  const sink = new ErrorSink(opts);
  const b = new Builder('mooncake', blockSize);
  forEachMooncake(source, sink, (r) => b.add(r.line, r.timestampMs / 1000, r.inputLength, r.outputLength, r.hashIds, null));
  return { table: b.table(), errors: sink.issues, errorCount: sink.count };
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
  const builder: Builder = b ?? new Builder('native', opts.blockSize ?? parser.header?.blockSize ?? MOONCAKE_BLOCK_SIZE);
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
    throw new TraceError(n, 'cannot detect the trace format (no "hash_ids" for Mooncake, no "session"/"format" for native); pass the format');
  }
  throw new TraceError(0, 'the trace is empty');
}

/** Read a trace of either format (or `auto`; only for a string source, which can be read twice) into a table. */
export function readTraceTable(source: LineSource, opts: TableReadOptions & { format?: TraceFormat | 'auto' } = {}): TableReadResult {
  let format = opts.format ?? 'auto';
  if (format === 'auto') {
    if (typeof source !== 'string') throw new RangeError('format "auto" needs the whole text; pass the format for a line iterator');
    format = detectFormat(source);
  }
  return format === 'mooncake' ? mooncakeTable(source, opts) : nativeTable(source, opts);
}
