/**
 * The fleet simulator's event queue: a binary min-heap of timed events.
 *
 * THE tie-break order (the only place it is defined). Events are popped in increasing
 *   1. `time` (seconds of simulated time),
 *   2. `EVENT_PRIORITY[kind]` (the fixed order below, smaller first),
 *   3. `seq`, the order in which the events were pushed (a counter owned by the queue).
 * So two runs that push the same events in the same order pop them in the same order, in Node and in every
 * browser: nothing depends on object identity, Map iteration of floats, or sort stability.
 *
 * Why this kind order, for events at the very same instant:
 *  - `iteration-end` first: a finished iteration frees KV blocks and batch slots before anyone asks for them.
 *  - `transfer-done` next: KV that finished loading is usable by the iteration that forms at this instant.
 *  - `grammar-ready`: likewise a structured-output grammar that finished compiling.
 *  - `ttl-expire` before resumes: a TTL that ends exactly when the tool returns counts as expired (stated
 *    convention: the hold lasts [start, start + ttl)).
 *  - `turn-ready` (a tool returned / a user wrote): the session's next request is created and routed.
 *  - `session-arrival`: a new session starts and its first request is routed.
 *  - `request-ready`: a request's fixed overhead (tokenisation, the gateway hop: fleet/overhead.ts) is over and it
 *    is routed, after this instant's arrivals.
 *  - `request-timeout`: a client gives up (fleet/clients.ts), after this instant's completions, so a request that
 *    finishes exactly at its deadline counts as finished.
 *  - `view-sync`: a delayed router view catches up (after this instant's cache changes).
 *  - `replica-wake`: a replica forms its next iteration, after every arrival of this instant is queued, so
 *    simultaneous arrivals are batched together whatever order they were pushed in.
 *  - `frame`: the animation snapshot sees the state after everything else at this instant.
 *  - `end`: the horizon, last.
 */

import { widened } from '../widened';

export type EventKind =
  | 'iteration-end'
  | 'transfer-done'
  | 'kv-handoff'
  | 'grammar-ready'
  | 'ttl-expire'
  | 'turn-ready'
  | 'session-arrival'
  | 'request-ready'
  | 'request-timeout'
  | 'view-sync'
  | 'metrics-scrape'
  | 'replica-wake'
  | 'frame'
  | 'end';

export const EVENT_PRIORITY: Readonly<Record<EventKind, number>> = {
  'iteration-end': 0,
  'transfer-done': 1,
  // A prefill worker's KV landed on its decode worker (fleet/disagg.ts): usable like a finished load.
  'kv-handoff': 1.5,
  'grammar-ready': 2,
  'ttl-expire': 3,
  'turn-ready': 4,
  'session-arrival': 5,
  'request-ready': 6,
  'request-timeout': 7,
  'view-sync': 8,
  // The router's scrape of the replicas' metrics sees every step that ended at this instant.
  'metrics-scrape': 8.5,
  'replica-wake': 9,
  frame: 10,
  end: 11,
};

/** One scheduled event. `a` and `b` are kind-specific integer arguments (replica, session, generation …). */
export interface SimEvent {
  time: number;
  kind: EventKind;
  /** Push order; assigned by the queue. */
  seq: number;
  a: number;
  b: number;
}

/** The kinds by code: an event's kind is stored as its index here. */
const KINDS = Object.keys(EVENT_PRIORITY) as EventKind[];
const KIND_CODE = Object.fromEntries(KINDS.map((k, i) => [k, i])) as Record<EventKind, number>;
const PRIORITY_OF_CODE = Float64Array.from(KINDS, (k) => EVENT_PRIORITY[k]);
const INITIAL_SLOTS = 256;

/**
 * Events that keep nothing alive: when only these are left, nothing can change any more. A request's timeout is
 * one of them: once every request has ended, the deadlines still queued must not stretch the run.
 */
export const PERIODIC_KINDS: readonly EventKind[] = [
  'frame',
  'view-sync',
  'metrics-scrape',
  'end',
  'request-timeout',
];
const PERIODIC_CODE = Uint8Array.from(KINDS, (k) => (PERIODIC_KINDS.includes(k) ? 1 : 0));

/**
 * The queue keeps its events in columns (one typed array per field, an event a slot) and heaps the slots' numbers.
 * Why not a heap of event objects: every event was an object that lived for a while (seconds of simulated time)
 * and every sift stored one into an array in the old generation, so each store paid the write barrier and the
 * events kept the young-generation collections busy copying them; here a sift moves an integer.
 */
export class EventQueue {
  private time = new Float64Array(INITIAL_SLOTS);
  /** EVENT_PRIORITY of the slot's kind, kept beside its time (a tie compared it on every sift). */
  private pri = new Float64Array(INITIAL_SLOTS);
  private seq = new Float64Array(INITIAL_SLOTS);
  private kind = new Uint8Array(INITIAL_SLOTS);
  /**
   * The payloads (a session, a request, a replica and its iteration: integers), as 32-bit integers: read from a
   * Float64Array they came back as doubles, and the first one stored into a request's `session` or `seq` turned
   * those fields (and the cache's tags) into boxed doubles for the rest of the run, and deoptimized the code that
   * had read them as small integers.
   */
  private a = new Int32Array(INITIAL_SLOTS);
  private b = new Int32Array(INITIAL_SLOTS);
  /** Slot numbers in heap order. */
  private heap = new Int32Array(INITIAL_SLOTS);
  /** Slots not in use, a stack (slots ≥ `fresh` have never been used). */
  private freeSlots = new Int32Array(INITIAL_SLOTS);
  private freeCount = 0;
  private fresh = 0;
  private n = 0;
  /** Events in the queue of a kind not in PERIODIC_KINDS. */
  private liveCount = 0;
  private nextSeq = 0;
  /** Time of the last popped event; pushing an event before it is a bug in the caller. */
  private lastTime = -Infinity;
  /** What pop() hands back, rewritten by the next pop (read it before popping again). */
  private readonly popped: SimEvent = { time: 0, kind: 'end', seq: 0, a: 0, b: 0 };

  get size(): number {
    return this.n;
  }

  /** Events queued that keep the run alive (of a kind not in PERIODIC_KINDS): at 0, nothing can change any more. */
  get live(): number {
    return this.liveCount;
  }

  /** Total events ever pushed. */
  get pushed(): number {
    return this.nextSeq;
  }

  get now(): number {
    return this.lastTime;
  }

  /** Slot x pops before slot y: THE tie-break order (time, kind priority, push order). */
  private before(x: number, y: number): boolean {
    const tx = this.time[x];
    const ty = this.time[y];
    if (tx !== ty) return tx < ty;
    const px = this.pri[x];
    const py = this.pri[y];
    if (px !== py) return px < py;
    return this.seq[x] < this.seq[y];
  }

  push(time: number, kind: EventKind, a = 0, b = 0): void {
    if (!(time >= this.lastTime)) {
      throw new RangeError(`event ${kind} scheduled at ${time}, before the current time ${this.lastTime}`);
    }
    if ((a | 0) !== a || (b | 0) !== b)
      throw new RangeError(`event ${kind}: its payload (${a}, ${b}) must be 32-bit integers`);
    if (this.n === this.heap.length) this.grow();
    const slot = this.freeCount > 0 ? this.freeSlots[--this.freeCount] : this.fresh++;
    const code = KIND_CODE[kind];
    this.time[slot] = time;
    this.pri[slot] = PRIORITY_OF_CODE[code];
    this.seq[slot] = this.nextSeq++;
    this.kind[slot] = code;
    this.liveCount += 1 - PERIODIC_CODE[code];
    this.a[slot] = a;
    this.b[slot] = b;
    const h = this.heap;
    let i = this.n++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(slot, h[p])) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = slot;
  }

  /** The next event, or undefined when none is left. The object is the queue's own, reused by the next pop. */
  pop(): SimEvent | undefined {
    if (this.n === 0) return undefined;
    const h = this.heap;
    const top = h[0];
    const n = --this.n;
    if (n > 0) {
      const last = h[n];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && this.before(h[r], h[l]) ? r : l;
        if (!this.before(h[c], last)) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    this.freeSlots[this.freeCount++] = top;
    this.liveCount -= 1 - PERIODIC_CODE[this.kind[top]];
    const ev = this.popped;
    ev.time = this.lastTime = this.time[top];
    ev.kind = KINDS[this.kind[top]];
    ev.seq = this.seq[top];
    ev.a = this.a[top];
    ev.b = this.b[top];
    return ev;
  }

  private grow(): void {
    const cap = this.heap.length * 2;
    this.time = widened(this.time, cap);
    this.pri = widened(this.pri, cap);
    this.seq = widened(this.seq, cap);
    this.kind = widened(this.kind, cap);
    this.a = widened(this.a, cap);
    this.b = widened(this.b, cap);
    this.heap = widened(this.heap, cap);
    this.freeSlots = widened(this.freeSlots, cap);
  }
}
