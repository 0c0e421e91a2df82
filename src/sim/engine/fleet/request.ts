/**
 * A request as the fleet's replicas schedule it: what it asks for, where it is (`state`), the KV it holds, and what
 * it cost (timings and accounting, read by the metrics and the `--requests` table).
 */
import type { Segment } from '../kvcache/hash';
import { settleFields } from '../settleFields';
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

/** A request as it is submitted at `now`, waiting to be routed; `seq` is its KV sequence (Req.seq). */
export function newRequest(
  id: number,
  session: number,
  cls: number,
  spec: RequestSpec,
  h: { segs: Segment[] | null; hashes: number[]; tails?: TailHasher | null },
  seq: number,
  now: number,
): Req {
  const r: Req = {
    id,
    session,
    cls,
    turn: spec.turn,
    seq,
    spec,
    hashes: h.hashes,
    segs: h.segs,
    tails: h.tails ?? null,
    computedFrom: 0,
    promptTokens: spec.promptTokens,
    outputTokens: spec.outputTokens,
    schema: spec.schemaId,
    replica: -1,
    state: 'waiting',
    grammarReady: spec.schemaId < 0,
    ctx: 0,
    target: spec.promptTokens,
    generated: 0,
    heldBlocks: 0,
    admitOrder: 0,
    arrival: now,
    enqueued: now,
    admitted: -1,
    grammarWaitS: 0,
    firstToken: -1,
    lastToken: -1,
    finished: -1,
    prefilled: 0,
    reused: [0, 0, 0, 0],
    loadS: 0,
    bytesLoaded: 0,
    preemptions: 0,
    gpuSeconds: 0,
    maxGap: 0,
    owed: 0,
    needBlocks: 0,
    viaGateway: false,
    abortWhy: undefined,
    kvReceived: 0,
  };
  // Fields that change only at the first preemption or the first KV handoff (settleFields.ts).
  if (id === 0) settleFields(r, { target: -1, preemptions: 1, kvReceived: 1 });
  return r;
}
