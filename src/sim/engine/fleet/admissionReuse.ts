/**
 * What an admitted request finds cached (step 1 of a replica's iteration, fleet/replica.ts): the prompt tokens it
 * need not compute, credited to the tier each came from, and when the reloads from lower tiers are done.
 */
import type { KvCache } from '../kvcache/cache';
import type { AcquireOk } from '../kvcache/cacheTypes';
import type { TierName } from '../kvcache/types';
import type { Req } from './request';
import type { Tail, TailReuse } from './tailReuse';
import type { TierLinks } from './tierLinks';

export interface ReuseEnv {
  cache: KvCache;
  links: TierLinks;
  tails: TailReuse;
  /** Tier names of the cache, in order. */
  tiers: readonly string[];
  /** Tokens per page the cache tracks. */
  blockSize: number;
}

/**
 * Credit r with what its acquire `res` found (and the tail it held through a pause, if any): sets its context to
 * the cached tokens, its held blocks, reuse per tier and bytes loaded; books the reloads on their links. Returns
 * when they are done (`now` when nothing loads).
 */
export function takeReuse(
  env: ReuseEnv,
  r: Req,
  res: AcquireOk,
  heldTail: Tail | undefined,
  now: number,
): number {
  const bs = env.blockSize;
  const kept = res.heldBlocks - res.computeBlocks - res.hit.blocks;
  const matched = kept + res.hit.blocks;
  r.computedFrom = matched;
  // Past the matched pages, the engine would still reuse the full blocks of a tail that starts the next page.
  const tailAsked = matched * bs < r.target;
  const tailTokens = tailAsked ? env.tails.hit(r, matched, heldTail) : 0;
  const tailTier = tailAsked ? env.tails.tier : -1;
  let cached = Math.min(r.target, kept * bs + res.hit.tokens + tailTokens);
  if (r.kvReceived) {
    // KV shipped by a prefill worker is in place (fleet/disagg.ts); a recompute preemption loses it.
    cached = Math.max(cached, Math.min(r.kvReceived, r.target));
    r.kvReceived = 0;
  }
  cached = Math.min(cached, r.target - 1); // recompute the last token to get logits
  r.heldBlocks = res.heldBlocks;
  r.reused[0] += Math.min(cached, kept * bs + res.hit.tiers[0].tokens);
  // Victims this admission evicted without a lower copy were written back first (booked on their links).
  let t0 = env.links.bookStores(env.cache, now);
  for (let i = 1; i < res.hit.tiers.length; i++) {
    const th = res.hit.tiers[i];
    r.reused[i] += th.tokens;
    if (th.blocks === 0) continue;
    r.bytesLoaded += th.bytes;
    t0 = env.links.reload(i, t0, th.timeS, th.bytes);
  }
  if (tailTier >= 0) {
    const used = Math.max(0, cached - kept * bs - res.hit.tokens);
    r.reused[tailTier] += used;
    if (tailTier > 0 && used > 0) {
      // A tail below HBM comes up over its link like the hit pages (one page's transfer time).
      const bytes = (env.cache.bytesPerBlock * used) / bs;
      const timeS = env.cache.loadTimeS(env.tiers[tailTier] as TierName, 1);
      t0 = env.links.reload(tailTier, t0, timeS, bytes);
      r.bytesLoaded += bytes;
    }
  }
  r.ctx = cached;
  return t0;
}
