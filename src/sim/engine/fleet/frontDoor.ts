/**
 * The way from a client to the router: the clients' concurrency bound and timeout (clients.ts: a request beyond the
 * bound waits at its client for a slot), the gateway's limit (gateway.ts: one over it is turned away at once) and
 * the work before routing (overhead.ts: tokenisation, the gateway hop). `T` is what the engine routes a request
 * with (its session's record), carried through unchanged.
 */
import { ClientGate } from './clients';
import { GatewayLimit } from './gateway';
import { beforeRouteS } from './overhead';
import type { Req } from './request';
import type { TableColumn } from './requestTable';
import type { ResolvedScenario } from './scenario';

export interface FrontDoorHost<T> {
  /** The simulation's clock. */
  now(): number;
  schedule(time: number, kind: 'request-timeout' | 'request-ready', a: number, b: number): void;
  /** Past the front door: route it now. */
  routeNow(r: Req, x: T): void;
  /** It failed before reaching a replica: 3 timed out at its client, 4 rejected at the gateway. */
  fail(r: Req, status: 3 | 4, why: string): void;
}

type Scenario = Pick<
  ResolvedScenario,
  'clientMaxInFlight' | 'clientTimeoutS' | 'gatewayMaxInFlight' | 'overhead'
>;

export class FrontDoor<T> {
  /** The clients' concurrency bound (null: none). */
  readonly gate: ClientGate | null;
  /** The gateway's concurrency limit (null: none). */
  readonly gateway: GatewayLimit | null;
  /** Requests waiting at their client for a slot. */
  private readonly waitingAtClient = new Map<number, { r: Req; x: T }>();
  /** Requests in their overhead before routing. */
  private readonly inTransit = new Map<number, { r: Req; x: T }>();

  constructor(
    private readonly rs: Scenario,
    private readonly host: FrontDoorHost<T>,
    /** Where the seconds a request waited at its client are written (by request id). */
    private readonly clientWaitS: TableColumn,
  ) {
    this.gate = Number.isFinite(rs.clientMaxInFlight) ? new ClientGate(rs.clientMaxInFlight) : null;
    this.gateway = Number.isFinite(rs.gatewayMaxInFlight) ? new GatewayLimit(rs.gatewayMaxInFlight) : null;
  }

  /** A request leaves its client: now if a slot is free (or there is no bound), else when one frees. */
  enter(r: Req, x: T): void {
    if (this.gate && !this.gate.offer(r.id)) this.waitingAtClient.set(r.id, { r, x });
    else this.send(r, x);
  }

  /** Its overhead is over (the `request-ready` event): on to the router. */
  ready(id: number): void {
    const p = this.inTransit.get(id);
    if (!p) return;
    this.inTransit.delete(id);
    this.host.routeNow(p.r, p.x);
  }

  /** A request came back (finished or failed): it leaves the gateway (its client slot: slotFreed). */
  returned(r: Req): void {
    if (r.viaGateway) {
      r.viaGateway = false;
      this.gateway!.leave();
    }
  }

  /** A client slot is free again: the next request waiting at its client is sent. */
  slotFreed(): void {
    if (!this.gate) return;
    const next = this.gate.release();
    if (next === undefined) return;
    const p = this.waitingAtClient.get(next)!;
    this.waitingAtClient.delete(next);
    this.send(p.r, p.x);
  }

  /** The client gave up on request `id`: true when it was still here (it fails now), false when a replica has it. */
  timedOut(id: number, why: string): boolean {
    const t = this.inTransit.get(id);
    if (!t) return false;
    this.inTransit.delete(id);
    this.host.fail(t.r, 3, why);
    return true;
  }

  /**
   * Sent: latencies count from here (as the harness's clock does); the gateway turns it away at once when full,
   * else the overhead passes before routing.
   */
  private send(r: Req, x: T): void {
    const now = this.host.now();
    this.clientWaitS.set(r.id, now - r.arrival);
    r.arrival = now;
    r.enqueued = now;
    if (this.gateway) {
      if (!this.gateway.admit()) {
        this.host.fail(
          r,
          4,
          `rejected at the gateway: ${this.gateway.maxInFlight} requests in flight (gateway.maxInFlight; an HTTP 503)`,
        );
        return;
      }
      r.viaGateway = true;
    }
    if (Number.isFinite(this.rs.clientTimeoutS))
      this.host.schedule(now + this.rs.clientTimeoutS, 'request-timeout', r.id, 0);
    const pre = beforeRouteS(this.rs.overhead, r.promptTokens);
    if (pre > 0) {
      this.inTransit.set(r.id, { r, x });
      this.host.schedule(now + pre, 'request-ready', r.id, 0);
    } else this.host.routeNow(r, x);
  }
}
