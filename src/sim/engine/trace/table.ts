/**
 * A trace as a compact request table (typed arrays, block ids renumbered densely 0..unique−1), built in one
 * pass from either format. This is what the statistics run on, and what a replay can walk without objects.
 */
import { segmentBlockHashes } from '../kvcache/hash';
import { ErrorSink, FieldError, TraceError, type ReadOptions, type TraceIssue } from './errors';
import { isBlank, numberedLines, type LineSource } from './lines';
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

const SMALL_LIMIT = 1 << 24;

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
  /** Dense id of a block hash: a direct table for small integer hashes (Mooncake ids), a Map otherwise. */
  private small = new Int32Array(0); // id + 1, 0 = not seen
  private uniq = 0;
  denseId(h: number): number {
    if (h < SMALL_LIMIT) {
      let tab = this.small;
      if (h >= tab.length) {
        const grown = new Int32Array(Math.min(SMALL_LIMIT, Math.max(h + 1, tab.length * 2, 1024)));
        grown.set(tab);
        this.small = tab = grown;
      }
      const v = tab[h];
      if (v) return v - 1;
      tab[h] = ++this.uniq;
      return this.uniq - 1;
    }
    let id = this.ids.get(h);
    if (id === undefined) {
      id = this.uniq++;
      this.ids.set(h, id);
    }
    return id;
  }
  add(
    line: number,
    arrivalS: number,
    input: number,
    output: number,
    hashes: ArrayLike<number>,
    session: string | null,
    count = hashes.length,
  ): void {
    this.arrival.push(arrivalS);
    this.input.push(input);
    this.output.push(output);
    this.line.push(line);
    for (let i = 0; i < count; i++) this.blocks.push(this.denseId(hashes[i]));
    this.start.push(this.blocks.n);
    if (count !== Math.ceil(input / this.blockSize)) this.mismatches++;
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
      uniqueBlocks: this.uniq,
      session: this.session.done(),
      sessions: this.sessionIds.size,
      line: this.line.done(),
      lengthMismatches: this.mismatches,
    };
  }
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
  if (typeof source === 'string') {
    // One pass over the text without a string per line: lines in the usual shape are scanned in place; any
    // other line (extra fields, floats, errors) goes through JSON.parse and the full validation.
    const fast = new FastMooncake(source);
    let start = 0;
    let n = 0;
    const len = source.length;
    while (start < len) {
      let end = source.indexOf('\n', start);
      if (end < 0) end = len;
      n++;
      if (!fast.scan(start, end)) {
        const text = source.slice(start, end);
        if (!isBlank(text)) {
          try {
            const r = parseMooncakeLine(text, n);
            b.add(n, r.timestampMs / 1000, r.inputLength, r.outputLength, r.hashIds, null);
          } catch (e) {
            if (!(e instanceof FieldError)) throw e;
            sink.report(n, e.message);
          }
        }
      } else b.add(n, fast.timestamp / 1000, fast.input, fast.output, fast.ids, null, fast.count);
      start = end + 1;
    }
  } else
    forEachMooncake(source, sink, (r) =>
      b.add(r.line, r.timestampMs / 1000, r.inputLength, r.outputLength, r.hashIds, null),
    );
  return { table: b.table(), errors: sink.issues, errorCount: sink.count };
}

const KEYS = ['timestamp', 'input_length', 'output_length', 'hash_ids'];

/**
 * Scanner for a Mooncake line of exactly the four fields, each once, in any order, with non-negative integer
 * values of at most 15 digits (so always safe integers). Returns false for anything else, which the caller
 * then parses with JSON.parse: the fast path never accepts a line the full parser would reject.
 */
class FastMooncake {
  timestamp = 0;
  input = 0;
  output = 0;
  ids = new Float64Array(256);
  count = 0;
  private p = 0;
  private e = 0;
  constructor(private readonly s: string) {}
  private ws(): void {
    const s = this.s;
    while (this.p < this.e) {
      const c = s.charCodeAt(this.p);
      if (c === 32 || c === 9 || c === 13) this.p++;
      else break;
    }
  }
  /** A run of 1..15 digits, or −1. */
  private int(): number {
    const s = this.s;
    const p0 = this.p;
    let v = 0;
    while (this.p < this.e) {
      const d = s.charCodeAt(this.p) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
      this.p++;
    }
    const digits = this.p - p0;
    if (digits === 0 || digits > 15) return -1;
    if (digits > 1 && s.charCodeAt(p0) === 48) return -1; // leading zero: not JSON
    return v;
  }
  scan(start: number, end: number): boolean {
    const s = this.s;
    this.p = start;
    this.e = end;
    this.ws();
    if (s.charCodeAt(this.p) !== 123 /* { */) return false;
    this.p++;
    let seen = 0;
    for (;;) {
      this.ws();
      if (s.charCodeAt(this.p) !== 34 /* " */) return false;
      const q = s.indexOf('"', this.p + 1);
      if (q < 0 || q >= end) return false;
      const k = KEYS.indexOf(s.slice(this.p + 1, q));
      if (k < 0 || seen & (1 << k)) return false;
      seen |= 1 << k;
      this.p = q + 1;
      this.ws();
      if (s.charCodeAt(this.p) !== 58 /* : */) return false;
      this.p++;
      this.ws();
      if (k === 3) {
        if (s.charCodeAt(this.p) !== 91 /* [ */) return false;
        this.p++;
        this.ws();
        this.count = 0;
        if (s.charCodeAt(this.p) === 93 /* ] */) this.p++;
        else
          for (;;) {
            const v = this.int();
            if (v < 0) return false;
            if (this.count === this.ids.length) {
              const g = new Float64Array(this.ids.length * 2);
              g.set(this.ids);
              this.ids = g;
            }
            this.ids[this.count++] = v;
            this.ws();
            const c = s.charCodeAt(this.p++);
            if (c === 93) break;
            if (c !== 44 /* , */) return false;
            this.ws();
          }
      } else {
        const v = this.int();
        if (v < 0) return false;
        if (k === 0) this.timestamp = v;
        else if (k === 1) this.input = v;
        else this.output = v;
      }
      this.ws();
      const c = s.charCodeAt(this.p++);
      if (c === 125 /* } */) break;
      if (c !== 44) return false;
    }
    this.ws();
    return seen === 15 && this.p === end;
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

/** Read a trace of either format (or `auto`; only for a string source, which can be read twice) into a table. */
export function readTraceTable(
  source: LineSource,
  opts: TableReadOptions & { format?: TraceFormat | 'auto' } = {},
): TableReadResult {
  let format = opts.format ?? 'auto';
  if (format === 'auto') {
    if (typeof source !== 'string')
      throw new RangeError('format "auto" needs the whole text; pass the format for a line iterator');
    format = detectFormat(source);
  }
  return format === 'mooncake' ? mooncakeTable(source, opts) : nativeTable(source, opts);
}
