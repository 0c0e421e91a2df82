/**
 * A request as the fleet's replicas schedule it: what it asks for, where it is (`state`), the KV it holds, and what
 * it cost (timings and accounting, read by the metrics and the `--requests` table).
 */
import type { Segment } from '../kvcache/hash';
import type { TailHasher } from './tails';
import type { RequestSpec } from './workload';

export type ReqState = 'waiting' | 'loading' | 'prefill' | 'decode' | 'done' | 'dropped';
export const PHASE_CODE: Readonly<Record<ReqState, number>> = {
  waiting: 0,
  loading: 1,
  prefill: 2,
  decode: 3,
  done: 4,
  dropped: 5,
};

export interface Req {
  id: number;
  /** Session index, or −1 (trace requests). */
  session: number;
  cls: number;
  turn: number;
  /** KV sequence id in the cache: the session index (so a held session keeps its blocks), or a per-request id. */
  seq: number;
  spec: RequestSpec;
  /** Chained block hashes of prompt + output (the last one possibly partial). */
  hashes: ArrayLike<number>;
  /** The segments the hashes were computed from (null for Mooncake records: tails are not matched). */
  segs: readonly Segment[] | null;
  /** Its session's tail hasher (fleet/tails.ts), so a tail's hashes resume from the last request's; or null. */
  tails: TailHasher | null;
  /** The first page its last admission computed (the pages before it were reused). */
  computedFrom: number;
  promptTokens: number;
  outputTokens: number;
  schema: number;
  replica: number;
  state: ReqState;
  /** Whether its grammar is usable (true when it has none). */
  grammarReady: boolean;
  /** Tokens whose KV is in HBM and computed. */
  ctx: number;
  /** ctx to reach before decoding (the prompt, plus generated tokens after a recompute preemption). */
  target: number;
  generated: number;
  /** Blocks the cache holds for it. */
  heldBlocks: number;
  admitOrder: number;
  // timings
  arrival: number;
  enqueued: number;
  admitted: number;
  grammarWaitS: number;
  firstToken: number;
  lastToken: number;
  finished: number;
  // accounting
  prefilled: number;
  /** Reused tokens per tier index of the replica's cache (hbm, then its lower tiers), summed over admissions. */
  reused: number[];
  loadS: number;
  bytesLoaded: number;
  preemptions: number;
  gpuSeconds: number;
  maxGap: number;
  /** Remaining work counted in the replica's outstandingTokens. */
  owed: number;
  /** HBM blocks its last failed admission needed (0: not waiting for room). */
  needBlocks: number;
  /** It holds one of the gateway's slots (fleet/gateway.ts) until it ends. */
  viaGateway: boolean;
  /** Set when the client gave up on it (fleet/clients.ts): why, as the drop reason. */
  abortWhy: string | undefined;
  /** Prompt tokens whose KV a prefill worker shipped here (fleet/disagg.ts); used by the next admission only. */
  kvReceived: number;
}
