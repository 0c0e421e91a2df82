/**
 * Sequences (running requests) on top of the tier store: their records (the blocks each pins in HBM, by position),
 * the hints a released one leaves for its next acquire, the prefix shares they hold, and unpinning their blocks
 * again. Acquiring blocks for them is acquire.ts.
 */
import { AcquireScratch } from './acquire';
import type { LookupResult, TierHit } from './cacheTypes';
import { LOADED, LOCKED, PENDING, POLICY } from './blockStore';
import { PrefixShares, type PrefixShare } from './shares';
import type { TierStore } from './tierStore';
import type { SeqId, TierName } from './types';

export interface Seq {
  /** Block ids by position. */
  blocks: number[];
  committed: number;
  tag: number;
  /** The prefix share (shares.ts) its first positions hold, or null. */
  share: PrefixShare | null;
}

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
  /** What an acquire writes as it goes, reused by the next. */
  readonly scratch: AcquireScratch;

  constructor(
    readonly st: TierStore,
    readonly tierNames: TierName[],
    private readonly promoteOnHit: boolean,
    /** How many released sequences' blocks to keep as hints (KvCacheConfig.lookupHints). */
    private readonly hintCapacity: number,
  ) {
    this.scratch = new AcquireScratch(tierNames);
  }

  /** A mark value no record carries yet (for a caller's one pass over distinct blocks: B.xmark). */
  freshEpoch(): number {
    return ++this.epoch;
  }

  /** The hints kept (for the invariants). */
  hints(): IterableIterator<readonly number[]> {
    return this.lastHeld.values();
  }

  /** The blocks `seq` held when it was released, kept for its next acquire (undefined once forgotten). */
  hintOf(seq: SeqId): number[] | undefined {
    return this.lastHeld.get(seq);
  }

  /** `seq`'s acquire took its hint (the array is its record's now). */
  hintUsed(seq: SeqId): void {
    this.lastHeld.delete(seq);
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
}
