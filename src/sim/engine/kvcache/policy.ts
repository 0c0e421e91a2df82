/**
 * Eviction policies. A policy orders the *evictable* blocks of one tier (pinned blocks are never handed to it)
 * and names the next victim. Every operation must be O(1) (or O(log n)): the cache calls them once per block
 * moved, never per token.
 *
 * The built-in policies keep an intrusive doubly linked list through the nodes' `prev`/`next` fields (a block
 * is in one tier's policy at a time, so one pair of pointers suffices). A custom policy may ignore those
 * fields and keep its own structures (e.g. a Map from node to a frequency bucket).
 */

export interface PolicyNode {
  prev: PolicyNode | null;
  next: PolicyNode | null;
}

export interface EvictionPolicy<N extends PolicyNode = PolicyNode> {
  readonly name: string;
  /** Number of nodes the policy currently orders. */
  readonly size: number;
  /** The node became evictable in this tier: it arrived unpinned, or was unpinned. */
  add(node: N): void;
  /** The (evictable) node was used again. */
  touch(node: N): void;
  /** The node left the tier or was pinned. Only called for nodes previously added. */
  remove(node: N): void;
  /** The node the policy would evict next (not removed); undefined when there is none. */
  peekVictim(): N | undefined;
}

export type PolicyFactory = () => EvictionPolicy;
export type PolicyName = 'lru' | 'fifo';

/** Intrusive list: head = oldest (next victim), tail = newest. */
class ListPolicy implements EvictionPolicy {
  private head: PolicyNode | null = null;
  private tail: PolicyNode | null = null;
  private n = 0;
  constructor(
    readonly name: string,
    private readonly moveOnTouch: boolean,
  ) {}
  get size(): number {
    return this.n;
  }
  add(node: PolicyNode): void {
    node.prev = this.tail;
    node.next = null;
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    this.n++;
  }
  remove(node: PolicyNode): void {
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = node.next = null;
    this.n--;
  }
  touch(node: PolicyNode): void {
    if (!this.moveOnTouch || this.tail === node) return;
    this.remove(node);
    this.add(node);
  }
  peekVictim(): PolicyNode | undefined {
    return this.head ?? undefined;
  }
}

/** Least recently used: a touch moves the node to the newest end. */
export function lruPolicy(): EvictionPolicy {
  return new ListPolicy('lru', true);
}

/** First in, first out: a touch changes nothing; a block re-enters the queue when it is unpinned. */
export function fifoPolicy(): EvictionPolicy {
  return new ListPolicy('fifo', false);
}

export const POLICIES: Readonly<Record<PolicyName, PolicyFactory>> = { lru: lruPolicy, fifo: fifoPolicy };

export function resolvePolicy(p: PolicyName | PolicyFactory | undefined): PolicyFactory {
  if (p === undefined) return lruPolicy;
  if (typeof p === 'function') return p;
  const f = POLICIES[p];
  if (!f)
    throw new RangeError(
      `unknown eviction policy "${String(p)}" (known: ${Object.keys(POLICIES).join(', ')})`,
    );
  return f;
}
