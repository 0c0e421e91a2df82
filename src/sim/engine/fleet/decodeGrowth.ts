/**
 * Step 2 of a replica's iteration (fleet/replica.ts): a decoding sequence that needs a new block gets it, and when
 * HBM is full, memory pressure takes room from others: sessions held through a tool pause first (oldest first),
 * then the most recently admitted sequence, preempted (recompute: its blocks are released and it requeues at the
 * front; swap: its blocks are offloaded to DRAM and reloaded when it is readmitted).
 */
import type { Replica } from './replica';
import type { Req } from './request';

/**
 * Give every decoding sequence that needs one its next block (in admission order); a preemption changes `running`,
 * so the scan restarts after one. True when a preemption requeued a request.
 */
export function growDecodes(rep: Replica): boolean {
  const bs = rep.config.blockSize;
  const running = rep.running;
  let preempted = false;
  for (let i = 0; i < running.length; i++) {
    const r = running[i];
    if (r.state !== 'decode' || r.heldBlocks * bs >= r.ctx + 1) continue;
    const before = running.length;
    growDecode(rep, r);
    if (running.length !== before) {
      i = -1;
      preempted = true;
    }
  }
  return preempted;
}

/** Give a decoding sequence room for its next token(s); preempt others (or itself) if HBM is full. */
export function growDecode(rep: Replica, r: Req): boolean {
  const bs = rep.config.blockSize;
  if (r.heldBlocks * bs >= r.ctx + 1) return true;
  const final = r.promptTokens + r.outputTokens;
  const want = Math.min(Math.ceil(final / bs), r.heldBlocks + 1);
  for (;;) {
    const tokens = Math.min(final, want * bs);
    const res = rep.cache.extendTo(r.seq, r.hashes, want, { tokens, tag: r.session });
    if (res.ok) {
      rep.bookStores(); // decode growth's write-backs occupy the link; the step does not wait for them
      r.heldBlocks = res.heldBlocks;
      return true;
    }
    if (rep.releaseOldestHeld()) continue;
    const victim = pickVictim(rep.running);
    if (!victim || victim === r) {
      if (rep.running.length === 1) {
        // Alone and still out of room: prompt + output can never fit in HBM.
        rep.dropWaiting(r, `the sequence outgrew HBM (${rep.cache.occupancy()[0].capacityBlocks} blocks)`);
      } else preempt(rep, r);
      return false;
    }
    preempt(rep, victim);
  }
}

/** The most recently admitted running sequence that holds blocks to give up. */
function pickVictim(running: readonly Req[]): Req | undefined {
  let v: Req | undefined;
  for (const x of running)
    if ((x.state === 'decode' || x.state === 'prefill') && (!v || x.admitOrder > v.admitOrder)) v = x;
  return v;
}

function preempt(rep: Replica, r: Req): void {
  const c = rep.config;
  const swap = c.preemption === 'swap' && c.tiers.includes('dram');
  if (swap) {
    rep.links.releaseDown(rep.cache, r.seq, 'dram', rep.host.now);
    rep.stats.swaps++;
  } else rep.cache.release(r.seq, 'cache');
  rep.stats.preemptions++;
  r.preemptions++;
  const i = rep.running.indexOf(r);
  if (i >= 0) rep.running.splice(i, 1);
  // Rebuild prompt + generated so far, then continue decoding.
  const rebuilt = r.ctx;
  r.target = Math.max(r.ctx, r.target);
  r.owed += rebuilt;
  rep.outstandingTokens += rebuilt;
  r.ctx = 0;
  r.heldBlocks = 0;
  r.state = 'waiting';
  rep.waiting.unshift(r);
}
