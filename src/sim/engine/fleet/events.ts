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
  /** EVENT_PRIORITY of its kind, read once when it is pushed (a tie between two events compared it on every sift). */
  pri: number;
  a: number;
  b: number;
}

function before(x: SimEvent, y: SimEvent): boolean {
  if (x.time !== y.time) return x.time < y.time;
  if (x.pri !== y.pri) return x.pri < y.pri;
  return x.seq < y.seq;
}

export class EventQueue {
  private heap: SimEvent[] = [];
  private nextSeq = 0;
  /** Time of the last popped event; pushing an event before it is a bug in the caller. */
  private lastTime = -Infinity;

  get size(): number {
    return this.heap.length;
  }

  /** Total events ever pushed. */
  get pushed(): number {
    return this.nextSeq;
  }

  get now(): number {
    return this.lastTime;
  }

  push(time: number, kind: EventKind, a = 0, b = 0): SimEvent {
    if (!(time >= this.lastTime)) {
      throw new RangeError(`event ${kind} scheduled at ${time}, before the current time ${this.lastTime}`);
    }
    const ev: SimEvent = { time, kind, seq: this.nextSeq++, pri: EVENT_PRIORITY[kind], a, b };
    const h = this.heap;
    let i = h.length;
    h.push(ev);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(ev, h[p])) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = ev;
    return ev;
  }

  peek(): SimEvent | undefined {
    return this.heap[0];
  }

  pop(): SimEvent | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      const n = h.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && before(h[r], h[l]) ? r : l;
        if (!before(h[c], last)) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = last;
    }
    this.lastTime = top.time;
    return top;
  }
}
