/** What an acquire returns (sequences.ts). */
import type { AcquireFail, AcquireOk, LookupResult } from './cacheTypes';

/**
 * An acquire's result, granted or refused, as one class: admission reads `ok` of both, and a second shape there (the
 * first refusal, well into a run) deoptimized it. A refusal's sentence is written when read: a fleet retries refused
 * admissions often and reads it only to report a drop.
 */
export class Outcome {
  private constructor(
    readonly ok: boolean,
    readonly hit: LookupResult | undefined,
    readonly computeBlocks: number,
    readonly computeTokens: number,
    readonly newBlocks: number,
    readonly heldBlocks: number,
    readonly reason: AcquireFail['reason'] | undefined,
    readonly neededBlocks: number,
    readonly availableBlocks: number,
    /** A refusal's: the blocks the sequence would hold, and HBM's (for the sentence). */
    private readonly seqBlocks: number,
    private readonly capacity: number,
  ) {}

  static granted(
    hit: LookupResult,
    computeBlocks: number,
    computeTokens: number,
    newBlocks: number,
    heldBlocks: number,
  ): AcquireOk {
    return new Outcome(
      true,
      hit,
      computeBlocks,
      computeTokens,
      newBlocks,
      heldBlocks,
      undefined,
      0,
      0,
      0,
      0,
    ) as AcquireOk;
  }

  static refused(
    reason: AcquireFail['reason'],
    neededBlocks: number,
    availableBlocks: number,
    seqBlocks: number,
    capacity: number,
  ): AcquireFail {
    return new Outcome(
      false,
      undefined,
      0,
      0,
      0,
      0,
      reason,
      neededBlocks,
      availableBlocks,
      seqBlocks,
      capacity,
    ) as AcquireFail;
  }

  get message(): string {
    if (this.ok) return '';
    return this.reason === 'exceeds-hbm'
      ? `the sequence needs ${this.seqBlocks} blocks; HBM holds ${this.capacity}`
      : `HBM is full of pinned blocks: ${this.neededBlocks} more needed, ${this.availableBlocks} of ${this.capacity} not pinned by other sequences`;
  }
}
