/**
 * Structured output: the compiled-grammar cache of one replica.
 *
 * A request may carry a schema id. The first use on a replica compiles the grammar (a time drawn from a
 * distribution; see GRAMMAR_COMPILE_PRESETS in dist.ts); requests needing a grammar that is compiling wait for
 * that one compile (as vLLM's WAITING_FOR_FSM state does), so compile time shows up in their TTFT. Compiled
 * grammars are kept in an LRU of `capacity` entries. Compiles run in parallel with each other and with the GPU
 * (they are CPU work). Each decode step of a constrained sequence pays a mask cost (applied in the replica).
 */

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

  start(schema: number, now: number, compileS: number): number {
    const done = now + compileS;
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
