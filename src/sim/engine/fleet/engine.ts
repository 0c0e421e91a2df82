/**
 * The fleet simulator: sessions arrive, their requests are routed to replicas, replicas run iterations, tools
 * run between turns. One event queue (events.ts) orders everything; `step()` handles one event. A request's way
 * in is frontDoor.ts then routeRequest.ts; its end is recorded here, and what it does to its session is
 * sessionTurns.ts.
 *
 * Randomness: one seeded generator per purpose, all derived from the scenario seed (sessions draw from their
 * own, see workload.ts), so a seed replays identically in Node and in the browser.
 */
import type { KvCache } from '../kvcache/cache';
import { KvPool } from '../kvcache/pool';
import { TIER_ORDER } from '../kvcache/types';
import { createRng, type Rng } from '../rng';
import { EventQueue, type EventKind, type SimEvent } from './events';
import { Disaggregation } from './disagg';
import { buildFrame, RouteLog, type FleetFrame } from './frames';
import { LogHistogram, TimeWeighted } from './metrics';
import { RequestTable } from './requestTable';
import {
  recordEnded,
  recordSubmitted,
  REQUEST_COLUMNS,
  requestColumns,
  type RequestColumn,
  type RequestColumns,
} from './requestColumns';
import type { SessionRt } from './sessionRecord';
import type { Replica, ReplicaHost } from './replica';
import { buildReplicas } from './buildReplicas';
import { newRequest, type Req } from './request';
import { createRouter, defaultViewFor, type ReplicaLoad, type Router } from './router';
import type { ResolvedScenario } from './scenario';
import { createCacheView, type CacheView } from './view';
import type { RequestSpec } from './workload';
import { TurnSource, type PromptHashes, type TurnSourceHost } from './turnSource';
import { FrontDoor } from './frontDoor';
import type { ScrapedMetrics } from './loads';
import { routeRequest } from './routeRequest';
import { turnDone, turnFailed, ttlExpired } from './sessionTurns';

export interface OccupancySeries {
  t: number[];
  /** [replica][tier hbm, dram, nvme, remote] → used blocks at each sample. */
  used: number[][][];
  /** Blocks pinned by sessions held through a pause, per replica. */
  held: number[][];
}

export class FleetSim implements ReplicaHost {
  readonly q = new EventQueue();
  readonly replicas: Replica[];
  readonly caches: KvCache[];
  readonly pool: KvPool | null;
  readonly router: Router;
  readonly view: CacheView;
  /** Prefill and decode pools (scenario.disaggregation), or null. */
  readonly disagg: Disaggregation | null;
  readonly cols: RequestColumns;
  private readonly table = new RequestTable(REQUEST_COLUMNS.length);
  readonly gaps = new LogHistogram();
  readonly routes = new RouteLog();
  readonly occupancy: OccupancySeries;
  readonly fleetBatch = new TimeWeighted();
  events = 0;
  frames = 0;
  pendingFrame: FleetFrame | null = null;
  dropReasons = new Map<string, number>();
  /** Routing decisions by reason code (ROUTE_REASON). */
  readonly routeCounts = new Map<number, number>();
  finishedAt = 0;

  /** Requests queued or running on a replica, by id. */
  readonly reqs = new Map<number, Req>();
  private nextReq = 0;
  /** True when the run stopped with requests still queued and no event left that could move them. */
  stalled = false;
  /** The clients' bound and timeout, the gateway's limit and the overhead before routing. */
  private readonly door: FrontDoor<SessionRt | null>;
  /** The replicas' metrics as the router's last scrape read them (null: it reads them live). */
  readonly scraped: ScrapedMetrics | null;
  readonly routerRng: Rng;
  /** The workload: which turns arrive when, and the sessions' records. */
  readonly turns: TurnSource;
  /** What the router reads of each replica, rewritten at each routing (routeRequest.ts). */
  readonly loads: ReplicaLoad[];
  private readonly tierIndex: number[][];
  private nowT = 0;
  private stopped = false;

  constructor(
    readonly rs: ResolvedScenario,
    /** contextInPlace false: every turn's context and segments a new array (the reference the tests compare with). */
    opts: { contextInPlace?: boolean } = {},
  ) {
    const s = rs.scenario;
    const seed = s.seed;
    this.routerRng = createRng(seed ^ 0x726f7574);
    this.pool = rs.pool
      ? new KvPool({ bytesPerBlock: rs.bytesPerBlock, capacityBytes: rs.pool.capacityBytes, name: 'pool' })
      : null;
    const { view, ...routerCfg } = s.router;
    this.router = createRouter(routerCfg as typeof s.router);
    const reportsMetrics = (this.router.metricsRefreshS ?? 0) > 0;
    const built = buildReplicas(rs, this.pool, reportsMetrics, this, this.gaps);
    this.caches = built.caches;
    this.replicas = built.replicas;
    this.tierIndex = this.caches.map((c) => c.tierNames.map((n) => TIER_ORDER.indexOf(n)));
    this.loads = this.replicas.map(() => ({
      outstandingTokens: 0,
      outstandingRequests: 0,
      kvUsage: 0,
      waitingRequests: 0,
      kvInUse: 0,
    }));
    this.view = createCacheView(view ?? defaultViewFor(s.router), this.caches, rs.hbmBlocks, () => this.nowT);
    const n = this.replicas.length;
    this.scraped = reportsMetrics ? { waiting: new Float64Array(n), kvInUse: new Float64Array(n) } : null;
    this.disagg = rs.disaggregation ? new Disaggregation(rs, this.replicas, this, this.scraped) : null;
    this.cols = requestColumns(this.table);
    this.occupancy = { t: [], used: this.replicas.map(() => []), held: this.replicas.map(() => []) };

    this.door = new FrontDoor(
      rs,
      {
        now: () => this.nowT,
        schedule: (time, kind, a, b) => this.q.push(time, kind, a, b),
        routeNow: (r, rt) => routeRequest(this, r, rt),
        fail: (r, status, why) => this.fail(r, status, why),
      },
      this.cols.clientWaitS,
    );
    this.turns = new TurnSource(
      rs,
      {
        now: () => this.nowT,
        schedule: (time, kind, a, b) => this.q.push(time, kind, a, b),
        submit: this.submit,
      },
      opts.contextInPlace ?? true,
    );
    this.turns.start();
    if (rs.frameIntervalS > 0) this.q.push(0, 'frame', 0);
    this.q.push(0, 'frame', 1); // occupancy samples
    if (this.router.usesCache && this.view.syncIntervalS > 0)
      this.q.push(this.view.syncIntervalS, 'view-sync');
    if (this.scraped) this.q.push(0, 'metrics-scrape');
    if (Number.isFinite(rs.endS)) this.q.push(rs.endS, 'end');
  }

  get now(): number {
    return this.nowT;
  }

  /** The sessions' records, by session index. */
  get sessions(): SessionRt[] {
    return this.turns.sessions;
  }

  // ───────────────────────────── event plumbing ─────────────────────────────

  schedule(time: number, kind: EventKind, a: number, b: number): void {
    this.q.push(time, kind, a, b);
  }

  /** Handle one event; false when the run is over. */
  step(): boolean {
    if (this.stopped) return false;
    const ev = this.q.pop();
    if (!ev) {
      this.stopped = true;
      return false;
    }
    this.events++;
    this.nowT = ev.time;
    this.handle(ev);
    return !this.stopped;
  }

  /** Every request column as its own array (index = request id), read in one pass over the table. */
  columnArrays(): Record<RequestColumn, Float64Array> {
    const arrays = this.table.columns();
    const out = {} as Record<RequestColumn, Float64Array>;
    REQUEST_COLUMNS.forEach((k, i) => (out[k] = arrays[i]));
    return out;
  }

  private handle(ev: SimEvent): void {
    switch (ev.kind) {
      case 'iteration-end':
        this.replicas[ev.a].iterationEnd(ev.b);
        break;
      case 'transfer-done': {
        const r = this.reqs.get(ev.b);
        if (r) this.replicas[ev.a].transferDone(r);
        break;
      }
      case 'kv-handoff':
        this.disagg?.handoff(ev.b);
        break;
      case 'grammar-ready':
        this.replicas[ev.a].grammarReady(ev.b);
        break;
      case 'ttl-expire':
        ttlExpired(this, ev.a, ev.b);
        break;
      case 'turn-ready':
        this.turns.nextTurn(ev.a);
        break;
      case 'session-arrival':
        this.turns.arrival(ev.a);
        break;
      case 'request-ready':
        this.door.ready(ev.a);
        break;
      case 'request-timeout':
        this.timeout(ev.a);
        break;
      case 'view-sync':
        this.view.sync();
        this.disagg?.sync();
        if (this.q.live > 0) this.q.push(this.nowT + this.view.syncIntervalS, 'view-sync');
        break;
      case 'metrics-scrape': {
        const m = this.scraped!;
        for (let i = 0; i < this.replicas.length; i++) {
          m.waiting[i] = this.replicas[i].reported.waiting;
          m.kvInUse[i] = this.replicas[i].reported.kvInUse;
        }
        if (this.q.live > 0) this.q.push(this.nowT + this.router.metricsRefreshS!, 'metrics-scrape');
        break;
      }
      case 'replica-wake':
        this.replicas[ev.a].wake();
        break;
      case 'frame':
        if (ev.a === 0) {
          this.pendingFrame = buildFrame(this.frames++, this.nowT, this.replicas, this.routes);
          if (this.q.live > 0) this.q.push(this.nowT + this.rs.frameIntervalS, 'frame', 0);
        } else {
          this.sample();
          if (this.q.live > 0) this.q.push(this.nowT + this.rs.sampleIntervalS, 'frame', 1);
        }
        break;
      case 'end':
        this.stopped = true;
        break;
    }
    if (this.q.live === 0 && ev.kind !== 'end') {
      // Nothing left but periodic events: nothing can change any more.
      this.finishedAt = this.nowT;
      this.stopped = true;
      if (this.reqs.size > 0) this.stalled = true;
    }
  }

  private sample(): void {
    this.occupancy.t.push(this.nowT);
    this.replicas.forEach((r, i) => {
      const row = [0, 0, 0, 0];
      for (const o of r.cache.occupancy()) row[TIER_ORDER.indexOf(o.tier)] = o.usedBlocks;
      this.occupancy.used[i].push(row);
      this.occupancy.held[i].push(r.pauses.heldBlocks);
    });
  }

  // ───────────────────────────── requests ─────────────────────────────

  private newReq(session: number, cls: number, spec: RequestSpec, h: PromptHashes, seq: number): Req {
    const r = newRequest(this.nextReq++, session, cls, spec, h, seq, this.nowT);
    recordSubmitted(this.table, this.cols, r);
    return r;
  }

  /** A request enters the fleet (what the turn source hands over). */
  private readonly submit: TurnSourceHost['submit'] = (session, cls, spec, h, seq, rt, doorRt) => {
    const r = this.newReq(session, cls, spec, h, seq ?? 2 ** 40 + this.nextReq);
    if (rt) rt.current = r;
    this.door.enter(r, doorRt);
  };

  private timeout(id: number): void {
    const why = `timed out after ${this.rs.clientTimeoutS} s (the client gave up)`;
    if (this.door.timedOut(id, why)) return;
    const r = this.reqs.get(id);
    if (r) this.replicas[r.replica].abort(r, why);
  }

  // ───────────────────────────── completions ─────────────────────────────

  /** 1 finished, 2 dropped by the engine, 3 timed out at the client, 4 rejected (at the gateway or at admission). */
  private record(r: Req, status: 1 | 2 | 3 | 4): void {
    const id = r.id;
    this.door.returned(r);
    recordEnded(this.cols, r, {
      status,
      now: this.nowT,
      tierIndex: this.tierIndex[Math.max(0, r.replica)],
      firstTokenLagS: this.rs.overhead.firstTokenS,
      clientTimeoutS: this.rs.clientTimeoutS,
    });
    this.reqs.delete(id);
    this.turns.requestEnded(id);
  }

  requestDone(r: Req): void {
    if (this.disagg?.prefillDone(r)) return; // its KV now moves to the decode worker
    this.record(r, 1);
    this.door.slotFreed();
    turnDone(this, r);
  }

  requestDropped(r: Req, why: string): void {
    this.fail(r, r.abortWhy !== undefined ? 3 : 2, why);
  }

  /** A request failed: dropped by the engine, timed out at its client or rejected. Its session ends. */
  fail(r: Req, status: 2 | 3 | 4, why: string): void {
    r.state = 'dropped';
    this.record(r, status);
    this.door.slotFreed();
    this.dropReasons.set(why, (this.dropReasons.get(why) ?? 0) + 1);
    turnFailed(this, r);
  }

  heldReleased(session: number, replica: number): void {
    const rt = this.sessions[session];
    if (rt && rt.heldOn === replica) {
      rt.heldOn = -1;
      rt.pauseGen++;
    }
  }

  /** Requests in flight (for the end-of-run report). */
  inFlight(): number {
    return this.reqs.size;
  }

  get sessionsStarted(): number {
    return this.sessions.length;
  }
}
