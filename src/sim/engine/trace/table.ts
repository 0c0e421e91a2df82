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
    if (this.n === this.a.length) this.reserve(this.n + 1);
    this.a[this.n++] = x;
  }
  /** Room for at least `size` elements (doubling). */
  reserve(size: number): void {
    if (size <= this.a.length) return;
    let length = this.a.length * 2;
    while (length < size) length *= 2;
    const b = new Int32Array(length);
    b.set(this.a);
    this.a = b;
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
    // The blocks, appended in place: this loop runs once per block of the trace, mostly before the JIT has
    // optimised it, so it works on locals and calls denseId only for large hashes or a table that must grow.
    const out = this.blocks;
    if (out.n + count > out.a.length) out.reserve(out.n + count);
    const a = out.a;
    let n = out.n;
    let small = this.small;
    for (let i = 0; i < count; i++) {
      const h = hashes[i];
      const v = h < small.length ? small[h] : 0;
      if (v) a[n++] = v - 1;
      else {
        a[n++] = this.denseId(h);
        small = this.small; // denseId may have grown the table
      }
    }
    out.n = n;
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
 *
 * One function over local variables, not methods over fields: a command-line run reads the trace once, mostly
 * before the JIT has optimised anything, and the interpreter is several times faster on locals.
 */
class FastMooncake {
  timestamp = 0;
  input = 0;
  output = 0;
  ids = new Float64Array(256);
  count = 0;
  constructor(private readonly s: string) {}
  scan(start: number, end: number): boolean {
    const s = this.s;
    let p = start;
    let c: number;
    let ids = this.ids;
    let count = 0;
    let timestamp = 0;
    let input = 0;
    let output = 0;
    while (p < end && ((c = s.charCodeAt(p)) === 32 || c === 9 || c === 13)) p++;
    if (s.charCodeAt(p) !== 123 /* { */) return false;
    p++;
    let seen = 0;
    for (;;) {
      while (p < end && ((c = s.charCodeAt(p)) === 32 || c === 9 || c === 13)) p++;
      if (s.charCodeAt(p) !== 34 /* " */) return false;
      let k = 0;
      for (; k < 4; k++) {
        const key = KEYS[k];
        if (s.startsWith(key, p + 1) && s.charCodeAt(p + 1 + key.length) === 34) break;
      }
      if (k === 4 || seen & (1 << k)) return false;
      seen |= 1 << k;
      p += KEYS[k].length + 2;
      while (p < end && ((c = s.charCodeAt(p)) === 32 || c === 9 || c === 13)) p++;
      if (s.charCodeAt(p) !== 58 /* : */) return false;
      p++;
      while (p < end && ((c = s.charCodeAt(p)) === 32 || c === 9 || c === 13)) p++;
      // hash_ids is a list of integers, the others one integer each: one number loop serves both.
      const list = k === 3;
      let empty = false;
      if (list) {
        if (s.charCodeAt(p) !== 91 /* [ */) return false;
        p++;
        while (p < end && ((c = s.charCodeAt(p)) === 32 || c === 9 || c === 13)) p++;
        if (s.charCodeAt(p) === 93 /* ] */) {
          p++;
          empty = true;
        }
      }
      while (!empty) {
        // A run of 1..15 digits without a leading zero (JSON's integers; 15 digits are always safe).
        const p0 = p;
        let v = 0;
        while (p < end) {
          const d = s.charCodeAt(p) - 48;
          if (d < 0 || d > 9) break;
          v = v * 10 + d;
          p++;
        }
        const digits = p - p0;
        if (digits === 0 || digits > 15 || (digits > 1 && s.charCodeAt(p0) === 48)) return false;
        if (!list) {
          if (k === 0) timestamp = v;
          else if (k === 1) input = v;
          else output = v;
          break;
        }
        if (count === ids.length) {
          const g = new Float64Array(ids.length * 2);
          g.set(ids);
          this.ids = ids = g;
        }
        ids[count++] = v;
        while (p < end && ((c = s.charCodeAt(p)) === 32 || c === 9 || c === 13)) p++;
        c = s.charCodeAt(p++);
        if (c === 93) break;
        if (c !== 44 /* , */) return false;
        while (p < end && ((c = s.charCodeAt(p)) === 32 || c === 9 || c === 13)) p++;
      }
      while (p < end && ((c = s.charCodeAt(p)) === 32 || c === 9 || c === 13)) p++;
      c = s.charCodeAt(p++);
      if (c === 125 /* } */) break;
      if (c !== 44) return false;
    }
    while (p < end && ((c = s.charCodeAt(p)) === 32 || c === 9 || c === 13)) p++;
    if (seen !== 15 || p !== end) return false;
    this.timestamp = timestamp;
    this.input = input;
    this.output = output;
    this.count = count;
    return true;
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
