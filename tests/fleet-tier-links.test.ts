/**
 * A replica's links to its lower tiers (fleet/tierLinks.ts) and where a released tail's copy queues
 * (fleet/tailReuse.ts): reloads and stores take turns per direction, the shared pool's bandwidth is one queue for
 * every replica and both directions, and a tail offloaded at a pause is a store, so it never delays a reload.
 */
import { describe, expect, it } from 'vitest';
import { KvCache } from '../src/sim/engine/kvcache';
import { TailReuse } from '../src/sim/engine/fleet/tailReuse';
import { TierLinks, type SharedLink } from '../src/sim/engine/fleet/tierLinks';

const PAGE = 256;
const BLOCK = 16;
const PCIE = { bandwidthGBps: 10, latencyS: 1e-3 };

describe('TierLinks', () => {
  it('queues transfers first in, first out in each direction, and the two directions apart (full duplex)', () => {
    const links = new TierLinks(['hbm', 'dram'], null);
    expect(links.store(1, 0, 2, 0)).toBe(2);
    expect(links.store(1, 0, 2, 0)).toBe(4); // behind the first store
    expect(links.reload(1, 0, 1, 0)).toBe(1); // the upward direction is free
    expect(links.reload(1, 0.5, 1, 0)).toBe(2); // behind the first reload
    expect(links.reload(1, 5, 1, 0)).toBe(6); // a link idle since 2 starts when asked
  });

  it('makes transfers to and from the shared pool take turns on its bandwidth, whichever replica or direction', () => {
    const pool: SharedLink = { bytesPerS: 1e9, freeAt: 0 };
    const a = new TierLinks(['hbm', 'dram', 'remote'], pool);
    const b = new TierLinks(['hbm', 'dram', 'remote'], pool);
    // 2 GB over a 1 GB/s pool takes 2 s, longer than the replica's own path (0.5 s).
    expect(a.reload(2, 0, 0.5, 2e9)).toBe(2);
    expect(pool.freeAt).toBe(2);
    expect(b.store(2, 0, 0.5, 1e9)).toBe(3); // another replica, the other direction: after the first
    expect(a.reload(1, 0, 0.5, 2e9)).toBe(0.5); // DRAM is not the pool
  });

  it('books the copies a cache wrote down, and returns when the write-backs that evictions wait for are done', () => {
    const cache = new KvCache({
      blockSize: PAGE,
      bytesPerBlock: 1e6,
      tiers: [
        { name: 'hbm', capacityBlocks: 4 },
        { name: 'dram', capacityBlocks: 16, link: PCIE, write: 'write-through' },
      ],
    });
    const links = new TierLinks(cache.tierNames, null);
    expect(links.bookStores(cache, 1)).toBe(1); // nothing written yet
    cache.insert([11, 12, 13], { tokens: 3 * PAGE });
    const through = cache.writtenThrough(1);
    expect(through).toBe(3);
    // Write-through copies run behind the compute: nobody waits for them, but the downward link is busy.
    expect(links.bookStores(cache, 1)).toBe(1);
    expect(links.store(1, 1, 0, 0)).toBeCloseTo(1 + cache.loadTimeS('dram', through), 12);
    expect(links.bookStores(cache, 2)).toBe(2); // the same copies are not booked twice
  });
});

describe('TailReuse', () => {
  function setUp() {
    const cache = new KvCache({
      blockSize: PAGE,
      bytesPerBlock: 1e6,
      tiers: [
        { name: 'hbm', capacityBlocks: 8 },
        { name: 'dram', capacityBlocks: 8, link: PCIE },
      ],
    });
    const links = new TierLinks(cache.tierNames, null);
    const tails = new TailReuse(cache, links, {
      blockSize: PAGE,
      engineBlockSize: BLOCK,
      pages: null,
      tiers: cache.tierNames,
    });
    return { cache, links, tails };
  }
  const tail = { page: 2, blocks: 5, hash: 4242, parent: 77 };

  it('offloads a paused session’s tail as a store: the link’s downward queue, never its reloads', () => {
    const { cache, links, tails } = setUp();
    tails.place(tail, 'dram', 3, 10);
    expect(cache.where(tail.hash)).toBe('dram');
    // The upward direction is free at 10: a reload asked then starts at once.
    expect(links.reload(1, 10, 0.25, 0)).toBe(10.25);
    // The downward direction carries the tail's copy first.
    expect(links.store(1, 10, 0.25, 0)).toBeGreaterThan(10.25);
  });

  it('keeps one placed tail per session: a newer one drops the older from the cache', () => {
    const { cache, tails } = setUp();
    tails.place(tail, 'cache', 3, 0);
    expect(cache.where(tail.hash)).toBe('hbm');
    const next = { ...tail, page: 3, hash: 4343, parent: 88 };
    tails.place(next, 'cache', 3, 1);
    expect(cache.where(tail.hash)).toBeUndefined();
    expect(cache.where(next.hash)).toBe('hbm');
    tails.place(null, 'drop', 3, 2); // the session ended: its tail goes too
    expect(cache.where(next.hash)).toBeUndefined();
  });

  it('hands a held tail back once', () => {
    const { tails } = setUp();
    tails.hold(7, tail);
    expect(tails.takeHeld(7)).toBe(tail);
    expect(tails.takeHeld(7)).toBeUndefined();
  });
});
