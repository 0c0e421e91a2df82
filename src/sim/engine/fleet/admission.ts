/**
 * The engine's admission queue and what happens past its bound.
 *
 * vLLM: a request the API server accepts goes into the scheduler's `waiting` queue, which has no bound
 * (vllm/v1/core/sched/scheduler.py: `self.waiting = create_request_queue(self.policy)`, appended to by
 * `add_request` unconditionally). Each step the scheduler moves waiting requests into `running` while
 * `len(self.running) < max_num_seqs`, the step's token budget (`max_num_batched_tokens`) lasts and the KV manager
 * can allocate their blocks (`kv_cache_manager.allocate_slots` returning None stops admission for the step); the
 * replica model does the same (replica.ts, startIteration). So by default nothing is rejected: an overloaded engine
 * queues, and only the client's patience (clients.ts, `timeoutS`) bounds the wait.
 *
 * `scheduler.maxWaiting` adds the bound a gateway or an engine's admission control puts in front of that queue: a
 * request routed to a replica with `maxWaiting` requests already waiting is rejected at once (an HTTP 429/503
 * to the client), counted as `rejected`, a failure. Default: none, as vLLM.
 */

/** Whether a replica with `waiting` requests queued may take one more. */
export function admits(waiting: number, maxWaiting: number): boolean {
  return waiting < maxWaiting;
}
