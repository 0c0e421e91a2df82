/**
 * A map from block hashes (52-bit non-negative integers, hash.ts) to 32-bit integers (block and entry ids): open
 * addressing with linear probing and backward-shift deletion, each slot's key and value side by side in one buffer
 * (16 bytes a slot: the key as a float64, the value as an int32, read through an Int32Array so that it comes back
 * as a small integer, not a float that every index computation would convert), and
 * without an insertion order (so no iteration: use a Map where order or iteration matters; blockStore.ts keeps its
 * own order beside one).
 *
 * Why: a Map keyed by such hashes keeps each key as a heap number, so every lookup reads a bucket, an entry and the
 * key object, and every insertion allocates; the fleet's page index (fleet/tails.ts) does a few of these per page
 * computed, for the whole run. Here a lookup reads one slot, key and value in the same cache line (with the values
 * in an array of their own, a probe of a large table missed the cache twice).
 */

import { homeSlot, slotCount, slotShift } from './slots';

/** The key of an empty slot (no block hash is negative). */
const EMPTY = -1;

export class HashMap {
  /** Slot i: its key at 2i (EMPTY when free); its value at 4i + 2 of `v`, a view of the same buffer. */
  private s: Float64Array;
  private v: Int32Array;
  private mask: number;
  private shift: number;
  private n = 0;

  constructor(initialCapacity = 1024) {
    const cap = slotCount(initialCapacity);
    this.s = new Float64Array(2 * cap).fill(EMPTY);
    this.v = new Int32Array(this.s.buffer);
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
    const s = this.s;
    const mask = this.mask;
    let i = this.home(h);
    for (let k = s[2 * i]; k !== EMPTY; k = s[2 * i]) {
      if (k === h) return i;
      i = (i + 1) & mask;
    }
    return ~i; // not found: the free slot where it would go
  }

  get(h: number): number | undefined {
    const i = this.slot(h);
    return i >= 0 ? this.v[4 * i + 2] : undefined;
  }

  has(h: number): boolean {
    return this.slot(h) >= 0;
  }

  /** Set the value under `h` (a block hash: a non-negative integer) to `v` (a 32-bit integer). */
  set(h: number, v: number): void {
    const i = this.checkedSlot(h, v);
    if (i >= 0) this.v[4 * i + 2] = v;
    else this.insert(~i, h, v);
  }

  /** Set `h` to `v` if `h` is absent (one probe instead of has() then set()); false, changing nothing, if present. */
  add(h: number, v: number): boolean {
    const i = this.checkedSlot(h, v);
    if (i >= 0) return false;
    this.insert(~i, h, v);
    return true;
  }

  /** Set `h` to `v` and return what it was before, −1 if absent (one probe instead of get() then set()). */
  exchange(h: number, v: number): number {
    const i = this.checkedSlot(h, v);
    if (i < 0) {
      this.insert(~i, h, v);
      return -1;
    }
    const old = this.v[4 * i + 2];
    this.v[4 * i + 2] = v;
    return old;
  }

  private checkedSlot(h: number, v: number): number {
    if (!(h >= 0)) throw new RangeError(`HashMap: a key must be a non-negative number, not ${h}`);
    if ((v | 0) !== v) throw new RangeError(`HashMap: a value must be a 32-bit integer, not ${v}`);
    return this.slot(h);
  }

  /** File h → v in free slot `at` (slot()'s answer for h), growing the table first if it would be half full. */
  private insert(at: number, h: number, v: number): void {
    if ((this.n + 1) * 2 > this.mask + 1) {
      this.grow();
      at = ~this.slot(h);
    }
    this.s[2 * at] = h;
    this.v[4 * at + 2] = v;
    this.n++;
  }

  delete(h: number): boolean {
    let i = this.slot(h);
    if (i < 0) return false;
    const s = this.s;
    const mask = this.mask;
    // Backward-shift deletion: move later members of the probe run into the hole, so no tombstones build up.
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const key = s[2 * j];
      if (key === EMPTY) break;
      const home = this.home(key);
      // Move j into the hole unless its home lies cyclically in (hole, j].
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        s[2 * i] = key;
        this.v[4 * i + 2] = this.v[4 * j + 2];
        i = j;
      }
    }
    s[2 * i] = EMPTY;
    this.n--;
    return true;
  }

  private grow(): void {
    const old = this.s;
    const oldV = this.v;
    const cap = (this.mask + 1) * 2;
    this.s = new Float64Array(2 * cap).fill(EMPTY);
    this.v = new Int32Array(this.s.buffer);
    this.mask = cap - 1;
    this.shift = slotShift(cap);
    for (let i = 0; i < old.length; i += 2) {
      const key = old[i];
      if (key === EMPTY) continue;
      const at = ~this.slot(key);
      this.s[2 * at] = key;
      this.v[4 * at + 2] = oldV[2 * i + 2];
    }
  }
}
