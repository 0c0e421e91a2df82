import { describe, expect, it } from 'vitest';
import { chooseLane, defaultPoolSize } from '../src/worker/lanes';

describe('chooseLane', () => {
  it("returns to the method's last worker when it is idle (warm caches)", () => {
    expect(chooseLane([0, 0], 1)).toBe(1);
  });
  it('never queues behind a busy worker while another is idle', () => {
    expect(chooseLane([1, 0], 0)).toBe(1);
    expect(chooseLane([3, 0, 2], undefined)).toBe(1);
  });
  it('when every worker is busy, takes the least busy (a worker runs its jobs in turn), the warm one among equals', () => {
    expect(chooseLane([2, 1], 0)).toBe(1);
    expect(chooseLane([2, 1], undefined)).toBe(1);
    expect(chooseLane([1, 1], 1)).toBe(1);
    expect(chooseLane([3, 1, 1], 2)).toBe(2);
  });
  it('sends the same work where it already runs (its runs are memoised there), busy or not', () => {
    expect(chooseLane([3, 0], 1, 0)).toBe(0);
    expect(chooseLane([0, 0], 1, 0)).toBe(0);
    expect(chooseLane([1, 0], 0, 5)).toBe(1);
  });
  it('ignores a preferred worker the pool no longer has, and refuses an empty pool', () => {
    expect(chooseLane([0], 3)).toBe(0);
    expect(() => chooseLane([], 0)).toThrow();
  });
  it('sizes the pool to the device', () => {
    expect(defaultPoolSize(1)).toBe(1);
    expect(defaultPoolSize(8)).toBe(2);
    expect(defaultPoolSize(undefined)).toBe(2);
  });
});
