/**
 * What the end of a replica's iteration (fleet/replica.ts) credits the requests of its batch with: the tokens its
 * prefill chunks and decode steps computed, each one's share of the GPU time, the blocks they filled (committed to
 * the cache), and the gaps between tokens that their clients see.
 */
import type { PrefillItem } from './batch';
import type { LogHistogram } from './metrics';
import type { Replica } from './replica';
import type { Req } from './request';

/**
 * Credit the batch that ran `dur` seconds, ending at `now`: its prefill chunks, and k steps of its decodes. Returns
 * whether a request of the batch has now generated all its output (only those can finish at this iteration's end).
 */
export function creditIteration(
  rep: Replica,
  prefills: readonly PrefillItem[],
  decodes: readonly Req[],
  k: number,
  dur: number,
  now: number,
): boolean {
  let done = false;
  const stats = rep.stats;
  const gaps = rep.gaps;
  // Attribute GPU time by tokens processed.
  let tokens = 0;
  for (const p of prefills) tokens += p.n;
  tokens += decodes.length * k;
  const perToken = tokens > 0 ? (dur * rep.config.hw.tp) / tokens : 0;
  const bs = rep.config.blockSize;
  for (const p of prefills) {
    const r = p.r;
    r.ctx += p.n;
    r.prefilled += p.n;
    r.gpuSeconds += perToken * p.n;
    rep.pay(r, p.n);
    stats.tokensPrefilled += p.n;
    rep.cache.commit(r.seq, Math.floor(r.ctx / bs));
    rep.bookStores();
    if (r.ctx >= r.target) {
      // The prefill's last chunk samples a token.
      r.generated++;
      rep.pay(r, 1);
      if (r.firstToken < 0) r.firstToken = now;
      else addGap(gaps, r, now - r.lastToken);
      r.lastToken = now;
      r.state = 'decode';
      if (r.generated >= r.outputTokens) done = true;
    }
  }
  if (decodes.length) {
    const stepGap = dur / k;
    // Steps 2..k of the iteration are stepGap apart; each sequence's first gap runs from its previous token
    // (a stall behind a prefill shows there).
    if (k > 1) gaps.add(stepGap, decodes.length * (k - 1));
    stats.tokensDecoded += k * decodes.length; // integers: the same sum as one per sequence
    for (const r of decodes) {
      r.ctx += k;
      r.generated += k;
      r.gpuSeconds += perToken * k;
      rep.pay(r, k);
      // The first step's gap runs from the previous token (which may predate this iteration).
      addGap(gaps, r, now - (k - 1) * stepGap - r.lastToken);
      if (stepGap > r.maxGap) r.maxGap = stepGap;
      r.lastToken = now;
      if (r.generated >= r.outputTokens) done = true;
    }
  }
  return done;
}

function addGap(gaps: LogHistogram, r: Req, g: number): void {
  gaps.add(g, 1);
  if (g > r.maxGap) r.maxGap = g;
}
