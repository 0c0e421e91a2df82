/** Reuse at the engine's block size over the fleet's coarser pages (src/sim/engine/fleet/tails.ts, pageIndex.ts). */
import { computedOrThrow } from '../src/sim/engine/cannotRun';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { segmentBlockHashes, type Segment } from '../src/sim/engine/kvcache/hash';
import { pageTailHashes, sequenceTail, TailHasher } from '../src/sim/engine/fleet/tails';
import { commonTokens, PageIndex } from '../src/sim/engine/fleet/pageIndex';
import { methods } from '../src/worker/methods';

const P = 256;
const B = 16;
const head: Segment[] = [
  { id: 'system', tokens: 300 },
  { id: 'tools', tokens: 150 },
];

describe('tail hashes', () => {
  it('equal prefixes give equal hashes, block by block, and a change inside a block changes it and the rest', () => {
    const a = [...head, { id: 'turn-0', tokens: 200 }];
    const b = [...head, { id: 'turn-0', tokens: 20 }, { id: 'other', tokens: 180 }];
    const parent = segmentBlockHashes(a, P).hashes[0];
    // page 1 starts at token 256: a and b agree up to 450 + 20 = 470, 214 tokens into page 1 = 13 whole blocks
    const ha = pageTailHashes(a, P, B, 1, parent, 15);
    const hb = pageTailHashes(b, P, B, 1, parent, 15);
    expect(ha).toHaveLength(15);
    for (let m = 0; m < 15; m++) expect(ha[m] === hb[m]).toBe(m < 13);
    // another parent (a different page 0) changes every one
    expect(pageTailHashes(a, P, B, 1, parent + 1, 15).some((h, i) => h === ha[i])).toBe(false);
  });

  it('a page of many short segments: the hasher gives each tail as pageTailHashes does', () => {
    const segs: Segment[] = Array.from({ length: 300 }, (_, i) => ({ id: i % 7, tokens: 1 + (i % 5) }));
    const parent = 99;
    const want = pageTailHashes(segs, P, B, 1, parent, P / B - 1);
    expect(want).toHaveLength(P / B - 1); // about 85 pieces in the page
    const h = new TailHasher();
    for (const m of [15, 3, 9, 1, 15]) expect(h.tail(segs, P, B, 1, parent, m)).toBe(want[m - 1]);
  });

  it('a sequence leaves a tail of its last page’s full blocks, none when the page is empty or blocks are pages', () => {
    const segs = [...head, { id: 'out', tokens: 100 }]; // 550 tokens: page 2 holds 38 → 2 full blocks
    const hashes = segmentBlockHashes(segs, P).hashes;
    const t = sequenceTail(segs, hashes, 549, P, B)!;
    expect(t.page).toBe(2);
    expect(t.blocks).toBe(Math.floor((549 - 512) / B));
    expect(t.hash).toBe(pageTailHashes(segs, P, B, 2, hashes[1], 2)[1]);
    expect(sequenceTail(segs, hashes, 512, P, B)).toBeNull();
    expect(sequenceTail(segs, hashes, 549, P, P)).toBeNull();
    expect(sequenceTail(null, hashes, 549, P, B)).toBeNull();
  });

  it('the page index finds the longest run of shared blocks among the pages after the same parent', () => {
    const idx = new PageIndex();
    const a = [...head, { id: 'x', tokens: 400 }];
    const ah = segmentBlockHashes(a, P).hashes;
    idx.add(ah[0], ah[1], a, 1);
    const b = [...head, { id: 'x', tokens: 30 }, { id: 'y', tokens: 300 }]; // agrees up to 480
    const r = idx.longestShared(ah[0], 1, b, 15, P, B, () => true);
    expect(r.hash).toBe(ah[1]);
    expect(r.blocks).toBe(Math.floor((480 - 256) / B)); // 14
    expect(idx.longestShared(ah[0], 1, b, 15, P, B, () => false).blocks).toBe(0);
    expect(idx.longestShared(ah[0], 1, b, 9, P, B, () => true).blocks).toBe(9); // at most room
  });

  it('keeps the last MAX_CHILDREN pages after a parent, forgetting the oldest, and can record a forgotten one again', () => {
    const idx = new PageIndex();
    const n = PageIndex.MAX_CHILDREN + 1;
    const pageOf = (i: number): Segment[] => [...head, { id: `own-${i}`, tokens: 300 }];
    const hashOf = (i: number) => segmentBlockHashes(pageOf(i), P).hashes[1];
    const parent = segmentBlockHashes(pageOf(0), P).hashes[0];
    for (let i = 0; i < n; i++) idx.add(parent, hashOf(i), pageOf(i), 1);
    const found = (i: number) =>
      idx.longestShared(parent, 1, pageOf(i), 15, P, B, () => true).hash === hashOf(i);
    expect(found(0)).toBe(false); // the oldest, forgotten
    for (let i = 1; i < n; i++) expect(found(i)).toBe(true);
    idx.add(parent, hashOf(0), pageOf(0), 1); // recorded again, so the oldest now (1) goes
    expect(found(0)).toBe(true);
    expect(found(1)).toBe(false);
  });

  it('after any sequence of pages recorded under a few parents, finds exactly the last MAX_CHILDREN of each', () => {
    const pageOf = (i: number): Segment[] => [...head, { id: `own-${i}`, tokens: 300 }];
    const hashOf = (i: number) => segmentBlockHashes(pageOf(i), P).hashes[1];
    const parents = [11, 22, 33];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 29 })), {
          maxLength: 120,
        }),
        (adds) => {
          const idx = new PageIndex();
          // The reference: each parent's children, newest first, at most MAX_CHILDREN; a page is filed once.
          const kids = parents.map(() => [] as number[]);
          const filed = new Set<number>();
          for (const [p, i] of adds) {
            // Page i under parent p: the child's hash names both (a page hash is filed once, whatever its parent).
            const child = p * 100 + i;
            idx.add(parents[p], hashOf(child), pageOf(child), 1);
            if (filed.has(child)) continue;
            filed.add(child);
            kids[p].unshift(child);
            if (kids[p].length > PageIndex.MAX_CHILDREN) filed.delete(kids[p].pop()!);
          }
          for (let p = 0; p < parents.length; p++)
            for (let i = 0; i < 30; i++) {
              const child = p * 100 + i;
              const found =
                idx.longestShared(parents[p], 1, pageOf(child), 15, P, B, () => true).hash === hashOf(child);
              expect(found).toBe(kids[p].includes(child));
            }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('lists the tails placed after a page longest first, the newest first among equal lengths, each once', () => {
    const idx = new PageIndex();
    const list = (parent: number) => {
      const out: [number, number][] = [];
      for (let t = idx.firstTailAfter(parent); t >= 0; t = idx.nextTail(t))
        out.push([idx.tailBlocks(t), idx.tailHash(t)]);
      return out;
    };
    expect(list(7)).toEqual([]);
    idx.addTail(7, 3, 30);
    idx.addTail(7, 5, 50);
    idx.addTail(7, 3, 31);
    idx.addTail(7, 1, 10);
    idx.addTail(7, 3, 30); // again: kept once, where it was
    idx.addTail(8, 2, 20);
    expect(list(7)).toEqual([
      [5, 50],
      [3, 31],
      [3, 30],
      [1, 10],
    ]);
    expect(list(8)).toEqual([[2, 20]]);
    for (let i = 0; i < 3000; i++) idx.addTail(9, i % 7, 1000 + i); // past the arrays' first size
    const nine = list(9);
    expect(nine).toHaveLength(3000);
    for (let i = 1; i < nine.length; i++) expect(nine[i - 1][0]).toBeGreaterThanOrEqual(nine[i][0]);
  });

  it('recording a range of pages, each with only the segments that cover it, finds what recording each with the whole list finds', () => {
    const P2 = 64;
    const B2 = 8;
    const seg = fc.record({ id: fc.oneof(fc.nat(5), fc.constantFrom('sys', 'tools')), tokens: fc.nat(90) });
    fc.assert(
      fc.property(
        fc.array(seg, { maxLength: 12 }),
        fc.array(seg, { maxLength: 12 }),
        fc.nat(),
        (a, b, cut) => {
          const ah = segmentBlockHashes(a, P2).hashes;
          const full = Math.floor(a.reduce((n, x) => n + x.tokens, 0) / P2);
          const from = full ? cut % full : 0;
          const whole = new PageIndex();
          for (let k = from; k < full; k++) whole.add(k > 0 ? ah[k - 1] : 0, ah[k], a, k);
          const sliced = new PageIndex();
          sliced.addPages(ah, a, from, full, P2);
          // The same list recorded as it grows, a page range at a time, the array extended in place (as a
          // session's is), resumes its walks where the last stopped and must record the same.
          const grown = new PageIndex();
          const growing: typeof a = [];
          let at = from;
          for (let n = 0; n <= a.length; n++) {
            growing.length = 0;
            growing.push(...a.slice(0, n));
            const fullHere = Math.floor(growing.reduce((t, x) => t + x.tokens, 0) / P2);
            if (fullHere > at) grown.addPages(ah, growing, at, fullHere, P2);
            at = Math.max(at, fullHere);
          }
          // Probe every page with a prompt that shares a's start and then goes its own way (b).
          const probe = [...a.slice(0, a.length >> 1), ...b];
          for (let k = 0; k <= full; k++) {
            const parent = k > 0 ? ah[k - 1] : 0;
            const room = P2 / B2 - 1;
            expect(sliced.longestShared(parent, k, probe, room, P2, B2, () => true)).toEqual(
              whole.longestShared(parent, k, probe, room, P2, B2, () => true),
            );
            expect(sliced.hasChildren(parent)).toBe(whole.hasChildren(parent));
            expect(grown.longestShared(parent, k, probe, room, P2, B2, () => true)).toEqual(
              whole.longestShared(parent, k, probe, room, P2, B2, () => true),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('sessions recorded a turn at a time, past MAX_CHILDREN after a shared head and again from the start, keep what a plain model keeps', () => {
    // Each session's list grows in place, a head page shared by all, then its own pages; a turn records its new
    // pages (the parent known from the session's last walk) or, as after a lost cache, all of them again (found
    // among their parents' children); 24 sessions after one head push its children past MAX_CHILDREN, and a
    // forgotten page recorded again keeps the children recorded after it.
    const P2 = 64;
    const B2 = 8;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(23), fc.integer({ min: 1, max: 3 }), fc.boolean()), {
          minLength: 40,
          maxLength: 120,
        }),
        (turns) => {
          const idx = new PageIndex();
          const lists = Array.from({ length: 24 }, (): Segment[] => [{ id: 'sys', tokens: P2 }]);
          const recorded = lists.map(() => 0);
          // The model: a page is filed once; each parent's children newest first, at most MAX_CHILDREN.
          const filed = new Set<number>();
          const kids = new Map<number, number[]>();
          // Every page ever recorded: its parent, its number, and a list it is the page of.
          const pages = new Map<number, { parent: number; k: number; segs: Segment[] }>();
          for (const [s, n, again] of turns) {
            const segs = lists[s];
            segs.push({ id: `s${s}-${segs.length}`, tokens: n * P2 });
            const hashes = segmentBlockHashes(segs, P2).hashes;
            const from = again ? 0 : recorded[s];
            idx.addPages(hashes, segs, from, hashes.length, P2);
            recorded[s] = hashes.length;
            for (let k = from; k < hashes.length; k++) {
              const parent = k > 0 ? hashes[k - 1] : 0;
              if (!pages.has(hashes[k])) pages.set(hashes[k], { parent, k, segs: segs.slice() });
              if (filed.has(hashes[k])) continue;
              filed.add(hashes[k]);
              const list = kids.get(parent) ?? [];
              list.unshift(hashes[k]);
              if (list.length > PageIndex.MAX_CHILDREN) filed.delete(list.pop()!);
              kids.set(parent, list);
            }
          }
          for (const [parent, list] of kids) expect(idx.hasChildren(parent)).toBe(list.length > 0);
          for (const [hash, { parent, k, segs }] of pages) {
            expect(idx.hasChildren(hash)).toBe((kids.get(hash)?.length ?? 0) > 0);
            const found = idx.longestShared(parent, k, segs, P2 / B2 - 1, P2, B2, (h) => h === hash);
            expect(found.hash === hash).toBe(kids.get(parent)!.includes(hash));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('comparing contents without hashing them', () => {
  it('the shared tokens of two segment lists, in whole blocks, are the common start of their tail hashes', () => {
    const P2 = 64;
    const B2 = 8;
    // Few ids and short segments, so that lists often share starts, repeat an id, or hold empty segments.
    const seg = fc.record({ id: fc.oneof(fc.nat(3), fc.constantFrom('sys', 'tools')), tokens: fc.nat(40) });
    fc.assert(
      fc.property(
        fc.array(seg, { maxLength: 10 }),
        fc.array(seg, { maxLength: 10 }),
        fc.array(seg, { maxLength: 10 }),
        fc.nat(3),
        fc.integer({ min: 1, max: P2 / B2 - 1 }),
        (shared, a0, b0, page, room) => {
          const a = [...shared, ...a0];
          const b = [...shared, ...b0];
          const parent = 12345;
          const ha = pageTailHashes(a, P2, B2, page, parent, room);
          const hb = pageTailHashes(b, P2, B2, page, parent, room);
          let m = 0;
          while (m < ha.length && m < hb.length && ha[m] === hb[m]) m++;
          const start = page * P2;
          expect(Math.floor(commonTokens(a, 0, b, 0, start, start + room * B2) / B2)).toBe(m);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a slice of a list, given where it starts, compares as the whole list does', () => {
    const a: Segment[] = [
      { id: 'sys', tokens: 100 },
      { id: 1, tokens: 50 },
      { id: 2, tokens: 30 },
    ];
    const b: Segment[] = [...a.slice(0, 2), { id: 2, tokens: 10 }, { id: 3, tokens: 40 }];
    expect(commonTokens(a, 0, b, 0, 64, 200)).toBe(180 - 64 - 20);
    expect(commonTokens(a.slice(1), 100, b, 0, 128, 200)).toBe(160 - 128);
    expect(commonTokens(a, 0, b, 0, 128, 200)).toBe(160 - 128);
    expect(commonTokens(a, 0, b, 0, 64, 120)).toBe(120 - 64); // capped at the limit
    expect(commonTokens(a, 0, [{ id: 'sys', tokens: 90 }, ...a.slice(1)], 0, 64, 200)).toBe(90 - 64);
  });
});

describe('the 07.02 replay at different engine block sizes', () => {
  const req = {
    modelId: 'llama-3.1-70b',
    acceleratorId: 'h100-sxm',
    gpus: 8,
    replicas: 4,
    routing: 'round-robin' as const,
    turns: 14,
    toolResultTokens: 2_000,
    seed: 1,
  };
  it('a warm turn reuses what the previous turn computed, in whole blocks of the engine’s size', () => {
    // turn 12 under affinity: turn 11 left 37,500 + 500 − 1 = 37,999 tokens computed
    const at = (blockSize: number) =>
      computedOrThrow(methods.affinityReplay({ ...req, blockSize })).affinity.rows[12].reusedTokens;
    expect(at(256)).toBe(37_888);
    expect(at(16)).toBe(37_984);
    expect(at(1)).toBe(37_999);
    expect(computedOrThrow(methods.affinityReplay({ ...req, blockSize: 16 })).blockSize).toBe(16);
  });
});
