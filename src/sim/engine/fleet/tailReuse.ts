/**
 * One replica's partial pages. The fleet tracks KV in pages of many engine blocks, but an engine reuses whole
 * blocks of its own size (vLLM: 16 tokens), so the full blocks of a sequence's last page (its "tail") are reusable
 * too (fleet/tails.ts). This keeps, per session, the tail it left in the replica's cache (or holds pinned through a
 * pause), places a released tail where the pause policy puts the rest of its blocks, and finds the longest tail an
 * admission can reuse at the start of its first unmatched page.
 */
import type { KvCache, ReleaseThen } from '../kvcache/cache';
import type { Segment } from '../kvcache/hash';
import type { Req } from './request';
import type { TierLinks } from './tierLinks';
import type { PageIndex } from './pageIndex';
import { pageTailHashes } from './tails';

/** The full engine blocks of a released sequence's last page (fleet/tails.ts). */
export type Tail = { page: number; blocks: number; hash: number; parent: number };

export interface TailReuseConfig {
  /** Tokens per page the cache tracks. */
  blockSize: number;
  /** The engine's block size. */
  engineBlockSize: number;
  /** Pages computed so far in the fleet (null: prompts are not matched inside a page). */
  pages: PageIndex | null;
  /** Tier names of the cache, in order. */
  tiers: readonly string[];
}

export class TailReuse {
  /**
   * Tails of held sessions, kept with their pinned blocks, by session index (arrays, not Maps: set and cleared
   * every turn, a Map kept making new tables).
   */
  private readonly held: (Tail | undefined)[] = [];
  /** The tail hash each session last left in the cache, by session index. */
  private readonly placed: (number | undefined)[] = [];
  /** The tier `hit`'s last answer is in (−1: none). */
  tier = -1;
  private readonly isComputed = (h: number): boolean => this.cache.computedTier(h) >= 0;

  constructor(
    private readonly cache: KvCache,
    private readonly links: TierLinks,
    private readonly c: TailReuseConfig,
  ) {}

  /** Keep a paused session's tail with its pinned blocks. */
  hold(session: number, tail: Tail): void {
    this.held[session] = tail;
  }

  /** The tail a session holds, no longer held; undefined if none. */
  takeHeld(session: number): Tail | undefined {
    const tail = this.held[session];
    if (tail) this.held[session] = undefined;
    return tail;
  }

  /**
   * Keep a released sequence's tail where the pause policy puts its other blocks: cached in HBM, offloaded with
   * them (the transfer queues on the link like theirs), or dropped.
   */
  place(tail: Tail | null, then: ReleaseThen, session: number, now: number): void {
    // The session's previous tail here is superseded: its next turn extends the newer context.
    const old = this.placed[session];
    if (old !== undefined) {
      this.placed[session] = undefined;
      if (old !== tail?.hash) this.cache.drop([old]);
    }
    if (!tail || then === 'drop') return;
    this.placed[session] = tail.hash;
    this.c.pages?.addTail(tail.parent, tail.blocks, tail.hash);
    const tag = session;
    const ins = this.cache.insert([tail.hash], { tokens: tail.blocks * this.c.engineBlockSize, tag });
    if (then === 'cache' || ins.failed > 0) return;
    const res = this.cache.offload([tail.hash], then);
    const t = this.c.tiers.indexOf(then);
    // A copy down to the tier: it queues with the other blocks' offloads, not with the link's reloads.
    if (res.timeS > 0 && t > 0) this.links.store(t, now, res.timeS, res.bytes);
  }

  /**
   * Tokens of page `page` of r's prompt that a tail holds, at the engine's block size: the session's held tail,
   * or the longest tail in the cache whose content matches the start of that page; `tier` is set to the tier it
   * is in (−1: none). Drops a cached tail it uses (the request's own page supersedes it). Nothing is allocated: an
   * admission asks this once.
   */
  hit(r: Req, page: number, held: Tail | undefined): number {
    const B = this.c.engineBlockSize;
    const P = this.c.blockSize;
    this.tier = -1;
    if (!r.segs || B >= P) return 0;
    const room = Math.min(P / B - 1, Math.floor((r.target - page * P) / B));
    if (room < 1) return 0;
    const parent = page > 0 ? r.hashes[page - 1] : 0;
    if (
      held &&
      held.page === page &&
      held.blocks <= room &&
      this.tailHash(r, page, parent, held.blocks) === held.hash
    ) {
      this.tier = 0;
      return held.blocks * B;
    }
    // A tail in the cache: the longest m whose hash tailHash(m) is cached and computed. Only a tail placed after
    // this parent can match (a tail hash names its parent and length), so with the fleet's list of them the page
    // is hashed only as far as each candidate, longest first, instead of to its end (same result).
    const pages = this.c.pages;
    if (pages) {
      for (let t = pages.firstTailAfter(parent); t >= 0; t = pages.nextTail(t)) {
        const blocks = pages.tailBlocks(t);
        const tier = this.tierOfTail(r, page, parent, room, blocks, pages.tailHash(t));
        if (tier >= 0) {
          this.tier = tier;
          return blocks * B;
        }
      }
    } else {
      const hashes = pageTailHashes(r.segs, P, B, page, parent, room);
      for (let m = hashes.length; m >= 1; m--) {
        const tier = this.tierOfTail(r, page, parent, room, m, hashes[m - 1]);
        if (tier >= 0) {
          this.tier = tier;
          return m * B;
        }
      }
    }
    // No tail: a cached full page after the same parent may still begin with the same blocks.
    if (!pages || !pages.hasChildren(parent)) return 0;
    const shared = pages.longestShared(parent, page, r.segs, room, P, B, this.isComputed);
    if (shared.blocks === 0) return 0;
    this.tier = this.cache.computedTier(shared.hash);
    return shared.blocks * B;
  }

  /** The hash of the first m engine blocks of r's page `page` (NaN when the page has fewer). */
  private tailHash(r: Req, page: number, parent: number, m: number): number {
    const segs = r.segs as readonly Segment[];
    const P = this.c.blockSize;
    const B = this.c.engineBlockSize;
    if (r.tails) return r.tails.tail(segs, P, B, page, parent, m);
    const h = pageTailHashes(segs, P, B, page, parent, m);
    return h.length >= m ? h[m - 1] : NaN;
  }

  /** The tier of the cached tail `hash` of `blocks` blocks if it is r's page's, computed; it is dropped then. */
  private tierOfTail(
    r: Req,
    page: number,
    parent: number,
    room: number,
    blocks: number,
    hash: number,
  ): number {
    if (blocks > room || this.cache.where(hash) === undefined) return -1;
    if (this.tailHash(r, page, parent, blocks) !== hash) return -1;
    const tier = this.cache.computedTier(hash);
    if (tier >= 0) this.cache.drop([hash]);
    return tier;
  }
}
