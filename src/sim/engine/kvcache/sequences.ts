/**
 * Sequences (running requests) on top of the tier store: acquiring a list of block hashes pinned in HBM (reusing
 * the longest cached prefix from whichever tier holds it), and unpinning them again. All or nothing: when HBM
 * cannot hold the pinned blocks, an acquire changes nothing and says why.
 */
import type { AcquireOptions, AcquireResult, LookupResult, TierHit } from './cacheTypes';
import { copyAt, type Block, type Copy, type TierStore } from './tierStore';
import type { BlockHash, SeqId, TierName } from './types';

export interface Seq {
  blocks: Block[];
  committed: number;
  tag: number;
}

export class Sequences {
  readonly seqs = new Map<SeqId, Seq>();
  /**
   * The blocks a released sequence held, by position, kept for its next acquire (at most `hintCapacity`
   * sequences, the oldest forgotten first). A session's next prompt extends its last one, so position k of the next acquire is
   * usually the block it held at k: when that record is not `gone` and has the hash, it is the one the index
   * would return (the index holds one record per hash, and a record that left never comes back), so the walk
   * reads the record instead of probing the index for it. Only a shortcut: a miss falls back to the index.
   */
  private readonly lastHeld = new Map<SeqId, Block[]>();
  private epoch = 0;
  /** A sum of what the warm-up passes read (kept, so that the reads are not optimised away). */
  warmed = 0;
  /** Scratch arrays of one acquire, reused (an acquire is O(new positions); allocating them per call showed in GC). */
  private found: (Block | undefined)[] = [];
  private slot: (Block | null)[] = [];
  private lockedCopy: (Copy | null)[] = [];

  constructor(
    private readonly st: TierStore,
    private readonly tierNames: TierName[],
    private readonly promoteOnHit: boolean,
    /** How many released sequences' blocks to keep as hints (KvCacheConfig.lookupHints). */
    private readonly hintCapacity: number,
  ) {}

  /** The hints kept (for the invariants). */
  hints(): IterableIterator<readonly Block[]> {
    return this.lastHeld.values();
  }

  /**
   * Read what a release to a lower tier is about to change of each block (the block, its copies, the neighbours of
   * its lower copy in that tier's LRU list) in one loop that does nothing else, so the processor fetches many at
   * once instead of waiting for each in the loops that unpin and offload them (same results, fewer stalls).
   */
  warmForRelease(blocks: readonly Block[]): void {
    let warm = 0;
    for (let i = 0; i < blocks.length; i++) {
      const b = blocks[i];
      warm += b.pins;
      const c0 = b.c0;
      if (c0) warm += c0.tier;
      const c1 = b.c1;
      if (c1) {
        warm += c1.tier;
        if (c1.prev) warm += (c1.prev as Copy).tier;
        if (c1.next) warm += (c1.next as Copy).tier;
      }
    }
    this.warmed = warm;
  }

  /** `seq` was released holding `blocks`: remember them as the hint for its next acquire. */
  released(seq: SeqId, blocks: Block[]): void {
    const hints = this.lastHeld;
    hints.delete(seq);
    if (this.hintCapacity === 0) return;
    hints.set(seq, blocks);
    if (hints.size > this.hintCapacity) hints.delete(hints.keys().next().value as SeqId);
  }

  /** Per-tier hits as a LookupResult, with load times up the chain. */
  hitResult(blocks: number[], tokens: number[]): LookupResult {
    let B = 0;
    let T = 0;
    let time = 0;
    const tiers: TierHit[] = this.tierNames.map((tier, i) => {
      const bytes = blocks[i] * this.st.bytesPerBlock;
      const timeS = i === 0 ? 0 : this.st.transferS(blocks[i], this.st.pathOf(i));
      B += blocks[i];
      T += tokens[i];
      time += timeS;
      return { tier, blocks: blocks[i], tokens: tokens[i], bytes, timeS };
    });
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
  unpinAll(blocks: Block[], from: number, park = false): { unpinned: number; freed: number } {
    const st = this.st;
    const hbm = st.local[0];
    let unpinned = 0;
    let freed = 0;
    for (let i = blocks.length - 1; i >= from; i--) {
      const b = blocks[i];
      b.pins--;
      unpinned++;
      if (b.pins > 0) continue;
      const cp = b.c0 as Copy;
      if (b.pending) {
        st.removeCopy(b, 0);
        if (b.nCopies === 0) {
          st.forget(b);
          st.c.freed++;
          st.c.freedTokens += b.tokens;
          freed++;
        }
        continue;
      }
      if (b.loaded && !this.promoteOnHit && st.local.length + (st.pool ? 1 : 0) > 1) {
        // HBM keeps only blocks computed here: free the HBM copy; the lower one, if still there, serves next time.
        b.loaded = false;
        st.removeCopy(b, 0);
        if (b.nCopies === 0) st.placeBelow(b, 1, 'returned');
        continue;
      }
      if (park) {
        st.setState(cp, 'locked');
        continue;
      }
      st.setState(cp, 'policy');
      hbm.policy.touch(cp);
    }
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
    st.c.acquires++;
    const held = s ? s.blocks : [];
    const n = c + count; // positions after the operation
    const lastTok = this.lastTokens(n, opts.tokens);
    const tag = opts.tag ?? (s ? s.tag : -1);
    const hbm = st.local[0];
    const ep = ++this.epoch;
    const remote = st.remoteIndex;

    // Plan (no mutation). Tail = held[c..], to be released.
    for (let i = c; i < held.length; i++) {
      const b = held[i];
      if (b.mark !== ep) {
        b.mark = ep;
        b.scratch = 0;
      }
      b.scratch++;
    }
    let X = 0; // new positions whose block is not pinned after the tail is released: each takes a pinned slot
    let run = 0; // cached prefix among new positions
    let inRun = true;
    const nT = this.tierNames.length;
    const hitB = new Array<number>(nT).fill(0);
    const hitT = new Array<number>(nT).fill(0);
    const found = this.found;
    const hint = s ? undefined : this.lastHeld.get(seq); // a held sequence's new positions have none
    const hinted = hint ? Math.min(count, hint.length - c) : 0;
    // Read every hinted record once before the walk: a loop that does nothing else lets the processor fetch many
    // records at once, where the walk, with its branches on each record's fields, waits for them nearly one by one.
    let warm = 0;
    for (let k = 0; k < hinted; k++) {
      const b = (hint as Block[])[c + k];
      warm += b.pins + b.hash; // the hash is a boxed number: a second record to fetch
    }
    this.warmed = warm; // kept, so the reads are not optimised away
    for (let k = 0; k < count; k++) {
      const h = hashes[off + k];
      let b = k < hinted ? (hint as Block[])[c + k] : undefined;
      if (b === undefined || b.gone || b.hash !== h) b = st.map.get(h);
      found[k] = b; // looked up once: nothing changes before the mutation below reads it
      if (inRun) {
        if (b && !b.pending) {
          const from = st.top(b);
          hitB[from]++;
          hitT[from] += b.tokens;
          run++;
        } else if (!b && st.pool?.has(h)) {
          const p = st.pool.peek(h) as { tokens: number };
          hitB[remote]++;
          hitT[remote] += p.tokens;
          run++;
        } else inRun = false;
      }
      if (!b) X++;
      else if (b.xmark !== ep) {
        b.xmark = ep;
        const eff = b.pins - (b.mark === ep ? b.scratch : 0);
        if (eff === 0) X++;
      }
    }
    let Y = 0; // tail blocks that end up unpinned
    for (let i = c; i < held.length; i++) {
      const b = held[i];
      if (b.scratch > 0) {
        if (b.pins === b.scratch) Y++;
        b.scratch = 0;
      }
    }
    const pinnedOthers = hbm.pinned - Y;
    if (pinnedOthers + X > hbm.capacity) {
      found.fill(undefined, 0, count);
      st.c.acquireFailures++;
      const available = hbm.capacity - pinnedOthers;
      const reason = n > hbm.capacity ? 'exceeds-hbm' : 'hbm-full';
      return {
        ok: false,
        reason,
        neededBlocks: X,
        availableBlocks: available,
        message:
          reason === 'exceeds-hbm'
            ? `the sequence needs ${n} blocks; HBM holds ${hbm.capacity}`
            : `HBM is full of pinned blocks: ${X} more needed, ${available} of ${hbm.capacity} not pinned by other sequences`,
      };
    }

    // Mutate. 1) Pin new positions with an HBM copy; lock the copy a lower-only block is read from.
    const slot = this.slot;
    const lockedCopy = this.lockedCopy;
    for (let k = 0; k < count; k++) {
      const b = found[k];
      found[k] = undefined;
      lockedCopy[k] = null;
      if (b && b.bits & 1) {
        st.pin(b);
        b.tag = tag;
        slot[k] = b;
      } else if (b) {
        const from = st.top(b);
        const cp = copyAt(b, from) as Copy;
        if (cp.state === 'locked') {
          slot[k] = null; // a duplicate position: handled when the first one gets its HBM copy
          continue;
        }
        st.setState(cp, 'locked');
        lockedCopy[k] = cp;
        if (k < run) {
          st.c.promotions[from]++;
          st.readUp(from);
          b.loaded = true;
        }
        slot[k] = b;
      } else slot[k] = null;
    }
    // 2) Copy pool hits (before anything below can push blocks into the pool and evict them).
    if (st.pool) {
      for (let k = 0; k < run; k++) {
        if (slot[k]) continue;
        const h = hashes[off + k];
        if (st.map.has(h)) continue; // duplicate position
        const p = st.pool.fetch(h) as { tokens: number };
        const b = st.newBlock(h, p.tokens, tag, false);
        b.loaded = true;
        st.c.fetched++;
        st.c.fetchedTokens += p.tokens;
        st.c.promotions[remote]++;
        st.readUp(remote);
        slot[k] = b;
      }
    }
    // 3) Release the tail.
    if (held.length > c) {
      this.unpinAll(held, c);
      held.length = c;
    }
    // The sequence now runs past what was its last block, so that block is full: it may have been created
    // partial (the last block of a prompt, its hash covering the output too) and filled in place by decoding.
    let grownBlock: Block | null = null;
    if (c > 0 && count > 0 && held[c - 1].tokens < st.blockSize) {
      const b = held[c - 1];
      const grown = st.blockSize - b.tokens;
      st.invalidateLower(b); // the old lower copies hold the partial content
      hbm.usedTokens += grown; // pinned: its only copy is in HBM
      st.c.createdTokens += grown; // computed in place
      b.tokens = st.blockSize;
      grownBlock = b;
    }
    // 4) Give every new position a pinned HBM copy.
    let newBlocks = 0;
    let computeTokens = 0;
    for (let k = 0; k < count; k++) {
      let b = slot[k];
      const tokens = c + k === n - 1 ? lastTok : st.blockSize;
      if (k >= run) computeTokens += b ? b.tokens : tokens;
      if (b && b.bits & 1) continue; // pinned in step 1
      if (!b) {
        const again = st.map.get(hashes[off + k]); // a duplicate position gave it an HBM copy already
        if (again && again.c0) {
          st.pin(again);
          slot[k] = again;
          continue;
        }
      }
      if (!st.makeRoom(0)) throw new Error('KvCache: internal error, HBM room was checked'); // unreachable
      if (!b) {
        b = st.newBlock(hashes[off + k], tokens, tag, true);
        st.c.created++;
        st.c.createdTokens += tokens;
        newBlocks++;
      }
      b.tag = tag;
      b.pins++;
      st.addCopy(b, 0);
      const lc = lockedCopy[k];
      if (lc) st.setState(lc, 'policy'); // read this time: most recently used in its tier too
      slot[k] = b;
    }
    if (grownBlock) st.writeThrough(grownBlock, 0);
    const seqRec: Seq = s ?? { blocks: held, committed: 0, tag };
    seqRec.tag = tag;
    for (let k = 0; k < count; k++) {
      seqRec.blocks.push(slot[k] as Block);
      slot[k] = null;
      lockedCopy[k] = null;
    }
    if (seqRec.committed > c) seqRec.committed = c;
    this.seqs.set(seq, seqRec);
    if (hint) this.lastHeld.delete(seq);

    for (let i = 0; i < nT; i++) {
      st.c.hitBlocks[i] += hitB[i];
      st.c.hitTokens[i] += hitT[i];
    }
    st.c.computeBlocks += count - run;
    st.c.computeTokens += computeTokens;
    return {
      ok: true,
      hit: this.hitResult(hitB, hitT),
      computeBlocks: count - run,
      computeTokens,
      newBlocks,
      heldBlocks: n,
    };
  }
}
