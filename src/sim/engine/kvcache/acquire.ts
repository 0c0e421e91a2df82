/**
 * Acquiring (acquireFrom, under KvCache's acquire and extend): a sequence's new positions get blocks pinned
 * in HBM, the longest cached prefix among them read from whichever tier holds it and the rest given pending slots.
 * All or nothing: when HBM cannot hold the pinned blocks, an acquire changes nothing and says why.
 */
import type { AcquireOptions, AcquireResult } from './cacheTypes';
import { Outcome } from './acquireOutcome';
import { checkTag, INRUN, LOADED, LOCKED, POLICY, topOf } from './blockStore';
import { keepFirst } from '../keepFirst';
import { pinRun, readableRun } from './parking';
import type { Seq, Sequences } from './sequences';
import type { BlockHash, SeqId, TierName } from './types';

/** An empty list of blocks, read only (what a sequence the cache does not know holds). */
export const NO_BLOCKS: readonly number[] = Object.freeze([]);

/**
 * One acquire's scratch arrays, reused by the next (an acquire is O(new positions); allocating them per call showed
 * in GC).
 */
export class AcquireScratch {
  found: number[] = [];
  slot: number[] = [];
  lockedCopy: number[] = [];
  made: number[] = [];
  /** Blocks and tokens hit per tier in one acquire (read into its result before the next). */
  readonly hitB: number[];
  readonly hitT: number[];

  constructor(tierNames: readonly TierName[]) {
    this.hitB = tierNames.map(() => 0);
    this.hitT = tierNames.map(() => 0);
  }
}

/**
 * Make positions c.. of `seq` hold hashes[off .. off + count), pinned in HBM; positions it held past c are
 * released. The longest cached prefix of the new positions is served from the fastest tier holding each block
 * (a lower copy is read up and kept: tiers are inclusive; a pool copy is fetched), the rest get pending slots.
 */
export function acquireFrom(
  sq: Sequences,
  seq: SeqId,
  s: Seq | undefined,
  c: number,
  hashes: ArrayLike<BlockHash>,
  off: number,
  count: number,
  opts: AcquireOptions,
): AcquireResult {
  const st = sq.st;
  const B = st.b;
  st.c.acquires++;
  const held = s ? s.blocks : (NO_BLOCKS as number[]); // empty, so never written
  const n = c + count; // positions after the operation
  const lastTok = sq.lastTokens(n, opts.tokens);
  const tag = opts.tag === undefined ? (s ? s.tag : -1) : checkTag(opts.tag);
  const hbm = st.local[0];
  const epoch = sq.freshEpoch();
  const remote = st.remoteIndex;

  // Plan (no mutation). Tail = held[c..], to be released.
  for (let i = c; i < held.length; i++) {
    const id = held[i];
    if (B.mark(id) !== epoch) {
      B.setMark(id, epoch);
      B.setScratch(id, 0);
    }
    B.setScratch(id, B.scratch(id) + 1);
  }
  let X: number; // new positions whose block is not pinned after the tail is released: each takes a pinned slot
  let run: number; // cached prefix among new positions
  let inRun: boolean;
  const nT = sq.tierNames.length;
  const scratch = sq.scratch;
  const hitB = scratch.hitB;
  const hitT = scratch.hitT;
  const found = scratch.found;
  const hint = s ? undefined : sq.hintOf(seq); // a held sequence's new positions have none
  const hinted = hint ? Math.min(count, hint.length - c) : 0;
  // A released sequence's run (runs.ts), read back as one when the prompt still holds it: positions
  // [segFrom, segTo) of this call.
  let seg = readableRun(st, seq, s, hint, c, hashes, off, count, tag);
  // A fresh sequence whose first `sharedBlocks` positions are a live share's joins it (shares.ts): those
  // positions are HBM hits pinned by its other holders, so none of them is looked up or counted in X.
  const K = opts.sharedBlocks ?? 0;
  if (!(Number.isInteger(K) && K >= 0))
    throw new RangeError(`sharedBlocks must be a non-negative integer, got ${K}`);
  const fromShareStart = !s && c === 0 && K > 0 && K <= count; // may join a share, or start one
  const share = fromShareStart && (!seg || seg.first >= K) ? sq.shares.find(hashes, off, K) : undefined;
  const K0 = share ? K : 0; // positions the walks below skip
  let segFrom: number;
  let segTo: number;
  let ep = epoch;
  for (;;) {
    X = 0;
    run = K0;
    inRun = true;
    for (let t = 0; t < nT; t++) hitB[t] = hitT[t] = 0; // a loop: fill() on two entries cost more than it did
    if (share) {
      hitB[0] = K;
      hitT[0] = share.tokens;
    }
    segFrom = seg ? seg.first - c : -1;
    segTo = seg ? segFrom + seg.len : -1;
    if (hint) sq.warmed = B.warm(hint, c + K0, seg ? c + segFrom : c + hinted);
    for (let k = K0; k < count; k++) {
      if (seg && k === segFrom) {
        if (inRun && st.runs!.of(seq) === seg) {
          // Every member is a computed block with its only other copy in DRAM, held by nobody: a hit from DRAM
          // that takes a pinned slot.
          hitB[1] += seg.len;
          hitT[1] += seg.tokens;
          run += seg.len;
          X += seg.len;
          k = segTo - 1;
          continue;
        }
        // A miss before it: the members are not a cached prefix here. Read them as blocks of their own.
        if (st.runs!.of(seq) === seg) st.runs!.dissolve(seg);
        seg = undefined;
      }
      const h = hashes[off + k];
      let id = k < hinted ? (hint as number[])[c + k] : -1;
      if (id < 0 || !B.live(id) || !B.hashIs(id, h)) id = B.get(h);
      else if (B.flags(id) & INRUN) st.runs?.found(id); // a parked run's member gets its record back
      found[k] = id; // looked up once: nothing changes before the mutation below reads it
      if (inRun) {
        if (id >= 0 && !B.isPending(id)) {
          const from = topOf(B.states(id));
          hitB[from]++;
          hitT[from] += B.tokens(id);
          run++;
        } else if (id < 0 && st.pool?.has(h)) {
          const p = st.pool.peek(h) as { tokens: number };
          hitB[remote]++;
          hitT[remote] += p.tokens;
          run++;
        } else inRun = false;
      }
      if (id < 0) X++;
      else if (B.xmark(id) !== ep) {
        B.setXmark(id, ep);
        const eff = B.pins(id) - (B.mark(id) === ep ? B.scratch(id) : 0);
        if (eff === 0) X++;
      }
    }
    if (!seg || st.runs!.of(seq) === seg) break;
    // A member came back at another position of the prompt (a list that is not chained hashes) and dissolved
    // the run: plan again, block by block (a released sequence holds no tail, so nothing else is marked).
    seg = undefined;
    ep = sq.freshEpoch();
  }
  let Y = 0; // tail blocks that end up unpinned
  for (let i = c; i < held.length; i++) {
    const id = held[i];
    const sc = B.scratch(id);
    if (sc > 0) {
      if (B.pins(id) === sc) Y++;
      B.setScratch(id, 0);
    }
  }
  const pinnedOthers = hbm.pinned - Y;
  if (pinnedOthers + X > hbm.capacity) {
    st.c.acquireFailures++;
    const available = hbm.capacity - pinnedOthers;
    const reason = n > hbm.capacity ? 'exceeds-hbm' : 'hbm-full';
    return Outcome.refused(reason, X, available, n, hbm.capacity);
  }

  // Mutate. 1) Pin new positions with an HBM copy; lock the copy a lower-only block is read from.
  const slot = scratch.slot;
  const made = scratch.made; // hashes of the blocks this acquire makes, [0, nMade)
  let nMade = 0;
  let lockedTwice = false; // a position's block was locked by a position before it (step 1)
  const lockedCopy = scratch.lockedCopy;
  const dram = st.local.length > 1 ? st.local[1] : hbm;
  if (share) {
    const ids = share.ids;
    for (let k = 0; k < K0; k++) {
      const id = ids[k];
      B.addPins(id, 1); // its HBM copy is pinned already
      B.setTag(id, tag);
      slot[k] = id;
    }
  }
  for (let k = K0; k < count; k++) {
    if (seg && k === segFrom) {
      // The members' DRAM copies are locked while they are read up, out of DRAM's order: the node's going.
      st.runs!.order.unlink(seg.node);
      st.runs!.order.count(-seg.len);
      seg.linked = false;
      dram.locked += seg.len;
      st.c.promotions[1] += seg.len;
      st.sentMany(1, 'up', seg.len);
      k = segTo - 1;
      continue;
    }
    const id = found[k];
    lockedCopy[k] = -1;
    if (id >= 0 && B.hasCopy(id, 0)) {
      st.pin(id);
      B.setTag(id, tag);
      slot[k] = id;
    } else if (id >= 0) {
      const from = B.top(id);
      if (B.state(id, from) === LOCKED) {
        slot[k] = -1; // a duplicate position: handled when the first one gets its HBM copy
        lockedTwice = true;
        continue;
      }
      st.setState(id, from, LOCKED);
      lockedCopy[k] = from; // the tier whose copy this position locked
      if (k < run) {
        st.c.promotions[from]++;
        st.readUp(from);
        B.setFlag(id, LOADED, true);
      }
      slot[k] = id;
    } else slot[k] = -1;
  }
  // 2) Copy pool hits (before anything below can push blocks into the pool and evict them).
  if (st.pool) {
    for (let k = 0; k < run; k++) {
      if (slot[k] >= 0) continue;
      const h = hashes[off + k];
      if (B.has(h)) continue; // duplicate position
      const p = st.pool.fetch(h) as { tokens: number };
      const id = st.newBlock(h, p.tokens, tag, false);
      made[nMade++] = h;
      B.setFlag(id, LOADED, true);
      st.c.fetched++;
      st.c.fetchedTokens += p.tokens;
      st.c.promotions[remote]++;
      st.readUp(remote);
      slot[k] = id;
    }
  }
  // 3) Release the tail.
  if (held.length > c) {
    // Positions of its share are released too: it leaves the share, and they are unpinned block by block.
    if (s && s.share && c < s.share.length) sq.leaveShare(s);
    sq.unpinAll(held, c);
    keepFirst(held, c);
  }
  // The sequence now runs past what was its last block, so that block is full: it may have been created
  // partial (the last block of a prompt, its hash covering the output too) and filled in place by decoding.
  let grownBlock = -1;
  if (c > 0 && count > 0 && B.tokens(held[c - 1]) < st.blockSize) {
    const id = held[c - 1];
    const grown = st.blockSize - B.tokens(id);
    st.invalidateLower(id); // the old lower copies hold the partial content
    hbm.usedTokens += grown; // pinned: its only copy is in HBM
    st.c.createdTokens += grown; // computed in place
    B.setTokens(id, st.blockSize);
    grownBlock = id;
  }
  // 4) Give every new position a pinned HBM copy.
  let newBlocks = 0;
  let computeTokens = 0;
  for (let k = K0; k < count; k++) {
    if (seg && k === segFrom) {
      if (pinRun(st, seg)) {
        k = segTo - 1;
        continue;
      }
      // Something this read-back evicts from HBM would be written into DRAM between the members: they go on
      // their own (their DRAM copies locked, as an acquire leaves them here), and this loop pins each.
      st.runs!.dissolveUnlinked(seg);
      for (let j = 0; j < seg.len; j++) {
        const id = seg.ids[j];
        B.setStateWord(id, 1, LOCKED);
        slot[segFrom + j] = id;
        lockedCopy[segFrom + j] = 1;
      }
      seg = undefined;
    }
    let id = slot[k];
    const tokens = c + k === n - 1 ? lastTok : st.blockSize;
    if (k >= run) computeTokens += id >= 0 ? B.tokens(id) : tokens;
    if (id >= 0 && B.hasCopy(id, 0)) continue; // pinned in step 1
    if (id < 0) {
      // A duplicate position gave it an HBM copy already? Only a block this acquire made, or one a position
      // before it locked, can be there now (looked up otherwise, it was absent at the plan): the index is
      // asked only then (a probe of a large table per new block, most of them for nothing).
      const h = hashes[off + k];
      let again = -1;
      if (lockedTwice || nMade > 8) again = B.get(h);
      else for (let j = 0; j < nMade; j++) if (made[j] === h) again = B.get(h);
      if (again >= 0 && B.hasCopy(again, 0)) {
        st.pin(again);
        slot[k] = again;
        continue;
      }
    }
    if (!st.makeRoom(0)) throw new Error('KvCache: internal error, HBM room was checked'); // unreachable
    if (id < 0) {
      id = st.newBlock(hashes[off + k], tokens, tag, true);
      made[nMade++] = hashes[off + k];
      st.c.created++;
      st.c.createdTokens += tokens;
      newBlocks++;
    }
    B.setTag(id, tag);
    B.addPins(id, 1);
    st.addCopy(id, 0);
    const lc = lockedCopy[k];
    if (lc >= 0) st.setState(id, lc, POLICY); // read this time: most recently used in its tier too
    slot[k] = id;
  }
  if (grownBlock >= 0) st.writeThrough(grownBlock, 0);
  // A released sequence acquired again gets back the array it held (its hint, read above and no longer needed):
  // one array per session for the whole run instead of one per turn that lived long enough to be promoted.
  const blocks: number[] = s ? held : (hint ?? []);
  for (let k = 0; k < count; k++) {
    if (seg && k === segFrom) k = segTo; // the members are where they were (blocks is the hint)
    if (k < count) blocks[c + k] = slot[k]; // in place: no reallocation of a reused array
  }
  keepFirst(blocks, n); // never shorter: every position below n was written, or is a run member kept in place
  const seqRec: Seq = s ?? { blocks, committed: 0, tag, share: null };
  if (share) {
    share.holders++;
    seqRec.share = share;
  } else if (fromShareStart && run >= K) startShare(sq, seqRec, hashes, off, K);
  seqRec.tag = tag;
  if (seqRec.committed > c) seqRec.committed = c;
  // The cached prefix of the new positions is computed already: a commit has nothing to mark there, so it need not
  // walk it (a context read back after a tool call is about all hits; its commit then walks only the new blocks).
  if (seqRec.committed === c) seqRec.committed = c + run;
  if (!s) sq.seqs.set(seq, seqRec); // a held sequence's record is there already
  if (hint) sq.hintUsed(seq);

  for (let i = 0; i < nT; i++) {
    st.c.hitBlocks[i] += hitB[i];
    st.c.hitTokens[i] += hitT[i];
  }
  st.c.computeBlocks += count - run;
  st.c.computeTokens += computeTokens;
  return Outcome.granted(sq.hitResult(hitB, hitT), count - run, computeTokens, newBlocks, n);
}

/**
 * After `rec`'s acquire found its first k positions cached (computed, now pinned by it): start a share of them,
 * unless one with the same last hash lives, or a block is partial (its tokens would change as it fills) or held
 * at two of those positions.
 */
function startShare(sq: Sequences, rec: Seq, hashes: ArrayLike<BlockHash>, off: number, k: number): void {
  const st = sq.st;
  const B = st.b;
  const blocks = rec.blocks;
  const ep = sq.freshEpoch();
  for (let i = 0; i < k; i++) {
    const id = blocks[i];
    if (B.tokens(id) !== st.blockSize || B.xmark(id) === ep) return;
    B.setXmark(id, ep);
  }
  rec.share = sq.shares.create(hashes, off, blocks, k, k * st.blockSize) ?? null;
}
