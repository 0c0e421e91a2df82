import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { arrivalOrder, idealHitRatio, lruHitRatio, mooncakeTable, traceStats } from '../src/sim/engine/trace';
import { lruLevelCounts } from '../src/sim/engine/trace/lruLevels';

/** A Mooncake trace as lines: few distinct block ids so that caches hit, evict and re-admit. */
const request = fc.record({
  timestamp: fc.nat(20),
  input_length: fc.nat(3000),
  output_length: fc.nat(50),
  hash_ids: fc.array(fc.nat(30), { maxLength: 9 }),
});

describe('one pass for every LRU capacity (lruLevels.ts)', () => {
  it('gives exactly the figures of one lruHitRatio pass per capacity and of idealHitRatio (property)', () => {
    fc.assert(
      fc.property(
        fc.array(request, { minLength: 1, maxLength: 40 }),
        // capacities in any order, with repeats, 0, 1 and more than the distinct blocks
        fc.array(fc.oneof(fc.nat(12), fc.constantFrom(0, 1, 1000)), { maxLength: 6 }),
        fc.integer({ min: 1, max: 600 }),
        (reqs, capacities, blockSize) => {
          const { table } = mooncakeTable(reqs.map((r) => JSON.stringify(r)).join('\n'), { blockSize });
          const order = arrivalOrder(table);
          const counts = lruLevelCounts(table, capacities, order);
          const stats = traceStats(table, { lruCapacities: capacities });
          expect(stats.idealHitRatio).toEqual(idealHitRatio(table, order));
          expect(stats.lru.map((l) => l.capacityBlocks)).toEqual(capacities);
          capacities.forEach((c, i) => expect(stats.lru[i].hitRatio).toEqual(lruHitRatio(table, c, order)));
          expect(counts.totalBlocks).toBe(table.blocks.length);
        },
      ),
      { numRuns: 400, seed: 12 },
    );
  });

  it('counts hits on a hand-made trace: capacity 2 keeps the last two blocks used, the ideal keeps all', () => {
    // requests [a b] [a b] [c] [a]: the third evicts b from 2 blocks (b is used before a: last to first)
    const lines = [[0, 1], [0, 1], [2], [0]].map((ids, t) =>
      JSON.stringify({ timestamp: t, input_length: 512 * ids.length, output_length: 1, hash_ids: ids }),
    );
    const { table } = mooncakeTable(lines.join('\n'));
    const c = lruLevelCounts(table, [2, 1, 0], arrivalOrder(table));
    expect(c.ideal.hitBlocks).toBe(3); // [a b] then [a]
    expect(c.lru[0].hitBlocks).toBe(3); // the second request hits a and b; then {a, c}: the last hits a
    expect(c.lru[1].hitBlocks).toBe(1); // 1 block holds a after a request [a b]: the second hits a only
    expect(c.lru[2]).toEqual({ hitBlocks: 0, hitTokens: 0 });
    expect(c.lru[0].hitTokens).toBe(3 * 512);
  });

  it('refuses a negative or fractional capacity', () => {
    const { table } = mooncakeTable('{"timestamp":0,"input_length":1,"output_length":1,"hash_ids":[1]}');
    expect(() => lruLevelCounts(table, [-1], arrivalOrder(table))).toThrow(RangeError);
    expect(() => lruLevelCounts(table, [1.5], arrivalOrder(table))).toThrow(RangeError);
  });
});
