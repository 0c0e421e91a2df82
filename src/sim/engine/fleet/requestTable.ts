/**
 * The fleet's per-request table, row-major: request i's values are the `width` float64s from i × width of one buffer,
 * each column a view that reads and writes its slot of every row.
 *
 * Why rows and not one array per column: a request writes about thirty values, a row of blanks when it is made and
 * its results when it ends. With one array per column those were as many cache lines, one per column, touched
 * twice per request; a row is four.
 */
export class RequestTable {
  /** Rows in chunks of CHUNK_ROWS: row i is chunk i >> CHUNK_BITS, at (i & CHUNK_MASK) × width. */
  private readonly chunks: Float64Array[] = [];
  private n = 0;

  constructor(readonly width: number) {}

  /** Rows made so far. */
  get rows(): number {
    return this.n;
  }

  /**
   * A new row, every value NaN (not set yet); its index. Rows come in chunks, each filled with NaN when it is
   * allocated (one fill of fresh memory instead of a loop per row), and a chunk is never moved: a doubling buffer
   * copied every row at each growth and made a new allocation of twice the size, so a 40,000-request run touched
   * three times the table's memory, each new page a fault (7,400 of the main thread's 35,600 in the bench fleet).
   */
  addRow(): number {
    const c = this.n >> CHUNK_BITS;
    if (c === this.chunks.length) this.chunks.push(new Float64Array(CHUNK_ROWS * this.width).fill(NaN));
    return this.n++;
  }

  get(row: number, col: number): number {
    return this.chunks[row >> CHUNK_BITS][(row & CHUNK_MASK) * this.width + col];
  }
  set(row: number, col: number, x: number): void {
    this.chunks[row >> CHUNK_BITS][(row & CHUNK_MASK) * this.width + col] = x;
  }

  /**
   * Every column of every row, each as its own array, in one pass over the rows: a pass per column reads every
   * row's cache lines once per column (the report reads twenty-odd columns of forty thousand rows).
   */
  columns(): Float64Array[] {
    const w = this.width;
    const out = Array.from({ length: w }, () => new Float64Array(this.n));
    for (let i = 0; i < this.n; i++) {
      const buf = this.chunks[i >> CHUNK_BITS];
      const o = (i & CHUNK_MASK) * w;
      for (let k = 0; k < w; k++) out[k][i] = buf[o + k];
    }
    return out;
  }
}

const CHUNK_BITS = 12;
const CHUNK_ROWS = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_ROWS - 1;

/** One column of a RequestTable: the reads and writes of a per-request array, by request id. */
export class TableColumn {
  constructor(
    private readonly table: RequestTable,
    private readonly col: number,
  ) {}
  get length(): number {
    return this.table.rows;
  }
  get(i: number): number {
    return this.table.get(i, this.col);
  }
  set(i: number, x: number): void {
    this.table.set(i, this.col, x);
  }
}
