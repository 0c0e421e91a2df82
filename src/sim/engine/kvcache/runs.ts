/**
 * Runs: a released sequence's context kept as one piece in DRAM's eviction order, so that a tool call's offload
 * and the next turn's read-back cost O(blocks the turn added), not O(context).
 *
 * What it stands for. An agent's turn reads its context back from DRAM, runs, and at its tool call is offloaded to
 * DRAM again: block by block, the same blocks move the same way every turn (kvcache's per-block offload and
 * acquire, exact, as vLLM's LRU and LMCache's chunk LRU keep them). Done block by block, the bench fleet's turns
 * spend a third of their time re-filing 50–100 blocks that do not change. A *run* is a sequence's stretch of
 * consecutive blocks whose DRAM copies sit side by side in DRAM's LRU order (the offload writes them there last
 * first; the read-back puts them back in order): one entry in that order, a *node*, stands for all of them.
 *
 * Two states:
 * - active (its sequence holds it): every member's record is the block's own; only its place in DRAM's order is
 *   the node's.
 * - parked (its sequence was released to DRAM): the members' records still read as their sequence held them
 *   (one pin, a pinned HBM copy), and the tiers' counters already say the truth (no HBM copy, no pin). Nothing
 *   reads such a record before the registry puts the truth in it: a lookup that finds a member, a pin, a change of
 *   owner, and any move of a member in DRAM's order (an eviction reaching the node) dissolve the run first
 *   (blockStore.ts MemberHooks, copyOrder.ts RunsInOrder), and the views and the invariants read the truth
 *   through truePins and trueStates.
 * Parking and reading back change the run's state, not its members' records: O(1) for all of them.
 *
 * Dissolving a run changes nothing observable: each member is linked on its own where the node was, in the run's
 * order, with the record it would have had. So every result equals the block-by-block cache's (a property test
 * runs both on the same operations and compares every block, counter and lookup; the fleet's 31 reference runs
 * are byte-identical).
 *
 * Kept for caches with HBM and DRAM only, DRAM ordered by LRU, no pool, promoteOnHit (KvCache decides), and taken
 * only while nobody subscribes to KV events (the fast paths would not send them). Nothing relies on the hashes
 * being chained: a block held at two positions of a sequence, or met again later in a prompt, makes the offload
 * or the read-back go block by block (tested with lists that repeat hashes).
 */
import { widened } from '../widened';
import { INRUN, LOCKED, NO_COPY, type BlockStore, type MemberHooks } from './blockStore';
import type { CopyList, RunsInOrder } from './copyOrder';
import type { SeqId } from './types';

export class Run {
  /** Members by position (ids[0] at position `first`). */
  ids: Int32Array<ArrayBuffer>;
  /** Their hashes, to check a prompt still holds them without reading their records. */
  hashes: Float64Array<ArrayBuffer>;
  len = 0;
  tokens = 0;
  /** Whether the node is in DRAM's order (not while an acquire reads the members up: their copies are locked). */
  linked = false;
  /** DRAM's order holds the members last position first (as an offload leaves them), else first position first. */
  reversed = false;
  parked = false;
  /** Its sequence is being released to DRAM: the members are unpinned, their HBM copies parked (cache.ts park). */
  parking = false;

  constructor(
    readonly seq: SeqId,
    /** Position of the first member in its sequence. */
    public first: number,
    readonly node: number,
    readonly tag: number,
  ) {
    this.ids = new Int32Array(64);
    this.hashes = new Float64Array(64);
  }

  get end(): number {
    return this.first + this.len;
  }

  push(id: number, hash: number, tokens: number): void {
    if (this.len === this.ids.length) {
      this.ids = widened(this.ids, this.len * 2);
      this.hashes = widened(this.hashes, this.len * 2);
    }
    this.ids[this.len] = id;
    this.hashes[this.len] = hash;
    this.len++;
    this.tokens += tokens;
  }

  /** Whether positions first.. of `hashes` (from `off`) hold the members' hashes. */
  matches(hashes: ArrayLike<number>, off: number): boolean {
    if (off + this.len > hashes.length) return false;
    const own = this.hashes;
    for (let j = 0; j < this.len; j++) if (hashes[off + j] !== own[j]) return false;
    return true;
  }
}

export class Runs implements MemberHooks, RunsInOrder {
  private readonly bySeq = new Map<SeqId, Run>();
  private readonly byNode = new Map<number, Run>();

  constructor(
    private readonly B: BlockStore,
    /** DRAM's eviction order, where the nodes are linked. */
    readonly order: CopyList,
  ) {
    B.hooks = this;
    order.runs = this;
  }

  /** The run a sequence has, if any. */
  of(seq: SeqId): Run | undefined {
    return this.bySeq.get(seq);
  }

  /** A new, empty, unlinked run of `seq` starting at position `first`. */
  create(seq: SeqId, first: number, tag: number): Run {
    const run = new Run(seq, first, this.B.allocNode(), tag);
    this.bySeq.set(seq, run);
    this.byNode.set(run.node, run);
    return run;
  }

  /** Make block `id` (its DRAM copy unlinked, or just made) the run's next member. */
  addMember(run: Run, id: number, tokens: number): void {
    const B = this.B;
    B.setRunNode(id, run.node);
    B.setFlag(id, INRUN, true);
    run.push(id, B.hash(id), tokens);
  }

  /** The run of member `id`. */
  runOf(id: number): Run | undefined {
    return this.byNode.get(this.B.runNode(id));
  }

  /** A lookup returned member `id`: a parked run's records get the truth. */
  found(id: number): void {
    const run = this.runOf(id);
    if (run?.parked) this.dissolve(run);
  }

  /** Member `id`'s record is to change from outside its run. */
  touched(id: number): void {
    const run = this.runOf(id);
    if (run) this.dissolve(run);
  }

  /** Whether block `id` is a member of a parked run (its record reads as held: truePins, trueStates). */
  isParked(id: number): boolean {
    return (this.B.flags(id) & INRUN) !== 0 && this.runOf(id)?.parked === true;
  }

  dissolveNode(node: number): void {
    const run = this.byNode.get(node);
    if (!run) throw new Error(`kvcache runs: node ${node} has no run`);
    this.dissolve(run);
  }

  membersInOrder(node: number): number[] {
    const run = this.byNode.get(node);
    if (!run) return [];
    const out: number[] = [];
    if (run.reversed) for (let j = run.len - 1; j >= 0; j--) out.push(run.ids[j]);
    else for (let j = 0; j < run.len; j++) out.push(run.ids[j]);
    return out;
  }

  /**
   * Give every member its own record and its own place in DRAM's order, where the node was (in the run's order),
   * and forget the run. Nothing observable changes.
   */
  dissolve(run: Run): void {
    if (!run.linked) throw new Error('kvcache runs: a run whose copies are being read up cannot dissolve');
    this.unmark(run);
    const ids = run.ids;
    const node = run.node;
    if (run.reversed) for (let j = run.len - 1; j >= 0; j--) this.order.linkBefore(ids[j], node);
    else for (let j = 0; j < run.len; j++) this.order.linkBefore(ids[j], node);
    this.order.unlink(node);
    this.forget(run);
  }

  /**
   * Forget a run whose node is unlinked (an acquire locked its members' DRAM copies): each member's record becomes
   * its own, its DRAM copy locked (the caller sets those states) and out of any order.
   */
  dissolveUnlinked(run: Run): void {
    if (run.linked) throw new Error('kvcache runs: dissolveUnlinked of a linked run');
    this.unmark(run);
    this.forget(run);
  }

  dissolveAll(): void {
    for (const run of [...this.bySeq.values()]) this.dissolve(run);
  }

  get size(): number {
    return this.bySeq.size;
  }

  /** Members' flags off; a parked run's records get the truth (no pin, no HBM copy). */
  private unmark(run: Run): void {
    const B = this.B;
    for (let j = 0; j < run.len; j++) {
      const id = run.ids[j];
      if (run.parked) {
        B.setPinsRaw(id, 0);
        B.setStateWord(id, 0, NO_COPY);
      } else if (run.parking) {
        B.setPinsRaw(id, 0);
        B.setStateWord(id, 0, LOCKED);
      }
      B.setFlag(id, INRUN, false);
    }
    run.parked = false;
    run.parking = false;
  }

  private forget(run: Run): void {
    this.bySeq.delete(run.seq);
    this.byNode.delete(run.node);
    this.B.releaseNode(run.node);
  }
}

/** A record's pins as the block has them (a parked run's member has none: its record reads as held). */
export function truePins(B: BlockStore, runs: Runs | null, id: number): number {
  return runs?.isParked(id) ? 0 : B.pins(id);
}
/** A record's copy states as the block has them (a parked run's member has no HBM copy). */
export function trueStates(B: BlockStore, runs: Runs | null, id: number): number {
  const s = B.states(id);
  return runs?.isParked(id) ? s & ~3 : s;
}
