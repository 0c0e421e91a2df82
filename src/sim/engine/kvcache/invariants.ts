/**
 * The books of one replica's KV cache, recounted from scratch (for tests; O(blocks)). A violation is a sentence
 * naming what disagrees. What must hold:
 * - per tier: the copies recounted equal the tier's counters (used, tokens, pinned, pending), the capacity is
 *   never exceeded, the policy orders exactly the evictable copies, and no copy is left locked between operations;
 * - per block: it has at least one copy, each filed under its own tier; pinned and pending copies are in HBM only,
 *   a pending block has no lower copy, its pins equal the positions sequences hold, its tokens fit a block;
 * - blocks are conserved: created + fetched − freed − dropped − toPool = resident, in blocks and tokens;
 * - per link, bytes = copies sent × bytes per block, in each direction;
 * - every lookup hint (a released sequence's block record, sequences.ts) that is not `gone` is the record the
 *   index holds under its hash (what lets an acquire read the hint instead of probing the index).
 */
import type { Seq } from './sequences';
import { copyAt, type Block, type TierStore } from './tierStore';

export function checkCacheInvariants(
  st: TierStore,
  seqs: Iterable<Seq>,
  hints: Iterable<readonly Block[]> = [],
): string[] {
  const out: string[] = [];
  for (const list of hints)
    for (const b of list)
      if (!b.gone && st.map.get(b.hash) !== b)
        out.push(`hint ${b.hash} is not gone but not the indexed record`);
  const L = st.local.length;
  const used = new Array<number>(L).fill(0);
  const toks = new Array<number>(L).fill(0);
  const pinned = new Array<number>(L).fill(0);
  const pending = new Array<number>(L).fill(0);
  const evictable = new Array<number>(L).fill(0);
  let residentTokens = 0;
  const pinsFromSeqs = new Map<Block, number>();
  for (const s of seqs) for (const b of s.blocks) pinsFromSeqs.set(b, (pinsFromSeqs.get(b) ?? 0) + 1);
  for (const [h, b] of st.map) {
    if (b.hash !== h) out.push(`block ${h} filed under the wrong hash`);
    let n = 0;
    for (let i = 0; i < L; i++) {
      const cp = copyAt(b, i);
      if (!cp) continue;
      n++;
      if (cp.block !== b || cp.tier !== i)
        out.push(`block ${h}: its copy in ${st.local[i].name} is misfiled`);
      used[i]++;
      toks[i] += b.tokens;
      if (cp.state === 'pinned') pinned[i]++;
      if (cp.state === 'policy') evictable[i]++;
      if (cp.state === 'locked') out.push(`block ${h}: its copy in ${st.local[i].name} is still locked`);
      if (cp.state === 'pinned' && i !== 0) out.push(`block ${h} is pinned outside HBM`);
    }
    if (n !== b.nCopies) out.push(`block ${h} counts ${b.nCopies} copies, holds ${n}`);
    let bits = 0;
    for (let i = 0; i < L; i++) if (copyAt(b, i)) bits |= 1 << i;
    if (bits !== b.bits) out.push(`block ${h}: its tier bits ${b.bits} disagree with its copies (${bits})`);
    if (b.gone) out.push(`block ${h} is resident but marked gone`);
    if (n === 0) out.push(`block ${h} has no copy in any tier`);
    residentTokens += b.tokens;
    if (b.pending) {
      if (b.c0) pending[0]++;
      else out.push(`block ${h} is pending outside HBM`);
      if (n > 1) out.push(`block ${h} is pending but has a lower copy`);
      if (b.pins === 0) out.push(`block ${h} is pending but unpinned`);
    }
    if (b.pins > 0 && b.c0?.state !== 'pinned') out.push(`block ${h} has pins but no pinned HBM copy`);
    if (b.pins === 0 && b.c0?.state === 'pinned') out.push(`block ${h}'s HBM copy is pinned with no pins`);
    if ((pinsFromSeqs.get(b) ?? 0) !== b.pins)
      out.push(`block ${h} has ${b.pins} pins, sequences hold ${pinsFromSeqs.get(b) ?? 0}`);
    if (b.tokens < 1 || b.tokens > st.blockSize) out.push(`block ${h} has ${b.tokens} tokens`);
  }
  for (const b of pinsFromSeqs.keys())
    if (st.map.get(b.hash) !== b) out.push(`a sequence holds block ${b.hash}, which is not resident`);
  st.local.forEach((t, i) => {
    if (t.used > t.capacity) out.push(`${t.name} over capacity: ${t.used} > ${t.capacity}`);
    if (t.used !== used[i]) out.push(`${t.name} used ${t.used} != recount ${used[i]}`);
    if (t.usedTokens !== toks[i]) out.push(`${t.name} tokens ${t.usedTokens} != recount ${toks[i]}`);
    if (t.pinned !== pinned[i]) out.push(`${t.name} pinned ${t.pinned} != recount ${pinned[i]}`);
    if (t.pending !== pending[i]) out.push(`${t.name} pending ${t.pending} != recount ${pending[i]}`);
    if (t.locked !== 0) out.push(`${t.name} has ${t.locked} locked copies between operations`);
    if (t.policy.size !== evictable[i])
      out.push(`${t.name} policy holds ${t.policy.size}, evictable ${evictable[i]}`);
  });
  const c = st.c;
  const inB = c.created + c.fetched;
  const outB = c.freed + c.dropped + c.toPool;
  if (inB - outB !== st.map.size)
    out.push(
      `blocks not conserved: created ${c.created} + fetched ${c.fetched} − freed ${c.freed} − dropped ${c.dropped} − toPool ${c.toPool} != resident ${st.map.size}`,
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
