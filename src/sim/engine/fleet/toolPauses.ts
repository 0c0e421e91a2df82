/**
 * One replica's tool pauses: what the pause policy does with a finished request's KV while its session waits for a
 * tool (leave it cached, drop it, offload it, or keep it pinned: hold and ttl), the sessions held that way, oldest
 * first, and what letting go of one does with its blocks and with its partial last page.
 */
import type { KvCache } from '../kvcache/cache';
import { TimeWeighted } from './metrics';
import { OrderedIntMap } from './orderedIntMap';
import type { Req } from './request';
import type { ToolPausePolicy } from './scenario';
import type { TailReuse, TailReuseConfig } from './tailReuse';
import { sequenceTail } from './tails';
import type { TierLinks } from './tierLinks';

/** Where a released session's blocks go: left cached in HBM (LRU), dropped, or offloaded to a lower tier. */
export type LetGo = 'cache' | 'drop' | 'dram' | 'nvme' | 'remote';

/** What letting go of a held session does with its blocks: the TTL's follow-up, else leave them to LRU. */
export function afterHold(p: ToolPausePolicy): LetGo {
  if (p.kind === 'ttl')
    return p.then === 'evict' ? 'drop' : p.then === 'offload' ? (p.tier ?? 'dram') : 'cache';
  return 'cache';
}

export interface ToolPauseConfig extends Pick<TailReuseConfig, 'blockSize' | 'engineBlockSize'> {
  toolPause: ToolPausePolicy;
}

export class ToolPauses {
  /** Held sessions: session → blocks pinned (insertion order = oldest first). */
  private readonly held = new OrderedIntMap();
  /** Blocks pinned by held sessions, in all. */
  heldBlocks = 0;
  /** heldBlocks over time. */
  readonly occupancy = new TimeWeighted();

  constructor(
    private readonly cache: KvCache,
    private readonly tails: TailReuse,
    private readonly links: TierLinks,
    private readonly c: ToolPauseConfig,
    private readonly clock: { readonly now: number },
  ) {}

  get sessionsHeld(): number {
    return this.held.size;
  }

  /** Blocks the oldest held session pins (0 when none is held). */
  oldestBlocks(): number {
    return this.held.size > 0 ? (this.held.get(this.held.firstKey()) as number) : 0;
  }

  /**
   * Apply the pause policy to a finished request's blocks. `continues`: the session will send another request.
   * Returns true when the blocks stay pinned here (hold / ttl).
   */
  pause(r: Req, continues: boolean): boolean {
    const pol = this.c.toolPause;
    const tail = sequenceTail(r.segs, r.hashes, r.ctx, this.c.blockSize, this.c.engineBlockSize, r.tails);
    // write-through: released like lru; the cache's DRAM tier already holds a copy of every full block.
    if (!continues || pol.kind === 'lru' || pol.kind === 'write-through') {
      this.cache.release(r.seq, 'cache');
      // A session's last turn leaves no tail: nothing will extend it.
      if (continues) this.tails.place(tail, 'cache', r.session, this.clock.now);
      return false;
    }
    if (pol.kind === 'evict') {
      this.cache.release(r.seq, 'drop');
      return false;
    }
    if (pol.kind === 'offload') {
      this.links.releaseDown(this.cache, r.seq, pol.tier, this.clock.now);
      this.tails.place(tail, pol.tier, r.session, this.clock.now);
      return false;
    }
    if (tail) this.tails.hold(r.session, tail);
    // hold, ttl: keep pinned (the partial last block, still pending, stays too: it is released by the next acquire)
    const blocks = this.cache.heldCount(r.seq);
    this.held.set(r.session, blocks);
    this.heldBlocks += blocks;
    this.occupancy.set(this.clock.now, this.heldBlocks);
    return true;
  }

  /** Stop holding a session's blocks (its next turn went elsewhere, its TTL expired, or memory is short). */
  unhold(session: number, then: LetGo): boolean {
    if (!this.forget(session)) return false;
    if (then === 'dram' || then === 'nvme' || then === 'remote')
      this.links.releaseDown(this.cache, session, then, this.clock.now);
    else this.cache.release(session, then);
    const tail = this.tails.takeHeld(session);
    if (tail) this.tails.place(tail, then, session, this.clock.now);
    return true;
  }

  /**
   * The session's request was admitted: the blocks it held through the pause are now pinned by the running
   * request. (Until then they stay held, so memory pressure can still release them: a held session whose next
   * request waits in the queue must not block the queue's head.)
   */
  resume(session: number): void {
    this.forget(session);
  }

  /** Let go of the oldest held session as memory pressure does (afterHold); returns it, or −1 when none is held. */
  releaseOldest(): number {
    const s = this.held.firstKey();
    if (s < 0) return -1;
    this.unhold(s, afterHold(this.c.toolPause));
    return s;
  }

  /** What must hold whatever happened: the blocks counted in all are the held sessions' blocks. */
  checkInvariants(): string[] {
    let sum = 0;
    for (const v of this.held.values()) sum += v;
    return sum === this.heldBlocks
      ? []
      : [`held blocks ${this.heldBlocks} != ${sum}, the held sessions' sum`];
  }

  private forget(session: number): boolean {
    const blocks = this.held.get(session);
    if (blocks === undefined) return false;
    this.held.delete(session);
    this.heldBlocks -= blocks;
    this.occupancy.set(this.clock.now, this.heldBlocks);
    return true;
  }
}
