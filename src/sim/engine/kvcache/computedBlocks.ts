/**
 * Blocks becoming computed KV, for KvCache.commit() and insert(): a sequence's pending blocks once its prefill has
 * computed them, and computed blocks put in HBM unpinned without a sequence (as a finished request leaves them).
 * Either way a block turns findable, its subscribers hear of it and a write-through tier below HBM gets a copy; the
 * two share that step, which is why they are here together and not with acquire.ts (which makes blocks pending).
 */
import type { AcquireOptions, InsertResult } from './cacheTypes';
import { checkTag, PENDING } from './blockStore';
import { lockLower, unlockLower } from './offloads';
import type { Seq, Sequences } from './sequences';
import type { TierStore } from './tierStore';
import type { BlockHash } from './types';

/** Mark `s`'s blocks up to position `upTo` (default all) computed; returns how many were pending. */
export function commitBlocks(st: TierStore, s: Seq, upTo: number | undefined): number {
  const end = Math.min(upTo ?? s.blocks.length, s.blocks.length);
  let n = 0;
  const B = st.b;
  for (let i = s.committed; i < end; i++) {
    const id = s.blocks[i];
    if (B.isPending(id)) {
      markComputed(st, id);
      n++;
    }
  }
  if (end > s.committed) s.committed = end;
  return n;
}

/** KvCache.insert(): last to first, so the prefix ends most recently used; stops when HBM is full of pinned blocks. */
export function insertBlocks(
  st: TierStore,
  sq: Sequences,
  hashes: ArrayLike<BlockHash>,
  opts: AcquireOptions,
): InsertResult {
  const n = hashes.length;
  const last = sq.lastTokens(n, opts.tokens);
  const tag = opts.tag === undefined ? -1 : checkTag(opts.tag);
  const hbm = st.local[0];
  const c = st.c;
  const r: InsertResult = { inserted: 0, refreshed: 0, failed: 0 };
  const B = st.b;
  for (let i = n - 1; i >= 0; i--) {
    const h = hashes[i];
    const id = B.get(h);
    if (id >= 0) {
      if (B.isPending(id)) markComputed(st, id);
      if (B.hasCopy(id, 0)) {
        if (B.pins(id) === 0) hbm.order.touch(id);
      } else if (!makeRoomAbove(st, id)) {
        r.failed += i + 1;
        break;
      } else {
        st.addCopy(id, 0);
        st.writeThrough(id, 0);
      }
      B.setTag(id, tag);
      r.refreshed++;
      continue;
    }
    if (!st.makeRoom(0)) {
      r.failed += i + 1;
      break;
    }
    const tokens = i === n - 1 ? last : st.blockSize;
    const nb = st.newBlock(h, tokens, tag, false);
    c.created++;
    c.createdTokens += tokens;
    st.addCopy(nb, 0);
    st.writeThrough(nb, 0);
    r.inserted++;
  }
  return r;
}

function markComputed(st: TierStore, id: number): void {
  st.b.setFlag(id, PENDING, false);
  st.local[0].pending--;
  if (st.logs.length) st.emit(st.b.hash(id), 0, true); // a pending block's only copy is in HBM
  st.c.committed++;
  st.writeThrough(id, 0);
}

/** Room in HBM for a block whose lower copies must survive the evictions that make it. */
function makeRoomAbove(st: TierStore, id: number): boolean {
  const locked = lockLower(st, id);
  const ok = st.makeRoom(0);
  unlockLower(st, id, locked);
  return ok;
}
