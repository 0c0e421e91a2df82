/**
 * The eviction order of one local tier's evictable copies, over block ids, linked through the tier's two link
 * words in the block records (blockStore.ts): the same orders as policy.ts's LRU and FIFO lists (head = next
 * victim, tail = newest) without an object per copy. (policy.ts keeps its lists for the pool, whose blocks are
 * objects.) A tier given any other `EvictionPolicy` (a factory of the caller's) gets an adapter that hands that
 * policy one node object per block with a copy in the tier, so custom policies keep working, more slowly.
 */
import { linkWord, W, type BlockStore } from './blockStore';
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

/** An intrusive list through the records' link words of one tier. */
class CopyList implements CopyOrder {
  private head = -1;
  private tail = -1;
  private n = 0;
  /** Offsets of the tier's `prev` and `next` words in a record. */
  private readonly P: number;
  private readonly N: number;
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
    const r = this.store.r;
    r[b * W + this.P] = this.tail;
    r[b * W + this.N] = -1;
    if (this.tail >= 0) r[this.tail * W + this.N] = b;
    else this.head = b;
    this.tail = b;
    this.n++;
  }
  remove(b: number): void {
    const r = this.store.r;
    const o = b * W;
    const p = r[o + this.P];
    const nx = r[o + this.N];
    if (p >= 0) r[p * W + this.N] = nx;
    else this.head = nx;
    if (nx >= 0) r[nx * W + this.P] = p;
    else this.tail = p;
    r[o + this.P] = r[o + this.N] = -1;
    this.n--;
  }
  touch(b: number): void {
    if (!this.moveOnTouch || this.tail === b) return;
    this.remove(b);
    this.add(b);
  }
  victim(): number {
    return this.head;
  }
  order(): number[] {
    const out: number[] = [];
    const r = this.store.r;
    for (let b = this.head; b >= 0; b = r[b * W + this.N]) out.push(b);
    return out;
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
