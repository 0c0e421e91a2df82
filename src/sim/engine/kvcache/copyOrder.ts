/**
 * The eviction order of one local tier's evictable copies, over block ids, linked through the tier's two link
 * words in the block records (blockStore.ts): the same orders as policy.ts's LRU and FIFO lists (head = next
 * victim, tail = newest) without an object per copy. (policy.ts keeps its lists for the pool, whose blocks are
 * objects.) A tier given any other `EvictionPolicy` (a factory of the caller's) gets an adapter that hands that
 * policy one node object per block with a copy in the tier, so custom policies keep working, more slowly.
 */
import { INRUN, linkWord, NODE, W, type BlockStore } from './blockStore';
import {
  fifoPolicy,
  lruPolicy,
  resolvePolicy,
  type EvictionPolicy,
  type PolicyFactory,
  type PolicyName,
  type PolicyNode,
} from './policy';

export interface CopyOrder {
  readonly name: string;
  /** Copies it orders. */
  readonly size: number;
  /** Block b's copy became evictable in this tier. */
  add(b: number): void;
  /** Block b's (evictable) copy was used again. */
  touch(b: number): void;
  /** Block b's copy left the tier or was pinned or locked. */
  remove(b: number): void;
  /** The block whose copy it would evict next (not removed), −1 when there is none. */
  victim(): number;
  /** Block ids from the next victim to the newest (for the invariants). */
  order(): number[];
}

/** What a list whose entries may be runs' nodes asks of the run registry (runs.ts). */
export interface RunsInOrder {
  /** A member is to be moved or taken out on its own: dissolve its run first. */
  touched(member: number): void;
  /** A node reached the head (its run is next to be evicted): dissolve it into its members. */
  dissolveNode(node: number): void;
  /** A node's members from the one that leaves first to the newest. */
  membersInOrder(node: number): number[];
}

/**
 * An intrusive list through the records' link words of one tier. An entry may be a run's node (runs.ts) standing
 * for its members in order; a member is never linked on its own, and any operation on one dissolves its run first,
 * so the order is always the one the members' own links would give.
 */
export class CopyList implements CopyOrder {
  private head = -1;
  private tail = -1;
  private n = 0;
  /** Offsets of the tier's `prev` and `next` words in a record. */
  private readonly P: number;
  private readonly N: number;
  /** The run registry, when runs' nodes may be linked here. */
  runs: RunsInOrder | null = null;
  constructor(
    readonly name: string,
    private readonly moveOnTouch: boolean,
    private readonly store: BlockStore,
    tier: number,
  ) {
    this.P = linkWord(tier);
    this.N = this.P + 1;
  }
  get size(): number {
    return this.n;
  }
  add(b: number): void {
    this.linkTail(b);
    this.n++;
  }
  remove(b: number): void {
    if (this.runs && this.store.r[b * W] & INRUN) this.runs.touched(b);
    this.unlink(b);
    this.n--;
  }
  touch(b: number): void {
    if (!this.moveOnTouch) return;
    if (this.runs && this.store.r[b * W] & INRUN) this.runs.touched(b);
    if (this.tail === b) return;
    this.unlink(b);
    this.linkTail(b);
  }
  victim(): number {
    if (this.runs)
      while (this.head >= 0 && this.store.r[this.head * W] & NODE) this.runs.dissolveNode(this.head);
    return this.head;
  }
  order(): number[] {
    const out: number[] = [];
    const r = this.store.r;
    for (let b = this.head; b >= 0; b = r[b * W + this.N]) {
      if (this.runs && r[b * W] & NODE) out.push(...this.runs.membersInOrder(b));
      else out.push(b);
    }
    return out;
  }

  // Raw list operations for the run registry (no count kept: it counts its members itself, by count()).
  /** Link b (an unlinked entry) as the newest. */
  linkTail(b: number): void {
    const r = this.store.r;
    r[b * W + this.P] = this.tail;
    r[b * W + this.N] = -1;
    if (this.tail >= 0) r[this.tail * W + this.N] = b;
    else this.head = b;
    this.tail = b;
  }
  /** Link b (an unlinked entry) just before `ref`, a linked one. */
  linkBefore(b: number, ref: number): void {
    const r = this.store.r;
    const p = r[ref * W + this.P];
    r[b * W + this.P] = p;
    r[b * W + this.N] = ref;
    r[ref * W + this.P] = b;
    if (p >= 0) r[p * W + this.N] = b;
    else this.head = b;
  }
  /** Take b (a linked entry) out of the list. */
  unlink(b: number): void {
    const r = this.store.r;
    const o = b * W;
    const p = r[o + this.P];
    const nx = r[o + this.N];
    if (p >= 0) r[p * W + this.N] = nx;
    else this.head = nx;
    if (nx >= 0) r[nx * W + this.P] = p;
    else this.tail = p;
    r[o + this.P] = r[o + this.N] = -1;
  }
  /** The entry after b toward the newest (−1 at the end); after(−1) is the head. Entries may be runs' nodes. */
  after(b: number): number {
    return b < 0 ? this.head : this.store.r[b * W + this.N];
  }
  /** Members counted in (or out) by the run registry. */
  count(d: number): void {
    this.n += d;
  }
  /** Whether b is linked here (a list of one entry has it as head and tail). */
  linked(b: number): boolean {
    return this.head === b || this.store.r[b * W + this.P] >= 0;
  }
}

interface AdaptedNode extends PolicyNode {
  b: number;
}

/** A caller's EvictionPolicy over node objects, one per block with a copy in the tier. */
class PolicyAdapter implements CopyOrder {
  private readonly nodes = new Map<number, AdaptedNode>();
  constructor(private readonly p: EvictionPolicy) {}
  get name(): string {
    return this.p.name;
  }
  get size(): number {
    return this.p.size;
  }
  private node(b: number): AdaptedNode {
    let n = this.nodes.get(b);
    if (!n) {
      n = { b, prev: null, next: null };
      this.nodes.set(b, n);
    }
    return n;
  }
  add(b: number): void {
    this.p.add(this.node(b));
  }
  touch(b: number): void {
    this.p.touch(this.node(b));
  }
  remove(b: number): void {
    this.p.remove(this.node(b));
    this.nodes.delete(b);
  }
  victim(): number {
    const v = this.p.peekVictim() as AdaptedNode | undefined;
    return v ? v.b : -1;
  }
  order(): number[] {
    return [...this.nodes.keys()];
  }
}

/** The eviction order of local tier `tier` of `store`, for a tier config's policy. */
export function copyOrder(
  policy: PolicyName | PolicyFactory | undefined,
  store: BlockStore,
  tier: number,
): CopyOrder {
  if (policy === undefined || policy === 'lru' || policy === lruPolicy)
    return new CopyList('lru', true, store, tier);
  if (policy === 'fifo' || policy === fifoPolicy) return new CopyList('fifo', false, store, tier);
  return new PolicyAdapter(resolvePolicy(policy)());
}
