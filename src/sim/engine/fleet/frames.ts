/**
 * Animation frames: a compact snapshot of the fleet at one instant, made of typed arrays so a worker can
 * transfer it without copying (`transferables(frame)` lists the buffers).
 *
 * Layout (R = replicas, T = 4 tier slots hbm, dram, nvme, remote):
 *  - blocks: one entry per KV block (page) anywhere in the fleet: `replica` (0xFFFF for the shared pool), `hash`
 *    (its identity, stable between frames, so an animation can move a block rather than redraw it), `tier` (the
 *    fastest tier holding a copy, index into TIERS), `resident` (bit i: tier TIERS[i] holds a copy; the tiers are
 *    inclusive, so a block written through has the HBM and the DRAM bit), `session` (the session that last
 *    pinned it, −1 unknown), `flags` (bit 0 pinned, bit 1 pending: allocated, not yet computed, bit 2 shared:
 *    pinned by more than one sequence now). A block in a replica's tiers and in the pool has two entries.
 *  - replicas: per replica counts (`waiting`, `loading`, `prefilling`, `decoding`, `held` sessions), `busy`,
 *    and per tier, row-major R × T: `kvUsed` / `kvCapacity` in blocks, `kvTokens` resident, and the run's
 *    cumulative `hitTokens` (prefix tokens served from the tier), `bytesUp` / `bytesDown` (over the link between
 *    the tier and the one above it; 0 for HBM).
 *  - members: the queue and batch of each replica: for replica r the entries offsets[r] .. offsets[r+1] of
 *    `session` / `request` / `phase` (PHASE_CODE: 0 waiting, 1 loading, 2 prefill, 3 decode).
 *  - routes: the routing decisions since the previous frame: time, session, request, replica, reason
 *    (ROUTE_REASONS index) and the prefix the router believed matched (blocks, −1 if it did not look).
 */
import { TIER_ORDER, type TierName } from '../kvcache/types';
import { Samples } from './metrics';
import type { Replica } from './replica';
import { PHASE_CODE } from './request';
import { ROUTE_REASON, type RouteDecision } from './router';

export const TIERS: readonly TierName[] = TIER_ORDER;
export const POOL_REPLICA = 0xffff;
/** Bits of `blocks.flags`. */
export const BLOCK_PINNED = 1;
export const BLOCK_PENDING = 2;
export const BLOCK_SHARED = 4;

export interface FleetFrame {
  /** Frame number, from 0. */
  index: number;
  /** Simulated time, s. */
  t: number;
  blocks: {
    count: number;
    replica: Uint16Array;
    hash: Float64Array;
    tier: Uint8Array;
    resident: Uint8Array;
    session: Int32Array;
    flags: Uint8Array;
  };
  replicas: {
    count: number;
    waiting: Uint16Array;
    loading: Uint16Array;
    prefilling: Uint16Array;
    decoding: Uint16Array;
    held: Uint16Array;
    busy: Uint8Array;
    kvUsed: Uint32Array;
    kvCapacity: Uint32Array;
    kvTokens: Float64Array;
    hitTokens: Float64Array;
    bytesUp: Float64Array;
    bytesDown: Float64Array;
  };
  members: { offsets: Uint32Array; session: Int32Array; request: Int32Array; phase: Uint8Array };
  routes: {
    count: number;
    t: Float64Array;
    session: Int32Array;
    request: Int32Array;
    replica: Uint16Array;
    reason: Uint8Array;
    matched: Int32Array;
  };
}

/** The buffers of a frame, for postMessage's transfer list. */
export function transferables(f: FleetFrame): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const add = (o: Record<string, unknown>) => {
    for (const v of Object.values(o)) if (ArrayBuffer.isView(v)) out.push(v.buffer as ArrayBuffer);
  };
  add(f.blocks);
  add(f.replicas);
  add(f.members);
  add(f.routes);
  return out;
}

/** Routing decisions collected between frames. */
export class RouteLog {
  private t = new Samples(256);
  private session: number[] = [];
  private request: number[] = [];
  private replica: number[] = [];
  private reason: number[] = [];
  private matched: number[] = [];
  push(t: number, session: number, request: number, d: RouteDecision): void {
    this.t.push(t);
    this.session.push(session);
    this.request.push(request);
    this.replica.push(d.replica);
    this.reason.push(ROUTE_REASON[d.reason]);
    this.matched.push(d.matchedBlocks);
  }
  drain(): FleetFrame['routes'] {
    const r = {
      count: this.t.length,
      t: this.t.toArray(),
      session: Int32Array.from(this.session),
      request: Int32Array.from(this.request),
      replica: Uint16Array.from(this.replica),
      reason: Uint8Array.from(this.reason),
      matched: Int32Array.from(this.matched),
    };
    this.t = new Samples(256);
    this.session = [];
    this.request = [];
    this.replica = [];
    this.reason = [];
    this.matched = [];
    return r;
  }
}

export function buildFrame(
  index: number,
  t: number,
  replicas: readonly Replica[],
  routes: RouteLog,
): FleetFrame {
  const R = replicas.length;
  const T = TIERS.length;
  const snaps = replicas.map((r) => r.cache.snapshot());
  const pool = replicas[0]?.cache.pool ?? null;
  const poolSnap = pool ? pool.snapshot() : null;
  let n = poolSnap ? poolSnap.count : 0;
  for (const s of snaps) n += s.count;
  const blocks = {
    count: n,
    replica: new Uint16Array(n),
    hash: new Float64Array(n),
    tier: new Uint8Array(n),
    resident: new Uint8Array(n),
    session: new Int32Array(n),
    flags: new Uint8Array(n),
  };
  let k = 0;
  snaps.forEach((s, ri) => {
    const map = s.tiers.map((name) => TIERS.indexOf(name));
    for (let i = 0; i < s.count; i++, k++) {
      blocks.replica[k] = ri;
      blocks.hash[k] = s.hashes[i];
      blocks.tier[k] = map[s.tier[i]];
      let bits = 0;
      for (let b = 0; b < map.length; b++) if (s.resident[i] & (1 << b)) bits |= 1 << map[b];
      blocks.resident[k] = bits;
      blocks.session[k] = s.tag[i];
      blocks.flags[k] =
        (s.pins[i] > 0 ? BLOCK_PINNED : 0) |
        (s.flags[i] & 1 ? BLOCK_PENDING : 0) |
        (s.pins[i] > 1 ? BLOCK_SHARED : 0);
    }
  });
  if (poolSnap) {
    const remote = TIERS.indexOf('remote');
    for (let i = 0; i < poolSnap.count; i++, k++) {
      blocks.replica[k] = POOL_REPLICA;
      blocks.hash[k] = poolSnap.hashes[i];
      blocks.tier[k] = remote;
      blocks.resident[k] = 1 << remote;
      blocks.session[k] = poolSnap.tags[i];
    }
  }
  const rep = {
    count: R,
    waiting: new Uint16Array(R),
    loading: new Uint16Array(R),
    prefilling: new Uint16Array(R),
    decoding: new Uint16Array(R),
    held: new Uint16Array(R),
    busy: new Uint8Array(R),
    kvUsed: new Uint32Array(R * T),
    kvCapacity: new Uint32Array(R * T),
    kvTokens: new Float64Array(R * T),
    hitTokens: new Float64Array(R * T),
    bytesUp: new Float64Array(R * T),
    bytesDown: new Float64Array(R * T),
  };
  let m = 0;
  for (const r of replicas) m += r.waiting.length + r.running.length;
  const members = {
    offsets: new Uint32Array(R + 1),
    session: new Int32Array(m),
    request: new Int32Array(m),
    phase: new Uint8Array(m),
  };
  let j = 0;
  replicas.forEach((r, ri) => {
    members.offsets[ri] = j;
    rep.waiting[ri] = Math.min(0xffff, r.waiting.length);
    rep.held[ri] = Math.min(0xffff, r.pauses.sessionsHeld);
    rep.busy[ri] = r.isBusy ? 1 : 0;
    for (const q of r.running) {
      if (q.state === 'loading') rep.loading[ri]++;
      else if (q.state === 'prefill') rep.prefilling[ri]++;
      else if (q.state === 'decode') rep.decoding[ri]++;
    }
    for (const list of [r.running, r.waiting]) {
      for (const q of list) {
        members.session[j] = q.session;
        members.request[j] = q.id;
        members.phase[j] = PHASE_CODE[q.state];
        j++;
      }
    }
    for (const o of r.cache.occupancy()) {
      const ti = TIERS.indexOf(o.tier);
      rep.kvUsed[ri * T + ti] = o.usedBlocks;
      rep.kvCapacity[ri * T + ti] = o.capacityBlocks;
      rep.kvTokens[ri * T + ti] = o.usedTokens;
    }
    const c = r.cache.counters();
    c.tiers.forEach((name, i) => {
      const ti = ri * T + TIERS.indexOf(name);
      rep.hitTokens[ti] = c.hitTokens[i];
      rep.bytesUp[ti] = c.bytesUp[i];
      rep.bytesDown[ti] = c.bytesDown[i];
    });
  });
  members.offsets[R] = j;
  return { index, t, blocks, replicas: rep, members, routes: routes.drain() };
}

/** A frame as plain JSON (typed arrays as arrays), e.g. for a JSONL file. */
export function frameToJson(f: FleetFrame): unknown {
  const conv = (o: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o))
      out[k] = ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v;
    return out;
  };
  return {
    index: f.index,
    t: f.t,
    blocks: conv(f.blocks),
    replicas: conv(f.replicas),
    members: conv(f.members),
    routes: conv(f.routes),
  };
}
