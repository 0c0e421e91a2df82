/**
 * Where a fleet's turns come from, and when each arrives: sessions the workload generator draws (Poisson or
 * closed-loop arrivals, each next turn after its tool call), a trace replayed by its timestamps or session by
 * session, or a shared-prefix workload released stage by stage. The engine (fleet/engine.ts) handles the events
 * this schedules and submits the requests it hands over.
 */
import type { Segment } from '../kvcache/hash';
import type { Rng } from '../rng';
import { createRng } from '../rng';
import type { EventKind } from './events';
import type { Req } from './request';
import type { ResolvedScenario, SessionsWorkload, TraceWorkload } from './scenario';
import { newSessionRt, sessionHashes, type SessionRt } from './sessionRecord';
import { sharedPrefixTurns, type StagePacer } from './sharedPrefix';
import { loadTrace, type LoadedTrace } from './trace';
import type { TailHasher } from './tails';
import { WorkloadGenerator, type RequestSpec } from './workload';

/** What a request's prompt is hashed from: its segments, or its block hashes as given (a trace's). */
export interface PromptHashes {
  segs: Segment[] | null;
  hashes: number[];
  tails?: TailHasher | null;
}

export interface TurnSourceHost {
  now(): number;
  schedule(time: number, kind: EventKind, a: number, b: number): void;
  /**
   * Submit a request of `session` (−1: none) on KV sequence `seq` (null: a sequence of its own); `rt` is its
   * session's record, if any, and `doorRt` the record the front door holds it under (null: it stands alone).
   */
  submit(
    session: number,
    cls: number,
    spec: RequestSpec,
    h: PromptHashes,
    seq: number | null,
    rt: SessionRt | undefined,
    doorRt: SessionRt | null,
  ): void;
}

export class TurnSource {
  /** The sessions' records, by session index. */
  readonly sessions: SessionRt[] = [];
  readonly trace: LoadedTrace | null;
  private readonly wl: SessionsWorkload | TraceWorkload;
  private readonly gen: WorkloadGenerator | null;
  /** A staged workload's clock (shared-prefix): the next stage waits for the previous one to drain. */
  private readonly pacer: StagePacer | null = null;
  private readonly arrivalRng: Rng;
  /** Session records made so far (the first settles their fields: newSessionRt). */
  private sessionRecords = 0;
  private startedSessions = 0;
  private traceNext = 0;
  /** Native traces replayed by session: the next turn of each session (position in trace.bySession). */
  private traceTurnOf: Int32Array = new Int32Array(0);
  /** The next turn of the session whose turn ended last (afterTurn), scheduled by scheduleNext. */
  private readonly next = { t: 0, kind: 'turn-ready' as EventKind, a: 0 };

  constructor(
    private readonly rs: ResolvedScenario,
    private readonly host: TurnSourceHost,
    /** contextInPlace false: every turn's context and segments a new array (the reference the tests compare with). */
    contextInPlace: boolean,
  ) {
    const s = rs.scenario;
    this.arrivalRng = createRng(s.seed ^ 0x61727276);
    if (s.workload.kind === 'shared-prefix') {
      // Independent requests released stage by stage (fleet/sharedPrefix.ts): replayed like a trace.
      const sp = sharedPrefixTurns(s.workload, s.seed, rs.blockSize);
      this.wl = { kind: 'trace', format: 'native', replay: 'timestamps' };
      this.gen = null;
      this.trace = sp.trace;
      this.pacer = sp.pacer;
    } else if ((this.wl = s.workload).kind === 'trace') {
      this.gen = null;
      this.trace = loadTrace(this.wl, rs.blockSize);
      this.traceTurnOf = new Int32Array(this.trace.sessions);
    } else {
      // Contexts grow in place: a request's segments are read at submit only (hashes() makes Req.segs of them).
      this.gen = new WorkloadGenerator(this.wl.classes, s.seed, contextInPlace);
      this.trace = null;
    }
  }

  /** Schedule the first arrivals (and, for a trace replayed by session, make every session's record). */
  start(): void {
    const wl = this.wl;
    const host = this.host;
    if (wl.kind === 'trace') {
      const tr = this.trace!;
      if (this.bySessions()) {
        tr.bySession.forEach((list, si) => {
          if (list.length) host.schedule(tr.turns[list[0]].t, 'session-arrival', list[0], 0);
          this.sessions[si] = this.newSession(tr.turns[list[0]]?.t ?? 0);
        });
      } else if (tr.turns.length)
        host.schedule(this.pacer ? this.pacer.timeOf(0)! : tr.turns[0].t, 'session-arrival', 0, 0);
      return;
    }
    if (wl.arrival.kind === 'poisson') {
      host.schedule(this.arrivalRng.exponential(1 / wl.arrival.sessionsPerS), 'session-arrival', 0, 0);
    } else {
      const n = Math.min(wl.arrival.concurrency, wl.sessions);
      const ramp = wl.arrival.rampS ?? 0;
      for (let i = 0; i < n; i++) host.schedule(ramp > 0 ? (ramp * i) / n : 0, 'session-arrival', i, 0);
      this.startedSessions = n;
    }
  }

  /** A `session-arrival` event: a new session's first turn, or a trace's next turn. */
  arrival(index: number): void {
    const wl = this.wl;
    const now = this.host.now();
    if (wl.kind === 'trace') {
      const tr = this.trace!;
      if (this.bySessions()) {
        this.submitTraceTurn(index);
        return;
      }
      this.submitTraceTurn(this.traceNext++);
      if (this.traceNext < tr.turns.length) {
        // A staged workload's next stage is scheduled when the current one drains (requestEnded).
        const at = this.pacer ? this.pacer.timeOf(this.traceNext) : tr.turns[this.traceNext].t;
        if (at !== null) this.host.schedule(Math.max(now, at), 'session-arrival', 0, 0);
      }
      return;
    }
    if (wl.arrival.kind === 'poisson') {
      index = this.startedSessions++;
      const next = now + this.arrivalRng.exponential(1 / wl.arrival.sessionsPerS);
      if (this.startedSessions < wl.sessions && next <= this.rs.scenario.durationS)
        this.host.schedule(next, 'session-arrival', 0, 0);
    }
    const s = this.gen!.createSession(index);
    const rt = newSessionRt(s, s.cls, now, this.sessionRecords++ === 0);
    this.sessions[index] = rt;
    this.submitTurn(rt, index, this.gen!.nextRequest(s));
  }

  /** A `turn-ready` event: a generated session's next turn, its tool call done. */
  nextTurn(index: number): void {
    const rt = this.sessions[index];
    if (!rt || !rt.s) return;
    this.submitTurn(rt, index, this.gen!.nextRequest(rt.s));
  }

  /** Whether r's session goes on turn by turn (generated, or a trace replayed by session), not one-off requests. */
  hasTurns(r: Req): boolean {
    return r.session >= 0 && (this.trace === null || this.bySessions());
  }

  /**
   * r, a turn of a session that has turns (hasTurns), finished: whether its session continues. If it does, its
   * next turn is kept for scheduleNext (the engine applies the pause policy first: it schedules too, and the
   * event queue breaks ties in the order events were pushed).
   */
  afterTurn(r: Req, rt: SessionRt): boolean {
    const now = this.host.now();
    const next = this.next;
    if (this.trace) {
      const tr = this.trace;
      const list = tr.bySession[r.session];
      const k = ++this.traceTurnOf[r.session];
      if (k >= list.length) return false;
      next.t = now + tr.turns[list[k - 1]].gapS;
      next.kind = 'session-arrival';
      next.a = list[k];
      return true;
    }
    const after = this.gen!.afterTurn(rt.s!, r.spec);
    if (after.kind === 'end') return false;
    next.t = now + after.delayS;
    next.kind = 'turn-ready';
    next.a = r.session;
    return true;
  }

  /** Schedule the turn afterTurn kept. */
  scheduleNext(): void {
    this.host.schedule(this.next.t, this.next.kind, this.next.a, 0);
  }

  /** A session ended: a closed loop starts another in its place while the run lasts. */
  sessionEnded(): void {
    const wl = this.wl;
    const now = this.host.now();
    if (
      wl.kind !== 'trace' &&
      wl.arrival.kind === 'closed' &&
      this.startedSessions < wl.sessions &&
      now < this.rs.scenario.durationS
    ) {
      this.host.schedule(now, 'session-arrival', this.startedSessions++, 0);
    }
  }

  /** Request `id` ended: a staged workload releases its next stage once the current one has drained. */
  requestEnded(id: number): void {
    if (!this.pacer) return;
    const next = this.pacer.endedAt(id, this.host.now());
    if (next) this.host.schedule(next.t, 'session-arrival', 0, 0);
  }

  private bySessions(): boolean {
    return this.wl.kind === 'trace' && this.wl.replay === 'sessions' && this.trace!.format === 'native';
  }

  private newSession(start: number): SessionRt {
    return newSessionRt(null, 0, start, this.sessionRecords++ === 0);
  }

  private submitTurn(rt: SessionRt, index: number, spec: RequestSpec): void {
    this.host.submit(index, rt.cls, spec, sessionHashes(spec, rt, this.rs.blockSize), index, rt, rt);
  }

  /** Submit trace turn i. Sessions replay: the session's KV sequence is the session; otherwise one per request. */
  private submitTraceTurn(i: number): void {
    const x = this.trace!.turns[i];
    const bySession = this.bySessions();
    const rt = x.session >= 0 ? this.sessions[x.session] : undefined;
    const h = { segs: x.spec.hashSegments ?? null, hashes: x.spec.hashes as number[] };
    this.host.submit(x.session, 0, x.spec, h, bySession ? x.session : null, rt, bySession && rt ? rt : null);
  }
}
