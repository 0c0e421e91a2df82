/**
 * The per-request table's columns (fleet/requestTable.ts): one row per request created, written when it ends. The
 * `--requests` CSV, the lessons' request tables and the summaries read them by these names.
 */
import type { Req } from './request';
import { TableColumn, type RequestTable } from './requestTable';

/** Per-request columns, one row per request created (index = request id), in one table (requestTable.ts). */
export interface RequestColumns {
  session: TableColumn;
  cls: TableColumn;
  turn: TableColumn;
  replica: TableColumn;
  arrival: TableColumn;
  /** First admission (KV acquired) − arrival. */
  queueS: TableColumn;
  grammarWaitS: TableColumn;
  ttft: TableColumn;
  tpot: TableColumn;
  e2e: TableColumn;
  maxGap: TableColumn;
  promptTokens: TableColumn;
  outputTokens: TableColumn;
  prefilled: TableColumn;
  /** Reused (not recomputed) prompt tokens, by tier hbm, dram, nvme, remote. */
  reusedHbm: TableColumn;
  reusedDram: TableColumn;
  reusedNvme: TableColumn;
  reusedRemote: TableColumn;
  loadS: TableColumn;
  bytesLoaded: TableColumn;
  preemptions: TableColumn;
  gpuSeconds: TableColumn;
  /** 0 in flight, 1 finished, 2 dropped. */
  status: TableColumn;
  /** Why the router chose the replica: index into ROUTE_REASONS. */
  routeReason: TableColumn;
  /** Prefix the router believed the chosen replica held, in pages (−1 when it did not look). */
  routeMatched: TableColumn;
  /** Requests outstanding on the chosen replica when it was chosen (the load the router saw). */
  routeQueued: TableColumn;
  /** Seconds the request waited at the client for a free slot (clients.maxInFlight) before it was sent. */
  clientWaitS: TableColumn;
  /** Seconds from the send to the failure (timed out, rejected, dropped); NaN for a finished request. */
  failedAfterS: TableColumn;
}

export const REQUEST_COLUMNS = [
  'session',
  'cls',
  'turn',
  'replica',
  'arrival',
  'queueS',
  'grammarWaitS',
  'ttft',
  'tpot',
  'e2e',
  'maxGap',
  'promptTokens',
  'outputTokens',
  'prefilled',
  'reusedHbm',
  'reusedDram',
  'reusedNvme',
  'reusedRemote',
  'loadS',
  'bytesLoaded',
  'preemptions',
  'gpuSeconds',
  'status',
  'routeReason',
  'routeMatched',
  'routeQueued',
  'clientWaitS',
  'failedAfterS',
] as const satisfies readonly (keyof RequestColumns)[];
export type RequestColumn = (typeof REQUEST_COLUMNS)[number];

/** The columns of `table`, by name (the table holds REQUEST_COLUMNS.length columns). */
export function requestColumns(table: RequestTable): RequestColumns {
  const cols = {} as RequestColumns;
  REQUEST_COLUMNS.forEach((k, i) => (cols[k] = new TableColumn(table, i)));
  return cols;
}

/** A submitted request's row (row `r.id`: rows are added in request order): who sent it and what it asks for. */
export function recordSubmitted(table: RequestTable, c: RequestColumns, r: Req): void {
  const id = r.id;
  table.addRow();
  c.session.set(id, r.session);
  c.cls.set(id, r.cls);
  c.turn.set(id, r.turn);
  c.arrival.set(id, r.arrival);
  c.promptTokens.set(id, r.promptTokens);
  c.outputTokens.set(id, r.outputTokens);
  c.status.set(id, 0);
}

/** What a request's end records: how it ended and when, and what it cost. */
export interface RequestEnd {
  /** 1 finished, 2 dropped by the engine, 3 timed out at the client, 4 rejected (at the gateway or at admission). */
  status: 1 | 2 | 3 | 4;
  now: number;
  /** Index in TIER_ORDER of each tier of the replica's cache, in the cache's order (Req.reused's). */
  tierIndex: readonly number[];
  /** The first chunk's detokenisation and streaming, which delays every token alike (fleet/overhead.ts). */
  firstTokenLagS: number;
  clientTimeoutS: number;
}

export function recordEnded(c: RequestColumns, r: Req, e: RequestEnd): void {
  const id = r.id;
  c.status.set(id, e.status);
  c.replica.set(id, r.replica);
  c.prefilled.set(id, r.prefilled);
  const ti = e.tierIndex;
  const reused = [0, 0, 0, 0];
  for (let i = 0; i < ti.length; i++) reused[ti[i]] += r.reused[i];
  c.reusedHbm.set(id, reused[0]);
  c.reusedDram.set(id, reused[1]);
  c.reusedNvme.set(id, reused[2]);
  c.reusedRemote.set(id, reused[3]);
  c.loadS.set(id, r.loadS);
  c.bytesLoaded.set(id, r.bytesLoaded);
  c.preemptions.set(id, r.preemptions);
  c.gpuSeconds.set(id, r.gpuSeconds);
  c.grammarWaitS.set(id, r.grammarWaitS);
  if (r.admitted >= 0) c.queueS.set(id, r.admitted - r.arrival);
  if (e.status === 1) {
    const lag = e.firstTokenLagS;
    c.ttft.set(id, r.firstToken + lag - r.arrival);
    c.tpot.set(id, r.outputTokens > 1 ? (r.finished - r.firstToken) / (r.outputTokens - 1) : NaN);
    c.e2e.set(id, r.finished + lag - r.arrival);
    c.maxGap.set(id, r.maxGap);
  } else {
    // A timed-out request fails for its client at the deadline (the engine may free it a step later).
    c.failedAfterS.set(id, e.status === 3 ? e.clientTimeoutS : e.now - r.arrival);
  }
}
