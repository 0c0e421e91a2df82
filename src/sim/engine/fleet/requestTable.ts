/**
 * The fleet's per-request table: rows in chunks of CHUNK_ROWS, each chunk column-major (column k of the chunk's
 * rows is one contiguous run), each column a view that reads and writes its slot of every row.
 *
 * Why chunks: a chunk is never moved. A doubling buffer copied every row at each growth and made a new allocation
 * of twice the size, so a 40,000-request run touched three times the table's memory, each new page a fault (7,400
 * of the main thread's 35,600 in the bench fleet).
 *
 * Why column-major within a chunk: the report reads the table once, a column at a time, and a column is then a
 * copy of one contiguous run per chunk (`Float64Array.prototype.set`, native), where a row-major chunk took a
 * strided pass over every value of every row: about a million element copies in the bench fleet, each in the
 * interpreter, as the report runs once per process (40 ms of a fresh run, measured). Requests are made in id
 * order and mostly end in it, so consecutive writes to a column share cache lines either way.
 */
export class RequestTable {
  private readonly chunks: Float64Array[] = [];
  private n = 0;

  constructor(readonly width: number) {}

  /** Rows made so far. */
  get rows(): number {
    return this.n;
  }

  /**
   * A new row, every value NaN (not set yet); its index. A chunk is filled with NaN when it is allocated (one fill
   * of fresh memory instead of a loop per row).
   */
  addRow(): number {
    const c = this.n >> CHUNK_BITS;
    if (c === this.chunks.length) this.chunks.push(new Float64Array(CHUNK_ROWS * this.width).fill(NaN));
    return this.n++;
  }

  get(row: number, col: number): number {
    return this.chunks[row >> CHUNK_BITS][(col << CHUNK_BITS) | (row & CHUNK_MASK)];
  }
  set(row: number, col: number, x: number): void {
    this.chunks[row >> CHUNK_BITS][(col << CHUNK_BITS) | (row & CHUNK_MASK)] = x;
  }

  /** Every column of every row, each as its own array: one native copy per column and chunk. */
  columns(): Float64Array[] {
    const out: Float64Array[] = [];
    for (let k = 0; k < this.width; k++) {
      const col = new Float64Array(this.n);
      for (let c = 0; c < this.chunks.length; c++) {
        const rows = Math.min(CHUNK_ROWS, this.n - (c << CHUNK_BITS));
        const from = k << CHUNK_BITS;
        col.set(this.chunks[c].subarray(from, from + rows), c << CHUNK_BITS);
      }
      out.push(col);
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
