/**
 * Parking a released sequence's context in DRAM as a run (runs.ts), for KvCache.release(seq, 'dram'), and reading
 * the run back as one when the sequence's next acquire asks for it (acquire.ts, acquireFrom).
 */
import type { OffloadResult } from './cacheTypes';
import { INRUN, LOCKED, NO_COPY, PINNED, POLICY } from './blockStore';
import type { CopyList } from './copyOrder';
import type { Offloads } from './offloads';
import type { Run } from './runs';
import type { Seq, Sequences } from './sequences';
import type { TierStore } from './tierStore';
import type { BlockHash, SeqId } from './types';

/**
 * release(seq, 'dram') with the sequence's context kept as a run (runs.ts): the same result as unpinning every
 * block and offloading them last first, with the run's members moved as one and the turn's new blocks joining
 * it. Null, having changed nothing, when it does not apply (then release() goes block by block).
 */
export function park(
  st: TierStore,
  sq: Sequences,
  off: Offloads,
  blockSize: number,
  seq: SeqId,
  s: Seq,
): { unpinned: number; freed: number; offload: OffloadResult } | null {
  const runs = st.runs!;
  const B = st.b;
  const hbm = st.local[0];
  const blocks = s.blocks;
  const n = blocks.length;
  if (st.logs.length || st.hbmSinks.length || n === 0) return null;
  let run = runs.of(seq);
  const tag = s.tag;
  if (run && (run.tag !== tag || run.end > n)) {
    runs.dissolve(run);
    run = undefined;
  }
  // Positions [0, sharedTo) are a share's that others hold on to: pinned, so joining no run, and each offload
  // skips them as pinned. (A run of this sequence's that begins inside them, kept from before the share, has the
  // walks below take every position, as without a share.)
  const othersHold = sq.leaveShare(s);
  const sharedTo = run && run.first < othersHold ? 0 : othersHold;
  // A member held at another position too (a list that is not chained hashes): block by block.
  for (let i = sharedTo; run && i < n; i++) {
    if (i === run.first) i = run.end;
    if (i < n && B.flags(blocks[i]) & INRUN) {
      runs.dissolve(run);
      run = undefined;
    }
  }
  sq.seqs.delete(seq);
  sq.released(seq, blocks);
  // 1. Unpin, last first (the run's members as one: each held one pin, its sequence's).
  const up = sq.unpinAll(blocks, 0, true, run ? run.first : 0, run ? run.end : 0, sharedTo);
  if (run) {
    up.unpinned += run.len;
    hbm.pinned -= run.len;
    hbm.locked += run.len;
    run.parking = true; // until the members leave HBM below: what a dissolve must write into their records
  }
  // 2. The stretch that will be the run: the old run and the blocks after it that can join (computed, full,
  // unpinned now, this owner's, their HBM copy parked); without an old run, the longest such stretch from the
  // top. Blocks above it are offloaded first, those below it after, each on its own, as the plain offload does.
  // (Each block that joins is marked, so a block met twice ends the stretch.)
  const ep = sq.freshEpoch();
  const joins = (i: number) => {
    const id = blocks[i];
    if (!B.live(id)) return false;
    const states = B.states(id);
    const ok =
      B.pins(id) === 0 &&
      !B.isPending(id) &&
      !(B.flags(id) & INRUN) &&
      B.xmark(id) !== ep &&
      B.tokens(id) === blockSize &&
      B.tag(id) === tag &&
      (states & 3) === LOCKED &&
      ((states >> 2) & 3) !== LOCKED;
    if (ok) B.setXmark(id, ep);
    return ok;
  };
  let lo: number;
  let e: number;
  if (run) {
    lo = run.first;
    e = run.end;
    while (e < n && joins(e)) e++;
  } else {
    let i = n - 1;
    while (i >= sharedTo && !joins(i)) i--;
    e = i + 1;
    if (i >= sharedTo) i--;
    while (i >= sharedTo && joins(i)) i--;
    lo = i + 1;
  }
  // A block of the stretch held at another position too: nothing joins (block by block, below).
  let twice = false;
  for (let i = sharedTo; !twice && i < n; i++) {
    if (i === lo) i = e;
    if (i < n && B.live(blocks[i]) && B.xmark(blocks[i]) === ep) twice = true;
  }
  if (twice) {
    if (run) runs.dissolve(run); // its members get their records (unpinned, HBM copy parked)
    run = undefined;
    e = lo;
  }
  const job = off.start(1);
  const r = job.r;
  const at = (i: number) => (B.live(blocks[i]) ? blocks[i] : -1);
  // The blocks above the stretch, then the new members, last first, as the plain offload does them: DRAM's order
  // gets the new members newest, in that order. Room made in DRAM may evict down to the run's node, which
  // dissolves the run (its members then go on their own, below, as the plain offload moves them).
  for (let i = n - 1; i >= e; i--) off.one(at(i), job);
  const from = run ? run.end : lo;
  const keep = e > lo && (run !== undefined || e - lo >= 2);
  if (keep) for (let i = e - 1; i >= from; i--) off.one(blocks[i], job);
  // They are DRAM's newest entries now, in that order, unless making room took one of them (a DRAM smaller
  // than the stretch).
  let joined = keep;
  for (let i = from; joined && i < e; i++) {
    const id = blocks[i];
    joined = B.live(id) && B.state(id, 1) === POLICY && !(B.flags(id) & INRUN);
  }
  if (run && runs.of(seq) === run && !joined) runs.dissolve(run); // its members go on their own, below
  if (run && runs.of(seq) !== run) {
    // Dissolved on the way: each member was given its record (unpinned, its HBM copy parked).
    for (let i = from - 1; i >= lo; i--) off.one(at(i), job);
  } else if (joined) {
    if (run) {
      // The old members: each loses its HBM copy and moves to DRAM's newest end, after the new ones.
      hbm.locked -= run.len;
      hbm.used -= run.len;
      hbm.usedTokens -= run.tokens;
      st.c.offloads += run.len;
      r.moved += run.len;
      runs.order.unlink(run.node);
      run.parking = false;
    }
    const kept = run ?? runs.create(seq, lo, tag);
    // The new members leave DRAM's order (its newest entries, in the order just made) for the node.
    for (let i = from; i < e; i++) {
      const id = blocks[i];
      runs.order.unlink(id); // still counted: the node orders it
      B.setPinsRaw(id, 1); // the record reads as held while parked (runs.ts)
      B.setStateWord(id, 0, PINNED);
      runs.addMember(kept, id, B.tokens(id));
    }
    runs.order.linkTail(kept.node);
    kept.linked = true;
    kept.reversed = true;
    kept.parked = true;
  } else if (!keep) for (let i = e - 1; i >= lo; i--) off.one(at(i), job);
  for (let i = lo - 1; i >= sharedTo; i--) off.one(at(i), job);
  r.skippedPinned += sharedTo; // what offloadOne counts for each of them
  // Fields named, not spread: a spread is a generic object copy, and a tool call's offload runs this often.
  return { unpinned: up.unpinned, freed: up.freed, offload: off.end(job) };
}

/**
 * The parked run (runs.ts) of released sequence `seq` that this acquire can read back as one: its members are
 * positions it covers, the prompt still holds their hashes there, same owner, and nobody subscribes to KV events
 * (the fast path sends none). A run that cannot be read back so is dissolved first.
 */
export function readableRun(
  st: TierStore,
  seq: SeqId,
  s: Seq | undefined,
  hint: number[] | undefined,
  c: number,
  hashes: ArrayLike<BlockHash>,
  off: number,
  count: number,
  tag: number,
): Run | undefined {
  const runs = st.runs;
  if (!runs || s) return undefined;
  const r = runs.of(seq);
  if (!r) return undefined;
  if (
    r.parked &&
    hint !== undefined &&
    r.first >= c &&
    r.end <= c + count &&
    r.tag === tag &&
    st.logs.length === 0 &&
    st.hbmSinks.length === 0 &&
    r.matches(hashes, off + r.first - c)
  )
    return r;
  runs.dissolve(r);
  return undefined;
}

/**
 * Pin a run's members in HBM as one, its DRAM copies (locked while read up) back in DRAM's order, newest, first
 * position first: what the per-position loop does, when the HBM copies it evicts for them all keep a copy in
 * DRAM (nothing is written into DRAM between the members). False, changing nothing, otherwise.
 */
export function pinRun(st: TierStore, seg: Run): boolean {
  const B = st.b;
  const hbm = st.local[0];
  const order = hbm.order as CopyList;
  // makeRoom evicts HBM's head once HBM is full, once per member from then on.
  const evict = Math.max(0, hbm.used + seg.len - hbm.capacity);
  let v = order.after(-1);
  for (let e = 0; e < evict; e++, v = order.after(v))
    if (v < 0 || ((B.states(v) >> 2) & 3) === NO_COPY) return false;
  for (let e = 0; e < evict; e++) {
    const victim = order.victim();
    st.removeCopy(victim, 0);
    st.c.evictions[0]++;
  }
  hbm.used += seg.len;
  hbm.usedTokens += seg.tokens;
  hbm.pinned += seg.len;
  st.local[1].locked -= seg.len;
  const runs = st.runs!;
  runs.order.linkTail(seg.node);
  runs.order.count(seg.len);
  seg.linked = true;
  seg.reversed = false;
  seg.parked = false; // the records read as held, and now they are
  return true;
}
