/**
 * KV events: what a replica's cache reports as blocks become findable in a tier or leave it, so that a router
 * can keep its own copy of the cache's contents without reading the cache. vLLM publishes the same thing from
 * its block pool (`BlockStored` with the block hashes and the medium, `BlockRemoved`, `AllBlocksCleared`;
 * vllm-project/vllm, vllm/distributed/kv_events.py), and llm-d's precise prefix-cache scorer is fed by them
 * (llm-d/llm-d-kv-cache, pkg/kvcache/kvevents).
 *
 * Here an event is one *computed* copy of a block appearing in (stored) or leaving (removed) one local tier.
 * Pending blocks (allocated, not yet computed) are not reported: a lookup cannot find them, and vLLM emits
 * BlockStored only once a block is full and hashed. So, for each hash, stored − removed events = the number of
 * local tiers holding a computed copy of it right now; a log replayed up to time t gives the cache as it was at t.
 *
 * A cache has no log until someone subscribes (KvCache.subscribe): without one, recording costs one length check.
 */

import { homeSlot, slotCount, slotShift } from './slots';

/** Time source of a log: the fleet's simulated clock, or none (events carry time 0). */
export type Clock = () => number;

/** Whatever receives a cache's events as they happen (a log, or a view's running total). */
export interface KvEventSink {
  record(hash: number, tier: number, stored: boolean): void;
}

/**
 * Whatever wants every HBM slot of a replica as a block takes or frees it, blocks still being computed included,
 * with the block's owner tag: what a picture of who holds HBM needs (a snapshot counts pending blocks too), which
 * the KV events above leave out on purpose (a router cannot find a pending block). Not an engine's event: vLLM
 * publishes nothing for pending blocks; this is the simulator reporting on itself (lessons/routing/residency.ts).
 * The tag is the block's at that moment (every caller of the fleet tags a block with its session, and a
 * session-private hash is only ever acquired by its own session, so it does not change while the slot is held).
 */
export interface HbmSlotSink {
  hbmSlot(hash: number, tag: number, taken: boolean): void;
}

export class KvEventLog implements KvEventSink {
  private hashes: number[] = [];
  /** tier · 2 + (1 stored, 0 removed). */
  private codes: number[] = [];
  private times: number[] = [];
  private head = 0;

  constructor(private readonly clock: Clock | null = null) {}

  /** Events recorded and not yet read. */
  get pending(): number {
    return this.hashes.length - this.head;
  }

  record(hash: number, tier: number, stored: boolean): void {
    this.hashes.push(hash);
    this.codes.push(tier * 2 + (stored ? 1 : 0));
    this.times.push(this.clock ? this.clock() : 0);
  }

  /**
   * Hand every unread event recorded at or before `until` (all of them by default) to `f`, oldest first, and
   * forget them. Events after `until` stay for a later call (a view that lags behind the cache by a delay).
   */
  drain(f: (hash: number, tier: number, stored: boolean) => void, until = Infinity): number {
    const { hashes, codes, times } = this;
    let i = this.head;
    const end = hashes.length;
    for (; i < end && times[i] <= until; i++) {
      const code = codes[i];
      f(hashes[i], code >> 1, (code & 1) === 1);
    }
    const n = i - this.head;
    if (i === end) {
      hashes.length = codes.length = times.length = 0;
      this.head = 0;
    } else if (i > 4096 && i * 2 > end) {
      // Compact now and then, so a lagging reader keeps O(unread) memory.
      this.hashes = hashes.slice(i);
      this.codes = codes.slice(i);
      this.times = times.slice(i);
      this.head = 0;
    } else this.head = i;
    return n;
  }
}

/**
 * A multiset of block hashes (hash → count > 0): what a router's copy of one replica's cache holds. Open
 * addressing with inline keys (see hashMap.ts for why not a Map).
 */
export class HashCounts {
  private keys: Float64Array;
  private counts: Int32Array;
  private mask: number;
  private shift: number;
  private n = 0;

  constructor(initialCapacity = 1024) {
    const cap = slotCount(initialCapacity);
    this.keys = new Float64Array(cap);
    this.counts = new Int32Array(cap);
    this.mask = cap - 1;
    this.shift = slotShift(cap);
  }

  /** Distinct hashes held. */
  get size(): number {
    return this.n;
  }

  private home(h: number): number {
    return homeSlot(h, this.shift);
  }

  private slot(h: number): number {
    let i = this.home(h);
    while (this.counts[i] !== 0 && this.keys[i] !== h) i = (i + 1) & this.mask;
    return i;
  }

  has(h: number): boolean {
    return this.counts[this.slot(h)] !== 0;
  }

  count(h: number): number {
    return this.counts[this.slot(h)];
  }

  /** Add `d` (±) to a hash's count; a count that reaches 0 removes the hash. A count never goes below 0. */
  add(h: number, d: number): void {
    const i = this.slot(h);
    const c = this.counts[i];
    if (c === 0) {
      if (d <= 0) return;
      this.keys[i] = h;
      this.counts[i] = d;
      this.n++;
      if (this.n * 2 > this.counts.length) this.grow();
      return;
    }
    const next = c + d;
    if (next > 0) {
      this.counts[i] = next;
      return;
    }
    this.remove(i);
  }

  clear(): void {
    this.counts.fill(0);
    this.n = 0;
  }

  /** Backward-shift deletion of slot i (linear probing, no tombstones). */
  private remove(i: number): void {
    const { keys, counts, mask } = this;
    let hole = i;
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      if (counts[j] === 0) break;
      const home = this.home(keys[j]);
      if (hole <= j ? home <= hole || home > j : home <= hole && home > j) {
        keys[hole] = keys[j];
        counts[hole] = counts[j];
        hole = j;
      }
    }
    counts[hole] = 0;
    this.n--;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldCounts = this.counts;
    const cap = oldCounts.length * 2;
    this.keys = new Float64Array(cap);
    this.counts = new Int32Array(cap);
    this.mask = cap - 1;
    this.shift = slotShift(cap);
    for (let i = 0; i < oldCounts.length; i++)
      if (oldCounts[i] !== 0) {
        const s = this.slot(oldKeys[i]);
        this.keys[s] = oldKeys[i];
        this.counts[s] = oldCounts[i];
      }
  }

  /** Every hash held (any order). */
  *hashes(): IterableIterator<number> {
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i] !== 0) yield this.keys[i];
  }
}

/**
 * Net change per block hash since the last apply(): what a view that refreshes all at once needs of the events
 * in between. Memory is O(distinct hashes changed), however many events there were (a view whose router never
 * refreshes it keeps at most one entry per block the caches ever held, not one per event).
 */
export class HashDeltas implements KvEventSink {
  private keys: Float64Array;
  private deltas: Int32Array;
  private used: Uint8Array;
  private slots: number[] = [];
  private mask: number;
  private shift: number;

  /** `counts(tier)`: whether events of that local tier count (a view of HBM only ignores the others). */
  constructor(
    private readonly counts: (tier: number) => boolean = () => true,
    initialCapacity = 1024,
  ) {
    const cap = slotCount(initialCapacity);
    this.keys = new Float64Array(cap);
    this.deltas = new Int32Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
    this.shift = slotShift(cap);
  }

  private home(h: number): number {
    return homeSlot(h, this.shift);
  }

  record(hash: number, tier: number, stored: boolean): void {
    if (!this.counts(tier)) return;
    let i = this.home(hash);
    while (this.used[i] && this.keys[i] !== hash) i = (i + 1) & this.mask;
    if (!this.used[i]) {
      this.used[i] = 1;
      this.keys[i] = hash;
      this.deltas[i] = 0;
      this.slots.push(i);
    }
    this.deltas[i] += stored ? 1 : -1;
    if (this.slots.length * 2 > this.used.length) this.grow();
  }

  /** Add every net change to `into` and forget them. */
  apply(into: HashCounts): void {
    for (const i of this.slots) {
      if (this.deltas[i] !== 0) into.add(this.keys[i], this.deltas[i]);
      this.used[i] = 0;
    }
    this.slots.length = 0;
  }

  private grow(): void {
    const { keys, deltas, slots } = this;
    const cap = this.used.length * 2;
    this.keys = new Float64Array(cap);
    this.deltas = new Int32Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
    this.shift = slotShift(cap);
    this.slots = [];
    for (const j of slots) {
      let i = this.home(keys[j]);
      while (this.used[i]) i = (i + 1) & this.mask;
      this.used[i] = 1;
      this.keys[i] = keys[j];
      this.deltas[i] = deltas[j];
      this.slots.push(i);
    }
  }
}
