/**
 * The kvcache's speed shortcuts against the plain operations they stand for (fast-check): each pair of caches
 * runs the same random operations, one through the shortcut and one through the reference, and must agree after
 * every step on every block (tiers, pins, tags, pending), the counters and the KV events, so that an eviction order
 * that drifted apart would show as soon as a later eviction picks a different victim.
 * - A release to a lower tier parks the sequence's HBM copies instead of handing them to HBM's LRU only to take
 *   them out again (sequences.ts `unpinAll(…, park)`): the reference releases to `cache` and then offloads the
 *   blocks the sequence held.
 * - An acquire reads the records a released sequence held at the same positions instead of probing the index
 *   (sequences.ts, `lookupHints`): the reference keeps no hints. With a capacity of 1 hints are forgotten as others
 *   are released, and checkInvariants checks that every hint not gone is the indexed record.
 * - extendTo reads the positions it adds from the sequence's whole list: the reference extends with a slice of it.
 * - The open-addressing HashMap (kvcache/hashMap.ts) against a Map, through growth and backward-shift deletions.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chainHashes, KvCache, type KvCacheConfig, type WritePolicy } from '../src/sim/engine/kvcache';
import { HashMap } from '../src/sim/engine/kvcache/hashMap';

const B = 4;
const BPB = 1e6;
const PCIE = { bandwidthGBps: 10, latencyS: 1e-3 };
const NVME = { bandwidthGBps: 2, latencyS: 5e-3 };

function config(
  hbm: number,
  dram: number,
  nvme: number,
  write: WritePolicy,
  promoteOnHit: boolean,
): KvCacheConfig {
  return {
    blockSize: B,
    bytesPerBlock: BPB,
    promoteOnHit,
    tiers: [
      { name: 'hbm', capacityBlocks: hbm },
      { name: 'dram', capacityBlocks: dram, link: PCIE, write },
      { name: 'nvme', capacityBlocks: nvme, link: NVME },
    ],
  };
}

/** Chains sharing a two-block prefix, as sessions of one app do, each a continuation of the one before it. */
const CHAINS = Array.from({ length: 6 }, (_, k) =>
  chainHashes(Array.from({ length: 8 }, (_, i) => (i < 2 ? `p-${i}` : `c${k % 3}-${i}`))),
);

type Then = 'cache' | 'drop' | 'dram' | 'nvme';
type Op =
  | { k: 'acquire'; seq: number; chain: number; len: number; partial: number }
  | { k: 'extend'; seq: number; chain: number; from: number; n: number }
  | { k: 'commit'; seq: number }
  | { k: 'release'; seq: number; then: Then }
  | { k: 'insert'; chain: number; len: number }
  | { k: 'offload'; chain: number; len: number; to: 'dram' | 'nvme' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      k: fc.constant('acquire' as const),
      seq: fc.nat(3),
      chain: fc.nat(5),
      len: fc.integer({ min: 1, max: 8 }),
      partial: fc.integer({ min: 1, max: B }),
    }),
    weight: 4,
  },
  fc.record({
    k: fc.constant('extend' as const),
    seq: fc.nat(3),
    chain: fc.nat(5),
    from: fc.nat(7),
    n: fc.integer({ min: 1, max: 3 }),
  }),
  { arbitrary: fc.record({ k: fc.constant('commit' as const), seq: fc.nat(3) }), weight: 3 },
  {
    arbitrary: fc.record({
      k: fc.constant('release' as const),
      seq: fc.nat(3),
      then: fc.constantFrom<Then>('cache', 'drop', 'dram', 'nvme'),
    }),
    weight: 3,
  },
  fc.record({ k: fc.constant('insert' as const), chain: fc.nat(5), len: fc.integer({ min: 1, max: 8 }) }),
  fc.record({
    k: fc.constant('offload' as const),
    chain: fc.nat(5),
    len: fc.integer({ min: 1, max: 8 }),
    to: fc.constantFrom('dram' as const, 'nvme' as const),
  }),
);

/** Everything observable about a cache: its blocks, its counters, the events it sent. */
function state(c: KvCache, events: number[]): unknown {
  return { blocks: [...c.blocks()], counters: c.counters(), events: events.slice() };
}

function recorder(c: KvCache): number[] {
  const out: number[] = [];
  c.attach({ record: (hash, tier, stored) => out.push(hash, tier, stored ? 1 : 0) });
  return out;
}

/** Apply one operation; `release` is given the way to release a sequence to a lower tier. */
function apply(
  c: KvCache,
  op: Op,
  releaseTo: (c: KvCache, seq: number, then: 'dram' | 'nvme') => void,
): void {
  if (op.k === 'acquire') {
    c.acquire(op.seq, CHAINS[op.chain].slice(0, op.len), { tokens: (op.len - 1) * B + op.partial });
  } else if (op.k === 'extend') {
    const held = c.heldCount(op.seq);
    c.extend(op.seq, CHAINS[op.chain].slice(held, held + op.n));
  } else if (op.k === 'commit') c.commit(op.seq);
  else if (op.k === 'release') {
    if (op.then === 'dram' || op.then === 'nvme') releaseTo(c, op.seq, op.then);
    else c.release(op.seq, op.then);
  } else if (op.k === 'insert') c.insert(CHAINS[op.chain].slice(0, op.len));
  else c.offload(CHAINS[op.chain].slice(0, op.len), op.to);
}

/** Two caches recording their events; `agree()` checks the first one's books and that both look the same. */
function pair(fastConfig: KvCacheConfig, refConfig: KvCacheConfig) {
  const fast = new KvCache(fastConfig);
  const ref = new KvCache(refConfig);
  const ef = recorder(fast);
  const er = recorder(ref);
  const agree = () => {
    expect(fast.checkInvariants()).toEqual([]);
    expect(state(fast, ef)).toEqual(state(ref, er));
  };
  return { fast, ref, agree };
}

const release = (c: KvCache, seq: number, then: 'dram' | 'nvme') => c.release(seq, then);

const cacheArbs = [
  fc.integer({ min: 1, max: 10 }),
  fc.integer({ min: 0, max: 12 }),
  fc.integer({ min: 0, max: 12 }),
  fc.constantFrom<WritePolicy>('write-through', 'write-back', 'none'),
  fc.boolean(),
] as const;

describe('kvcache shortcuts against the plain operations (fast-check)', () => {
  it('a release to a lower tier (HBM copies parked) = a release to cache, then an offload of what it held', () => {
    fc.assert(
      fc.property(...cacheArbs, fc.array(opArb, { minLength: 1, maxLength: 60 }), (h, d, n, w, p, ops) => {
        const { fast, ref, agree } = pair(config(h, d, n, w, p), config(h, d, n, w, p));
        for (const op of ops) {
          apply(fast, op, release);
          apply(ref, op, (c, seq, then) => {
            const held = c.held(seq);
            c.release(seq, 'cache');
            if (held.length) c.offload(held, then);
          });
          agree();
        }
      }),
      { numRuns: 400, seed: 20261201 },
    );
  });

  it("an acquire that reads a released sequence's records = one that probes the index for each", () => {
    fc.assert(
      fc.property(
        ...cacheArbs,
        fc.constantFrom(1, 256),
        fc.array(opArb, { minLength: 1, maxLength: 60 }),
        (h, d, n, w, p, hints, ops) => {
          const { fast, ref, agree } = pair(
            { ...config(h, d, n, w, p), lookupHints: hints },
            { ...config(h, d, n, w, p), lookupHints: 0 },
          );
          for (const op of ops) {
            apply(fast, op, release);
            apply(ref, op, release);
            agree();
            for (const chain of CHAINS) expect(fast.lookup(chain)).toEqual(ref.lookup(chain));
            // computedTier(h) is where lookup([h]) serves h from (−1: it would not).
            for (const chain of CHAINS)
              for (const hash of chain) {
                const l = fast.lookup([hash]);
                expect(fast.computedTier(hash)).toBe(l.blocks ? l.tiers.findIndex((t) => t.blocks > 0) : -1);
              }
          }
        },
      ),
      { numRuns: 400, seed: 20261202 },
    );
  });

  it('extendTo (positions of the whole list) = extend with that slice of it, results included', () => {
    fc.assert(
      fc.property(...cacheArbs, fc.array(opArb, { minLength: 1, maxLength: 60 }), (h, d, n, w, p, ops) => {
        const { fast, ref, agree } = pair(config(h, d, n, w, p), config(h, d, n, w, p));
        for (const op of ops) {
          if (op.k === 'extend') {
            const held = ref.heldCount(op.seq);
            const a = fast.extendTo(op.seq, CHAINS[op.chain], held + op.n);
            const b = ref.extend(op.seq, CHAINS[op.chain].slice(held, held + op.n));
            expect(a).toEqual(b);
          } else {
            apply(fast, op, release);
            apply(ref, op, release);
          }
          agree();
        }
      }),
      { numRuns: 300, seed: 20261203 },
    );
  });

  it('refuses a negative or fractional number of hints', () => {
    expect(() => new KvCache({ ...config(2, 2, 2, 'write-back', true), lookupHints: -1 })).toThrow(
      /lookupHints/,
    );
    expect(() => new KvCache({ ...config(2, 2, 2, 'write-back', true), lookupHints: 1.5 })).toThrow(
      /lookupHints/,
    );
  });

  it('a release to a tier the cache lacks throws and leaves nothing parked', () => {
    const c = new KvCache({ blockSize: B, bytesPerBlock: BPB, tiers: [{ name: 'hbm', capacityBlocks: 4 }] });
    c.acquire(1, CHAINS[0].slice(0, 2));
    c.commit(1);
    expect(() => c.release(1, 'dram')).toThrow(/cannot offload/);
    expect(c.checkInvariants()).toEqual([]);
    expect(c.occupancy()[0].pinnedBlocks).toBe(0);
    // the released blocks are evictable: a new sequence can take the whole of HBM
    expect(c.acquire(2, CHAINS[3].slice(2, 6)).ok).toBe(true);
  });
});

describe('HashMap against a Map (fast-check)', () => {
  // Few distinct keys over a small table, so probe runs collide and wrap; 0 and 52-bit keys included.
  const KEYS = [
    0,
    1,
    2,
    17,
    33,
    2 ** 32,
    2 ** 32 + 1,
    2 ** 52 - 1,
    ...chainHashes(['a', 'b', 'c', 'd', 'e', 'f']),
  ];
  type MapOp = { k: 'set' | 'add' | 'delete'; key: number; v: number };
  const mapOp: fc.Arbitrary<MapOp> = fc.record({
    k: fc.constantFrom('set' as const, 'add' as const, 'delete' as const),
    key: fc.constantFrom(...KEYS),
    v: fc.nat(100),
  });
  it('get, has, size, add and delete agree with a Map after every operation', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(mapOp, { maxLength: 120 }), (cap, ops) => {
        const m = new HashMap(cap);
        const ref = new Map<number, number>();
        for (const op of ops) {
          if (op.k === 'set') {
            m.set(op.key, op.v);
            ref.set(op.key, op.v);
          } else if (op.k === 'add') {
            expect(m.add(op.key, op.v)).toBe(!ref.has(op.key));
            if (!ref.has(op.key)) ref.set(op.key, op.v);
          } else expect(m.delete(op.key)).toBe(ref.delete(op.key));
          expect(m.size).toBe(ref.size);
          for (const key of KEYS) {
            expect(m.get(key)).toBe(ref.get(key));
            expect(m.has(key)).toBe(ref.has(key));
          }
        }
      }),
      { numRuns: 300, seed: 20261203 },
    );
  });
});
