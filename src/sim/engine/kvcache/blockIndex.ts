/**
 * The replica's index of its blocks by hash: an open-addressing hash table (linear probing, backward-shift
 * deletion) with the keys inline in a Float64Array, plus an intrusive list through the blocks that keeps their
 * insertion order for iteration (the order a Map would give, so snapshots and frames list blocks as before).
 *
 * Why not a Map: block hashes are 52-bit doubles, not small integers, so a Map keeps each key as a heap number
 * and a lookup reads the bucket, then the entry, then the key object before it reaches the block. Acquire walks a
 * prompt's blocks one lookup each, and on the bench fleet those lookups were the largest single cost (about a
 * fifth of the run, nearly all of it cache misses). Here a lookup reads one slot of a typed array and one of the
 * value array. (Slots holding only the blocks, compared by the block's own hash, measured slower: a probe past an
 * occupied slot then reads a block, and most lookups of a prompt's new blocks miss.)
 */

import { homeSlot, slotCount, slotShift } from './slots';

/** What the index needs of a block: its hash and two links for the insertion-order list. */
export interface Indexed<T> {
  readonly hash: number;
  prevIns: T | null;
  nextIns: T | null;
}

export class BlockIndex<B extends Indexed<B>> {
  private keys: Float64Array;
  private vals: (B | undefined)[];
  private mask: number;
  private shift: number;
  private n = 0;
  private head: B | null = null;
  private tail: B | null = null;

  constructor(initialCapacity = 1024) {
    const cap = slotCount(initialCapacity);
    this.keys = new Float64Array(cap);
    this.vals = new Array<B | undefined>(cap).fill(undefined);
    this.mask = cap - 1;
    this.shift = slotShift(cap);
  }

  get size(): number {
    return this.n;
  }

  private home(h: number): number {
    return homeSlot(h, this.shift);
  }

  get(h: number): B | undefined {
    const keys = this.keys;
    const vals = this.vals;
    const mask = this.mask;
    let i = this.home(h);
    for (;;) {
      const v = vals[i];
      if (v === undefined) return undefined;
      if (keys[i] === h) return v;
      i = (i + 1) & mask;
    }
  }

  has(h: number): boolean {
    return this.get(h) !== undefined;
  }

  /** Add a block under its hash (which must not be in the index), at the end of the insertion order. */
  set(h: number, b: B): void {
    if ((this.n + 1) * 2 > this.vals.length) this.grow();
    this.place(h, b);
    this.n++;
    b.prevIns = this.tail;
    b.nextIns = null;
    if (this.tail) this.tail.nextIns = b;
    else this.head = b;
    this.tail = b;
  }

  private place(h: number, b: B): void {
    const mask = this.mask;
    let i = this.home(h);
    while (this.vals[i] !== undefined) {
      if (this.keys[i] === h) throw new Error(`BlockIndex: hash ${h} is already indexed`);
      i = (i + 1) & mask;
    }
    this.keys[i] = h;
    this.vals[i] = b;
  }

  delete(h: number): boolean {
    const keys = this.keys;
    const vals = this.vals;
    const mask = this.mask;
    let i = this.home(h);
    for (;;) {
      const v = vals[i];
      if (v === undefined) return false;
      if (keys[i] === h) break;
      i = (i + 1) & mask;
    }
    const b = vals[i] as B;
    // Backward-shift deletion: move later members of the probe run into the hole, so no tombstones build up.
    let hole = i;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const v = vals[j];
      if (v === undefined) break;
      const home = this.home(keys[j]);
      // Move j into the hole unless its home lies cyclically in (hole, j].
      if (hole <= j ? home <= hole || home > j : home <= hole && home > j) {
        keys[hole] = keys[j];
        vals[hole] = v;
        hole = j;
      }
    }
    vals[hole] = undefined;
    this.n--;
    if (b.prevIns) b.prevIns.nextIns = b.nextIns;
    else this.head = b.nextIns;
    if (b.nextIns) b.nextIns.prevIns = b.prevIns;
    else this.tail = b.prevIns;
    b.prevIns = b.nextIns = null;
    return true;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldVals = this.vals;
    const cap = oldVals.length * 2;
    this.keys = new Float64Array(cap);
    this.vals = new Array<B | undefined>(cap).fill(undefined);
    this.mask = cap - 1;
    this.shift = slotShift(cap);
    for (let i = 0; i < oldVals.length; i++) {
      const v = oldVals[i];
      if (v !== undefined) this.place(oldKeys[i], v);
    }
  }

  /** Blocks in insertion order. */
  *values(): IterableIterator<B> {
    for (let b = this.head; b;) {
      const next = b.nextIns; // read first: the caller may delete b
      yield b;
      b = next;
    }
  }

  /** [hash, block] in insertion order (as a Map iterates). */
  *[Symbol.iterator](): IterableIterator<[number, B]> {
    for (const b of this.values()) yield [b.hash, b];
  }
}
