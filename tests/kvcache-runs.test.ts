/**
 * Runs (kvcache/runs.ts) against blocks kept one by one (fast-check): two caches run the same random operations,
 * one keeping released contexts as runs in DRAM's order and one with `contextRuns: false`, and must agree after
 * every step on every block (tiers, pins, tags, pending), the counters, what each operation returned, and the
 * eviction order (through which blocks a later eviction takes). The operations are mostly agents' turns (read a
 * session's context back, grow it, release it to DRAM at its tool call), so runs are made, parked, read back,
 * grown and dissolved, mixed with other sessions sharing their first blocks, lookups, inserts, drops and offloads.
 * The same operations check prefix shares (kvcache/shares.ts): sessions that say their first blocks are shared
 * against a cache told nothing.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chainHashes, KvCache, type KvCacheConfig, type WritePolicy } from '../src/sim/engine/kvcache';

const B = 4;
const BPB = 1e6;
const PCIE = { bandwidthGBps: 10, latencyS: 1e-3 };

function config(
  hbm: number,
  dram: number,
  hbmPolicy: 'lru' | 'fifo',
  runs: boolean,
  write: WritePolicy = 'write-back',
): KvCacheConfig {
  return {
    blockSize: B,
    bytesPerBlock: BPB,
    contextRuns: runs,
    tiers: [
      { name: 'hbm', capacityBlocks: hbm, policy: hbmPolicy },
      { name: 'dram', capacityBlocks: dram, link: PCIE, write },
    ],
  };
}

/** Sessions' contexts: a two-block shared head, then the session's own blocks. */
const CHAINS = Array.from({ length: 5 }, (_, k) =>
  chainHashes(Array.from({ length: 14 }, (_, i) => (i < 2 ? `head-${i}` : `s${k}-${i}`))),
);
/**
 * Lists that are not chained hashes, where a hash comes back at a later position of the same list and in other
 * sessions' lists (the cache takes any list; a run must not rely on chaining).
 */
const REPEATS = Array.from({ length: 5 }, (_, k) =>
  Array.from({ length: 14 }, (_, i) => (i % 5 === 4 ? 1000 + (i % 3) : k * 100 + (i % 9))),
);

type Op =
  | { k: 'cycle'; seq: number; grow: number; partial: number; then: 'dram' | 'cache' }
  | { k: 'turn'; seq: number; grow: number; partial: number }
  | { k: 'pause'; seq: number; then: 'dram' | 'cache' | 'drop' }
  | { k: 'extend'; seq: number; n: number }
  | { k: 'commit'; seq: number }
  | { k: 'other'; seq: number; chain: number; len: number }
  | { k: 'lookup'; chain: number }
  | { k: 'insert'; chain: number; len: number }
  | { k: 'drop'; chain: number; at: number }
  | { k: 'offload'; chain: number; len: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      k: fc.constant('cycle' as const),
      seq: fc.nat(4),
      grow: fc.integer({ min: 0, max: 3 }),
      partial: fc.integer({ min: 1, max: B }),
      then: fc.constantFrom<'dram' | 'cache'>('dram', 'dram', 'dram', 'dram', 'cache'),
    }),
    weight: 12,
  },
  {
    arbitrary: fc.record({
      k: fc.constant('turn' as const),
      seq: fc.nat(4),
      grow: fc.integer({ min: 0, max: 3 }),
      partial: fc.integer({ min: 1, max: B }),
    }),
    weight: 6,
  },
  {
    arbitrary: fc.record({
      k: fc.constant('pause' as const),
      seq: fc.nat(4),
      then: fc.constantFrom<'dram' | 'cache' | 'drop'>('dram', 'dram', 'dram', 'cache', 'drop'),
    }),
    weight: 5,
  },
  fc.record({ k: fc.constant('extend' as const), seq: fc.nat(4), n: fc.integer({ min: 1, max: 2 }) }),
  { arbitrary: fc.record({ k: fc.constant('commit' as const), seq: fc.nat(4) }), weight: 3 },
  fc.record({
    k: fc.constant('other' as const),
    seq: fc.integer({ min: 5, max: 6 }),
    chain: fc.nat(4),
    len: fc.integer({ min: 1, max: 14 }),
  }),
  fc.record({ k: fc.constant('lookup' as const), chain: fc.nat(4) }),
  fc.record({ k: fc.constant('insert' as const), chain: fc.nat(4), len: fc.integer({ min: 1, max: 14 }) }),
  fc.record({ k: fc.constant('drop' as const), chain: fc.nat(4), at: fc.nat(13) }),
  fc.record({ k: fc.constant('offload' as const), chain: fc.nat(4), len: fc.integer({ min: 1, max: 14 }) }),
);

/** Apply one operation; returns what it returned (to compare too). `lens` is each session's context so far. */
function apply(c: KvCache, op: Op, lens: number[], CHAINS: readonly number[][], shared = 0): unknown {
  switch (op.k) {
    case 'cycle': {
      // A whole turn: the context read back and grown, computed, then released at the tool call.
      const turn = apply(
        c,
        { k: 'turn', seq: op.seq, grow: op.grow, partial: op.partial },
        lens,
        CHAINS,
        shared,
      );
      return [turn, c.release(op.seq, op.then)];
    }
    case 'turn': {
      // The session's next prompt extends its last: its context so far, grown, acquired and computed.
      const len = Math.min(14, Math.max(2, lens[op.seq] + op.grow));
      lens[op.seq] = len;
      const res = c.acquire(op.seq, CHAINS[op.seq].slice(0, len), {
        tokens: (len - 1) * B + op.partial,
        tag: op.seq,
        sharedBlocks: shared,
      });
      if (res.ok) c.commit(op.seq);
      return res;
    }
    case 'pause':
      return c.release(op.seq, op.then);
    case 'extend': {
      const held = c.heldCount(op.seq);
      if (held === 0) return null;
      return c.extend(op.seq, CHAINS[op.seq].slice(held, held + op.n), { tag: op.seq });
    }
    case 'commit':
      return c.commit(op.seq);
    case 'other': {
      const res = c.acquire(op.seq, CHAINS[op.chain].slice(0, op.len), { tag: op.seq, sharedBlocks: shared });
      if (res.ok) c.commit(op.seq);
      return res;
    }
    case 'lookup':
      return [c.lookup(CHAINS[op.chain]), CHAINS[op.chain].map((h) => c.computedTier(h))];
    case 'insert':
      return c.insert(CHAINS[op.chain].slice(0, op.len));
    case 'drop':
      return c.drop([CHAINS[op.chain][op.at]]);
    case 'offload':
      return c.offload(CHAINS[op.chain].slice(0, op.len), 'dram');
  }
}

function state(c: KvCache): unknown {
  return { blocks: [...c.blocks()], counters: c.counters(), occupancy: c.occupancy() };
}

describe('contexts kept as runs in DRAM’s order = every block on its own (fast-check)', () => {
  const agree = (chains: readonly number[][], numRuns: number, seed: number) => {
    let runsSeen = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 6, max: 40 }),
        fc.integer({ min: 4, max: 60 }),
        fc.constantFrom<'lru' | 'fifo'>('lru', 'fifo'),
        fc.constantFrom<WritePolicy>('write-back', 'write-back', 'write-through', 'none'),
        fc.array(opArb, { minLength: 1, maxLength: 80 }),
        (hbm, dram, policy, write, ops) => {
          const fast = new KvCache(config(hbm, dram, policy, true, write));
          const ref = new KvCache(config(hbm, dram, policy, false, write));
          const lf = [2, 2, 2, 2, 2];
          const lr = [2, 2, 2, 2, 2];
          for (const op of ops) {
            expect(apply(fast, op, lf, chains)).toEqual(apply(ref, op, lr, chains));
            expect(fast.checkInvariants()).toEqual([]);
            expect(state(fast)).toEqual(state(ref));
            runsSeen = Math.max(runsSeen, fast.runCount);
          }
        },
      ),
      { numRuns: Number(process.env.RUNS_NUM ?? numRuns), seed: Number(process.env.RUNS_SEED ?? seed) },
    );
    // The operations did make runs (else this compares the plain cache with itself).
    expect(runsSeen).toBeGreaterThan(0);
  };

  it('agree on every block, counter, result and eviction after every operation', () => {
    agree(CHAINS, 2000, 20261202);
  });

  it('agree too when a list repeats a hash (not chained hashes)', () => {
    agree(REPEATS, 1000, 20261203);
  });

  it('sessions joining a shared head (kvcache/shares.ts) = every block checked on its own, runs or not', () => {
    for (const [chains, numRuns, seed] of [
      [CHAINS, 1000, 20261204],
      [REPEATS, 500, 20261205],
    ] as const) {
      let joined = 0;
      fc.assert(
        fc.property(
          fc.integer({ min: 6, max: 40 }),
          fc.integer({ min: 4, max: 60 }),
          fc.constantFrom<WritePolicy>('write-back', 'write-through', 'none'),
          fc.integer({ min: 1, max: 4 }),
          fc.boolean(),
          fc.array(opArb, { minLength: 1, maxLength: 80 }),
          (hbm, dram, write, shared, runs, ops) => {
            const fast = new KvCache(config(hbm, dram, 'lru', runs, write));
            const ref = new KvCache(config(hbm, dram, 'lru', false, write));
            const lf = [2, 2, 2, 2, 2];
            const lr = [2, 2, 2, 2, 2];
            for (const op of ops) {
              expect(apply(fast, op, lf, chains, shared)).toEqual(apply(ref, op, lr, chains));
              expect(fast.checkInvariants()).toEqual([]);
              expect(state(fast)).toEqual(state(ref));
              joined = Math.max(joined, fast.shareHolders);
            }
          },
        ),
        { numRuns: Number(process.env.RUNS_NUM ?? numRuns), seed },
      );
      // Sequences did hold shares together (else this compares the plain cache with itself).
      expect(joined).toBeGreaterThan(1);
    }
  });

  it('refuses a shared head that is not a non-negative integer, changing nothing', () => {
    const c = new KvCache(config(8, 8, 'lru', true));
    for (const bad of [-1, 1.5, Number.NaN])
      expect(() => c.acquire(0, CHAINS[0].slice(0, 3), { sharedBlocks: bad })).toThrow(/sharedBlocks/);
    expect(c.occupancy()[0].usedBlocks).toBe(0);
    expect(c.checkInvariants()).toEqual([]);
  });

  it('a run survives its session’s turns: read back and released again without dissolving', () => {
    const c = new KvCache(config(16, 64, 'lru', true));
    let len = 4;
    for (let turn = 0; turn < 6; turn++, len += 2) {
      const res = c.acquire(0, CHAINS[0].slice(0, len), { tag: 0 });
      expect(res.ok).toBe(true);
      if (turn > 0 && res.ok) expect(res.hit.tiers[1].blocks).toBe(len - 2); // all but the new blocks from DRAM
      c.commit(0);
      c.release(0, 'dram');
      expect(c.runCount).toBe(1);
      expect(c.checkInvariants()).toEqual([]);
    }
    // Another session looking up the first one's blocks gets them as they are: the run dissolves, nothing moves.
    const before = state(c);
    expect(c.lookup(CHAINS[0]).tiers[1].blocks).toBe(len - 2);
    expect(c.runCount).toBe(0);
    expect(state(c)).toEqual(before);
  });

  it('a read-back whose evictions would write into DRAM between the members takes the members one by one', () => {
    // HBM full of blocks with no DRAM copy: reading the parked run back evicts them, and each is written to DRAM
    // first, so the members cannot stay side by side there.
    const caches = [true, false].map((runs) => new KvCache(config(8, 40, 'lru', runs)));
    const results = caches.map((c) => {
      c.acquire(0, CHAINS[0].slice(0, 6), { tag: 0 });
      c.commit(0);
      c.release(0, 'dram');
      const parked = c.runCount;
      c.insert(CHAINS[1].slice(2, 10));
      const back = c.acquire(0, CHAINS[0].slice(0, 7), { tag: 0 });
      return { parked, back, runs: c.runCount, state: state(c), invariants: c.checkInvariants() };
    });
    expect(results[0].parked).toBe(1);
    expect(results[0].runs).toBe(0); // taken apart, not read back as one
    expect(results[0].invariants).toEqual([]);
    expect({ ...results[0], parked: 0, runs: 0 }).toEqual({ ...results[1], parked: 0, runs: 0 });
  });
});
