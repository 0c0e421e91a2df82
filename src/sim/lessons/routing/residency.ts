/**
 * Lesson 07.03: who holds what in HBM (blocks by session per replica, session-private blocks held in duplicate),
 * two ways with one answer:
 *
 *  - `residency`: from one snapshot of every replica's cache, O(blocks cached) each time. The lab samples it
 *    now and then (runPolicy), and it is the oracle the tracker is tested against (tests/router-residency.test.ts);
 *  - `ResidencyTracker`: the same figures kept current from each cache's HBM slots as they are taken and freed
 *    (KvCache.watchHbm, kvcache/events.ts HbmSlotSink), O(1) per slot, read in O(sessions held). The animated
 *    router reads it at every frame (1,000 frames a run), where snapshots were a third of the run's time.
 */
import type { KvCache } from '../../engine/kvcache';
import type { HbmSlotSink } from '../../engine/kvcache/events';
import { HashCounts } from '../../engine/kvcache/events';
import type { FleetSim } from '../../engine/fleet/engine';

export interface Residency {
  /** Per replica: HBM blocks by session (−1 = the app's shared head). */
  bySession: Map<number, number>[];
  /** Session-private HBM blocks held in duplicate: Σ over replicas minus the distinct ones (copies beyond the first). */
  duplicateBlocks: number;
  /** Mean number of replicas holding part of a session's private prefix, over the sessions held anywhere. */
  copiesPerSession: number;
}

/** Who holds what in HBM right now, from one snapshot per replica. */
export function residency(sim: FleetSim, shared: ReadonlySet<number>): Residency {
  return residencyOf(sim.caches, shared);
}

export function residencyOf(caches: readonly KvCache[], shared: ReadonlySet<number>): Residency {
  const bySession: Map<number, number>[] = [];
  const distinct = new Set<number>();
  const holders = new Map<number, number>();
  let privateTotal = 0;
  for (let r = 0; r < caches.length; r++) {
    const snap = caches[r].snapshot();
    const hbm = snap.tiers.indexOf('hbm');
    const by = new Map<number, number>();
    for (let i = 0; i < snap.count; i++) {
      if (snap.tier[i] !== hbm) continue;
      const h = snap.hashes[i];
      const isShared = shared.has(h);
      const s = isShared ? -1 : snap.tag[i];
      by.set(s, (by.get(s) ?? 0) + 1);
      if (!isShared) {
        privateTotal++;
        distinct.add(h);
      }
    }
    for (const s of by.keys()) if (s >= 0) holders.set(s, (holders.get(s) ?? 0) + 1);
    bySession.push(by);
  }
  let copies = 0;
  for (const c of holders.values()) copies += c;
  return {
    bySession,
    duplicateBlocks: privateTotal - distinct.size,
    copiesPerSession: holders.size ? copies / holders.size : 0,
  };
}

/**
 * `residency` kept current from the caches' HBM slots. Built at any moment: it starts from one snapshot per
 * replica, then follows every slot taken or freed. A block's session is its owner tag (−1 for the shared head's
 * hashes, whatever the tag), as in the snapshot.
 */
export class ResidencyTracker {
  /** Per replica: HBM blocks by session (−1 = shared head), only sessions holding ≥ 1. */
  private readonly by: Map<number, number>[] = [];
  /** Session → replicas holding ≥ 1 of its private blocks. */
  private readonly holders = new Map<number, number>();
  /** Private hash → replicas holding it in HBM (a replica holds a hash at most once). */
  private readonly copies = new HashCounts(4096);
  /** Σ over replicas of the private blocks each holds. */
  private privateTotal = 0;
  /** Σ over sessions of the replicas holding them (= Σ holders' values). */
  private copiesTotal = 0;
  private readonly sinks: { cache: KvCache; sink: HbmSlotSink }[] = [];

  constructor(
    caches: readonly KvCache[],
    private readonly shared: ReadonlySet<number>,
  ) {
    for (let r = 0; r < caches.length; r++) {
      this.by.push(new Map());
      const snap = caches[r].snapshot();
      const hbm = snap.tiers.indexOf('hbm');
      for (let i = 0; i < snap.count; i++) if (snap.tier[i] === hbm) this.change(r, snap.hashes[i], snap.tag[i], 1);
      const sink: HbmSlotSink = { hbmSlot: (h, tag, taken) => this.change(r, h, tag, taken ? 1 : -1) };
      caches[r].watchHbm(sink);
      this.sinks.push({ cache: caches[r], sink });
    }
  }

  private change(r: number, h: number, tag: number, d: 1 | -1): void {
    const isShared = this.shared.has(h);
    const s = isShared ? -1 : tag;
    const by = this.by[r];
    const n = (by.get(s) ?? 0) + d;
    if (n > 0) by.set(s, n);
    else by.delete(s);
    if (isShared) return;
    this.privateTotal += d;
    this.copies.add(h, d);
    // The session appears on or leaves this replica: one holder more or less.
    if ((d === 1 && n === 1) || (d === -1 && n === 0)) {
      const c = (this.holders.get(s) ?? 0) + d;
      if (c > 0) this.holders.set(s, c);
      else this.holders.delete(s);
      this.copiesTotal += d;
    }
  }

  /** HBM blocks by session on replica r (live: read, do not keep). */
  sessionsOn(r: number): ReadonlyMap<number, number> {
    return this.by[r];
  }

  get duplicateBlocks(): number {
    return this.privateTotal - this.copies.size;
  }

  get copiesPerSession(): number {
    return this.holders.size ? this.copiesTotal / this.holders.size : 0;
  }

  /** The figures now, in `residency`'s shape (copies of the maps). */
  current(): Residency {
    return {
      bySession: this.by.map((m) => new Map(m)),
      duplicateBlocks: this.duplicateBlocks,
      copiesPerSession: this.copiesPerSession,
    };
  }

  /** Stop following the caches. */
  detach(): void {
    for (const { cache, sink } of this.sinks) cache.unwatchHbm(sink);
    this.sinks.length = 0;
  }
}
