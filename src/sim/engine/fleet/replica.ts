/**
 * One replica: a model on `tp` accelerators with its tiered KV cache, and a continuous-batching scheduler.
 *
 * Each iteration:
 *  1. Admission (FCFS, up to maxBatchSeqs; fleet/admit.ts): a waiting request whose grammar is ready acquires its
 *     prompt's blocks. The longest cached prefix is reused: blocks in HBM at once; blocks in DRAM/NVMe/the pool are
 *     brought up over their links (each link serves one transfer at a time per direction, FIFO), and the request
 *     waits in `loading` meanwhile while others run (fleet/admissionReuse.ts); victims it evicts with no copy
 *     below are written back first.
 *     Copies towards a lower tier (offloads, write-through and write-back stores) queue on the link's other
 *     direction. When HBM is full of pinned blocks, sessions holding KV through a
 *     tool pause are released first (oldest first); otherwise the queue waits. A prompt that can never fit is
 *     dropped.
 *  2. Decode growth (fleet/decodeGrowth.ts): a decoding sequence that needs a new block gets it; if HBM is full,
 *     the most recently admitted sequence is preempted (recompute: its blocks are released and it requeues at the
 *     front; swap: its blocks are offloaded to DRAM and reloaded when it is readmitted).
 *  3. The batch (fleet/batch.ts): every decoding sequence, then prefill chunks in admission order within the
 *     token budget.
 *  4. Its time is the cost model's iterationTime, or the wall time of the batch's grammar masks if that is
 *     longer: masks are filled on CPU threads while the GPU runs the step and must be ready before sampling
 *     (fleet/grammar.ts), so only the part the step cannot hide adds.
 * When only decodes remain, k identical decode steps are taken as one event (a "macro-step"), ending when a
 * sequence finishes or needs a block; an arrival or a finished transfer cuts it short at the next step
 * boundary. So the cost is per event (arrival, chunk, completion, block boundary), never per token. Its end credits
 * the batch's requests with their tokens, GPU time and gaps (fleet/iterationCredit.ts).
 */
import type { ModelSpec } from '../catalog/models';
import type { HardwareConfig } from '../cost';
import type { KvCache } from '../kvcache/cache';
import type { Rng } from '../rng';
import { admitWaiting } from './admit';
import type { ReuseEnv } from './admissionReuse';
import { BatchFormer, NO_DECODES, NO_PREFILLS, type PrefillItem } from './batch';
import { growDecodes } from './decodeGrowth';
import { creditIteration } from './iterationCredit';
import { ReplicaGrammar, type ReplicaGrammarConfig } from './replicaGrammar';
import { LogHistogram, TimeWeighted } from './metrics';
import type { ToolPausePolicy } from './scenario';
import { keepFirst } from '../keepFirst';
import { ToolPauses } from './toolPauses';
import type { Req } from './request';
import { TailReuse, type TailReuseConfig } from './tailReuse';
import { TierLinks, type SharedLink } from './tierLinks';

/** What the replica asks of the engine. */
export interface ReplicaHost {
  readonly now: number;
  schedule(
    time: number,
    kind: 'iteration-end' | 'transfer-done' | 'grammar-ready' | 'replica-wake' | 'ttl-expire',
    a: number,
    b: number,
  ): void;
  requestDone(r: Req): void;
  requestDropped(r: Req, why: string): void;
  /** A held session was released under memory pressure (so the engine forgets it is held). */
  heldReleased(session: number, replica: number): void;
}

/** A replica's setup; its partial pages' (TailReuseConfig) and its structured output's (ReplicaGrammarConfig) too. */
export interface ReplicaConfig extends TailReuseConfig, ReplicaGrammarConfig {
  index: number;
  model: ModelSpec;
  hw: HardwareConfig;
  cache: KvCache;
  maxBatchSeqs: number;
  tokenBudget: number;
  chunk: number;
  preemption: 'recompute' | 'swap';
  toolPause: ToolPausePolicy;
  /** The shared pool's own bandwidth (all replicas' transfers to and from it queue here), or null if unlimited. */
  poolLink: SharedLink | null;
  /** Keep `reported` (the metrics endpoint's figures) current: a router scrapes them. */
  reportsMetrics: boolean;
  rng: Rng;
}

export interface ReplicaStats {
  iterations: number;
  busyS: number;
  tokensPrefilled: number;
  tokensDecoded: number;
  preemptions: number;
  swaps: number;
  /** Held sessions released early because HBM ran out. */
  heldReleases: number;
  dropped: number;
}

export class Replica {
  readonly index: number;
  readonly cache: KvCache;
  /** Structured output here: grammars compiled and cached, requests waiting for theirs, masks per step. */
  readonly grammar: ReplicaGrammar;
  readonly waiting: Req[] = [];
  readonly running: Req[] = [];
  /** The pause policy here, and the sessions whose blocks stay pinned through a pause. */
  readonly pauses: ToolPauses;
  outstandingTokens = 0;
  outstandingRequests = 0;
  readonly stats: ReplicaStats = {
    iterations: 0,
    busyS: 0,
    tokensPrefilled: 0,
    tokensDecoded: 0,
    preemptions: 0,
    swaps: 0,
    heldReleases: 0,
    dropped: 0,
  };
  readonly batchSize = new TimeWeighted();
  /**
   * What the engine's metrics endpoint reports, as of its last step: vLLM v1 makes its scheduler stats at the end
   * of each step (`Scheduler.make_stats`, called from `update_from_output`), so `num_requests_waiting` counts the
   * requests the step's scheduling left waiting (a request that arrives during a step joins the queue between
   * steps) and `kv_cache_usage_perc` the blocks held once the step's finished requests let go of theirs.
   */
  readonly reported = { waiting: 0, kvInUse: 0 };
  /** Waiting requests right after the running iteration's scheduling. */
  private waitingAfterSchedule = 0;

  private busy = false;
  private wakePending = false;
  private gen = 0;
  private iterStart = 0;
  private iterEnd = 0;
  private steps = 0;
  private stepTime = 0;
  private prefills: readonly PrefillItem[] = NO_PREFILLS;
  private decodes: readonly Req[] = NO_DECODES;
  /** Forms each iteration's batch (one runs at a time; its end lets go of the batch). */
  private readonly batch: BatchFormer;
  private admitCounter = 0;
  /** Requests aborted while in the running batch: dropped when it ends. */
  private abortsInBatch = 0;
  /** The links to the cache's lower tiers (reloads up, stores down). */
  readonly links: TierLinks;
  /** The sessions' partial last pages, reused in the engine's blocks. */
  readonly tails: TailReuse;
  /** What admission reads to credit a request with what it finds cached. */
  readonly reuseEnv: ReuseEnv;
  readonly config: ReplicaConfig;

  constructor(
    c: ReplicaConfig,
    readonly host: ReplicaHost,
    /** The fleet's inter-token gaps, which every replica's iterations add to. */
    readonly gaps: LogHistogram,
  ) {
    this.config = c;
    this.index = c.index;
    this.cache = c.cache;
    this.grammar = new ReplicaGrammar(c);
    this.batch = new BatchFormer(c);
    this.links = new TierLinks(c.tiers, c.poolLink);
    this.tails = new TailReuse(c.cache, this.links, c);
    this.pauses = new ToolPauses(c.cache, this.tails, this.links, c, host);
    this.reuseEnv = {
      cache: c.cache,
      links: this.links,
      tails: this.tails,
      tiers: c.tiers,
      blockSize: c.blockSize,
    };
  }

  get isBusy(): boolean {
    return this.busy;
  }

  // ───────────────────────────── arrivals ─────────────────────────────

  /** A request routed here. */
  enqueue(r: Req): void {
    const now = this.host.now;
    r.replica = this.index;
    r.state = 'waiting';
    r.enqueued = now;
    r.owed = r.target - r.ctx + (r.outputTokens - r.generated);
    this.outstandingTokens += r.owed;
    this.outstandingRequests++;
    const compiled = this.grammar.arrive(r, now);
    if (compiled !== null) this.host.schedule(compiled, 'grammar-ready', this.index, r.schema);
    this.waiting.push(r);
    this.poke();
  }

  grammarReady(schema: number): void {
    this.grammar.ready(schema);
    this.poke();
  }

  transferDone(r: Req): void {
    if (r.state === 'loading' && r.replica === this.index) r.state = 'prefill';
    this.poke();
  }

  /**
   * Something changed that the next iteration should see: start one if idle; cut a long decode macro-step
   * short at its next step boundary.
   */
  poke(): void {
    const now = this.host.now;
    if (!this.busy) {
      if (!this.wakePending) {
        this.wakePending = true;
        this.host.schedule(now, 'replica-wake', this.index, 0);
      }
      return;
    }
    if (this.steps > 1 && this.prefills.length === 0) {
      const done = Math.floor((now - this.iterStart) / this.stepTime);
      const k = done + 1;
      if (k < this.steps) {
        this.steps = k;
        this.iterEnd = Math.max(now, this.iterStart + k * this.stepTime);
        this.gen++;
        this.host.schedule(this.iterEnd, 'iteration-end', this.index, this.gen);
      }
    }
  }

  wake(): void {
    this.wakePending = false;
    if (!this.busy) this.startIteration();
  }

  // ───────────────────────────── iterations ─────────────────────────────

  iterationEnd(gen: number): void {
    if (gen !== this.gen || !this.busy) return; // superseded by a cut-short macro-step
    const now = this.host.now;
    const dur = now - this.iterStart;
    this.stats.busyS += dur;
    this.stats.iterations++;
    const someDone = creditIteration(this, this.prefills, this.decodes, this.steps, dur, now);
    this.busy = false;
    // Completions (in admission order): only a request of this batch can have generated its last token.
    if (someDone) {
      let w = 0;
      for (let i = 0; i < this.running.length; i++) {
        const r = this.running[i];
        if (r.abortWhy !== undefined)
          this.running[w++] = r; // dropped below, before the next iteration forms
        else if (r.state === 'decode' && r.generated >= r.outputTokens) this.finish(r);
        else this.running[w++] = r;
      }
      keepFirst(this.running, w);
    }
    this.prefills = NO_PREFILLS;
    this.decodes = NO_DECODES;
    // Only a request aborted while in this batch is still running with its abort pending.
    if (this.abortsInBatch > 0) {
      this.abortsInBatch = 0;
      this.dropAborted();
    }
    if (this.config.reportsMetrics) this.report();
    this.startIteration();
  }

  private report(): void {
    this.reported.waiting = this.waitingAfterSchedule;
    this.reported.kvInUse = this.cache.hbmPinnedShare;
  }

  /**
   * The client gave up on r (its timeout): dropped now, or, when it is in the running iteration's batch, when that
   * iteration ends (vLLM's engine core handles aborts between steps). Its blocks go back to the cache.
   */
  abort(r: Req, why: string): void {
    if (r.state === 'done' || r.state === 'dropped' || r.replica !== this.index) return;
    r.abortWhy = why;
    const inBatch = this.busy && (this.decodes.includes(r) || this.prefills.some((p) => p.r === r));
    if (!inBatch) this.dropWaiting(r, why);
    else this.abortsInBatch++;
    this.poke();
  }

  private dropAborted(): void {
    for (let i = 0; i < this.running.length;) {
      const r = this.running[i];
      if (r.abortWhy !== undefined) this.dropWaiting(r, r.abortWhy);
      else i++;
    }
  }

  /** r's remaining work shrinks by n tokens (what it owes, at most). */
  pay(r: Req, n: number): void {
    const x = Math.min(n, r.owed);
    r.owed -= x;
    this.outstandingTokens -= x;
  }

  private finish(r: Req): void {
    const now = this.host.now;
    r.state = 'done';
    r.finished = now;
    this.outstandingTokens -= r.owed;
    r.owed = 0;
    this.outstandingRequests--;
    const bs = this.config.blockSize;
    this.cache.commit(r.seq, Math.floor(r.ctx / bs));
    this.bookStores();
    const pages = this.config.pages;
    if (pages && r.segs) pages.addPages(r.hashes, r.segs, r.computedFrom, Math.floor(r.ctx / bs), bs);
    this.host.requestDone(r);
  }

  /** Book the copies the cache made down into its lower tiers on their links; returns when write-backs are done. */
  bookStores(): number {
    return this.links.bookStores(this.cache, this.host.now);
  }

  /** Release the oldest held session (memory pressure); false when none is held. */
  releaseOldestHeld(): boolean {
    const s = this.pauses.releaseOldest();
    if (s < 0) return false;
    this.stats.heldReleases++;
    this.host.heldReleased(s, this.index);
    return true;
  }

  /** The order of the next admission here (decode growth preempts the latest admitted first). */
  nextAdmitOrder(): number {
    return this.admitCounter++;
  }

  /** Drop r (it never fits, or its client gave up): out of the queues, its blocks back to the cache. */
  dropWaiting(r: Req, why: string): void {
    const i = this.waiting.indexOf(r);
    if (i >= 0) this.waiting.splice(i, 1);
    const j = this.running.indexOf(r);
    if (j >= 0) this.running.splice(j, 1);
    if (!(r.session >= 0 && this.pauses.unhold(r.session, 'cache'))) this.cache.release(r.seq, 'cache');
    this.outstandingTokens -= r.owed;
    r.owed = 0;
    this.outstandingRequests--;
    r.state = 'dropped';
    this.stats.dropped++;
    this.host.requestDropped(r, why);
  }

  private startIteration(): void {
    const now = this.host.now;
    const c = this.config;
    // 1. Admission, then 2. decode growth; a preemption during growth requeues a request, so admit again (a
    // preempted request must not sit in the queue of an idle replica). The batch is formed after admission; its
    // pass over the decodes says whether any needs a block, so most iterations (a macro-step ends at a block
    // boundary or a completion) skip the growth pass, and only those that grew form the batch again.
    admitWaiting(this);
    const batch = this.batch;
    batch.form(this.running);
    if (batch.needsGrowth) {
      while (growDecodes(this)) admitWaiting(this);
      batch.form(this.running);
    }
    // 3. the batch, 4. its time
    if (c.reportsMetrics)
      this.waitingAfterSchedule = this.waiting.length + batch.admittedNotScheduled(this.running);
    const size = batch.prefills.length + batch.decodes.length;
    if (size === 0) {
      this.batchSize.set(now, 0);
      return; // idle
    }
    const time = batch.time(this.grammar.maskWall(batch.decodes, batch.prefills));
    const steps = batch.steps;
    this.busy = true;
    this.gen++;
    this.iterStart = now;
    this.steps = steps;
    this.stepTime = time / steps;
    this.iterEnd = now + time;
    this.prefills = batch.prefills;
    this.decodes = batch.decodes;
    this.batchSize.set(now, size);
    this.host.schedule(this.iterEnd, 'iteration-end', this.index, this.gen);
  }
}
