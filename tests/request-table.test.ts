/** The fleet's request table (src/sim/engine/fleet/requestTable.ts, chunked, column-major within a chunk) against one array per column. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestTable, TableColumn } from '../src/sim/engine/fleet/requestTable';

describe('the request table', () => {
  it('reads back what one array per column would hold, across its chunks (4,096 rows each), with unset values NaN', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.double({ noNaN: true })), { maxLength: 300 }),
        fc.integer({ min: 1, max: 9000 }),
        (width, writes, rows) => {
          const table = new RequestTable(width);
          const cols = Array.from({ length: width }, (_, k) => new TableColumn(table, k));
          const plain = Array.from({ length: width }, () => new Array<number>(rows).fill(NaN));
          for (let i = 0; i < rows; i++) expect(table.addRow()).toBe(i);
          for (const [r, k, x] of writes) {
            cols[k % width].set(r % rows, x);
            plain[k % width][r % rows] = x;
          }
          const all = table.columns();
          for (let k = 0; k < width; k++) {
            expect(Array.from(all[k])).toEqual(plain[k]);
            expect(cols[k].length).toBe(rows);
            for (const i of [(k * 7919) % rows, 4095 % rows, 4096 % rows, rows - 1])
              expect(cols[k].get(i)).toBe(plain[k][i]);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
