/**
 * The request table's builder: growable typed arrays and the dense renumbering of block hashes, shared by the
 * readers of both formats (table.ts) and the in-place Mooncake scanners (mooncakeScan.ts).
 */
import type { RequestTable, TraceFormat } from './table';

/**
 * The growable arrays start small on purpose: they grow a few times in the first lines, while the interpreter
 * still collects type feedback, so the optimised code of a long read never meets its growing branch for the
 * first time (which throws that code away and compiles it again).
 */
const INITIAL = 4;

export class F64 {
  a = new Float64Array(INITIAL);
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
export class I32 {
  a = new Int32Array(INITIAL);
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

export class Builder {
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
