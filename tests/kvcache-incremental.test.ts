/**
 * The incremental paths the fleet takes for speed give the same answers as the direct ones:
 * - a session's PromptHasher (only new segments hashed) equals segmentBlockHashes of the whole prompt, for random
 *   sequences of extensions, edits, compactions and timestamps, in place or copied; its TailHasher (tails resumed from the previous
 *   request's) equals pageTailHashes;
 * - the BlockStore (the cache's block table) indexes its blocks as a Map would, insertion order included, and
 *   reuses the ids of blocks that left without mixing up their fields;
 * - HashCounts is a multiset;
 * - a cache's KV event log replayed up to time t gives the set a snapshot taken at t gives (so the delayed router
 *   view, fed by the log, sees at each refresh what a copy of the caches at that refresh saw), per tier choice.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BlockStore } from '../src/sim/engine/kvcache/blockStore';
import { KvCache, type TierConfig } from '../src/sim/engine/kvcache/cache';
import { HashCounts } from '../src/sim/engine/kvcache/events';
import {
  BlockChain,
  chainHashes,
  PromptHasher,
  segmentBlockHashes,
  type Segment,
} from '../src/sim/engine/kvcache/hash';
import { createCacheView } from '../src/sim/engine/fleet/view';
import { pageTailHashes, TailHasher } from '../src/sim/engine/fleet/tails';

const segArb: fc.Arbitrary<Segment> = fc.record({
  id: fc.oneof(fc.nat(6), fc.constantFrom('sys', 'tools', 'task')),
  tokens: fc.integer({ min: 0, max: 70 }),
});

type Edit =
  | { k: 'append'; segs: Segment[] }
  | { k: 'replace'; at: number; seg: Segment }
  | { k: 'truncate'; keep: number; seg: Segment }
  | { k: 'prepend'; seg: Segment };

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ k: fc.constant('append' as const), segs: fc.array(segArb, { maxLength: 3 }) }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('replace' as const), at: fc.nat(20), seg: segArb }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('truncate' as const), keep: fc.nat(4), seg: segArb }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('prepend' as const), seg: segArb }) },
);

function applyEdit(ctx: Segment[], e: Edit): Segment[] {
  switch (e.k) {
    case 'append':
      return ctx.concat(e.segs);
    case 'replace': {
      if (ctx.length === 0) return [e.seg];
      const out = ctx.slice();
      out[e.at % ctx.length] = e.seg;
      return out;
    }
    case 'truncate':
      return [...ctx.slice(0, e.keep), e.seg];
    case 'prepend':
      return [e.seg, ...ctx];
  }
}

describe('incremental prompt hashing', () => {
  it('a session hasher gives segmentBlockHashes(prompt ++ output) for every turn, whatever the edits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(segArb, { maxLength: 4 }),
        fc.array(fc.record({ edit: editArb, out: segArb }), { minLength: 1, maxLength: 25 }),
        (blockSize, start, turns) => {
          const h = new PromptHasher(blockSize);
          let ctx = start;
          for (const t of turns) {
            ctx = applyEdit(ctx, t.edit);
            const got = h.hash(ctx, t.out);
            expect(got).toEqual(segmentBlockHashes([...ctx, t.out], blockSize));
            // the next prompt includes this output, as an agent's does
            ctx = ctx.concat(t.out);
          }
        },
      ),
    );
  });

  it('hashInPlace gives the same lists as hash(), and a prompt that does not extend the last leaves its array intact', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.array(segArb, { maxLength: 4 }),
        fc.array(fc.record({ edit: editArb, out: segArb }), { minLength: 1, maxLength: 25 }),
        (blockSize, start, turns) => {
          const inPlace = new PromptHasher(blockSize);
          const copying = new PromptHasher(blockSize);
          let ctx = start;
          let prev: { arr: number[]; copy: number[]; ctx: Segment[] } | null = null;
          for (const t of turns) {
            ctx = applyEdit(ctx, t.edit);
            const got = inPlace.hashInPlace(ctx, t.out);
            expect(got).toEqual(copying.hash(ctx, t.out));
            // A prompt that does not begin with the previous one's segments gets a fresh array: the old one is
            // as it was (the hasher starts over, so it cannot be the same array).
            const all = ctx.concat(t.out);
            const same = (a: Segment, b: Segment) => a === b || (a.id === b.id && a.tokens === b.tokens);
            if (prev && (prev.ctx.length > all.length || prev.ctx.some((s, i) => !same(s, all[i])))) {
              expect(got.hashes).not.toBe(prev.arr);
              expect(prev.arr).toEqual(prev.copy);
            }
            prev = { arr: got.hashes, copy: got.hashes.slice(), ctx: ctx.concat(t.out) };
            ctx = ctx.concat(t.out);
          }
        },
      ),
    );
  });

  it('a block chain read out mid-way, or cloned, agrees with hashing from scratch', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(segArb, { maxLength: 12 }), (bs, segs) => {
        const chain = new BlockChain(bs);
        segs.forEach((s, i) => {
          chain.push(s);
          expect(chain.list()).toEqual(segmentBlockHashes(segs.slice(0, i + 1), bs));
          expect(chain.list(true)).toEqual(
            segmentBlockHashes(segs.slice(0, i + 1), bs, { fullBlocksOnly: true }),
          );
        });
        const copy = chain.clone();
        copy.push({ id: 'more', tokens: 33 });
        expect(copy.list()).toEqual(segmentBlockHashes([...segs, { id: 'more', tokens: 33 }], bs));
        expect(chain.list()).toEqual(segmentBlockHashes(segs, bs)); // the original is untouched
      }),
    );
  });
});

describe('incremental tail hashing', () => {
  it("a session's tail hasher gives pageTailHashes for every probe, longer or shorter than the last, whatever the edits between them", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(4, 8, 16),
        fc.integer({ min: 2, max: 6 }),
        fc.array(segArb, { maxLength: 4 }),
        fc.array(
          fc.record({ edit: editArb, out: segArb, page: fc.nat(2), parent: fc.nat(1), blocks: fc.nat(8) }),
          { minLength: 1, maxLength: 30 },
        ),
        (B, perPage, start, probes) => {
          const P = B * perPage;
          const h = new TailHasher();
          let ctx = start;
          for (const p of probes) {
            ctx = applyEdit(ctx, p.edit).concat(p.out);
            const parent = chainHashes([p.parent])[0];
            const want = pageTailHashes(ctx, P, B, p.page, parent, p.blocks);
            // the tail of p.blocks and, from the same hasher in turn, a shorter one (pieces read already)
            const t = h.tail(ctx, P, B, p.page, parent, p.blocks);
            if (p.blocks >= 1 && want.length === p.blocks) expect(t).toBe(want[p.blocks - 1]);
            else expect(t).toBeNaN();
            const m = p.blocks >> 1;
            if (m >= 1) {
              const s = h.tail(ctx, P, B, p.page, parent, m);
              if (want.length >= m) expect(s).toBe(want[m - 1]);
              else expect(s).toBeNaN();
            }
          }
        },
      ),
    );
  });
});

describe('BlockStore and HashCounts', () => {
  // Keys as the cache sees them: 52-bit chained hashes, and small integers (Mooncake hash_ids).
  const keyArb = fc.oneof(
    fc.nat(40),
    fc.nat(40).map((i) => chainHashes([i])[0]),
    fc.nat(40).map((i) => i * 4294967296),
  );

  it('a BlockStore answers as a Map does, iterates in insertion order and keeps each block its fields', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ del: fc.boolean(), key: keyArb }), { maxLength: 300 }), (ops) => {
        const store = new BlockStore(4); // grows past its first 16 ids
        const map = new Map<number, { id: number; tokens: number; tag: number; pending: boolean }>();
        let v = 0;
        for (const op of ops) {
          const had = map.get(op.key);
          if (op.del) {
            if (had) {
              store.release(had.id);
              expect(store.live(had.id)).toBe(false);
              map.delete(op.key);
            }
          } else if (!had) {
            const tokens = 1 + (v++ % 500);
            const id = store.alloc(op.key, tokens, v - 1000, v % 2 === 0);
            map.set(op.key, { id, tokens, tag: v - 1000, pending: v % 2 === 0 });
          }
          expect(store.size).toBe(map.size);
        }
        for (const k of new Set(ops.map((o) => o.key))) {
          const m = map.get(k);
          const id = store.get(k);
          expect(id).toBe(m ? m.id : -1);
          if (m) {
            expect(store.hash(id)).toBe(k);
            expect(store.hashIs(id, k)).toBe(true);
            expect(store.tokens(id)).toBe(m.tokens);
            expect(store.tag(id)).toBe(m.tag);
            expect(store.isPending(id)).toBe(m.pending);
            expect(store.live(id)).toBe(true);
          }
        }
        expect([...store.ids()].map((id) => store.hash(id))).toEqual([...map.keys()]);
        expect(new Set([...map.values()].map((m) => m.id)).size).toBe(map.size); // no id names two blocks
      }),
    );
  });

  it('HashCounts is a multiset: counts add up and a hash leaves at zero', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: keyArb, d: fc.constantFrom(1, 1, -1, 2) }), { maxLength: 300 }),
        (ops) => {
          const hc = new HashCounts(2);
          const model = new Map<number, number>();
          for (const { key, d } of ops) {
            const c = model.get(key) ?? 0;
            if (c + d < 0) continue; // a log never removes what it did not store
            hc.add(key, d);
            if (c + d === 0) model.delete(key);
            else model.set(key, c + d);
          }
          expect(hc.size).toBe(model.size);
          for (const k of new Set(ops.map((o) => o.key))) expect(hc.count(k)).toBe(model.get(k) ?? 0);
          expect(new Set(hc.hashes())).toEqual(new Set(model.keys()));
        },
      ),
    );
  });
});

// ─────────────────────────── KV event log versus snapshots ───────────────────────────

const B = 16;
const LINK = { bandwidthGBps: 10, latencyS: 1e-3 };
const CHAINS: number[][] = Array.from({ length: 6 }, (_, k) =>
  chainHashes(Array.from({ length: 6 }, (_, i) => (i < 2 ? `s${k % 2}-${i}` : `c${k}-${i}`))),
);

type Op =
  | { k: 'acquire'; seq: number; chain: number; len: number; partial: number }
  | { k: 'extend'; seq: number; chain: number; at: number }
  | { k: 'commit'; seq: number; upTo: number }
  | { k: 'release'; seq: number; then: 'cache' | 'drop' | 'dram' | 'nvme' }
  | { k: 'insert'; chain: number; len: number }
  | { k: 'offload'; chain: number; len: number; to: 'dram' | 'nvme' }
  | { k: 'drop'; chain: number; len: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    k: fc.constant('acquire' as const),
    seq: fc.nat(3),
    chain: fc.nat(5),
    len: fc.integer({ min: 1, max: 6 }),
    partial: fc.integer({ min: 1, max: B }),
  }),
  fc.record({ k: fc.constant('extend' as const), seq: fc.nat(3), chain: fc.nat(5), at: fc.nat(5) }),
  fc.record({ k: fc.constant('commit' as const), seq: fc.nat(3), upTo: fc.nat(6) }),
  fc.record({
    k: fc.constant('release' as const),
    seq: fc.nat(3),
    then: fc.constantFrom('cache' as const, 'drop' as const, 'dram' as const, 'nvme' as const),
  }),
  fc.record({ k: fc.constant('insert' as const), chain: fc.nat(5), len: fc.integer({ min: 1, max: 6 }) }),
  fc.record({
    k: fc.constant('offload' as const),
    chain: fc.nat(5),
    len: fc.integer({ min: 1, max: 6 }),
    to: fc.constantFrom('dram' as const, 'nvme' as const),
  }),
  fc.record({ k: fc.constant('drop' as const), chain: fc.nat(5), len: fc.integer({ min: 1, max: 6 }) }),
);

const setupArb = fc.record({
  hbm: fc.integer({ min: 1, max: 8 }),
  dram: fc.integer({ min: 0, max: 6 }),
  nvme: fc.option(fc.integer({ min: 0, max: 6 })),
  dramWrite: fc.constantFrom('write-back' as const, 'write-through' as const, 'none' as const),
  promoteOnHit: fc.boolean(),
});

function apply(c: KvCache, op: Op): void {
  const has = (t: string) => c.tierNames.includes(t as never);
  switch (op.k) {
    case 'acquire':
      c.acquire(op.seq, CHAINS[op.chain].slice(0, op.len), { tokens: (op.len - 1) * B + op.partial });
      break;
    case 'extend':
      if (!c.held(op.seq).includes(CHAINS[op.chain][op.at])) c.extend(op.seq, [CHAINS[op.chain][op.at]]);
      break;
    case 'commit':
      c.commit(op.seq, op.upTo);
      break;
    case 'release':
      if (op.then === 'cache' || op.then === 'drop' || has(op.then)) c.release(op.seq, op.then);
      break;
    case 'insert':
      c.insert(CHAINS[op.chain].slice(0, op.len));
      break;
    case 'offload':
      if (has(op.to)) c.offload(CHAINS[op.chain].slice(0, op.len), op.to);
      break;
    case 'drop':
      c.drop(CHAINS[op.chain].slice(0, op.len));
      break;
  }
}

/** What a snapshot shows a view: computed blocks with a copy in HBM ('hbm') or in any local tier ('local'). */
function snapshotSet(c: KvCache, tiers: 'hbm' | 'local'): Set<number> {
  const s = c.snapshot();
  const out = new Set<number>();
  for (let i = 0; i < s.count; i++) {
    if (s.flags[i] & 1) continue;
    if (tiers === 'hbm' && s.tier[i] !== 0) continue;
    out.add(s.hashes[i]);
  }
  return out;
}

describe('KV event log (fast-check, random cache operations)', () => {
  it('replaying the events up to time t − delay gives the snapshot taken at t − delay', () => {
    fc.assert(
      fc.property(
        setupArb,
        fc.array(opArb, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 10 }),
        (s, ops, delay) => {
          const tiers: TierConfig[] = [
            { name: 'hbm', capacityBlocks: s.hbm },
            { name: 'dram', capacityBlocks: s.dram, link: LINK, write: s.dramWrite },
          ];
          if (s.nvme !== null) tiers.push({ name: 'nvme', capacityBlocks: s.nvme, link: LINK });
          const c = new KvCache({ blockSize: B, bytesPerBlock: 1e6, tiers, promoteOnHit: s.promoteOnHit });
          let now = 0;
          const log = c.subscribe(() => now);
          const local = new HashCounts();
          const hbm = new HashCounts();
          const snaps: { local: Set<number>; hbm: Set<number> }[] = [];
          const replay = (until: number) =>
            log.drain((h, tier, stored) => {
              local.add(h, stored ? 1 : -1);
              if (tier === 0) hbm.add(h, stored ? 1 : -1);
            }, until);
          for (const op of ops) {
            now++; // one operation per simulated second
            apply(c, op);
            snaps[now] = { local: snapshotSet(c, 'local'), hbm: snapshotSet(c, 'hbm') };
            const t = now - delay;
            replay(t);
            const want = t >= 1 ? snaps[t] : { local: new Set<number>(), hbm: new Set<number>() };
            expect(new Set(local.hashes())).toEqual(want.local);
            expect(new Set(hbm.hashes())).toEqual(want.hbm);
          }
        },
      ),
    );
  });

  it('the delayed view matches as a copy of the caches taken at its last refresh would', () => {
    fc.assert(
      fc.property(
        setupArb,
        fc.array(fc.oneof(opArb, fc.constant({ k: 'sync' as const })), { minLength: 1, maxLength: 60 }),
        fc.constantFrom('hbm' as const, 'local' as const),
        (s, ops, viewTiers) => {
          const tiers: TierConfig[] = [
            { name: 'hbm', capacityBlocks: s.hbm },
            { name: 'dram', capacityBlocks: s.dram, link: LINK, write: s.dramWrite },
          ];
          const caches = [0, 1].map(
            (id) =>
              new KvCache({ id, blockSize: B, bytesPerBlock: 1e6, tiers, promoteOnHit: s.promoteOnHit }),
          );
          // Some blocks before the view starts: it must begin from what the caches hold.
          caches[1].insert(CHAINS[2].slice(0, 3));
          const view = createCacheView({ kind: 'delayed', intervalS: 1, tiers: viewTiers }, caches, 8);
          let copy = caches.map((c) => snapshotSet(c, viewTiers));
          ops.forEach((op, i) => {
            if (op.k === 'sync') {
              view.sync();
              copy = caches.map((c) => snapshotSet(c, viewTiers));
            } else apply(caches[i % 2], op);
            for (const chain of CHAINS) {
              const got = Array.from(view.match(chain, chain.length));
              const want = copy.map((set) => {
                let m = 0;
                while (m < chain.length && set.has(chain[m])) m++;
                return m;
              });
              expect(got).toEqual(want);
            }
          });
        },
      ),
    );
  });
});
