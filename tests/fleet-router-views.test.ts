/**
 * The routers' views as the systems build them (fleet/views/*.ts): unit behaviour on real KV caches, how the
 * routers act on them, and the invariants every view keeps. llm-d's scorers: fleet-llmd-scheduler.test.ts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { chainHashes, segmentBlockHashes } from '../src/sim/engine/kvcache/hash';
import { isToolSchema, SEG, segId } from '../src/sim/engine/fleet/workload';
import { createRng } from '../src/sim/engine/rng';
import { caches, load, PAGE, prompt, routeInput } from './fleet-view-helpers';
import { createCacheView, type CacheViewConfig } from '../src/sim/engine/fleet/view';
import { LlmdRouter } from '../src/sim/engine/fleet/llmd';
import type { RouterEnv } from '../src/sim/engine/fleet/router';
import { createRouter } from '../src/sim/engine/fleet/router';
import { LlmdApproximateView } from '../src/sim/engine/fleet/views/llmdApproximate';
import { SglangRadixView } from '../src/sim/engine/fleet/views/sglangRadix';
import { publishesEvents } from '../src/sim/engine/fleet/views/precise';

describe("llm-d's approximate view", () => {
  it('keeps reporting a prefix the pod has evicted, where the exact view does not', () => {
    const cs = caches(2, 8);
    const approx = createCacheView({ kind: 'llm-d-approximate', blockTokens: PAGE }, cs, 8);
    const exact = createCacheView({ kind: 'exact' }, cs, 8);
    const a = prompt(1000, 6);
    // The router sends A to pod 0, and the pod computes it.
    approx.routed(0, a, a.length);
    cs[0].insert(a);
    expect(approx.match(a, a.length)[0]).toBe(6);
    expect(exact.match(a, a.length)[0]).toBe(6);
    // Other traffic the router did not send through this view fills pod 0's HBM: A is evicted.
    cs[0].insert(prompt(5000, 8));
    expect(cs[0].where(a[0])).toBeUndefined();
    expect(exact.match(a, a.length)[0]).toBe(0);
    // The approximate index never hears of it: it still reports all six blocks on pod 0, none on pod 1.
    const m = approx.match(a, a.length);
    expect(m[0]).toBe(6);
    expect(m[1]).toBe(0);
  });

  it('keeps routing to the pod that no longer holds the prefix (llm-d scorer), unlike a precise scorer', () => {
    const cs = caches(2, 8);
    const approx = createCacheView({ kind: 'llm-d-approximate', blockTokens: PAGE }, cs, 8);
    const exact = createCacheView({ kind: 'exact' }, cs, 8);
    const a = prompt(1000, 6);
    approx.routed(0, a, a.length);
    cs[0].insert(a);
    cs[0].insert(prompt(5000, 8)); // evicts A from pod 0
    cs[1].insert(a); // pod 1 computed A meanwhile (another router instance sent it there)
    const loads = [load(), load()];
    const rng = createRng(1);
    const estimate = new LlmdRouter({ kind: 'llm-d', scorers: [{ type: 'prefix-cache', weight: 1 }] });
    const precise = new LlmdRouter({ kind: 'llm-d', scorers: [{ type: 'precise-prefix-cache', weight: 1 }] });
    const env = (view: typeof approx): RouterEnv => ({ now: 0, loads, view, rng });
    expect(estimate.route(routeInput(a), env(approx)).replica).toBe(0);
    expect(precise.route(routeInput(a), env(exact)).replica).toBe(1);
  });

  it('hashes only the first maxPrefixBlocks blocks, so prompts that share them are indistinguishable', () => {
    const cs = caches(2, 1000);
    const view = createCacheView(
      { kind: 'llm-d-approximate', blockTokens: PAGE, maxPrefixBlocks: 4 },
      cs,
      1000,
    );
    const head = [1, 2, 3, 4, 5];
    const a = chainHashes([...head, 100, 101]);
    const b = chainHashes([...head, 200, 201]);
    view.routed(0, a, a.length);
    // b shares five blocks with a, but the scorer looks at four: a full match (4 of 4), as for a itself.
    expect(view.match(b, b.length)[0]).toBe(4);
    expect((view as LlmdApproximateView).window(b.length)).toBe(4);
  });

  it('evicts its own least recently sent entries at lruCapacityPerServer, whatever the pod holds', () => {
    const cs = caches(1, 1000);
    const view = new LlmdApproximateView(
      1,
      { kind: 'llm-d-approximate', blockTokens: PAGE, lruCapacityPerServer: 6 },
      PAGE,
      1000 * PAGE,
    );
    const a = prompt(1000, 4);
    const b = prompt(2000, 4);
    view.routed(0, a, 4);
    view.routed(0, b, 4); // 8 entries > 6: the two oldest (a's first two) go
    expect(view.entriesOf(0)).toBe(6);
    expect(view.match(a, 4)[0]).toBe(0); // a's first block is gone, so nothing of a matches
    expect(view.match(b, 4)[0]).toBe(4);
    void cs;
  });

  it('counts a page as several scorer blocks when the page is larger', () => {
    // 64-token pages, the scorer's 16-token blocks: 4 entries a page; capacity 31,250 entries → 7,812 pages.
    const v = new LlmdApproximateView(1, { kind: 'llm-d-approximate' }, 64, 1e6);
    expect(v.capacityEntries).toBe(7812);
    // 256 × 16 = 4,096 tokens = 64 pages of 64 tokens.
    expect(v.window(1000)).toBe(64);
    // 'auto': the pod's HBM in the scorer's blocks (307,328 tokens / 16), in pages of 64 tokens.
    const auto = new LlmdApproximateView(
      1,
      { kind: 'llm-d-approximate', lruCapacityPerServer: 'auto' },
      64,
      307_328,
    );
    expect(auto.capacityEntries).toBe(Math.floor(307_328 / 16 / 4));
  });
});

describe("llm-d's approximate view of the chat messages (hashes: 'messages')", () => {
  const tools = (tokens: number) => ({ id: segId(SEG.tools, 7, 0), tokens });
  const seg = (kind: number, a: number, tokens: number) => ({ id: segId(kind, a, 0), tokens });

  it('keys a prompt by its segments without the tool schemas, up to the window, and counts its pages without them', () => {
    const v = new LlmdApproximateView(
      1,
      { kind: 'llm-d-approximate', blockTokens: 16, maxPrefixBlocks: 64, hashes: 'messages' },
      256,
      1e6,
    );
    const system = seg(SEG.system, 7, 600);
    const task = seg(SEG.task, 1, 700);
    const out = seg(SEG.out, 1, 300);
    // The prompt is system + tools + task (2,300 tokens); the output after it is not part of the prompt.
    const keys = v.promptKeys([system, tools(1000), task, out], 2300)!;
    expect(keys.count).toBe(Math.floor(1300 / 256));
    // The window is 64 × 16 = 1,024 tokens: four full pages of the messages, hashed as the fleet would hash them.
    expect(Array.from(keys.hashes)).toEqual(segmentBlockHashes([system, task], 256).hashes.slice(0, 4));
    // The prompt as rendered (the default) is keyed by the fleet's own hashes.
    const rendered = new LlmdApproximateView(1, { kind: 'llm-d-approximate' }, 256, 1e6);
    expect(rendered.promptKeys([system, tools(1000), task], 2300)).toBeNull();
    expect(isToolSchema(tools(1).id)).toBe(true);
    expect([system, task, out].some((x) => isToolSchema(x.id))).toBe(false);
  });

  it('tells two sessions of one app apart past a shared head longer than its window, where the rendered prompt cannot', () => {
    const cfg = { kind: 'llm-d-approximate', blockTokens: 16, maxPrefixBlocks: 32 } as const; // a 512-token window
    const head = [seg(SEG.system, 3, 256), tools(1024)]; // 1,280 shared tokens, longer than the window
    const a = [...head, seg(SEG.task, 1, 512)];
    const b = [...head, seg(SEG.task, 2, 512)];
    const page = 256;
    for (const hashes of ['prompt', 'messages'] as const) {
      const v = new LlmdApproximateView(2, { ...cfg, hashes }, page, 1e6);
      const keysOf = (segs: typeof a) => {
        const k = v.promptKeys(segs, 1792);
        const fleet = segmentBlockHashes(segs, page).hashes;
        return k ?? { hashes: fleet, count: fleet.length };
      };
      const ka = keysOf(a);
      v.routed(0, ka.hashes, ka.count);
      const kb = keysOf(b);
      const matched = v.match(kb.hashes, kb.count)[0];
      // Rendered: b's window is all shared head, a full match. Messages: only the system prompt's page matches.
      expect(matched).toBe(hashes === 'prompt' ? 2 : 1);
    }
  });
});

describe('the precise (KV-event) view', () => {
  it('sees the eviction at once with no latency, and only after its next batch with one', () => {
    const cs = caches(1, 8);
    const now = createCacheView({ kind: 'precise' }, cs, 8);
    const late = createCacheView({ kind: 'precise', latencyS: 0.5 }, cs, 8);
    expect(late.syncIntervalS).toBe(0.5);
    const a = prompt(1000, 6);
    cs[0].insert(a);
    expect(now.match(a, 6)[0]).toBe(6);
    expect(late.match(a, 6)[0]).toBe(0); // stored, but the event has not reached the index
    late.sync();
    expect(late.match(a, 6)[0]).toBe(6);
    cs[0].insert(prompt(5000, 8)); // evicts a
    expect(now.match(a, 6)[0]).toBe(0);
    expect(late.match(a, 6)[0]).toBe(6); // the removal is still in flight
    late.sync();
    expect(late.match(a, 6)[0]).toBe(0);
  });
});

/** A cache that only publishes KV events (the kvcache event log's interface), for the lagged precise view. */
class EventOnlyCache {
  readonly blockSize = PAGE;
  private readonly events: { t: number; hash: number; tier: number; stored: boolean }[] = [];
  private read = 0;
  store(t: number, hashes: number[], tier = 0): void {
    for (const hash of hashes) this.events.push({ t, hash, tier, stored: true });
  }
  remove(t: number, hashes: number[], tier = 0): void {
    for (const hash of hashes) this.events.push({ t, hash, tier, stored: false });
  }
  blocks(): IterableIterator<never> {
    return [][Symbol.iterator]();
  }
  subscribe() {
    return {
      drain: (f: (hash: number, tier: number, stored: boolean) => void, until = Infinity) => {
        let n = 0;
        while (this.read < this.events.length && this.events[this.read].t <= until) {
          const e = this.events[this.read++];
          f(e.hash, e.tier, e.stored);
          n++;
        }
        return n;
      },
    };
  }
}

describe('the precise view with an event latency, over caches that publish KV events', () => {
  it('finds a block latencyS after it was stored, and still finds it until latencyS after its removal', () => {
    let now = 0;
    const cache = new EventOnlyCache();
    const view = createCacheView(
      { kind: 'precise', latencyS: 0.5, tiers: 'hbm' },
      [cache as never],
      8,
      () => now,
    );
    expect(view.kind).toBe('precise');
    expect(view.syncIntervalS).toBe(0);
    const a = prompt(1000, 4);
    cache.store(1, a);
    cache.store(1, prompt(9000, 2), 1); // a DRAM copy: not an HBM event
    now = 1.4;
    expect(view.match(a, 4)[0]).toBe(0);
    now = 1.5;
    expect(view.match(a, 4)[0]).toBe(4);
    expect(view.match(prompt(9000, 2), 2)[0]).toBe(0);
    cache.remove(2, a.slice(2)); // the last two blocks evicted at t = 2
    now = 2.4;
    expect(view.match(a, 4)[0]).toBe(4);
    now = 2.5;
    expect(view.match(a, 4)[0]).toBe(2);
  });
});

describe('the precise view over the engine’s own KV event logs', () => {
  // Runs where the KV cache publishes its events (kvcache/events.ts, `subscribe`): the lag is exact there.
  it.runIf(publishesEvents(caches(1, 1)))(
    'applies each stored and removed event latencyS after it happened',
    () => {
      let now = 0;
      const cs = caches(1, 8);
      const view = createCacheView({ kind: 'precise', latencyS: 1, tiers: 'hbm' }, cs, 8, () => now);
      const a = prompt(1000, 6);
      now = 10;
      cs[0].insert(a);
      now = 10.9;
      expect(view.match(a, 6)[0]).toBe(0);
      now = 11;
      expect(view.match(a, 6)[0]).toBe(6);
      now = 20;
      cs[0].insert(prompt(5000, 8)); // evicts a at t = 20
      now = 20.5;
      expect(view.match(a, 6)[0]).toBe(6);
      now = 21;
      expect(view.match(a, 6)[0]).toBe(0);
    },
  );
});

describe("SGLang's approximate radix tree", () => {
  it('keeps what it routed until its own trim, however the worker evicts', () => {
    const cs = caches(1, 8);
    const view = createCacheView({ kind: 'sglang-radix' }, cs, 8);
    const a = prompt(1000, 6);
    view.routed(0, a, 6);
    cs[0].insert(a);
    cs[0].insert(prompt(5000, 8)); // the worker evicts a
    view.sync(); // far under the 2^26-character default: nothing trimmed
    expect(view.match(a, 6)[0]).toBe(6);
  });

  it('trims each worker to maxTreeSize characters, least recently routed leaves first, every evictionIntervalS', () => {
    // 16-token pages at 4 characters a token: 64 characters a page; 10 pages allowed.
    const view = new SglangRadixView(
      2,
      { kind: 'sglang-radix', maxTreeSize: 640, evictionIntervalS: 30 },
      PAGE,
    );
    expect(view.syncIntervalS).toBe(30);
    const head = [1, 2, 3, 4];
    const a = chainHashes([...head, 10, 11, 12, 13]);
    const b = chainHashes([...head, 20, 21, 22, 23]);
    view.routed(0, a, 8); // 8 pages
    view.routed(0, b, 8); // shares the 4-page head: 12 pages, 768 characters
    view.routed(1, a, 8);
    expect(view.sizeOf(0)).toBe(12 * 64);
    view.sync();
    // Worker 0 is trimmed to 10 pages: a's two deepest pages go (a was routed before b); worker 1 is untouched.
    expect(view.sizeOf(0)).toBe(10 * 64);
    expect(view.match(a, 8)[0]).toBe(6);
    expect(view.match(b, 8)[0]).toBe(8);
    expect(view.match(a, 8)[1]).toBe(8);
    // A trim that has to go past a's branch eats into it leaf by leaf, then b's, never the shared head first.
    const small = new SglangRadixView(1, { kind: 'sglang-radix', maxTreeSize: 5 * 64 }, PAGE);
    small.routed(0, a, 8);
    small.routed(0, b, 8);
    small.sync();
    expect(small.nodesOf(0)).toBe(5);
    expect(small.match(a, 8)[0]).toBe(4);
    expect(small.match(b, 8)[0]).toBe(5);
  });

  it('with no creator on record, names the first worker of the deepest node, the same one every time for that node', () => {
    const view = new SglangRadixView(4, { kind: 'sglang-radix' }, PAGE);
    const h = prompt(1, 5);
    const first = view.firstAt(h, 5, [0, 1, 2, 3]);
    for (let i = 0; i < 5; i++) expect(view.firstAt(h, 5, [0, 1, 2, 3])).toBe(first);
    // Over many nodes every worker comes first somewhere (an arbitrary order, not a fixed favourite).
    const firsts = new Set<number>();
    for (let k = 0; k < 64; k++) firsts.add(view.firstAt(prompt(k * 10, 3), 3, [0, 1, 2, 3]));
    expect(firsts.size).toBe(4);
  });

  it("names the worker whose insert created the node while it holds it, else the map's first, cached (smg 1.9's last_tenant)", () => {
    // Four pages allowed a worker (64 characters a page), so routing a second 4-page prompt trims the first.
    const make = (n: number) => new SglangRadixView(n, { kind: 'sglang-radix', maxTreeSize: 4 * 64 }, PAGE);
    // The creator wins whatever the map's order: eight prompts, each created by a different worker of three.
    const view = make(3);
    for (let k = 0; k < 8; k++) {
      const h = prompt(100 * (k + 1), 4);
      const creator = k % 3;
      view.routed(creator, h, 4);
      for (const r of [0, 1, 2]) if (r !== creator) view.routed(r, h, 4);
      expect(view.firstAt(h, 4, [0, 1, 2])).toBe(creator);
      view.sync();
    }
    // The creator loses the node: the map's first of the others, which stays cached when the creator is back.
    const v = make(3);
    const h = prompt(7000, 4);
    v.routed(2, h, 4);
    v.routed(0, h, 4);
    v.routed(1, h, 4);
    v.routed(2, prompt(8000, 4), 4); // worker 2 now holds 8 pages: the trim removes h, its oldest
    v.sync();
    expect(v.match(h, 4)[2]).toBe(0);
    const stand = v.firstAt(h, 4, [0, 1]);
    v.routed(2, h, 4);
    v.sync();
    expect(v.match(h, 4)[2]).toBe(4);
    expect(v.firstAt(h, 4, [0, 1, 2])).toBe(stand);
    // A node no worker holds is gone; made again, it belongs to its new creator.
    const w = make(2);
    const g = prompt(9000, 4);
    w.routed(1, g, 4);
    w.routed(1, prompt(9100, 4), 4);
    w.sync(); // g trimmed from worker 1, its only holder
    w.routed(0, g, 4);
    w.routed(1, g, 4);
    expect(w.firstAt(g, 4, [0, 1])).toBe(0);
  });

  it("routes SGLang's cache_aware policy to the tree's worker on a match, and to the least loaded on a miss", () => {
    const cs = caches(3, 100);
    const view = createCacheView({ kind: 'sglang-radix' }, cs, 100);
    const router = createRouter({ kind: 'cache-aware' });
    const loads = [
      load({ outstandingRequests: 5 }),
      load({ outstandingRequests: 1 }),
      load({ outstandingRequests: 3 }),
    ];
    const env: RouterEnv = { now: 0, loads, view, rng: createRng(1) };
    const a = prompt(1000, 10);
    view.routed(2, a, 10);
    // 10 of 10 pages on worker 2: above the 0.3 threshold, so worker 2 although worker 1 is idler.
    expect(router.route(routeInput(a), env)).toMatchObject({ replica: 2, reason: 'cache-hit' });
    // A prompt sharing 2 of its 10 pages (20% ≤ 30%): a miss, to the least loaded worker.
    const b = chainHashes([1000, 1001, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(router.route(routeInput(b), env)).toMatchObject({ replica: 1, reason: 'cache-miss' });
    // SGLang v0.4's miss went to the smallest tree: worker 0 or 1 (both empty), never worker 2.
    const v04 = createRouter({ kind: 'cache-aware', onMiss: 'smallest-tree' });
    expect(v04.route(routeInput(b), env).replica).not.toBe(2);
  });
});

describe('every view', () => {
  const kinds: CacheViewConfig[] = [
    { kind: 'exact' },
    { kind: 'delayed', intervalS: 1 },
    { kind: 'approximate' },
    { kind: 'llm-d-approximate', blockTokens: PAGE, maxPrefixBlocks: 8 },
    { kind: 'llm-d-approximate', blockTokens: PAGE * 2, lruCapacityPerServer: 10 },
    { kind: 'sglang-radix', maxTreeSize: 300 },
    { kind: 'precise' },
    { kind: 'precise', latencyS: 0.2, tiers: 'hbm' },
  ];
  it('never reports a match longer than the prompt, nor longer than the blocks the pod was sent or holds', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 2 }),
            fc.integer({ min: 0, max: 5 }),
            fc.integer({ min: 0, max: 12 }),
          ),
          { minLength: 1, maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 12 }),
        (ops, qBase, qLen) => {
          for (const k of kinds) {
            const cs = caches(3, 10);
            const view = createCacheView(k, cs, 10);
            for (const [rep, base, len] of ops) {
              const h = prompt(base * 100, len);
              view.routed(rep, h, len);
              cs[rep].insert(h);
              view.sync();
            }
            const q = prompt(qBase * 100, qLen);
            const m = view.match(q, qLen);
            for (let r = 0; r < 3; r++) {
              expect(m[r]).toBeGreaterThanOrEqual(0);
              expect(m[r]).toBeLessThanOrEqual(qLen);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
