/**
 * The request table's builder: typed arrays that grow by doubling, and the dense renumbering of block hashes,
 * shared by the readers of both formats (table.ts).
 *
 * `add` runs once per request and its block loop once per block of the trace, mostly before the JIT has
 * optimised them (a command-line run reads the trace once), so it writes the arrays in place through locals:
 * the interpreter pays for every call and every property access.
 */
import type { RequestTable, TraceFormat } from './table';

/**
 * The arrays start small on purpose: they grow a few times in the first lines, while the interpreter still
 * collects type feedback, so the optimised code of a long read never meets its growing branch for the first
 * time (which throws that code away and compiles it again).
 */
const INITIAL = 4;

const SMALL_LIMIT = 1 << 24;

function grownF64(a: Float64Array<ArrayBuffer>, size: number): Float64Array<ArrayBuffer> {
  let length = a.length * 2;
  while (length < size) length *= 2;
  const b = new Float64Array(length);
  b.set(a);
  return b;
}

function grownI32(a: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  let length = a.length * 2;
  while (length < size) length *= 2;
  const b = new Int32Array(length);
  b.set(a);
  return b;
}

export class Builder {
  /** Requests so far; the per-request arrays below have room for `room` of them (`start` for one more). */
  count = 0;
  private room = INITIAL;
  private arrival = new Float64Array(INITIAL);
  private input = new Float64Array(INITIAL);
  private output = new Float64Array(INITIAL);
  private session = new Int32Array(INITIAL);
  private line = new Int32Array(INITIAL);
  /** Request i's blocks are blocks[start[i] .. start[i+1]). */
  private start = new Int32Array(INITIAL + 1);
  private blocks = new Int32Array(INITIAL);
  private blockCount = 0;
  private readonly ids = new Map<number, number>();
  private readonly sessionIds = new Map<string, number>();
  private mismatches = 0;
  /** Dense id + 1 of each small integer hash (Mooncake ids), 0 = not seen; larger hashes go to `ids`. */
  private small = new Int32Array(0);
  private uniq = 0;
  constructor(
    readonly format: TraceFormat,
    readonly blockSize: number,
  ) {}
  /** Dense id of a block hash: a direct table for small integer hashes, a Map otherwise. */
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
  private growRequests(): void {
    const size = this.room + 1;
    this.arrival = grownF64(this.arrival, size);
    this.input = grownF64(this.input, size);
    this.output = grownF64(this.output, size);
    this.session = grownI32(this.session, size);
    this.line = grownI32(this.line, size);
    this.start = grownI32(this.start, size + 1);
    this.room = this.arrival.length;
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
    const i = this.count;
    if (i === this.room) this.growRequests();
    this.arrival[i] = arrivalS;
    this.input[i] = input;
    this.output[i] = output;
    this.line[i] = line;
    // The blocks, appended in place. A small hash seen before or new takes no call (most blocks of a trace are
    // new: a call each would make denseId hot, and compiling it costs more than it saves in a single read);
    // denseId only for large hashes or a table that must grow.
    let n = this.blockCount;
    if (n + count > this.blocks.length) this.blocks = grownI32(this.blocks, n + count);
    const a = this.blocks;
    let small = this.small;
    for (let k = 0; k < count; k++) {
      const h = hashes[k];
      if (h < small.length) {
        const v = small[h];
        if (v) a[n++] = v - 1;
        else {
          small[h] = ++this.uniq;
          a[n++] = this.uniq - 1;
        }
      } else {
        a[n++] = this.denseId(h);
        small = this.small; // denseId may have grown the table
      }
    }
    this.blockCount = n;
    this.start[i + 1] = n;
    if (count !== Math.ceil(input / this.blockSize)) this.mismatches++;
    if (session === null) this.session[i] = -1;
    else {
      let s = this.sessionIds.get(session);
      if (s === undefined) {
        s = this.sessionIds.size;
        this.sessionIds.set(session, s);
      }
      this.session[i] = s;
    }
    this.count = i + 1;
  }
  table(): RequestTable {
    const n = this.count;
    return {
      format: this.format,
      blockSize: this.blockSize,
      count: n,
      arrivalS: this.arrival.slice(0, n),
      inputTokens: this.input.slice(0, n),
      outputTokens: this.output.slice(0, n),
      blockStart: this.start.slice(0, n + 1),
      blocks: this.blocks.slice(0, this.blockCount),
      uniqueBlocks: this.uniq,
      session: this.session.slice(0, n),
      sessions: this.sessionIds.size,
      line: this.line.slice(0, n),
      lengthMismatches: this.mismatches,
    };
  }
}
