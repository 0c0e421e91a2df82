/**
 * Steps 3 and 4 of a replica's iteration (fleet/replica.ts): the batch its scheduler forms from the running
 * requests, and how long the batch takes on the GPU.
 *
 * The batch: every decoding sequence (one token each), then prefill chunks in admission order within the token
 * budget (chunked prefill; `chunk` caps one sequence's share). Without chunking, an iteration is either whole
 * prefills (up to the budget, at least one) or decodes. A decode-only batch takes k identical steps as one event
 * (a "macro-step"), k being the steps every sequence can take before one finishes or needs a block.
 */
import type { ModelSpec } from '../catalog/models';
import { decodeStepTime, iterationTime, type HardwareConfig, type IterationBatch } from '../cost';
import { keepFirst } from '../keepFirst';
import { overlappedStepS } from './grammar';
import type { Req } from './request';

/** A prefill chunk of the batch: n of r's prompt tokens. */
export interface PrefillItem {
  r: Req;
  n: number;
}

export interface BatchConfig {
  model: ModelSpec;
  hw: HardwareConfig;
  blockSize: number;
  tokenBudget: number;
  /** The largest prefill chunk a sequence gets per iteration; 0 = no chunked prefill. */
  chunk: number;
}

export const NO_PREFILLS: readonly PrefillItem[] = Object.freeze([]);
export const NO_DECODES: readonly Req[] = Object.freeze([]);

/**
 * Forms one iteration's batch at a time in arrays it reuses (about 150,000 iterations a bench run): the batch
 * formed last stays valid until the next `form`.
 */
export class BatchFormer {
  /** The prefill chunks of the batch formed last. */
  prefills: readonly PrefillItem[] = NO_PREFILLS;
  /** The decoding sequences in the batch formed last (none in a prefill-only batch without chunking). */
  decodes: readonly Req[] = NO_DECODES;
  /** The steps the batch formed last takes as one event (set by `time`). */
  steps = 1;
  /** Whether a decoding sequence of the batch formed last needs another block before its next token. */
  needsGrowth = false;

  private readonly prefillBuf: PrefillItem[] = [];
  /** The items prefillBuf has held, reused. */
  private readonly prefillPool: PrefillItem[] = [];
  private readonly decodeBuf: Req[] = [];
  /** Entries of prefillBuf this iteration (written by index: keepFirst). */
  private prefillCount = 0;
  /** The cost model's view of the batch. */
  private readonly costBatch: IterationBatch = { prefill: [], decodeContextTokens: [] };
  /** The decodes' contexts summed, and the steps they can all take (a decode-only batch's macro-step). */
  private decodeContexts = 0;
  private minSteps = 1;

  constructor(private readonly c: BatchConfig) {}

  /** Form the batch from the running requests (in admission order). */
  form(running: readonly Req[]): void {
    const c = this.c;
    const bs = c.blockSize;
    const decodes = this.decodeBuf;
    const prefills = this.prefillBuf;
    // The buffers are written by index and cut to length after (keepFirst), not emptied first: see keepFirst.
    this.prefillCount = 0;
    // In the same pass, what a decode-only iteration needs: their contexts and how many steps they can all take.
    const ctxs = this.costBatch.decodeContextTokens;
    let total = 0;
    let minSteps = Infinity;
    let nd = 0;
    let needsGrowth = false;
    for (const r of running) {
      if (r.state !== 'decode') continue;
      decodes[nd] = r;
      ctxs[nd] = r.ctx + 1;
      nd++;
      total += r.ctx + 1;
      const left = r.outputTokens - r.generated;
      const room = r.heldBlocks * bs - r.ctx; // steps before it needs another block
      if (room < 1) needsGrowth = true;
      const k = Math.max(1, Math.min(left, room));
      if (k < minSteps) minSteps = k;
    }
    this.needsGrowth = needsGrowth;
    keepFirst(decodes, nd);
    keepFirst(ctxs, nd);
    let budget = c.tokenBudget;
    if (c.chunk > 0) {
      budget -= decodes.length;
      for (const r of running) {
        if (r.state !== 'prefill' || budget <= 0) continue;
        const n = Math.min(r.target - r.ctx, budget, c.chunk);
        if (n <= 0) continue;
        this.push(r, n);
        budget -= n;
      }
    } else {
      for (const r of running) {
        if (r.state !== 'prefill') continue;
        const n = r.target - r.ctx;
        if (this.prefillCount && n > budget) break;
        this.push(r, n);
        budget -= n;
      }
    }
    keepFirst(prefills, this.prefillCount);
    this.prefills = prefills;
    this.decodes = c.chunk > 0 || prefills.length === 0 ? decodes : NO_DECODES;
    this.decodeContexts = total;
    this.minSteps = minSteps;
  }

  /**
   * The batch formed last on the GPU, its grammar masks taking maskS of CPU wall time beside each step: the time
   * of the `steps` it takes as one event. The batch is not empty.
   */
  time(maskS: number): number {
    const c = this.c;
    const prefills = this.prefills;
    if (prefills.length) {
      const batch = this.costBatch;
      keepFirst(batch.decodeContextTokens, this.decodes.length); // none without chunked prefill
      const chunks = batch.prefill;
      while (chunks.length < prefills.length) chunks.push({ newTokens: 0, cachedTokens: 0 });
      keepFirst(chunks, prefills.length);
      for (let i = 0; i < prefills.length; i++) {
        chunks[i].newTokens = prefills[i].n;
        chunks[i].cachedTokens = prefills[i].r.ctx;
      }
      this.steps = 1;
      return overlappedStepS(iterationTime(c.model, c.hw, batch), maskS);
    }
    const B = this.decodes.length;
    const steps = (this.steps = this.minSteps);
    const mid = this.decodeContexts + (B * (steps - 1)) / 2;
    return overlappedStepS(decodeStepTime(c.model, c.hw, B, mid), maskS) * steps;
  }

  /**
   * Requests admitted (their pages reserved) that the batch formed last gives no prefill chunk, or whose KV is
   * still loading: vLLM moves a request from `waiting` to `running` only when a step schedules its first tokens
   * (a 7,200-token miss takes most of an 8,192-token budget, so the next one waits a step), and keeps a request
   * whose KV is loading in `waiting` (WAITING_FOR_REMOTE_KVS). The replica reserves pages at admission, up to a
   * few steps earlier, so its metrics count these as vLLM's would: waiting.
   */
  admittedNotScheduled(running: readonly Req[]): number {
    const prefills = this.prefills;
    let n = 0;
    let k = 0;
    for (const r of running) {
      if (r.state === 'loading') n++;
      else if (r.state === 'prefill') {
        if (k < prefills.length && prefills[k].r === r) k++;
        else n++;
      }
    }
    return n;
  }

  private push(r: Req, n: number): void {
    const k = this.prefillCount++;
    const item = this.prefillPool[k] ?? (this.prefillPool[k] = { r, n });
    item.r = r;
    item.n = n;
    this.prefillBuf[k] = item;
  }
}
