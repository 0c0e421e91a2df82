/**
 * Prefix shares: the blocks at the head of many sequences at once, such as an app's system prompt and tool schemas,
 * which every running session of the app holds. An acquire whose first blocks are a share's, while another
 * sequence holds it, joins the share: each holder pins every block of it, so the blocks are known to be computed,
 * in HBM and pinned, and the acquire pins and tags them without looking each one up and checking its record (the
 * shared head was most of every acquire's and every release's per-block work in the fleet).
 *
 * Pins and tags stay per block and exact: a share only remembers a check done once, and who holds it, so nothing
 * else in the cache reads it. It lives while one sequence holds it; the last holder's release ends it, and that
 * release unpins the head block by block as any other.
 */
import type { BlockHash } from './types';

export class PrefixShare {
  /** Sequences holding it (each pins every block of it). */
  holders = 0;
  constructor(
    /** Hashes of its blocks, by position. */
    readonly hashes: Float64Array,
    /** Their block ids. */
    readonly ids: Int32Array,
    /** Tokens in its blocks (all full). */
    readonly tokens: number,
  ) {}

  get length(): number {
    return this.ids.length;
  }
}

export class PrefixShares {
  /** Live shares by the hash of their last block. */
  private readonly byLast = new Map<BlockHash, PrefixShare>();

  /** The live share whose blocks hold hashes[off .. off + k), if any. */
  find(hashes: ArrayLike<BlockHash>, off: number, k: number): PrefixShare | undefined {
    const s = this.byLast.get(hashes[off + k - 1]);
    if (!s || s.length !== k) return undefined;
    // Hashes need not be chained (a caller's own list may repeat one): every position is compared.
    for (let i = 0; i < k; i++) if (s.hashes[i] !== hashes[off + i]) return undefined;
    return s;
  }

  /**
   * Start a share of blocks[0 .. k), which hold hashes[off .. off + k), held by the caller; undefined when another
   * live share has the same last hash.
   */
  create(hashes: ArrayLike<BlockHash>, off: number, blocks: readonly number[], k: number, tokens: number) {
    const last = hashes[off + k - 1];
    if (this.byLast.has(last)) return undefined;
    const h = new Float64Array(k);
    const ids = new Int32Array(k);
    for (let i = 0; i < k; i++) {
      h[i] = hashes[off + i];
      ids[i] = blocks[i];
    }
    const s = new PrefixShare(h, ids, tokens);
    s.holders = 1;
    this.byLast.set(last, s);
    return s;
  }

  /** A holder lets go; returns whether others still hold it (the share's blocks stay pinned by them). */
  leave(s: PrefixShare): boolean {
    if (--s.holders > 0) return true;
    const last = s.hashes[s.length - 1];
    if (this.byLast.get(last) === s) this.byLast.delete(last);
    return false;
  }

  /** The live shares (for the invariants). */
  all(): IterableIterator<PrefixShare> {
    return this.byLast.values();
  }
}
