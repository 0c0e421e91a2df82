/**
 * SGLang's router's approximate radix tree: what the `cache_aware` policy believes each worker holds. The router
 * inserts the text of every request it routes under the worker it chose, never hears from the workers, and every
 * `evictionIntervalS` trims each worker's part of the tree to `maxTreeSize` characters, least recently used leaves
 * first. With the current default size (2^26 characters a worker, about 16.8M tokens) the trim almost never
 * happens: the tree remembers, for hours, prefixes the worker evicted from HBM in seconds.
 *
 * Config (router.view), names stable:
 *   { "kind": "sglang-radix",
 *     "maxTreeSize": 67108864,      // characters per worker (--max-tree-size)
 *     "evictionIntervalS": 120,     // seconds between trims (--eviction-interval)
 *     "charsPerToken": 4 }          // the lab's tokens → the tree's characters
 *
 * Source: the router's latest release, smg 1.9.0 (smg-project/smg, the Shepherd Model Gateway that SGLang's
 * router became; crates/kv_index/src/string_tree.rs at tag v1.9.0): one tree shared by all workers ("tenants"),
 * each node with a last-access time per tenant and a character count per tenant; `match_prefix_with_counts` walks
 * the text as far as any tenant's nodes go and returns the deepest node's cached `last_tenant`: the tenant whose
 * insert created the node, while that tenant still holds it; once it does not, the first tenant of the node's map
 * (its iteration order, not the least loaded), which is cached in turn. The matched share is matched characters
 * over the text's characters (cache_aware.rs). `evict_tenant_by_size` pops the tenant's oldest leaf until the
 * tenant is within the size, a parent becoming a leaf in turn. (sglang-router 0.3.0, sgl-model-gateway
 * src/policies/tree.rs at 24ce7f6, returned the map's first tenant every time.) Defaults: sgl-model-gateway
 * src/main.rs (commit 01f6c92, sglang-router 0.3.0) and smg 1.9.0's model_gateway/src/main.rs:
 * `--eviction-interval 120`, `--max-tree-size 67108864` per worker; the Python launcher
 * (bindings/python/src/sglang_router/router_args.py) uses 60 s and 2**26. As of SGLang v0.4 (sgl-router, 2024-12)
 * the defaults were 60 s and 2**24.
 *
 * Simplifications, and what they cost: the tree is kept at the fleet's page granularity (one node per page, its
 * chained hash naming the whole prefix), so a match is counted in whole pages and a prompt's partial last page is
 * not stored (SGLang stores characters, so a prompt's tail matches too). One character is `charsPerToken` of a
 * token (the tree counts characters of the request's text, the lab counts tokens). smg's match also refreshes
 * the chosen tenant's stamp one time in eight, and its insert stamps the leaf and gives the nodes above it epoch
 * 0; here only routing (insert) stamps, every node of the path, so the trim's order differs (the trim almost
 * never runs at the default size). The node map's order is modelled by a fixed hash of (node, worker):
 * deterministic per node, arbitrary across nodes, as a hash map's iteration order is.
 */
import type { CacheView } from '../view';
import { SGLANG_RADIX_DEFAULTS } from '../routerDefaults';
import type { SizedView, TenantOrderView } from './capabilities';

export interface SglangRadixViewConfig {
  kind: 'sglang-radix';
  /** Characters per worker the trim keeps. Default 67,108,864 (2^26). */
  maxTreeSize?: number;
  /** Seconds between trims. Default 120. */
  evictionIntervalS?: number;
  /** Characters per token. Default 4. */
  charsPerToken?: number;
}

/** One node of one tenant's part of the tree: a page, its parent page (NaN at the root) and its LRU stamp. */
interface TreeNode {
  parent: number;
  children: number;
  stamp: number;
}

/** A binary min-heap of [stamp, hash] pairs (the trim's priority queue). */
class StampHeap {
  private readonly a: [number, number][] = [];
  get size(): number {
    return this.a.length;
  }
  push(x: [number, number]): void {
    const a = this.a;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p][0] <= a[i][0]) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): [number, number] | undefined {
    const a = this.a;
    if (!a.length) return undefined;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l][0] < a[m][0]) m = l;
        if (r < a.length && a[r][0] < a[m][0]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}

/** An integer mix (murmur3's finaliser) for the node map's order. */
function mix(h: number, r: number): number {
  let x = (Math.floor(h) ^ Math.imul(r + 1, 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

export class SglangRadixView implements CacheView, SizedView, TenantOrderView {
  readonly kind = 'sglang-radix';
  readonly syncIntervalS: number;
  private readonly maxChars: number;
  /** Characters one page stands for. */
  private readonly pageChars: number;
  private readonly trees: Map<number, TreeNode>[];
  private readonly chars: Float64Array;
  private readonly out: Int32Array;
  /** A logical clock: the order of inserts is all the LRU needs. */
  private clock = 0;
  /**
   * Per node of the shared tree (a page's hash): its cached `last_tenant` and how many tenants hold it. A node no
   * tenant holds is gone from smg's tree; made again, it is cached for its new creator.
   */
  private readonly shared = new Map<number, { lastTenant: number; holders: number }>();

  constructor(replicas: number, c: SglangRadixViewConfig, pageTokens: number) {
    this.maxChars = c.maxTreeSize ?? SGLANG_RADIX_DEFAULTS.maxTreeSize;
    this.syncIntervalS = c.evictionIntervalS ?? SGLANG_RADIX_DEFAULTS.evictionIntervalS;
    this.pageChars = pageTokens * (c.charsPerToken ?? SGLANG_RADIX_DEFAULTS.charsPerToken);
    this.trees = Array.from({ length: replicas }, () => new Map<number, TreeNode>());
    this.chars = new Float64Array(replicas);
    this.out = new Int32Array(replicas);
  }

  match(hashes: ArrayLike<number>, count: number): Int32Array {
    for (let r = 0; r < this.trees.length; r++) {
      const t = this.trees[r];
      let i = 0;
      while (i < count && t.has(hashes[i])) i++;
      this.out[r] = i;
    }
    return this.out;
  }

  /** `insert(text, worker)`: every page of the prompt under the worker, stamped now. */
  routed(replica: number, hashes: ArrayLike<number>, count: number): void {
    const t = this.trees[replica];
    const stamp = ++this.clock;
    for (let i = 0; i < count; i++) {
      const h = hashes[i];
      const node = t.get(h);
      if (node) {
        node.stamp = stamp;
        continue;
      }
      const parent = i > 0 ? hashes[i - 1] : NaN;
      t.set(h, { parent, children: 0, stamp });
      const sh = this.shared.get(h);
      if (sh) sh.holders++;
      else this.shared.set(h, { lastTenant: replica, holders: 1 });
      if (i > 0) {
        const p = t.get(parent);
        if (p) p.children++;
      }
      this.chars[replica] += this.pageChars;
    }
  }

  /** `evict_tenant_by_size(maxTreeSize)`, run every evictionIntervalS. */
  sync(): void {
    for (let r = 0; r < this.trees.length; r++) if (this.chars[r] > this.maxChars) this.trim(r);
  }

  private trim(r: number): void {
    const t = this.trees[r];
    const heap = new StampHeap();
    for (const [h, n] of t) if (n.children === 0) heap.push([n.stamp, h]);
    while (this.chars[r] > this.maxChars && heap.size) {
      const [, h] = heap.pop()!;
      const n = t.get(h);
      if (!n || n.children > 0) continue;
      t.delete(h);
      const sh = this.shared.get(h)!;
      if (--sh.holders === 0) this.shared.delete(h);
      this.chars[r] -= this.pageChars;
      const p = Number.isNaN(n.parent) ? undefined : t.get(n.parent);
      if (p && --p.children === 0) heap.push([p.stamp, n.parent]);
    }
  }

  /** Characters of the worker's part of the tree (`tenant_char_count`). */
  sizeOf(replica: number): number {
    return this.chars[replica];
  }

  /** Nodes (pages) of the worker's part of the tree. */
  nodesOf(replica: number): number {
    return this.trees[replica].size;
  }

  /**
   * The tenant smg names for the deepest matched node, among those holding it (`candidates`): its cached
   * `last_tenant` while that tenant holds the node, else the node map's first, cached from then on.
   */
  firstAt(hashes: ArrayLike<number>, depth: number, candidates: readonly number[]): number {
    const node = depth > 0 ? hashes[depth - 1] : 0;
    const sh = depth > 0 ? this.shared.get(node) : undefined;
    if (sh && candidates.includes(sh.lastTenant)) return sh.lastTenant;
    const first = this.mapOrderFirst(node, candidates);
    if (sh) sh.lastTenant = first;
    return first;
  }

  /** The node map's first tenant among `candidates` (its iteration order, modelled by a fixed hash). */
  private mapOrderFirst(node: number, candidates: readonly number[]): number {
    let best = candidates[0];
    let bestKey = mix(node, best);
    for (let k = 1; k < candidates.length; k++) {
      const key = mix(node, candidates[k]);
      if (key < bestKey) {
        bestKey = key;
        best = candidates[k];
      }
    }
    return best;
  }
}
