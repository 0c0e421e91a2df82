/** Read-only views of a replica's tier store: occupancy per tier, every block, and a transferable snapshot. */
import type { BlockInfo, KvSnapshot, TierOccupancy } from './cacheTypes';
import type { TierStore } from './tierStore';
import type { TierName } from './types';
import { bitsOf, topOf } from './blockStore';
import { truePins, trueStates } from './runs';

/** Every local tier holding a copy of block `id`, fastest first. */
export function tiersOf(st: TierStore, id: number): TierName[] {
  const out: TierName[] = [];
  const bits = bitsOf(trueStates(st.b, st.runs, id));
  for (let i = 0; i < st.local.length; i++) if (bits & (1 << i)) out.push(st.local[i].name);
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
  const B = st.b;
  for (const id of B.ids()) {
    const tiers = tiersOf(st, id);
    yield {
      hash: B.hash(id),
      tier: tiers[0],
      tiers,
      tokens: B.tokens(id),
      tag: B.tag(id),
      pins: truePins(B, st.runs, id),
      pending: B.isPending(id),
    };
  }
}

export function snapshotOf(st: TierStore, replica: string | number, tierNames: TierName[]): KvSnapshot {
  const B = st.b;
  const n = B.size;
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
  for (const id of B.ids()) {
    s.hashes[i] = B.hash(id);
    const states = trueStates(B, st.runs, id);
    s.tier[i] = topOf(states);
    s.resident[i] = bitsOf(states);
    s.tokens[i] = B.tokens(id);
    s.tag[i] = B.tag(id);
    s.pins[i] = truePins(B, st.runs, id);
    s.flags[i] = B.isPending(id) ? 1 : 0;
    i++;
  }
  return s;
}
