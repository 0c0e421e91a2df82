/**
 * Structured output on one replica: each schema's grammar compiled once (on the replica's compile threads, then
 * kept in its grammar cache), requests waiting for theirs, and the wall time of a step's masks (fleet/grammar.ts
 * has the costs and why).
 */
import { CompilePool, GrammarCache, maskWallS, type MaskThreads, type SchemaCosts } from './grammar';
import type { Req } from './request';

export interface ReplicaGrammarConfig {
  /** Per-schema compile time and mask cost, shared by all replicas. */
  schemaCosts: SchemaCosts;
  /** Whether any request can carry a schema (else no iteration has masks to fill, and none looks). */
  schemas: boolean;
  grammarCapacity: number;
  /** How a step's masks are spread over CPU threads; its `threads` also size the compile pool. */
  maskThreads: MaskThreads;
}

export class ReplicaGrammar {
  readonly cache: GrammarCache;
  private readonly compilePool: CompilePool;
  /** Requests waiting for a schema's grammar, by schema. */
  private readonly waiting = new Map<number, Req[]>();

  constructor(private readonly c: ReplicaGrammarConfig) {
    this.cache = new GrammarCache(c.grammarCapacity);
    this.compilePool = new CompilePool(c.maskThreads.threads);
  }

  /**
   * A request routed here at `now`: ready when it has no schema or its grammar is compiled, else it waits for the
   * compile (started now if none runs). Returns when a compile it started ends, or null when it started none.
   */
  arrive(r: Req, now: number): number | null {
    if (r.schema < 0 || r.grammarReady) return null;
    const at = this.cache.readyAt(r.schema, now);
    if (at === now) {
      r.grammarReady = true;
      return null;
    }
    const done = at ?? this.startCompile(r.schema, now);
    r.grammarWaitS = done - now;
    let list = this.waiting.get(r.schema);
    if (!list) this.waiting.set(r.schema, (list = []));
    list.push(r);
    return at === undefined ? done : null;
  }

  private startCompile(schema: number, now: number): number {
    const compileS = this.c.schemaCosts.compileS(schema);
    return this.cache.start(schema, this.compilePool.run(now, compileS), compileS);
  }

  /** A schema's compile ended: the requests waiting for it are ready. */
  ready(schema: number): void {
    this.cache.finish(schema);
    const list = this.waiting.get(schema);
    if (list) {
      for (const r of list) r.grammarReady = true;
      this.waiting.delete(schema);
    }
  }

  /** Wall time of the masks a step fills: one per decode, one per prefill chunk that samples its first token. */
  maskWall(decodes: readonly Req[], prefills: readonly { r: Req; n: number }[]): number {
    if (!this.c.schemas) return 0;
    const costs: number[] = [];
    const sc = this.c.schemaCosts;
    for (const r of decodes) if (r.schema >= 0) costs.push(sc.maskS(r.schema));
    for (const p of prefills)
      if (p.r.schema >= 0 && p.r.ctx + p.n >= p.r.target) costs.push(sc.maskS(p.r.schema));
    return costs.length ? maskWallS(costs, this.c.maskThreads) : 0;
  }
}
