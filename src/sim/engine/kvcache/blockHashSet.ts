/**
 * A set of block hashes (52-bit non-negative integers, hash.ts): open addressing with linear probing, the keys
 * inline in a Float64Array. Membership is a `Set<number>`'s, but a `Set` keeps each 52-bit key as a heap number
 * (about 40 bytes an entry, and a cache miss to reach it); here an entry is one slot of a typed array (8 bytes at
 * a load of at most 3/4). 07.07's layout comparison inserts up to 16 million blocks per layout at its widget's
 * maxima, where a `Set` took about 0.6 GB and most of the run. No deletion: the lesson caches never evict.
 */
export class BlockHashSet {
  /** key + 1 per slot; 0 = empty (so hash 0, the chain's root, can be a member). */
  private slots: Float64Array;
  private mask: number;
  private count = 0;

  constructor(initialCapacity = 1024) {
    let cap = 16;
    while (cap < initialCapacity * 2) cap *= 2;
    this.slots = new Float64Array(cap);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  has(hash: number): boolean {
    const slots = this.slots;
    const mask = this.mask;
    const stored = hash + 1;
    // `>>> 0` keeps the low 32 bits of an integer below 2^53 exactly; the hashes are already well mixed.
    for (let i = (hash >>> 0) & mask; ; i = (i + 1) & mask) {
      const s = slots[i];
      if (s === stored) return true;
      if (s === 0) return false;
    }
  }

  add(hash: number): void {
    if (!Number.isInteger(hash) || hash < 0 || hash >= 2 ** 52)
      throw new RangeError(`a block hash is a 52-bit non-negative integer, got ${hash}`);
    if ((this.count + 1) * 4 > this.slots.length * 3) this.grow();
    if (this.insert(hash + 1)) this.count++;
  }

  /** Put a stored key (hash + 1) in its slot; false when it was there already. */
  private insert(stored: number): boolean {
    const slots = this.slots;
    const mask = this.mask;
    for (let i = ((stored - 1) >>> 0) & mask; ; i = (i + 1) & mask) {
      const s = slots[i];
      if (s === stored) return false;
      if (s === 0) {
        slots[i] = stored;
        return true;
      }
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    this.mask = this.slots.length - 1;
    for (let i = 0; i < old.length; i++) if (old[i] !== 0) this.insert(old[i]);
  }
}
