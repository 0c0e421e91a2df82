/**
 * Inclusive tiers and write policies (src/sim/engine/kvcache): a block may have a copy in HBM and in DRAM at once;
 * bytes cross a link once per copy made. Worked by hand on 1 MB blocks, then checked over random operation
 * sequences (fast-check) for every write policy.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chainHashes, KvCache, type TierConfig, type WritePolicy } from '../src/sim/engine/kvcache';

const B = 16;
const BPB = 1e6;
const PCIE = { bandwidthGBps: 10, latencyS: 1e-3 };
const NVME = { bandwidthGBps: 2, latencyS: 5e-3 };

function cache(hbm: number, dram: number, write: WritePolicy, promoteOnHit = true): KvCache {
  return new KvCache({
    blockSize: B,
    bytesPerBlock: BPB,
    promoteOnHit,
    tiers: [
      { name: 'hbm', capacityBlocks: hbm },
      { name: 'dram', capacityBlocks: dram, link: PCIE, write },
    ],
  });
}
const ids = (...xs: string[]) => chainHashes(xs);

describe('write-through', () => {
  it('copies each full block to DRAM once as it is computed; evicting the HBM copy then moves nothing', () => {
    const c = cache(3, 10, 'write-through');
    const h = ids('a', 'b', 'c');
    c.acquire('s', h);
    expect(c.counters().bytesDown[1]).toBe(0); // pending blocks are not written
    c.commit('s');
    expect(h.map((x) => c.copiesOf(x))).toEqual([
      ['hbm', 'dram'],
      ['hbm', 'dram'],
      ['hbm', 'dram'],
    ]);
    expect(h.map((x) => c.where(x))).toEqual(['hbm', 'hbm', 'hbm']); // served from the fastest copy
    expect(c.counters()).toMatchObject({ writeThroughs: [0, 3], copiesDown: [0, 3], bytesDown: [0, 3e6] });
    expect(c.occupancy().map((o) => o.usedBlocks)).toEqual([3, 3]);
    // A pause under "offload" would now free HBM without a byte: DRAM already holds every block.
    const r = c.release('s', 'dram');
    expect(r.offload).toMatchObject({ moved: 3, written: 0, bytes: 0, timeS: 0 });
    expect(h.map((x) => c.copiesOf(x))).toEqual([['dram'], ['dram'], ['dram']]);
    // The resume reads them up (3 copies over PCIe) and DRAM keeps its copies.
    const a = c.acquire('s', h);
    expect(a.ok && a.hit.tiers.map((t) => t.blocks)).toEqual([0, 3]);
    expect(c.counters()).toMatchObject({ bytesUp: [0, 3e6], bytesDown: [0, 3e6], promotions: [0, 3] });
    expect(c.copiesOf(h[0])).toEqual(['hbm', 'dram']);
    // LRU evicts the HBM copies for another session's blocks: nothing moves down for h.
    c.release('s');
    c.insert(ids('x', 'y', 'z'));
    expect(h.map((x) => c.copiesOf(x))).toEqual([['dram'], ['dram'], ['dram']]);
    expect(c.counters().bytesDown[1]).toBe(6e6); // x, y, z written through; h's evictions moved nothing
    expect(c.counters().demotions[1]).toBe(0);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('writes only full blocks: a partial last block is written when decoding fills it', () => {
    const c = cache(4, 10, 'write-through');
    const h = ids('a', 'b');
    c.acquire('s', h, { tokens: B + 5 });
    c.commit('s');
    expect(h.map((x) => c.copiesOf(x))).toEqual([['hbm', 'dram'], ['hbm']]);
    c.extend('s', ids('a', 'b', 'c').slice(2), { tokens: 2 * B + 1 }); // b is full now
    expect(c.copiesOf(h[1])).toEqual(['hbm', 'dram']);
    expect(c.counters().bytesDown[1]).toBe(2e6);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('DRAM evicts by LRU; a block whose DRAM copy went keeps its HBM copy, and is dropped if HBM evicts it', () => {
    const c = cache(4, 2, 'write-through');
    const h = ids('a', 'b', 'c');
    c.insert(h); // written last to first: c, b, a → DRAM evicts c to make room for a
    expect(h.map((x) => c.copiesOf(x))).toEqual([['hbm', 'dram'], ['hbm', 'dram'], ['hbm']]);
    expect(c.counters().evictions).toEqual([0, 1]);
    expect(c.occupancy()[0].usedBlocks).toBe(3); // a lower copy is never counted in HBM, nor lost from it
    c.insert(ids('p', 'q'));
    // HBM (4) evicts its LRU copy, c's: with no DRAM copy and a write-through DRAM, it is dropped
    expect(c.where(h[2])).toBeUndefined();
    expect(c.counters().dropped).toBe(1);
    expect(c.checkInvariants()).toEqual([]);
  });
});

describe('write-back and none', () => {
  it('write-back writes a block once, on its first eviction; after a reload the next eviction moves nothing', () => {
    const c = cache(2, 10, 'write-back');
    const [a] = ids('a');
    c.insert([a]);
    expect(c.counters().bytesDown[1]).toBe(0);
    c.insert(ids('x', 'y')); // evicts a: written back
    expect(c.copiesOf(a)).toEqual(['dram']);
    expect(c.counters()).toMatchObject({ bytesDown: [0, 1e6], demotions: [0, 1] });
    c.acquire('s', [a]); // read up; DRAM keeps its copy
    c.release('s');
    expect(c.copiesOf(a)).toEqual(['hbm', 'dram']);
    c.insert(ids('p', 'q')); // evicts a again
    expect(c.copiesOf(a)).toEqual(['dram']);
    expect(c.counters().bytesDown[1]).toBe(3e6); // a once; x and y on their own evictions
    expect(c.counters().copiesDown[1]).toBe(3);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('none: an eviction drops the block; only an explicit offload writes to DRAM', () => {
    const c = cache(1, 10, 'none');
    const [a, b] = [ids('a')[0], ids('b')[0]];
    c.insert([a]);
    c.insert([b]);
    expect(c.where(a)).toBeUndefined();
    expect(c.counters()).toMatchObject({ dropped: 1, bytesDown: [0, 0] });
    expect(c.offload([b], 'dram')).toMatchObject({ moved: 1, written: 1, bytes: 1e6 });
    expect(c.copiesOf(b)).toEqual(['dram']);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('promoteOnHit: false frees the HBM copy on release without a transfer while the lower copy lives', () => {
    const c = cache(4, 4, 'write-back', false);
    const h = ids('a', 'b');
    c.insert(h);
    c.offload(h, 'dram');
    const down = c.counters().bytesDown[1];
    c.acquire('r', h);
    c.release('r');
    expect(h.map((x) => c.copiesOf(x))).toEqual([['dram'], ['dram']]);
    expect(c.counters().bytesDown[1]).toBe(down);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('offload to NVMe writes from the nearest copy above and counts every link crossed', () => {
    const c = new KvCache({
      blockSize: B,
      bytesPerBlock: BPB,
      tiers: [
        { name: 'hbm', capacityBlocks: 4 },
        { name: 'dram', capacityBlocks: 4, link: PCIE, write: 'write-through' },
        { name: 'nvme', capacityBlocks: 4, link: NVME },
      ],
    });
    const h = ids('a', 'b');
    c.insert(h); // through to DRAM
    const r = c.offload(h, 'nvme'); // from DRAM: one link
    expect(r).toMatchObject({ moved: 2, written: 2, bytes: 2e6 });
    expect(r.timeS).toBeCloseTo(5e-3 + 2e6 / 2e9, 12);
    expect(c.counters().bytesDown).toEqual([0, 2e6, 2e6]);
    expect(h.map((x) => c.copiesOf(x))).toEqual([['nvme'], ['nvme']]);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('refuses a write policy on HBM and an unknown one', () => {
    const bad = (tiers: TierConfig[]) => () => new KvCache({ blockSize: B, bytesPerBlock: BPB, tiers });
    expect(bad([{ name: 'hbm', capacityBlocks: 1, write: 'write-back' }])).toThrow(/HBM has no write policy/);
    expect(
      bad([
        { name: 'hbm', capacityBlocks: 1 },
        { name: 'dram', capacityBlocks: 1, link: PCIE, write: 'sometimes' as WritePolicy },
      ]),
    ).toThrow(/unknown write policy/);
  });
});

// ─────────────────────────── properties ───────────────────────────

const CHAINS = Array.from({ length: 5 }, (_, k) =>
  chainHashes(Array.from({ length: 5 }, (_, i) => (i < 2 ? `s-${i}` : `c${k}-${i}`))),
);

type Op =
  | { k: 'acquire'; seq: number; chain: number; len: number; partial: number }
  | { k: 'commit'; seq: number }
  | { k: 'release'; seq: number; then: 'cache' | 'drop' | 'dram' }
  | { k: 'insert'; chain: number; len: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    k: fc.constant('acquire' as const),
    seq: fc.nat(2),
    chain: fc.nat(4),
    len: fc.integer({ min: 1, max: 5 }),
    partial: fc.integer({ min: 1, max: B }),
  }),
  fc.record({ k: fc.constant('commit' as const), seq: fc.nat(2) }),
  fc.record({
    k: fc.constant('release' as const),
    seq: fc.nat(2),
    then: fc.constantFrom('cache' as const, 'drop' as const, 'dram' as const),
  }),
  fc.record({ k: fc.constant('insert' as const), chain: fc.nat(4), len: fc.integer({ min: 1, max: 5 }) }),
);

describe('inclusive tiers (fast-check)', () => {
  it('per tier no copy lost or double-counted, capacity kept, lower copies never in HBM, bytes = copies × block', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 30 }),
        fc.constantFrom<WritePolicy>('write-through', 'write-back', 'none'),
        fc.boolean(),
        fc.array(opArb, { minLength: 1, maxLength: 50 }),
        (hbm, dram, write, promoteOnHit, ops) => {
          const c = cache(hbm, dram, write, promoteOnHit);
          for (const op of ops) {
            if (op.k === 'acquire')
              c.acquire(op.seq, CHAINS[op.chain].slice(0, op.len), { tokens: (op.len - 1) * B + op.partial });
            else if (op.k === 'commit') c.commit(op.seq);
            else if (op.k === 'release') c.release(op.seq, op.then);
            else c.insert(CHAINS[op.chain].slice(0, op.len));
            expect(c.checkInvariants()).toEqual([]);
            const occ = c.occupancy();
            const all = [...c.blocks()];
            // each tier's count is the number of blocks holding a copy there: none lost, none counted twice
            for (const [i, t] of (['hbm', 'dram'] as const).entries()) {
              expect(occ[i].usedBlocks).toBe(all.filter((b) => b.tiers.includes(t)).length);
              expect(occ[i].usedBlocks).toBeLessThanOrEqual(occ[i].capacityBlocks);
            }
            // a block is "in HBM" only through its own HBM copy, never through a DRAM copy
            for (const b of all) {
              expect(b.tier).toBe(b.tiers[0]);
              expect(c.where(b.hash) === 'hbm').toBe(b.tiers.includes('hbm'));
              if (b.pins > 0) expect(b.tiers[0]).toBe('hbm');
            }
            const k = c.counters();
            expect(k.bytesDown[1]).toBe(k.copiesDown[1] * BPB);
            expect(k.bytesUp[1]).toBe(k.copiesUp[1] * BPB);
            // while DRAM never evicts, a block (one record's lifetime) is written to it at most once
            if (k.evictions[1] === 0) expect(k.copiesDown[1]).toBeLessThanOrEqual(k.created + k.fetched);
            if (write !== 'write-through') expect(k.writeThroughs[1]).toBe(0);
          }
        },
      ),
      { numRuns: 300, seed: 20261201 },
    );
  });
});
