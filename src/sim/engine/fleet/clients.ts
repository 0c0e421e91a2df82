/**
 * The clients in front of the fleet, as a benchmark harness runs them: at most `maxInFlight` requests outstanding
 * (a request beyond it waits at the client, in arrival order, until one returns), and a per-request timeout after
 * which the client gives up (the request fails and the engine aborts it, as vLLM does when a client disconnects).
 *
 * How harnesses do it, and why the defaults are what they are:
 *  - inference-perf (kubernetes-sigs/inference-perf, the harness of llm-d's benchmarks): `num_workers` processes
 *    (default: the CPU count) × `worker_max_concurrency` (default 100) asyncio tasks, each behind a semaphore
 *    (`inference_perf/config.py` LoadConfig, `inference_perf/loadgen/load_generator.py` Worker.loop). A request
 *    queued behind the semaphore is sent late; its latency clock starts when it is sent (`start = time.perf_counter()`
 *    in `client/modelserver/openai_client.py` process_request), and the wait is reported apart as
 *    `schedule_delay` (start − scheduled time). So TTFT here runs from the send, and the wait is `clientWaitS`.
 *  - Its HTTP session sets no timeout of its own, so aiohttp's default applies: `ClientTimeout(total=300)`
 *    (aiohttp `client.py` DEFAULT_TIMEOUT, five minutes for the whole request, streaming included). A timed-out
 *    request is recorded with an error (a failure), never silently dropped.
 *  - vLLM's benchmark (`vllm bench serve` / benchmarks/benchmark_serving.py) bounds concurrency with
 *    `--max-concurrency` (default none: unbounded) and uses an aiohttp timeout of 6 hours (AIOHTTP_TIMEOUT in
 *    backend_request_func.py).
 * The lab's own scenarios are agent sessions, closed loop per session, not a harness: without `clients` nothing
 * bounds them and nothing times out (the defaults below are what a scenario gets with `"clients": {}`).
 */
import { isObj, type SchemaValidator } from './schemaValidator';

export interface ClientsConfig {
  /** Requests outstanding at most (sent and not yet answered). Absent: unbounded. */
  maxInFlight?: number;
  /** Seconds after the send at which the client gives up (the request fails). Absent: never. */
  timeoutS?: number;
}

/** inference-perf's per-worker bound (`worker_max_concurrency`); the harness multiplies it by its worker count. */
export const INFERENCE_PERF_WORKER_MAX_CONCURRENCY = 100;
/** aiohttp's default total timeout, which inference-perf's client inherits (s). */
export const AIOHTTP_DEFAULT_TIMEOUT_S = 300;

export function validateClients(v: SchemaValidator, x: unknown): void {
  if (x === undefined) return;
  if (!isObj(x)) return v.err('clients', 'must be an object {maxInFlight?, timeoutS?}');
  v.known(x, 'clients', ['maxInFlight', 'timeoutS']);
  v.whole(x, 'maxInFlight', 'clients', { min: 1 });
  if (
    x.timeoutS !== undefined &&
    !(typeof x.timeoutS === 'number' && Number.isFinite(x.timeoutS) && x.timeoutS > 0)
  )
    v.err('clients.timeoutS', `must be a number of seconds > 0 (got ${JSON.stringify(x.timeoutS)})`);
}

/**
 * The concurrency gate: `offer` sends at once when a slot is free, else queues (FIFO); `release` frees a slot and
 * returns the next request to send, if any. Items are request ids.
 */
export class ClientGate {
  private readonly queue: number[] = [];
  private head = 0;
  inFlight = 0;
  /** Most requests ever waiting at the client. */
  maxQueued = 0;

  constructor(readonly maxInFlight: number) {}

  /** True when the request may be sent now (a slot is taken); false when it was queued. */
  offer(id: number): boolean {
    if (this.inFlight < this.maxInFlight) {
      this.inFlight++;
      return true;
    }
    this.queue.push(id);
    const waiting = this.queue.length - this.head;
    if (waiting > this.maxQueued) this.maxQueued = waiting;
    return false;
  }

  /** A request returned (finished or failed): its slot goes to the next queued request (returned), if any. */
  release(): number | undefined {
    if (this.head < this.queue.length) {
      const id = this.queue[this.head++];
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      return id; // the slot passes straight to it
    }
    this.inFlight--;
    return undefined;
  }

  get queued(): number {
    return this.queue.length - this.head;
  }
}
