/**
 * The eviction order of one local tier's evictable copies, over copy ids (blockStore.ts) whose links live in the
 * block store's arrays: the same orders as policy.ts's LRU and FIFO lists (head = next victim, tail = newest)
 * without an object per copy. A tier given any other `EvictionPolicy` (a factory of the caller's) gets an adapter
 * that hands that policy one node object per copy id, so custom policies keep working, more slowly.
 */
import type { CopyLinks } from './blockStore';
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
  /** The copy became evictable in this tier. */
  add(c: number): void;
  /** The (evictable) copy was used again. */
  touch(c: number): void;
  /** The copy left the tier or was pinned or locked. */
  remove(c: number): void;
  /** The copy it would evict next (not removed), −1 when there is none. */
  victim(): number;
  /** Copy ids from the next victim to the newest (for the invariants). */
  order(): number[];
}

/** An intrusive list through the store's link arrays. */
class CopyList implements CopyOrder {
  private head = -1;
  private tail = -1;
  private n = 0;
  constructor(
    readonly name: string,
    private readonly moveOnTouch: boolean,
    private readonly links: CopyLinks,
  ) {}
  get size(): number {
    return this.n;
  }
  add(c: number): void {
    const { prev, next } = this.links;
    prev[c] = this.tail;
    next[c] = -1;
    if (this.tail >= 0) next[this.tail] = c;
    else this.head = c;
    this.tail = c;
    this.n++;
  }
  remove(c: number): void {
    const { prev, next } = this.links;
    const p = prev[c];
    const nx = next[c];
    if (p >= 0) next[p] = nx;
    else this.head = nx;
    if (nx >= 0) prev[nx] = p;
    else this.tail = p;
    prev[c] = next[c] = -1;
    this.n--;
  }
  touch(c: number): void {
    if (!this.moveOnTouch || this.tail === c) return;
    this.remove(c);
    this.add(c);
  }
  victim(): number {
    return this.head;
  }
  order(): number[] {
    const out: number[] = [];
    for (let c = this.head; c >= 0; c = this.links.next[c]) out.push(c);
    return out;
  }
}

interface AdaptedNode extends PolicyNode {
  c: number;
}

/** A caller's EvictionPolicy over node objects, one per copy id. */
class PolicyAdapter implements CopyOrder {
  private readonly nodes = new Map<number, AdaptedNode>();
  constructor(private readonly p: EvictionPolicy) {}
  get name(): string {
    return this.p.name;
  }
  get size(): number {
    return this.p.size;
  }
  private node(c: number): AdaptedNode {
    let n = this.nodes.get(c);
    if (!n) {
      n = { c, prev: null, next: null };
      this.nodes.set(c, n);
    }
    return n;
  }
  add(c: number): void {
    this.p.add(this.node(c));
  }
  touch(c: number): void {
    this.p.touch(this.node(c));
  }
  remove(c: number): void {
    this.p.remove(this.node(c));
    this.nodes.delete(c);
  }
  victim(): number {
    const v = this.p.peekVictim() as AdaptedNode | undefined;
    return v ? v.c : -1;
  }
  order(): number[] {
    return [...this.nodes.keys()];
  }
}

export function copyOrder(policy: PolicyName | PolicyFactory | undefined, links: CopyLinks): CopyOrder {
  if (policy === undefined || policy === 'lru' || policy === lruPolicy) return new CopyList('lru', true, links);
  if (policy === 'fifo' || policy === fifoPolicy) return new CopyList('fifo', false, links);
  return new PolicyAdapter(resolvePolicy(policy)());
}
