/**
 * Structured output: per-schema grammar costs, the CPU time a batch's masks take, and the compiled-grammar
 * cache of one replica.
 *
 * A request may carry a schema id. The first use on a replica compiles the grammar; requests needing a grammar
 * that is compiling wait for that one compile (as vLLM's WAITING_FOR_FSM state does), so compile time shows up in
 * their TTFT. A compile occupies one thread of the replica's compile pool (vLLM submits compiles to a
 * ThreadPoolExecutor: vllm/v1/structured_output/__init__.py, grammar_init), so compiles queue when the pool is
 * busy. Compiled grammars are kept in an LRU of `capacity` entries.
 *
 * Masks are CPU work that overlaps the GPU's forward pass and must be ready before sampling: vLLM's
 * EngineCore.step launches execute_model(non_block=True), fills the grammar bitmask while it runs, then samples
 * with it (vllm/v1/engine/core.py); SGLang fills the vocab mask when it samples (model_runner.py `sample` and
 * `_preprocess_logits`, python/sglang/srt/model_executor/), which the CPU reaches while the GPU still runs the
 * pass it launched, and under its overlap scheduler only after the previous batch's results have advanced the
 * grammars, still while the pass runs. So an iteration takes max(GPU step, mask wall time):
 * only what the GPU step cannot hide adds. Simplified: the grammar's accept-token after sampling (serial in
 * vLLM's update_from_output, microseconds per token) and the bitmask's copy and GPU application are not charged.
 */
import { createRng } from '../rng';
import { GRAMMAR_CPU_DEFAULTS, sample, type Dist } from './dist';

/**
 * One compile time and one mask cost per schema id, drawn from the engine's measured distributions with a
 * stream of the schema's own (seed and id), so a schema costs the same on every replica, at every recompile, in
 * any event order. The two draws are independent: MaskBench publishes the marginals, not their joint.
 */
export class SchemaCosts {
  private readonly compile = new Map<number, number>();
  private readonly mask = new Map<number, number>();

  constructor(
    private readonly seed: number,
    private readonly compileTime: Dist,
    private readonly maskCost: Dist,
  ) {}

  private draw(schema: number, salt: number, d: Dist): number {
    const rng = createRng(
      (this.seed ^ salt) + Math.imul(schema | 0, 0x9e3779b1) + Math.floor(schema / 2 ** 32),
    );
    return Math.max(0, sample(d, rng));
  }

  compileS(schema: number): number {
    let v = this.compile.get(schema);
    if (v === undefined) this.compile.set(schema, (v = this.draw(schema, 0x636f6d70, this.compileTime)));
    return v;
  }

  /** Seconds of one CPU thread to fill one mask of this schema. */
  maskS(schema: number): number {
    let v = this.mask.get(schema);
    if (v === undefined) this.mask.set(schema, (v = this.draw(schema, 0x6d61736b, this.maskCost)));
    return v;
  }
}

export interface MaskThreads {
  /** Worker threads of the mask pool. */
  threads: number;
  /** Up to this many constrained sequences, masks are filled serially on one thread. */
  serialUpTo: number;
  /** Sequences per task handed to the pool. */
  chunk: number;
}

/**
 * Wall time to fill the masks of one step, given each constrained sequence's mask cost (in batch order): their
 * sum when filled serially; otherwise tasks of `chunk` consecutive sequences handed in order to the first free
 * of `threads` workers (a ThreadPoolExecutor's FIFO), and the step waits for the last task.
 */
export function maskWallS(costs: readonly number[], p: MaskThreads = GRAMMAR_CPU_DEFAULTS): number {
  let total = 0;
  for (const c of costs) total += c;
  if (costs.length <= p.serialUpTo || p.threads <= 1) return total;
  const free = new Array<number>(Math.max(1, Math.floor(p.threads))).fill(0);
  const chunk = Math.max(1, Math.floor(p.chunk));
  for (let i = 0; i < costs.length; i += chunk) {
    let task = 0;
    for (let j = i; j < Math.min(costs.length, i + chunk); j++) task += costs[j];
    let k = 0;
    for (let t = 1; t < free.length; t++) if (free[t] < free[k]) k = t;
    free[k] += task;
  }
  return Math.max(...free);
}

/** An iteration's time when its masks (wall time `maskS`) are filled while the GPU runs its step (`gpuS`). */
export function overlappedStepS(gpuS: number, maskS: number): number {
  return Math.max(gpuS, maskS);
}

/** A replica's compile workers: each compile takes the first free one (FIFO), as a thread pool does. */
export class CompilePool {
  private readonly freeAt: number[];

  constructor(threads: number) {
    this.freeAt = new Array<number>(Math.max(1, Math.floor(threads))).fill(-Infinity);
  }

  /** Queue a compile of `compileS` seconds at `now`; returns when it finishes. */
  run(now: number, compileS: number): number {
    let k = 0;
    for (let t = 1; t < this.freeAt.length; t++) if (this.freeAt[t] < this.freeAt[k]) k = t;
    const done = Math.max(now, this.freeAt[k]) + compileS;
    this.freeAt[k] = done;
    return done;
  }
}

export interface GrammarCounters {
  /** Requests whose grammar was already compiled. */
  hits: number;
  /** Requests that found their grammar compiling (joined an in-flight compile). */
  joined: number;
  /** Compiles started, and their total seconds. */
  compiles: number;
  compileSeconds: number;
  evictions: number;
}

export class GrammarCache {
  /** Insertion-ordered map as an LRU: oldest first. */
  private readonly ready = new Map<number, true>();
  /** Schema → time its compile finishes. */
  private readonly compiling = new Map<number, number>();
  readonly counters: GrammarCounters = { hits: 0, joined: 0, compiles: 0, compileSeconds: 0, evictions: 0 };

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.ready.size;
  }

  /**
   * When the grammar for `schema` is usable: `now` if compiled (refreshes it), the end of the compile in flight,
   * or, if neither, `undefined` (the caller starts a compile with `start`).
   */
  readyAt(schema: number, now: number): number | undefined {
    if (this.ready.has(schema)) {
      this.ready.delete(schema);
      this.ready.set(schema, true);
      this.counters.hits++;
      return now;
    }
    const t = this.compiling.get(schema);
    if (t !== undefined) {
      this.counters.joined++;
      return t;
    }
    return undefined;
  }

  /** A compile of `compileS` seconds, finishing at `done` (after any wait for a compile thread), was queued. */
  start(schema: number, done: number, compileS: number): number {
    this.compiling.set(schema, done);
    this.counters.compiles++;
    this.counters.compileSeconds += compileS;
    return done;
  }

  /** The compile finished: cache the grammar (evicting the least recently used beyond capacity). */
  finish(schema: number): void {
    this.compiling.delete(schema);
    if (this.capacity <= 0) return;
    this.ready.delete(schema);
    this.ready.set(schema, true);
    while (this.ready.size > this.capacity) {
      const oldest = this.ready.keys().next().value as number;
      this.ready.delete(oldest);
      this.counters.evictions++;
    }
  }

  isCompiling(schema: number): boolean {
    return this.compiling.has(schema);
  }
}
