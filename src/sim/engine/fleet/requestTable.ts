/**
 * The fleet's per-request table, row-major: request i's values are the `width` float64s from i × width of one buffer,
 * each column a view that reads and writes its slot of every row.
 *
 * Why rows and not one array per column: a request writes about thirty values, a row of blanks when it is made and
 * its results when it ends. With one array per column those were as many cache lines, one per column, touched
 * twice per request; a row is four.
 */
export class RequestTable {
  private buf: Float64Array;
  private n = 0;

  constructor(
    readonly width: number,
    capacityRows = 1024,
  ) {
    // Rows not made yet are NaN already, so that making one writes nothing: the buffer is filled when it is
    // allocated (one fill of fresh memory instead of a loop per row).
    this.buf = new Float64Array(Math.max(4, capacityRows) * width).fill(NaN);
  }

  /** Rows made so far. */
  get rows(): number {
    return this.n;
  }

  /** A new row, every value NaN (not set yet); its index. */
  addRow(): number {
    const w = this.width;
    if ((this.n + 1) * w > this.buf.length) {
      const b = new Float64Array(this.buf.length * 2);
      b.set(this.buf);
      b.fill(NaN, this.buf.length);
      this.buf = b;
    }
    return this.n++;
  }

  get(row: number, col: number): number {
    return this.buf[row * this.width + col];
  }
  set(row: number, col: number, x: number): void {
    this.buf[row * this.width + col] = x;
  }

  /**
   * Every column of every row, each as its own array, in one pass over the rows: a pass per column reads every
   * row's cache lines once per column (the report reads twenty-odd columns of forty thousand rows).
   */
  columns(): Float64Array[] {
    const w = this.width;
    const out = Array.from({ length: w }, () => new Float64Array(this.n));
    const buf = this.buf;
    for (let i = 0, o = 0; i < this.n; i++, o += w) for (let k = 0; k < w; k++) out[k][i] = buf[o + k];
    return out;
  }
}

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
