import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  chainHash,
  chainHashes,
  contentKey,
  fifoPolicy,
  KvCache,
  kvBlockBytes,
  KvPool,
  ROOT_HASH,
  segmentBlockHashes,
  transferTimeS,
  type KvCacheConfig,
  type TierConfig,
} from '../src/sim/engine/kvcache';
import { findModel } from '../src/sim/engine/catalog/models';

const B = 16;
const BPB = 1e6; // 1 MB per block keeps the arithmetic readable
const PCIE = { bandwidthGBps: 10, latencyS: 1e-3 };
const NVME = { bandwidthGBps: 2, latencyS: 5e-3 };
const NIC = { bandwidthGBps: 5, latencyS: 2e-3 };

function cache(tiers: TierConfig[], extra: Partial<KvCacheConfig> = {}): KvCache {
  return new KvCache({ blockSize: B, bytesPerBlock: BPB, tiers, ...extra });
}
const ids = (...xs: string[]) => chainHashes(xs);

describe('chained hashes', () => {
  it('a block hash covers its whole prefix', () => {
    const a = ids('sys', 'task', 'x');
    const b = ids('sys', 'task', 'y');
    const c = ids('other', 'task', 'x');
    expect(a.slice(0, 2)).toEqual(b.slice(0, 2));
    expect(a[2]).not.toBe(b[2]);
    // same content for blocks 1 and 2, different first block: every later hash differs
    expect(c[1]).not.toBe(a[1]);
    expect(c[2]).not.toBe(a[2]);
    expect(a[1]).toBe(chainHash(chainHash(ROOT_HASH, contentKey('sys')), contentKey('task')));
    for (const h of [...a, ...c]) {
      expect(Number.isSafeInteger(h)).toBe(true);
      expect(h).toBeGreaterThanOrEqual(0);
      expect(h).toBeLessThan(2 ** 52);
    }
  });

  it('chainHashes(ids) equals folding chainHash over the same content ids', () => {
    const a = chainHashes([7, 8, 9]);
    const b = chainHashes([8, 9], a[0]);
    expect(a.slice(1)).toEqual(b);
  });

  it('has no collisions over 200,000 chained blocks', () => {
    const seen = new Set<number>();
    let h = ROOT_HASH;
    for (let i = 0; i < 200_000; i++) {
      h = chainHash(h, i % 7);
      seen.add(h);
    }
    expect(seen.size).toBe(200_000);
  });

  it('segment hashes: shared segments give shared blocks; the partial last block is its own block', () => {
    const p1 = segmentBlockHashes(
      [
        { id: 'sys', tokens: 1000 },
        { id: 'task', tokens: 200 },
      ],
      512,
    );
    const p2 = segmentBlockHashes(
      [
        { id: 'sys', tokens: 1000 },
        { id: 'task', tokens: 200 },
        { id: 'out', tokens: 300 },
      ],
      512,
    );
    expect(p1.hashes).toHaveLength(3); // 512 + 512 + 176
    expect(p1.lastBlockTokens).toBe(176);
    expect(p1.tokens).toBe(1200);
    expect(p2.hashes).toHaveLength(3); // 1500 tokens: 512 + 512 + 476
    expect(p2.hashes.slice(0, 2)).toEqual(p1.hashes.slice(0, 2));
    expect(p2.hashes[2]).not.toBe(p1.hashes[2]);
    // a change at token 700 (second block) keeps only the first block
    const p3 = segmentBlockHashes(
      [
        { id: 'sys', tokens: 700 },
        { id: 'edit', tokens: 1 },
        { id: 'task', tokens: 499 },
      ],
      512,
    );
    expect(p3.hashes[0]).toBe(p1.hashes[0]);
    expect(p3.hashes[1]).not.toBe(p1.hashes[1]);
    // block boundaries do not depend on how segments are listed when contents are equal
    const full = segmentBlockHashes(
      [
        { id: 'sys', tokens: 1000 },
        { id: 'task', tokens: 200 },
      ],
      512,
      { fullBlocksOnly: true },
    );
    expect(full.hashes).toEqual(p1.hashes.slice(0, 2));
    expect(full.lastBlockTokens).toBe(512);
    expect(() => segmentBlockHashes([{ id: 'x', tokens: -1 }], 16)).toThrow(RangeError);
  });

  it('a 10M-token segment hashes into 625,000 distinct 16-token blocks', () => {
    // Speed is the bench's business (never a timed test); what can fail here is a collision or a miscount at scale.
    const r = segmentBlockHashes([{ id: 'huge', tokens: 10_000_000 }], 16);
    expect(r.hashes.length).toBe(625_000);
    expect(new Set(r.hashes).size).toBe(625_000);
    expect(r.lastBlockTokens).toBe(16);
  });
});

describe('links and sizes', () => {
  it('transfer time: pipelined vs store-and-forward', () => {
    const bytes = 4e9;
    expect(transferTimeS(bytes, [PCIE])).toBeCloseTo(1e-3 + 0.4, 12);
    expect(transferTimeS(bytes, [NVME, PCIE])).toBeCloseTo(6e-3 + 2, 12);
    expect(transferTimeS(bytes, [NVME, PCIE], 'store-and-forward')).toBeCloseTo(5e-3 + 2 + 1e-3 + 0.4, 12);
    expect(transferTimeS(0, [NVME])).toBe(0);
  });

  it('kvBlockBytes: a 16-token Llama-3.1-8B bf16 block is 2 MiB (vLLM offloading blog)', () => {
    expect(kvBlockBytes(findModel('llama-3.1-8b')!, 'bf16', 16)).toBe(2 * 1024 * 1024);
  });

  it('capacity in bytes rounds down to blocks; bad configs are refused', () => {
    const c = cache([{ name: 'hbm', capacityBytes: 3.9e6 }]);
    expect(c.occupancy()[0].capacityBlocks).toBe(3);
    expect(() => cache([{ name: 'dram', capacityBlocks: 1, link: PCIE }])).toThrow(/first tier/);
    expect(() =>
      cache([
        { name: 'hbm', capacityBlocks: 1 },
        { name: 'dram', capacityBlocks: 1 },
      ]),
    ).toThrow(/link/);
    expect(() =>
      cache([
        { name: 'hbm', capacityBlocks: 1 },
        { name: 'nvme', capacityBlocks: 1, link: NVME },
        { name: 'dram', capacityBlocks: 1, link: PCIE },
      ]),
    ).toThrow(/order/);
    expect(() => cache([{ name: 'hbm', capacityBlocks: 1, capacityBytes: 1 }])).toThrow(/exactly one/);
  });
});

describe('KvCache', () => {
  it('lookup finds the longest prefix per tier with load times, and has no side effects', () => {
    const c = cache([
      { name: 'hbm', capacityBlocks: 4 },
      { name: 'dram', capacityBlocks: 4, link: PCIE },
    ]);
    const a = ids('a', 'b', 'c', 'd');
    c.insert(a);
    expect(c.lookup(a).tiers[0]).toMatchObject({ tier: 'hbm', blocks: 4, tokens: 64 });
    // inserting two more evicts the two least recently used: the tail of `a` (its prefix was touched last)
    const e = ids('e', 'f');
    c.insert(e);
    expect(c.where(a[0])).toBe('hbm');
    expect(c.where(a[3])).toBe('dram');
    expect(c.where(a[2])).toBe('dram');
    const before = JSON.stringify([c.counters(), [...c.blocks()]]);
    const r = c.lookup([...a, ...ids('zzz')]);
    expect(JSON.stringify([c.counters(), [...c.blocks()]])).toBe(before);
    expect(r.blocks).toBe(4);
    expect(r.tokens).toBe(64);
    expect(r.tiers.map((t) => t.blocks)).toEqual([2, 2]);
    expect(r.tiers[1].bytes).toBe(2e6);
    expect(r.tiers[1].timeS).toBeCloseTo(1e-3 + 2e6 / 10e9, 15);
    expect(r.loadTimeS).toBeCloseTo(r.tiers[1].timeS, 15);
    // a miss in the middle ends the prefix even if later blocks are cached
    c.drop([a[1]]);
    expect(c.lookup(a).blocks).toBe(1);
  });

  it('eviction demotes down the chain and drops at the end; counters and bytes per link add up', () => {
    const c = cache([
      { name: 'hbm', capacityBlocks: 1 },
      { name: 'dram', capacityBlocks: 1, link: PCIE },
      { name: 'nvme', capacityBlocks: 1, link: NVME },
    ]);
    const h = ids('a', 'b', 'c', 'd');
    for (const x of h) c.insert([x]);
    // a: hbm → dram → nvme → dropped; b: nvme; c: dram; d: hbm
    expect([h.map((x) => c.where(x))]).toEqual([[undefined, 'nvme', 'dram', 'hbm']]);
    const k = c.counters();
    expect(k.evictions).toEqual([3, 2, 1]);
    expect(k.demotions).toEqual([0, 3, 2]);
    expect(k.dropped).toBe(1);
    expect(k.bytesDown).toEqual([0, 3e6, 2e6]);
    // time to bring b from nvme: over nvme and pcie links, pipelined
    expect(c.loadTimeS('nvme', 1)).toBeCloseTo(6e-3 + 1e6 / 2e9, 15);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('acquire pins, promotes hits to HBM, reports tiers; release leaves them cached', () => {
    const c = cache([
      { name: 'hbm', capacityBlocks: 4 },
      { name: 'dram', capacityBlocks: 8, link: PCIE },
    ]);
    const p = ids('s', 't', 'u');
    c.insert(p);
    c.offload(p.slice(1), 'dram');
    expect(c.where(p[2])).toBe('dram');
    const req = [...p, ...ids('s', 't', 'u', 'v').slice(3)];
    const r = c.acquire('r1', req, { tokens: 3 * B + 5, tag: 7 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.hit.tiers.map((t) => t.blocks)).toEqual([1, 2]);
    expect(r.hit.tokens).toBe(48);
    expect(r.computeBlocks).toBe(1);
    expect(r.computeTokens).toBe(5);
    expect(r.newBlocks).toBe(1);
    expect(req.map((x) => c.where(x))).toEqual(['hbm', 'hbm', 'hbm', 'hbm']);
    const k = c.counters();
    expect(k.promotions).toEqual([0, 2]);
    expect(k.bytesUp).toEqual([0, 2e6]);
    // the new block is pending: not findable until committed
    expect(c.lookup(req).blocks).toBe(3);
    c.commit('r1');
    expect(c.lookup(req).blocks).toBe(4);
    expect(c.occupancy()[0]).toMatchObject({
      usedBlocks: 4,
      pinnedBlocks: 4,
      pendingBlocks: 0,
      usedTokens: 53,
    });
    // pinned blocks are never evicted: inserting more fails instead of evicting
    expect(c.insert(ids('z'))).toEqual({ inserted: 0, refreshed: 0, failed: 1 });
    expect(c.drop(req).skippedPinned).toBe(4);
    expect(c.offload(req, 'dram').skippedPinned).toBe(4);
    const snap = c.snapshot();
    expect(snap.count).toBe(4);
    expect([...snap.tag]).toEqual([7, 7, 7, 7]);
    expect([...snap.pins]).toEqual([1, 1, 1, 1]);
    c.release('r1');
    expect(c.occupancy()[0]).toMatchObject({ usedBlocks: 4, pinnedBlocks: 0 });
    expect(c.lookup(req).blocks).toBe(4);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('acquire fails cleanly when HBM is full of pinned blocks, and changes nothing', () => {
    const c = cache([
      { name: 'hbm', capacityBlocks: 3 },
      { name: 'dram', capacityBlocks: 8, link: PCIE },
    ]);
    expect(c.acquire('a', ids('a1', 'a2')).ok).toBe(true);
    c.insert(ids('x'));
    const before = JSON.stringify([c.counters().created, [...c.blocks()]]);
    const r = c.acquire('b', ids('b1', 'b2'));
    expect(r).toMatchObject({ ok: false, reason: 'hbm-full', neededBlocks: 2, availableBlocks: 1 });
    expect(JSON.stringify([c.counters().created, [...c.blocks()]])).toBe(before);
    expect(c.acquire('big', ids('1', '2', '3', '4'))).toMatchObject({ ok: false, reason: 'exceeds-hbm' });
    // sharing a pinned prefix needs no extra room
    expect(c.acquire('c', ids('a1', 'a2', 'c3')).ok).toBe(true);
    expect(c.occupancy()[0]).toMatchObject({ usedBlocks: 3, pinnedBlocks: 3 });
    expect(c.counters().acquireFailures).toBe(2);
    // once released, the pending blocks are freed
    c.release('a');
    c.release('c');
    expect(c.size).toBe(1); // x went to DRAM; a1, a2, c3 were never committed
    expect(c.counters().freed).toBe(3);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('re-acquiring with a changed last block releases the old partial block; extend appends', () => {
    const c = cache([{ name: 'hbm', capacityBlocks: 4 }]);
    const p1 = segmentBlockHashes([{ id: 'sys', tokens: 20 }], B); // 16 + 4
    expect(c.acquire('s', p1.hashes, { tokens: p1.tokens }).ok).toBe(true);
    c.commit('s');
    const p2 = segmentBlockHashes(
      [
        { id: 'sys', tokens: 20 },
        { id: 'out', tokens: 20 },
      ],
      B,
    ); // 16 + 16 + 8
    const r = c.acquire('s', p2.hashes, { tokens: p2.tokens });
    expect(r.ok && r.heldBlocks).toBe(3);
    expect(c.held('s')).toEqual(p2.hashes);
    expect(c.occupancy()[0]).toMatchObject({ pinnedBlocks: 3, usedBlocks: 4 }); // old partial block cached, unpinned
    const e = c.extend('s', ids('next'));
    expect(e.ok && e.heldBlocks).toBe(4);
    expect(c.occupancy()[0]).toMatchObject({ pinnedBlocks: 4, usedBlocks: 4 }); // the old partial block was evicted
    expect(c.checkInvariants()).toEqual([]);
  });

  it('LRU vs FIFO choose different victims after a touch', () => {
    const victimsOf = (policy: 'lru' | typeof fifoPolicy) => {
      const c = cache([{ name: 'hbm', capacityBlocks: 2, policy }]);
      const [a] = ids('a');
      const [b] = ids('b');
      c.insert([a]);
      c.insert([b]);
      c.insert([a]); // touch a
      c.insert(ids('c'));
      return [c.where(a), c.where(b)];
    };
    expect(victimsOf('lru')).toEqual(['hbm', undefined]);
    expect(victimsOf(fifoPolicy)).toEqual([undefined, 'hbm']);
  });

  it('offloading to an empty tier a block already held below it moves nothing and keeps that copy', () => {
    // Found by the KV event-log property (tests/kvcache-incremental): the offload passed through DRAM (capacity 0)
    // to NVMe, evicted the block's own NVMe copy to make room for itself, dropped the block, then wrote a copy of
    // it that no block owned.
    const c = cache([
      { name: 'hbm', capacityBlocks: 1 },
      { name: 'dram', capacityBlocks: 0, link: PCIE },
      { name: 'nvme', capacityBlocks: 1, link: NVME },
    ]);
    const [a] = ids('a');
    c.insert([a]);
    c.offload([a], 'dram'); // through DRAM to NVMe: the block's only copy
    expect(c.copiesOf(a)).toEqual(['nvme']);
    c.insert([a]); // back in HBM, its NVMe copy kept (tiers are inclusive)
    expect(c.copiesOf(a)).toEqual(['hbm', 'nvme']);
    const before = c.counters();
    const r = c.offload([a], 'dram');
    expect(r).toMatchObject({ moved: 1, written: 0, bytes: 0 });
    expect(c.copiesOf(a)).toEqual(['nvme']);
    expect(c.counters().evictions).toEqual(before.evictions);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('an offload that pushes copies down never evicts the offloaded block’s own lower copy', () => {
    // The second counterexample of the event-log property: offloading a and b to a one-block DRAM evicted b's new
    // DRAM copy to NVMe, whose room was made by evicting a's own NVMe copy, which dropped a mid-offload.
    const c = cache(
      [
        { name: 'hbm', capacityBlocks: 2 },
        { name: 'dram', capacityBlocks: 1, link: PCIE },
        { name: 'nvme', capacityBlocks: 2, link: NVME },
      ],
      { promoteOnHit: false },
    );
    const chain = ids('a', 'b', 'c', 'd');
    c.insert(chain.slice(0, 1));
    c.insert(chain);
    expect(c.copiesOf(chain[0])).toEqual(['hbm', 'nvme']);
    const r = c.offload(chain.slice(0, 2), 'dram');
    expect(r).toMatchObject({ moved: 2, written: 2 });
    expect(c.copiesOf(chain[0])).toEqual(['dram', 'nvme']); // written to DRAM, its NVMe copy kept
    expect(c.copiesOf(chain[1])).toEqual(['nvme']);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('release then drop / offload applies a tool-pause policy', () => {
    const mk = () =>
      cache([
        { name: 'hbm', capacityBlocks: 4 },
        { name: 'dram', capacityBlocks: 4, link: PCIE },
        { name: 'nvme', capacityBlocks: 4, link: NVME },
      ]);
    const h = ids('a', 'b');
    const c1 = mk();
    c1.acquire(1, h);
    c1.commit(1);
    expect(c1.release(1, 'drop').dropped).toBe(2);
    expect(c1.size).toBe(0);
    const c2 = mk();
    c2.acquire(1, h);
    c2.commit(1);
    const r = c2.release(1, 'nvme');
    expect(r.offload).toMatchObject({ moved: 2, bytes: 4e6 });
    expect(r.offload!.timeS).toBeCloseTo(6e-3 + 2e6 / 2e9, 12);
    expect(h.map((x) => c2.where(x))).toEqual(['nvme', 'nvme']);
    expect(c2.counters().bytesDown).toEqual([0, 2e6, 2e6]);
    expect(c2.lookup(h).tiers[2].blocks).toBe(2);
    expect(c2.checkInvariants()).toEqual([]);
  });

  it('promoteOnHit: false sends promoted blocks back below HBM on release', () => {
    const c = cache(
      [
        { name: 'hbm', capacityBlocks: 4 },
        { name: 'dram', capacityBlocks: 4, link: PCIE },
      ],
      { promoteOnHit: false },
    );
    const h = ids('a', 'b', 'c');
    c.insert(h);
    c.offload(h.slice(0, 2), 'dram');
    c.acquire('r', h);
    expect(h.map((x) => c.where(x))).toEqual(['hbm', 'hbm', 'hbm']);
    c.release('r');
    expect(h.map((x) => c.where(x))).toEqual(['dram', 'dram', 'hbm']);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('a shared remote pool: one replica demotes into it, another finds and copies from it', () => {
    const pool = new KvPool({ bytesPerBlock: BPB, capacityBlocks: 10 });
    const mk = (id: number, hbm: number) =>
      cache(
        [
          { name: 'hbm', capacityBlocks: hbm },
          { name: 'dram', capacityBlocks: 1, link: PCIE },
          { name: 'remote', pool, link: NIC },
        ],
        { id },
      );
    const r0 = mk(0, 2);
    const r1 = mk(1, 3);
    const h = ids('sys', 'tools', 'task');
    r0.insert(h); // HBM [tools, sys] (sys most recent), DRAM [task]
    r0.insert(ids('other', 'x')); // task then tools fall into the pool; DRAM [sys]; HBM [x, other]
    expect(h.map((x) => r0.where(x))).toEqual(['dram', 'remote', 'remote']);
    expect(h.map((x) => r0.computedTier(x))).toEqual([1, 2, 2]); // indexes of tierNames: dram, remote
    expect(r0.computedTier(ids('absent')[0])).toBe(-1);
    r0.insert(ids('more')); // HBM evicts x, DRAM pushes sys into the pool
    expect(h.map((x) => pool.has(x))).toEqual([true, true, true]);
    expect(h.some((x) => [...r0.blocks()].some((b) => b.hash === x))).toBe(false); // left replica 0
    expect(r0.counters().toPool).toBe(3);
    expect(r0.counters().bytesDown).toEqual([0, 4e6, 3e6]);
    // replica 1 has nothing locally and finds all of h in the pool: remote → DRAM (NIC) → HBM (PCIe), pipelined
    const look = r1.lookup(h);
    expect(look.tiers.map((t) => [t.tier, t.blocks])).toEqual([
      ['hbm', 0],
      ['dram', 0],
      ['remote', 3],
    ]);
    expect(look.tiers[2].timeS).toBeCloseTo(3e-3 + 3e6 / 5e9, 12);
    const a = r1.acquire('q', h);
    expect(a.ok && a.hit.tiers[2].blocks).toBe(3);
    expect(r1.counters().fetched).toBe(3);
    expect(r1.counters().bytesUp).toEqual([0, 3e6, 3e6]);
    expect(h.every((x) => pool.has(x))).toBe(true); // the pool keeps its copies
    expect(pool.counters().fetches).toBe(3);
    // demoting blocks the pool already holds moves no bytes and stores nothing new
    r1.release('q');
    const before = pool.counters();
    r1.insert(ids('p', 'q', 'r', 's')); // pushes h's three blocks down and out of replica 1
    const after = pool.counters();
    expect(h.map((x) => r1.where(x))).toEqual(['remote', 'remote', 'remote']);
    expect(after.dedupPuts - before.dedupPuts).toBe(3);
    expect(after.puts - before.puts).toBe(0);
    expect(after.bytesIn).toBe(before.bytesIn);
    expect(r1.counters().bytesDown[2]).toBe(0);
    for (const x of [r0, r1]) expect(x.checkInvariants()).toEqual([]);
    expect(pool.checkInvariants()).toEqual([]);
  });

  it('blocks() reports every block with tier, tag, pins and pending', () => {
    const c = cache([
      { name: 'hbm', capacityBlocks: 2 },
      { name: 'dram', capacityBlocks: 2, link: PCIE },
    ]);
    c.insert(ids('a'), { tag: 3 });
    c.offload(ids('a'), 'dram');
    c.acquire('s', ids('b'), { tag: 9, tokens: 5 });
    const all = [...c.blocks()].sort((x, y) => x.tier.localeCompare(y.tier));
    expect(all).toEqual([
      { hash: ids('a')[0], tier: 'dram', tiers: ['dram'], tokens: 16, tag: 3, pins: 0, pending: false },
      { hash: ids('b')[0], tier: 'hbm', tiers: ['hbm'], tokens: 5, tag: 9, pins: 1, pending: true },
    ]);
  });
});

// ─────────────────────────── property tests ───────────────────────────

/** Six chains over a small tree of contents, so sequences share prefixes. */
const CHAINS: number[][] = (() => {
  const out: number[][] = [];
  for (let k = 0; k < 6; k++)
    out.push(chainHashes(Array.from({ length: 6 }, (_, i) => (i < 2 ? `s${k % 2}-${i}` : `c${k}-${i}`))));
  return out;
})();

type Op =
  | { k: 'acquire'; r: number; seq: number; chain: number; len: number; partial: number }
  | { k: 'extend'; r: number; seq: number; chain: number; at: number }
  | { k: 'commit'; r: number; seq: number; upTo: number }
  | { k: 'release'; r: number; seq: number; then: 'cache' | 'drop' | 'dram' | 'nvme' | 'remote' }
  | { k: 'insert'; r: number; chain: number; len: number }
  | { k: 'offload'; r: number; chain: number; len: number; to: 'dram' | 'nvme' | 'remote' }
  | { k: 'drop'; r: number; chain: number; len: number }
  | { k: 'lookup'; r: number; chain: number }
  | { k: 'pooldrop'; chain: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    k: fc.constant('acquire' as const),
    r: fc.nat(1),
    seq: fc.nat(3),
    chain: fc.nat(5),
    len: fc.integer({ min: 1, max: 6 }),
    partial: fc.integer({ min: 1, max: B }),
  }),
  fc.record({
    k: fc.constant('extend' as const),
    r: fc.nat(1),
    seq: fc.nat(3),
    chain: fc.nat(5),
    at: fc.nat(5),
  }),
  fc.record({ k: fc.constant('commit' as const), r: fc.nat(1), seq: fc.nat(3), upTo: fc.nat(6) }),
  fc.record({
    k: fc.constant('release' as const),
    r: fc.nat(1),
    seq: fc.nat(3),
    then: fc.constantFrom(
      'cache' as const,
      'drop' as const,
      'dram' as const,
      'nvme' as const,
      'remote' as const,
    ),
  }),
  fc.record({
    k: fc.constant('insert' as const),
    r: fc.nat(1),
    chain: fc.nat(5),
    len: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({
    k: fc.constant('offload' as const),
    r: fc.nat(1),
    chain: fc.nat(5),
    len: fc.integer({ min: 1, max: 6 }),
    to: fc.constantFrom('dram' as const, 'nvme' as const, 'remote' as const),
  }),
  fc.record({
    k: fc.constant('drop' as const),
    r: fc.nat(1),
    chain: fc.nat(5),
    len: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({ k: fc.constant('lookup' as const), r: fc.nat(1), chain: fc.nat(5) }),
  fc.record({ k: fc.constant('pooldrop' as const), chain: fc.nat(5) }),
);

const setupArb = fc.record({
  hbm: fc.integer({ min: 0, max: 8 }),
  dram: fc.option(fc.integer({ min: 0, max: 6 })),
  nvme: fc.option(fc.integer({ min: 0, max: 6 })),
  pool: fc.option(fc.integer({ min: 0, max: 8 })),
  policy: fc.constantFrom('lru' as const, 'fifo' as const),
  promoteOnHit: fc.boolean(),
  transferModel: fc.constantFrom('pipelined' as const, 'store-and-forward' as const),
  dramWrite: fc.constantFrom('write-back' as const, 'write-through' as const, 'none' as const),
  nvmeWrite: fc.constantFrom('write-back' as const, 'write-through' as const, 'none' as const),
});

type Setup = typeof setupArb extends fc.Arbitrary<infer T> ? T : never;

function build(s: Setup) {
  const pool =
    s.pool !== null ? new KvPool({ bytesPerBlock: BPB, capacityBlocks: s.pool, policy: s.policy }) : null;
  const tiers = (): TierConfig[] => {
    const t: TierConfig[] = [{ name: 'hbm', capacityBlocks: s.hbm, policy: s.policy }];
    if (s.dram !== null)
      t.push({ name: 'dram', capacityBlocks: s.dram, policy: s.policy, link: PCIE, write: s.dramWrite });
    if (s.nvme !== null)
      t.push({ name: 'nvme', capacityBlocks: s.nvme, policy: s.policy, link: NVME, write: s.nvmeWrite });
    if (pool) t.push({ name: 'remote', pool, link: NIC });
    return t;
  };
  const replicas = [0, 1].map((id) =>
    cache(tiers(), { id, promoteOnHit: s.promoteOnHit, transferModel: s.transferModel }),
  );
  return { pool, replicas };
}

describe('KvCache properties (fast-check, random operation sequences)', () => {
  it('no tier over capacity, one record per block, pinned blocks stay in HBM, accounting exact, lookups pure (every write policy)', () => {
    fc.assert(
      fc.property(setupArb, fc.array(opArb, { minLength: 1, maxLength: 60 }), (setup, ops) => {
        const { pool, replicas } = build(setup);
        // model: what each sequence holds (per replica)
        const heldModel = replicas.map(() => new Map<number, number[]>());
        for (const op of ops) {
          if (op.k === 'pooldrop') {
            pool?.drop([CHAINS[op.chain][0]]);
            continue;
          }
          const c = replicas[op.r];
          const model = heldModel[op.r];
          const hasTier = (t: string) => c.tierNames.includes(t as never);
          switch (op.k) {
            case 'acquire': {
              const hashes = CHAINS[op.chain].slice(0, op.len);
              const r = c.acquire(op.seq, hashes, { tokens: (op.len - 1) * B + op.partial, tag: op.seq });
              if (r.ok) model.set(op.seq, hashes);
              else expect(r.neededBlocks).toBeGreaterThan(r.availableBlocks);
              break;
            }
            case 'extend': {
              const h = CHAINS[op.chain][op.at];
              const held = model.get(op.seq) ?? [];
              if (held.includes(h)) break;
              const r = c.extend(op.seq, [h]);
              if (r.ok) model.set(op.seq, [...held, h]);
              break;
            }
            case 'commit':
              c.commit(op.seq, op.upTo);
              break;
            case 'release':
              if (op.then !== 'cache' && op.then !== 'drop' && !hasTier(op.then)) break;
              c.release(op.seq, op.then);
              model.delete(op.seq);
              break;
            case 'insert':
              c.insert(CHAINS[op.chain].slice(0, op.len));
              break;
            case 'offload':
              if (hasTier(op.to)) c.offload(CHAINS[op.chain].slice(0, op.len), op.to);
              break;
            case 'drop':
              c.drop(CHAINS[op.chain].slice(0, op.len));
              break;
            case 'lookup': {
              const before = JSON.stringify([c.counters(), [...c.blocks()], pool?.counters()]);
              const a = c.lookup(CHAINS[op.chain]);
              const b = c.lookup(CHAINS[op.chain]);
              expect(b).toEqual(a);
              expect(JSON.stringify([c.counters(), [...c.blocks()], pool?.counters()])).toBe(before);
              break;
            }
          }
          for (const [i, rep] of replicas.entries()) {
            expect(rep.checkInvariants()).toEqual([]);
            for (const o of rep.occupancy()) expect(o.usedBlocks).toBeLessThanOrEqual(o.capacityBlocks);
            // every block a sequence holds is in HBM (pinned blocks are never evicted or moved)
            for (const [seq, hashes] of heldModel[i]) {
              expect(rep.held(seq)).toEqual(hashes);
              for (const h of hashes) expect(rep.where(h)).toBe('hbm');
            }
            // a block appears once among the replica's blocks
            const seen = new Set<number>();
            for (const b of rep.blocks()) {
              expect(seen.has(b.hash)).toBe(false);
              seen.add(b.hash);
            }
          }
          if (pool) expect(pool.checkInvariants()).toEqual([]);
        }
        // releasing everything unpins everything and keeps the accounting exact
        for (const [i, rep] of replicas.entries()) {
          for (const seq of heldModel[i].keys()) rep.release(seq);
          expect(rep.occupancy()[0].pinnedBlocks).toBe(0);
          expect(rep.occupancy()[0].pendingBlocks).toBe(0);
          const k = rep.counters();
          expect(k.created + k.fetched - k.freed - k.dropped - k.toPool).toBe(rep.size);
          expect(rep.checkInvariants()).toEqual([]);
        }
      }),
      { numRuns: 300, seed: 20260301 },
    );
  });

  it('a single LRU HBM tier replaying inserts matches a reference LRU (hits counted by lookup)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.tuple(fc.nat(5), fc.integer({ min: 1, max: 6 })), { maxLength: 80 }),
        (cap, reqs) => {
          const c = cache([{ name: 'hbm', capacityBlocks: cap }]);
          const ref: number[] = []; // most recent last
          for (const [chain, len] of reqs) {
            const hashes = CHAINS[chain].slice(0, len);
            let hit = 0;
            while (hit < len && ref.includes(hashes[hit])) hit++;
            expect(c.lookup(hashes).blocks).toBe(hit);
            c.insert(hashes);
            for (let i = len - 1; i >= 0; i--) {
              const j = ref.indexOf(hashes[i]);
              if (j >= 0) ref.splice(j, 1);
              ref.push(hashes[i]);
              if (ref.length > cap) ref.shift();
            }
          }
          expect(new Set([...c.blocks()].map((b) => b.hash))).toEqual(new Set(ref));
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  });
});
