/**
 * A map from small non-negative integer keys (session indices) to numbers that remembers insertion order, like a
 * Map, with the oldest entry read in O(1) and nothing allocated per operation: a replica's held sessions are set,
 * deleted and asked for their oldest thousands of times a second of simulated time, and a Map allocated an
 * iterator for every `keys().next()` and a new table whenever its deleted entries filled the old one.
 */
export class OrderedIntMap {
  private val: number[] = [];
  private prev: number[] = [];
  private next: number[] = [];
  private present: boolean[] = [];
  private head = -1;
  private tail = -1;
  private n = 0;

  get size(): number {
    return this.n;
  }

  has(key: number): boolean {
    return this.present[key] === true;
  }

  get(key: number): number | undefined {
    return this.present[key] === true ? this.val[key] : undefined;
  }

  /** Set `key` to `v`; a new key goes last (an existing one keeps its place, as in a Map). */
  set(key: number, v: number): void {
    if (!(Number.isInteger(key) && key >= 0))
      throw new RangeError(`OrderedIntMap: a key must be a non-negative integer, not ${key}`);
    if (this.present[key] === true) {
      this.val[key] = v;
      return;
    }
    // Grown one key at a time so that the arrays stay packed (no holes: V8 keeps their elements fast).
    for (let k = this.present.length; k <= key; k++) {
      this.present.push(false);
      this.val.push(0);
      this.prev.push(-1);
      this.next.push(-1);
    }
    this.present[key] = true;
    this.val[key] = v;
    this.prev[key] = this.tail;
    this.next[key] = -1;
    if (this.tail >= 0) this.next[this.tail] = key;
    else this.head = key;
    this.tail = key;
    this.n++;
  }

  delete(key: number): boolean {
    if (this.present[key] !== true) return false;
    this.present[key] = false;
    const p = this.prev[key];
    const x = this.next[key];
    if (p >= 0) this.next[p] = x;
    else this.head = x;
    if (x >= 0) this.prev[x] = p;
    else this.tail = p;
    this.n--;
    return true;
  }

  /** Keys, oldest first. */
  *keys(): IterableIterator<number> {
    for (let k = this.head; k >= 0; k = this.next[k]) yield k;
  }

  /** Values, in their keys' order. */
  *values(): IterableIterator<number> {
    for (let k = this.head; k >= 0; k = this.next[k]) yield this.val[k];
  }

  /** The oldest key, or −1 when empty. */
  firstKey(): number {
    return this.head;
  }
}
