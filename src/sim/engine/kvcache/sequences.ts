/**
 * Sequences (running requests) on top of the tier store: acquiring a list of block hashes pinned in HBM (reusing
 * the longest cached prefix from whichever tier holds it), and unpinning them again. All or nothing: when HBM
 * cannot hold the pinned blocks, an acquire changes nothing and says why.
 */
import type { AcquireOptions, AcquireResult, LookupResult, TierHit } from './cacheTypes';
import { Outcome } from './acquireOutcome';
import { checkTag, INRUN, LOADED, LOCKED, PENDING, POLICY, topOf } from './blockStore';
import { keepFirst } from '../keepFirst';
import { pinRun, readableRun } from './parking';
import { PrefixShares, type PrefixShare } from './shares';
import type { TierStore } from './tierStore';
import type { BlockHash, SeqId, TierName } from './types';

export interface Seq {
  /** Block ids by position. */
  blocks: number[];
  committed: number;
  tag: number;
  /** The prefix share (shares.ts) its first positions hold, or null. */
  share: PrefixShare | null;
}

/** An empty list of blocks, read only (what a sequence the cache does not know holds). */
export const NO_BLOCKS: readonly number[] = Object.freeze([]);

export class Sequences {
  readonly seqs = new Map<SeqId, Seq>();
  /**
   * The blocks a released sequence held, by position, kept for its next acquire (at most `hintCapacity`
   * sequences, the oldest forgotten first). A session's next prompt extends its last one, so position k of the
   * next acquire is usually the block it held at k: when that id is still live under the same hash, it is the one
   * the index would return (the index holds one block per hash), so the walk reads it instead of probing the
   * index. Only a shortcut: a miss falls back to the index.
   */
  private readonly lastHeld = new Map<SeqId, number[]>();
  /** Heads many sequences hold at once (shares.ts). */
  readonly shares = new PrefixShares();
  private epoch = 0;
  /** What the warm-up reads summed to (kept, so that they are not optimised away: BlockStore.warm). */
  warmed = 0;
  /** Scratch arrays of one acquire, reused (an acquire is O(new positions); allocating them per call showed in GC). */
  private found: number[] = [];
  private slot: number[] = [];
  private lockedCopy: number[] = [];
  private made: number[] = [];
  /** Blocks and tokens hit per tier in one acquire (read into its result before the next). */
  private readonly hitB: number[];
  private readonly hitT: number[];

  constructor(
    private readonly st: TierStore,
    private readonly tierNames: TierName[],
    private readonly promoteOnHit: boolean,
    /** How many released sequences' blocks to keep as hints (KvCacheConfig.lookupHints). */
    private readonly hintCapacity: number,
  ) {
    this.hitB = tierNames.map(() => 0);
    this.hitT = tierNames.map(() => 0);
  }

  /** A mark value no record carries yet (for a caller's one pass over distinct blocks: B.xmark). */
  freshEpoch(): number {
    return ++this.epoch;
  }

  /** The hints kept (for the invariants). */
  hints(): IterableIterator<readonly number[]> {
    return this.lastHeld.values();
  }

  /** `seq` was released holding `blocks`: remember them as the hint for its next acquire. */
  released(seq: SeqId, blocks: number[]): void {
    const hints = this.lastHeld;
    hints.delete(seq);
    if (this.hintCapacity === 0) return;
    hints.set(seq, blocks);
    if (hints.size > this.hintCapacity) hints.delete(hints.keys().next().value as SeqId);
  }

  /**
   * `s` lets go of its share before its blocks are unpinned: the positions below the returned one stay pinned by
   * the share's other holders (0: no share, or `s` was its last holder and its head is unpinned block by block).
   */
  leaveShare(s: Seq): number {
    const share = s.share;
    if (!share) return 0;
    s.share = null;
    return this.shares.leave(share) ? share.length : 0;
  }

  /**
   * After `rec`'s acquire found its first k positions cached (computed, now pinned by it): start a share of them,
   * unless one with the same last hash lives, or a block is partial (its tokens would change as it fills) or held
   * at two of those positions.
   */
  private startShare(rec: Seq, hashes: ArrayLike<BlockHash>, off: number, k: number): void {
    const B = this.st.b;
    const blocks = rec.blocks;
    const ep = ++this.epoch;
    for (let i = 0; i < k; i++) {
      const id = blocks[i];
      if (B.tokens(id) !== this.st.blockSize || B.xmark(id) === ep) return;
      B.setXmark(id, ep);
    }
    rec.share = this.shares.create(hashes, off, blocks, k, k * this.st.blockSize) ?? null;
  }

  /** Per-tier hits as a LookupResult, with load times up the chain. */
  hitResult(blocks: number[], tokens: number[]): LookupResult {
    let B = 0;
    let T = 0;
    let time = 0;
    const names = this.tierNames;
    const tiers: TierHit[] = new Array(names.length);
    for (let i = 0; i < names.length; i++) {
      const bytes = blocks[i] * this.st.bytesPerBlock;
      // No blocks move in no time (transferTimeS of 0 bytes is 0): most tiers of most acquires hit nothing.
      const timeS = i === 0 || blocks[i] === 0 ? 0 : this.st.transferS(blocks[i], this.st.pathOf(i));
      B += blocks[i];
      T += tokens[i];
      time += timeS;
      tiers[i] = { tier: names[i], blocks: blocks[i], tokens: tokens[i], bytes, timeS };
    }
    return { blocks: B, tokens: T, tiers, loadTimeS: time };
  }

  lastTokens(n: number, tokens: number | undefined): number {
    const bs = this.st.blockSize;
    if (tokens === undefined || n === 0) return bs;
    const last = tokens - bs * (n - 1);
    if (!Number.isInteger(tokens) || last < 1 || last > bs)
      throw new RangeError(
        `${tokens} tokens do not fill ${n} blocks of ${bs} (the last block must hold 1..${bs})`,
      );
    return last;
  }

  /**
   * Unpin blocks[from..], last first (so the prefix ends most recently used). `park`: the caller offloads these
   * blocks next (release to a lower tier), so a computed block's HBM copy nobody pins is left `locked` rather than
   * handed to HBM's policy: the offload frees every such copy before anything reads HBM's order, so adding it to
   * the LRU list only to unlink it again was two list moves per block for nothing (same results).
   */
  unpinAll(
    blocks: number[],
    from: number,
    park = false,
    /** Positions [skipFrom, skipTo) are a run's (runs.ts): the caller unpins them as one. */
    skipFrom = 0,
    skipTo = 0,
    /** Positions [from, pinnedBelow) are a share's that others still hold (leaveShare): each only loses a pin. */
    pinnedBelow = 0,
  ): { unpinned: number; freed: number } {
    const st = this.st;
    const B = st.b;
    const hbm = st.local[0];
    let unpinned = 0;
    let freed = 0;
    const low = Math.max(from, pinnedBelow);
    if (skipTo > skipFrom)
      this.warmed = B.warm(blocks, low, skipFrom) | B.warm(blocks, skipTo, blocks.length);
    else this.warmed = B.warm(blocks, low, blocks.length);
    for (let i = blocks.length - 1; i >= low; i--) {
      if (i < skipTo && i >= skipFrom) {
        i = skipFrom;
        continue;
      }
      const id = blocks[i];
      const pins = B.addPins(id, -1);
      unpinned++;
      if (pins > 0) continue;
      const flags = B.flags(id);
      if (flags & PENDING) {
        st.removeCopy(id, 0);
        if (B.states(id) === 0) {
          st.c.freed++;
          st.c.freedTokens += B.tokens(id);
          st.forget(id);
          freed++;
        }
        continue;
      }
      if (flags & LOADED && !this.promoteOnHit && st.local.length + (st.pool ? 1 : 0) > 1) {
        // HBM keeps only blocks computed here: free the HBM copy; the lower one, if still there, serves next time.
        B.setFlag(id, LOADED, false);
        st.removeCopy(id, 0);
        if (B.states(id) === 0) st.placeBelow(id, 1, 'returned');
        continue;
      }
      if (park) {
        st.setState(id, 0, LOCKED);
        continue;
      }
      st.setState(id, 0, POLICY);
      hbm.order.touch(id);
    }
    for (let i = low - 1; i >= from; i--) B.addPins(blocks[i], -1); // still pinned: nothing else changes
    unpinned += low - from;
    return { unpinned, freed };
  }

  /**
   * Make positions c.. of `seq` hold hashes[off .. off + count), pinned in HBM; positions it held past c are
   * released. The longest cached prefix of the new positions is served from the fastest tier holding each block
   * (a lower copy is read up and kept: tiers are inclusive; a pool copy is fetched), the rest get pending slots.
   */
  acquireFrom(
    seq: SeqId,
    s: Seq | undefined,
    c: number,
    hashes: ArrayLike<BlockHash>,
    off: number,
    count: number,
    opts: AcquireOptions,
  ): AcquireResult {
    const st = this.st;
    const B = st.b;
    st.c.acquires++;
    const held = s ? s.blocks : (NO_BLOCKS as number[]); // empty, so never written
    const n = c + count; // positions after the operation
    const lastTok = this.lastTokens(n, opts.tokens);
    const tag = opts.tag === undefined ? (s ? s.tag : -1) : checkTag(opts.tag);
    const hbm = st.local[0];
    const epoch = ++this.epoch;
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
    const nT = this.tierNames.length;
    const hitB = this.hitB;
    const hitT = this.hitT;
    const found = this.found;
    const hint = s ? undefined : this.lastHeld.get(seq); // a held sequence's new positions have none
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
    const share = fromShareStart && (!seg || seg.first >= K) ? this.shares.find(hashes, off, K) : undefined;
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
      if (hint) this.warmed = B.warm(hint, c + K0, seg ? c + segFrom : c + hinted);
      for (let k = K0; k < count; k++) {
        if (seg && k === segFrom) {
          if (inRun && this.st.runs!.of(seq) === seg) {
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
          if (this.st.runs!.of(seq) === seg) this.st.runs!.dissolve(seg);
          seg = undefined;
        }
        const h = hashes[off + k];
        let id = k < hinted ? (hint as number[])[c + k] : -1;
        if (id < 0 || !B.live(id) || !B.hashIs(id, h)) id = B.get(h);
        else if (B.flags(id) & INRUN) this.st.runs?.found(id); // a parked run's member gets its record back
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
      if (!seg || this.st.runs!.of(seq) === seg) break;
      // A member came back at another position of the prompt (a list that is not chained hashes) and dissolved
      // the run: plan again, block by block (a released sequence holds no tail, so nothing else is marked).
      seg = undefined;
      ep = ++this.epoch;
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
    const slot = this.slot;
    const made = this.made; // hashes of the blocks this acquire makes, [0, nMade)
    let nMade = 0;
    let lockedTwice = false; // a position's block was locked by a position before it (step 1)
    const lockedCopy = this.lockedCopy;
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
        this.st.runs!.order.unlink(seg.node);
        this.st.runs!.order.count(-seg.len);
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
      if (s && s.share && c < s.share.length) this.leaveShare(s);
      this.unpinAll(held, c);
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
        this.st.runs!.dissolveUnlinked(seg);
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
    } else if (fromShareStart && run >= K) this.startShare(seqRec, hashes, off, K);
    seqRec.tag = tag;
    if (seqRec.committed > c) seqRec.committed = c;
    // The cached prefix of the new positions is computed already: a commit has nothing to mark there, so it need not
    // walk it (a context read back after a tool call is about all hits; its commit then walks only the new blocks).
    if (seqRec.committed === c) seqRec.committed = c + run;
    if (!s) this.seqs.set(seq, seqRec); // a held sequence's record is there already
    if (hint) this.lastHeld.delete(seq);

    for (let i = 0; i < nT; i++) {
      st.c.hitBlocks[i] += hitB[i];
      st.c.hitTokens[i] += hitT[i];
    }
    st.c.computeBlocks += count - run;
    st.c.computeTokens += computeTokens;
    return Outcome.granted(this.hitResult(hitB, hitT), count - run, computeTokens, newBlocks, n);
  }
}
