/**
 * The per-request table's columns (fleet/requestTable.ts): one row per request created, written when it ends. The
 * `--requests` CSV, the lessons' request tables and the summaries read them by these names.
 */
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
