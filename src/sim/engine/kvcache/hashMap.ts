/**
 * A map from block hashes (52-bit non-negative integers, hash.ts) to values: open addressing with linear probing
 * and backward-shift deletion, the keys inline in a Float64Array, for any value and without an insertion order (so
 * no iteration: use a Map where order or iteration matters; blockStore.ts keeps its own order beside one).
 *
 * Why: a Map keyed by such hashes keeps each key as a heap number, so every lookup reads a bucket, an entry and the
 * key object, and every insertion allocates; the fleet's page index (fleet/tails.ts) does a few of these per page
 * computed, for the whole run. Here a lookup reads one slot of a typed array and one of the value array.
 */

import { homeSlot, slotCount, slotShift } from './slots';

export class HashMap<V> {
  private keys: Float64Array;
  private vals: (V | undefined)[];
  private mask: number;
  private shift: number;
  private n = 0;

  constructor(initialCapacity = 1024) {
    const cap = slotCount(initialCapacity);
    this.keys = new Float64Array(cap);
    this.vals = new Array<V | undefined>(cap).fill(undefined);
    this.mask = cap - 1;
    this.shift = slotShift(cap);
  }

  get size(): number {
    return this.n;
  }

  private home(h: number): number {
    return homeSlot(h, this.shift);
  }

  private slot(h: number): number {
    const keys = this.keys;
    const vals = this.vals;
    const mask = this.mask;
    let i = this.home(h);
    while (vals[i] !== undefined) {
      if (keys[i] === h) return i;
      i = (i + 1) & mask;
    }
    return ~i; // not found: the free slot where it would go
  }

  get(h: number): V | undefined {
    const i = this.slot(h);
    return i >= 0 ? this.vals[i] : undefined;
  }

  has(h: number): boolean {
    return this.slot(h) >= 0;
  }

  /** Set the value under `h` (a value must not be undefined). */
  set(h: number, v: V): void {
    if (v === undefined) throw new TypeError('HashMap: a value cannot be undefined');
    let i = this.slot(h);
    if (i >= 0) {
      this.vals[i] = v;
      return;
    }
    if ((this.n + 1) * 2 > this.vals.length) {
      this.grow();
      i = this.slot(h);
    }
    this.keys[~i] = h;
    this.vals[~i] = v;
    this.n++;
  }

  delete(h: number): boolean {
    let i = this.slot(h);
    if (i < 0) return false;
    const keys = this.keys;
    const vals = this.vals;
    const mask = this.mask;
    // Backward-shift deletion: move later members of the probe run into the hole, so no tombstones build up.
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      if (vals[j] === undefined) break;
      const home = this.home(keys[j]);
      // Move j into the hole unless its home lies cyclically in (hole, j].
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        keys[i] = keys[j];
        vals[i] = vals[j];
        i = j;
      }
    }
    vals[i] = undefined;
    this.n--;
    return true;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldVals = this.vals;
    const cap = oldVals.length * 2;
    this.keys = new Float64Array(cap);
    this.vals = new Array<V | undefined>(cap).fill(undefined);
    this.mask = cap - 1;
    this.shift = slotShift(cap);
    for (let i = 0; i < oldVals.length; i++) {
      const v = oldVals[i];
      if (v === undefined) continue;
      const at = ~this.slot(oldKeys[i]);
      this.keys[at] = oldKeys[i];
      this.vals[at] = v;
    }
  }
}
