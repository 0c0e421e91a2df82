/**
 * Step 1 of a replica's iteration (fleet/replica.ts) for one waiting request: its prompt's blocks acquired in HBM,
 * letting go of sessions held through a tool pause (oldest first) when they are what fills it; then what it finds
 * cached (fleet/admissionReuse.ts) and the wait for its reloads. A prompt that can never fit is dropped.
 */
import { takeReuse } from './admissionReuse';
import type { Replica } from './replica';
import type { Req } from './request';

/** Try to admit r; false when it must wait. */
export function admit(rep: Replica, r: Req): boolean {
  const now = rep.host.now;
  const cache = rep.cache;
  const pauses = rep.pauses;
  const bs = rep.config.blockSize;
  // A request that failed for lack of room is not retried (an O(blocks) acquire) until room may exist.
  if (r.needBlocks > 0 && cache.unpinnedHbmBlocks + pauses.heldBlocks < r.needBlocks) return false;
  const nb = Math.ceil(r.target / bs);
  const hashes = r.hashes; // its first nb blocks (acquire's `blocks`: no copy per attempt)
  const opts = {
    tokens: r.target,
    tag: r.session,
    blocks: nb,
    sharedBlocks: Math.min(nb, Math.floor((r.spec.sharedPrefixTokens ?? 0) / bs)),
  };
  let res = cache.acquire(r.seq, hashes, opts);
  while (!res.ok && res.reason === 'hbm-full' && pauses.sessionsHeld > 0) {
    // Release held sessions (oldest first) worth the shortfall, then retry once.
    let freed = 0;
    const deficit = res.neededBlocks - res.availableBlocks;
    while (freed < deficit && pauses.sessionsHeld > 0) {
      freed += pauses.oldestBlocks();
      rep.releaseOldestHeld();
    }
    res = cache.acquire(r.seq, hashes, opts);
  }
  if (!res.ok) {
    if (res.reason === 'exceeds-hbm') {
      rep.dropWaiting(r, res.message);
      return true; // removed from the queue; continue with the next
    }
    r.needBlocks = res.neededBlocks;
    return false;
  }
  r.needBlocks = 0;
  const heldTail = r.session >= 0 ? rep.tails.takeHeld(r.session) : undefined;
  if (r.session >= 0) pauses.resume(r.session);
  const before = r.ctx;
  const t0 = takeReuse(rep.reuseEnv, r, res, heldTail, now);
  rep.pay(r, Math.max(0, r.ctx - before));
  r.admitted = r.admitted < 0 ? now : r.admitted;
  r.admitOrder = rep.nextAdmitOrder();
  if (t0 > now) {
    r.state = 'loading';
    r.loadS += t0 - now;
    rep.host.schedule(t0, 'transfer-done', rep.index, r.id);
  } else r.state = 'prefill';
  rep.running.push(r);
  return true;
}

/** Admit waiting requests (FCFS) while the batch has room and the cache takes them. */
export function admitWaiting(rep: Replica): void {
  const max = rep.config.maxBatchSeqs;
  const waiting = rep.waiting;
  for (let i = 0; i < waiting.length && rep.running.length < max;) {
    const r = waiting[i];
    if (!r.grammarReady) {
      i++;
      continue;
    }
    const before = waiting.length;
    if (!admit(rep, r)) break;
    if (waiting.length < before) continue; // dropped
    waiting.splice(i, 1);
  }
}
