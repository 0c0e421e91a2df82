/**
 * Moving a cache's unpinned blocks down on purpose (a tool pause's offload) or out (a drop), block by block. The
 * cache (cache.ts) calls these for offload(), drop() and a released sequence's policy; parking.ts uses the same
 * steps for the blocks around a run, so a parked context and a plain offload move each block the same way.
 */
import type { KvCacheCounters, OffloadResult } from './cacheTypes';
import { LOCKED, POLICY } from './blockStore';
import type { TierStore } from './tierStore';
import type { TierName } from './types';

/** One offload's target, where it writes, and what it has done so far. */
export interface OffloadJob {
  t: number;
  dest: number;
  perSource: number[];
  bytesBefore: number;
  r: OffloadResult;
}

export interface DropResult {
  dropped: number;
  skippedPinned: number;
  missing: number;
}

export class Offloads {
  /** Blocks written per source tier (reused: a fleet offloads a tail on every tool call). */
  private readonly perSource: number[];

  constructor(
    private readonly st: TierStore,
    private readonly c: KvCacheCounters,
    private readonly tierNames: readonly TierName[],
  ) {
    this.perSource = tierNames.map(() => 0);
  }

  /** Offload the blocks `at(n − 1) … at(0)` (last first, −1: absent); each is read when its turn comes, as evictions run. */
  each(n: number, at: (i: number) => number, to: Exclude<TierName, 'hbm'>): OffloadResult {
    const t = this.tierNames.indexOf(to);
    if (t <= 0)
      throw new RangeError(`cannot offload to "${to}": this cache's tiers are ${this.tierNames.join(', ')}`);
    const job = this.start(t);
    for (let i = n - 1; i >= 0; i--) this.one(at(i), job);
    return this.end(job);
  }

  /** A job offloading to tier index `t`. */
  start(t: number): OffloadJob {
    const st = this.st;
    const L = st.local.length;
    // Where the offload would write a block: the target, or past it when the target holds nothing (capacity 0). A
    // copy already there moves no bytes; writing it again would evict that very copy to make room for itself.
    let dest = t;
    while (dest < L && st.local[dest].capacity === 0) dest++;
    return {
      t,
      dest,
      perSource: this.perSource.fill(0),
      bytesBefore: sum(this.c.bytesDown),
      r: { moved: 0, written: 0, skippedPinned: 0, missing: 0, alreadyLower: 0, bytes: 0, timeS: 0 },
    };
  }

  /**
   * Offload one block (−1: absent): free its copies above the target and make sure the target holds one. A block
   * that already has a copy there moves no bytes; one that lacks it is written from its nearest copy above, over
   * every link in between (room is made in the target by its policy).
   */
  one(id: number, job: OffloadJob): void {
    const st = this.st;
    const B = st.b;
    const { t, dest, r } = job;
    const L = st.local.length;
    if (id < 0) r.missing++;
    else if (B.pins(id) > 0 || B.isPending(id)) r.skippedPinned++;
    else if (B.top(id) >= t) r.alreadyLower++;
    else {
      let src = -1; // nearest copy above the target: where a write would come from
      for (let k = 0; k < t && k < L; k++) if (B.hasCopy(id, k)) src = k;
      const has = dest < L && B.hasCopy(id, dest);
      for (let k = 0; k < t && k < L; k++) if (B.hasCopy(id, k)) st.removeCopy(id, k);
      this.c.offloads++;
      r.moved++;
      if (has) {
        st.local[dest].order.touch(id);
        return;
      }
      const dedup = t === st.remoteIndex && st.pool !== null && st.pool.has(B.hash(id));
      for (let k = src + 1; k < t; k++) st.sent(k, 'down');
      // Its copies below the target stay locked while room is made: the evictions cascade down the tiers and
      // could otherwise take the block's own lower copy, drop the block, and leave the new copy unowned.
      const locked = lockLower(st, id);
      st.placeBelow(id, t, 'offload');
      unlockLower(st, id, locked);
      job.perSource[src]++;
      if (!dedup) r.written++;
    }
  }

  /** The job's result, with the bytes it moved and the time they take over each link. */
  end(job: OffloadJob): OffloadResult {
    const st = this.st;
    const r = job.r;
    r.bytes = sum(this.c.bytesDown) - job.bytesBefore;
    for (let s = 0; s < job.t; s++)
      if (job.perSource[s]) r.timeS += st.transferS(job.perSource[s], st.linksBetween(s, job.t));
    return r;
  }

  /** Remove the unpinned blocks `at(0) … at(n − 1)` (−1: absent) from every local tier (the pool keeps its copies). */
  drop(n: number, at: (i: number) => number): DropResult {
    const r = { dropped: 0, skippedPinned: 0, missing: 0 };
    for (let i = 0; i < n; i++) {
      const id = at(i);
      if (id < 0) r.missing++;
      else if (this.st.b.pins(id) > 0) r.skippedPinned++;
      else {
        this.st.dropAll(id);
        r.dropped++;
      }
    }
    return r;
  }
}

/**
 * Lock the block's lower copies, so that making room cannot evict its last copy under it; returns the tiers
 * locked (a bit each) for unlockLower. A mask, not a closure: an offload does this for every block it moves.
 */
export function lockLower(st: TierStore, id: number): number {
  let mask = 0;
  for (let i = 1; i < st.local.length; i++) {
    if (st.b.state(id, i) === POLICY) {
      st.setState(id, i, LOCKED);
      mask |= 1 << i;
    }
  }
  return mask;
}

export function unlockLower(st: TierStore, id: number, mask: number): void {
  for (let i = 1; mask >> i; i++) if (mask & (1 << i)) st.setState(id, i, POLICY);
}

/** Σ xs, in order (as reduce adds them, so the same float). */
function sum(xs: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return s;
}
