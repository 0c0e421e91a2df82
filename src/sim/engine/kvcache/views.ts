/** Read-only views of a replica's tier store: occupancy per tier, every block, and a transferable snapshot. */
import type { BlockInfo, KvSnapshot, TierOccupancy } from './cacheTypes';
import { copyAt, type Block, type TierStore } from './tierStore';
import type { TierName } from './types';

/** Every local tier holding a copy of b, fastest first. */
export function tiersOf(st: TierStore, b: Block): TierName[] {
  const out: TierName[] = [];
  for (let i = 0; i < st.local.length; i++) if (copyAt(b, i)) out.push(st.local[i].name);
  return out;
}

export function occupancyOf(st: TierStore): TierOccupancy[] {
  const out: TierOccupancy[] = st.local.map((t) => ({
    tier: t.name,
    capacityBlocks: t.capacity,
    usedBlocks: t.used,
    pinnedBlocks: t.pinned,
    pendingBlocks: t.pending,
    usedTokens: t.usedTokens,
    usedBytes: t.used * st.bytesPerBlock,
    shared: false,
  }));
  if (st.pool) {
    const o = st.pool.occupancy();
    out.push({
      tier: 'remote',
      capacityBlocks: o.capacityBlocks,
      usedBlocks: o.usedBlocks,
      pinnedBlocks: 0,
      pendingBlocks: 0,
      usedTokens: o.usedTokens,
      usedBytes: o.usedBytes,
      shared: true,
    });
  }
  return out;
}

export function* blocksOf(st: TierStore): IterableIterator<BlockInfo> {
  for (const b of st.map.values()) {
    const tiers = tiersOf(st, b);
    yield {
      hash: b.hash,
      tier: tiers[0],
      tiers,
      tokens: b.tokens,
      tag: b.tag,
      pins: b.pins,
      pending: b.pending,
    };
  }
}

export function snapshotOf(st: TierStore, replica: string | number, tierNames: TierName[]): KvSnapshot {
  const n = st.map.size;
  const s: KvSnapshot = {
    replica,
    tiers: [...tierNames],
    count: n,
    hashes: new Float64Array(n),
    tier: new Uint8Array(n),
    resident: new Uint8Array(n),
    tokens: new Uint32Array(n),
    tag: new Int32Array(n),
    pins: new Uint32Array(n),
    flags: new Uint8Array(n),
  };
  let i = 0;
  for (const b of st.map.values()) {
    const bits = b.bits;
    s.hashes[i] = b.hash;
    s.tier[i] = st.top(b);
    s.resident[i] = bits;
    s.tokens[i] = b.tokens;
    s.tag[i] = b.tag;
    s.pins[i] = b.pins;
    s.flags[i] = b.pending ? 1 : 0;
    i++;
  }
  return s;
}
