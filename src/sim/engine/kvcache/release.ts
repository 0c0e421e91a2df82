/**
 * A sequence's release, for KvCache.release(): its blocks unpinned, then its tool-pause policy applied to them —
 * kept cached, dropped, offloaded block by block (offloads.ts), or, offloading to DRAM where the cache keeps runs,
 * parked as one run (parking.ts). Here, not in sequences.ts, because it chooses between those moves; sequences.ts
 * only unpins.
 */
import type { OffloadResult, ReleaseThen } from './cacheTypes';
import type { Offloads } from './offloads';
import { park } from './parking';
import type { Seq, Sequences } from './sequences';
import type { TierStore } from './tierStore';
import type { SeqId, TierName } from './types';

/** What a release did: blocks unpinned and freed, and the policy's offload or drop. */
export interface Released {
  unpinned: number;
  freed: number;
  offload?: OffloadResult;
  dropped?: number;
}

/** Release `s`, the record of `seq` (see KvCache.release). */
export function releaseSeq(
  st: TierStore,
  sq: Sequences,
  off: Offloads,
  tierNames: readonly TierName[],
  seq: SeqId,
  s: Seq,
  then: ReleaseThen,
): Released {
  // Offloading to a tier this cache has (checked first: a bad tier must throw with nothing parked).
  const offloading = then !== 'cache' && then !== 'drop' && tierNames.indexOf(then) > 0;
  const runs = st.runs;
  if (runs) {
    const parked = offloading && then === tierNames[1] ? park(st, sq, off, st.blockSize, seq, s) : null;
    if (parked) return parked;
    const run = runs.of(seq);
    if (run) runs.dissolve(run);
  }
  sq.seqs.delete(seq);
  sq.released(seq, s.blocks);
  const r = sq.unpinAll(s.blocks, 0, offloading, 0, 0, sq.leaveShare(s));
  if (then === 'cache') return r;
  // The sequence's own block ids, not their hashes: no lookup per block (a block that left the replica meanwhile
  // is no longer live, which is what a lookup of its hash would have found; no id is reused before these loops
  // end, as they create no block).
  const B = st.b;
  const at = (i: number) => (B.live(s.blocks[i]) ? s.blocks[i] : -1);
  if (then === 'drop') return { ...r, dropped: off.drop(s.blocks.length, at).dropped };
  return { ...r, offload: off.each(s.blocks.length, at, then) };
}
