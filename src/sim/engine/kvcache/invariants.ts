/**
 * The books of one replica's KV cache, recounted from scratch (for tests; O(blocks)). A violation is a sentence
 * naming what disagrees. What must hold:
 * - per tier: the copies recounted equal the tier's counters (used, tokens, pinned, pending), the capacity is
 *   never exceeded, the policy orders exactly the evictable copies, and no copy is left locked between operations;
 * - per block: it has at least one copy, each filed under its own tier; pinned and pending copies are in HBM only,
 *   a pending block has no lower copy, its pins equal the positions sequences hold, its tokens fit a block;
 * - blocks are conserved: created + fetched − freed − dropped − toPool = resident, in blocks and tokens;
 * - per link, bytes = copies sent × bytes per block, in each direction;
 * - every lookup hint (a released sequence's block id, sequences.ts) that is live is the id the index holds under
 *   its hash (what lets an acquire read the hint instead of probing the index);
 * - each tier's eviction order lists exactly its evictable copies;
 * - every live prefix share (shares.ts) has as many holders as sequences name it, each of which holds its blocks at
 *   its first positions, and its blocks are live under its hashes, full, computed and pinned (what lets an acquire
 *   join it without checking them).
 */
import { bitsOf, LOCKED, NO_COPY, PINNED, POLICY, TIERS } from './blockStore';
import { truePins, trueStates } from './runs';
import type { Seq } from './sequences';
import type { PrefixShare } from './shares';
import type { TierStore } from './tierStore';

export function checkCacheInvariants(
  st: TierStore,
  seqs: Iterable<Seq>,
  hints: Iterable<readonly number[]> = [],
  shares: Iterable<PrefixShare> = [],
): string[] {
  const out: string[] = [];
  const B = st.b;
  const seqList = Array.from(seqs); // read twice
  const holders = new Map<PrefixShare, number>();
  for (const s of seqList) {
    if (!s.share) continue;
    holders.set(s.share, (holders.get(s.share) ?? 0) + 1);
    for (let k = 0; k < s.share.length; k++)
      if (s.blocks[k] !== s.share.ids[k])
        out.push(`a holder of a share holds another block at position ${k}`);
  }
  for (const sh of shares) {
    if (sh.holders !== (holders.get(sh) ?? 0))
      out.push(`a share counts ${sh.holders} holders, sequences name it ${holders.get(sh) ?? 0} times`);
    holders.delete(sh);
    for (let k = 0; k < sh.length; k++) {
      const id = sh.ids[k];
      if (!B.live(id) || B.hash(id) !== sh.hashes[k])
        out.push(`a share's block ${k} is not live under its hash`);
      else if (B.isPending(id) || B.tokens(id) !== st.blockSize || truePins(B, st.runs, id) < sh.holders)
        out.push(`a share's block ${sh.hashes[k]} is pending, partial or pinned by fewer than its holders`);
    }
  }
  if (holders.size) out.push('a sequence names a share that is no longer live');
  for (const list of hints)
    for (const id of list)
      if (B.live(id) && B.peek(B.hash(id)) !== id)
        out.push(`hint ${B.hash(id)} is live but not the indexed block`);
  const L = st.local.length;
  const used = new Array<number>(L).fill(0);
  const toks = new Array<number>(L).fill(0);
  const pinned = new Array<number>(L).fill(0);
  const pending = new Array<number>(L).fill(0);
  const evictable = new Array<number>(L).fill(0);
  let residentTokens = 0;
  let resident = 0;
  const pinsFromSeqs = new Map<number, number>();
  for (const s of seqList) for (const id of s.blocks) pinsFromSeqs.set(id, (pinsFromSeqs.get(id) ?? 0) + 1);
  for (const id of B.ids()) {
    resident++;
    const h = B.hash(id);
    const pins = truePins(B, st.runs, id);
    const states = trueStates(B, st.runs, id);
    const isPending = B.isPending(id);
    if (B.peek(h) !== id) out.push(`block ${h} filed under the wrong hash`);
    if (!B.live(id)) out.push(`block ${h} is listed but not live`);
    let n = 0;
    let bits = 0;
    for (let i = 0; i < TIERS; i++) {
      const state = (states >> (2 * i)) & 3;
      if (state === NO_COPY) continue;
      if (i >= L) {
        out.push(`block ${h} has a copy in tier ${i}, past the last local tier`);
        continue;
      }
      n++;
      bits |= 1 << i;
      used[i]++;
      toks[i] += B.tokens(id);
      if (state === PINNED) pinned[i]++;
      if (state === POLICY) evictable[i]++;
      if (state === LOCKED) out.push(`block ${h}: its copy in ${st.local[i].name} is still locked`);
      if (state === PINNED && i !== 0) out.push(`block ${h} is pinned outside HBM`);
    }
    if (bits !== bitsOf(states))
      out.push(`block ${h}: its tier bits ${bitsOf(states)} disagree with its copies (${bits})`);
    if (n === 0) out.push(`block ${h} has no copy in any tier`);
    residentTokens += B.tokens(id);
    const hbmState = states & 3;
    if (isPending) {
      if (hbmState !== NO_COPY) pending[0]++;
      else out.push(`block ${h} is pending outside HBM`);
      if (n > 1) out.push(`block ${h} is pending but has a lower copy`);
      if (pins === 0) out.push(`block ${h} is pending but unpinned`);
    }
    if (pins > 0 && hbmState !== PINNED) out.push(`block ${h} has pins but no pinned HBM copy`);
    if (pins === 0 && hbmState === PINNED) out.push(`block ${h}'s HBM copy is pinned with no pins`);
    if ((pinsFromSeqs.get(id) ?? 0) !== pins)
      out.push(`block ${h} has ${pins} pins, sequences hold ${pinsFromSeqs.get(id) ?? 0}`);
    if (B.tokens(id) < 1 || B.tokens(id) > st.blockSize) out.push(`block ${h} has ${B.tokens(id)} tokens`);
  }
  if (resident !== B.size) out.push(`the index holds ${B.size} blocks, the list ${resident}`);
  for (const id of pinsFromSeqs.keys())
    if (!B.live(id)) out.push(`a sequence holds block ${B.hash(id)}, which is not resident`);
  st.local.forEach((t, i) => {
    if (t.used > t.capacity) out.push(`${t.name} over capacity: ${t.used} > ${t.capacity}`);
    if (t.used !== used[i]) out.push(`${t.name} used ${t.used} != recount ${used[i]}`);
    if (t.usedTokens !== toks[i]) out.push(`${t.name} tokens ${t.usedTokens} != recount ${toks[i]}`);
    if (t.pinned !== pinned[i]) out.push(`${t.name} pinned ${t.pinned} != recount ${pinned[i]}`);
    if (t.pending !== pending[i]) out.push(`${t.name} pending ${t.pending} != recount ${pending[i]}`);
    if (t.locked !== 0) out.push(`${t.name} has ${t.locked} locked copies between operations`);
    if (t.order.size !== evictable[i])
      out.push(`${t.name} policy holds ${t.order.size}, evictable ${evictable[i]}`);
    const order = t.order.order();
    if (order.length !== t.order.size) out.push(`${t.name} order lists ${order.length} of ${t.order.size}`);
    for (const id of order)
      if (!B.live(id) || B.state(id, i) !== POLICY)
        out.push(`${t.name} orders a copy that is not an evictable copy of this tier`);
  });
  const c = st.c;
  const inB = c.created + c.fetched;
  const outB = c.freed + c.dropped + c.toPool;
  if (inB - outB !== B.size)
    out.push(
      `blocks not conserved: created ${c.created} + fetched ${c.fetched} − freed ${c.freed} − dropped ${c.dropped} − toPool ${c.toPool} != resident ${B.size}`,
    );
  const inT = c.createdTokens + c.fetchedTokens;
  const outT = c.freedTokens + c.droppedTokens + c.toPoolTokens;
  if (inT - outT !== residentTokens)
    out.push(`tokens not conserved: in ${inT} − out ${outT} != resident ${residentTokens}`);
  for (let k = 0; k < c.tiers.length; k++) {
    if (c.bytesDown[k] !== c.copiesDown[k] * st.bytesPerBlock)
      out.push(`link ${k}: ${c.bytesDown[k]} bytes down for ${c.copiesDown[k]} copies`);
    if (c.bytesUp[k] !== c.copiesUp[k] * st.bytesPerBlock)
      out.push(`link ${k}: ${c.bytesUp[k]} bytes up for ${c.copiesUp[k]} copies`);
  }
  if (c.copiesDown[0] !== 0 || c.copiesUp[0] !== 0)
    out.push('HBM has no link above it, yet copies crossed it');
  return out;
}
