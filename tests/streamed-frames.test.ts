/** The frames a streamed widget keeps (src/widgets/kit/streamedFrames.ts). */
import { describe, expect, it } from 'vitest';
import { NO_STREAM, withBatch, type Streamed } from '../src/widgets/kit/streamedFrames';

const add = (s: Streamed<number>, key: string, job: number, batch: number[], shown: string | null) =>
  withBatch(s, key, job, batch, shown);

describe('streamed frames', () => {
  it('appends a run’s batches, and a new job of the same arguments starts over', () => {
    let s = add(NO_STREAM, 'A', 1, [0, 1], null);
    s = add(s, 'A', 1, [2], null);
    expect(s.frames).toEqual([0, 1, 2]);
    s = add(s, 'A', 2, [0], null);
    expect(s).toMatchObject({ key: 'A', job: 2, frames: [0] });
  });

  it('keeps the run whose result is shown when a newer run starts, and only that one', () => {
    let s = add(NO_STREAM, 'A', 1, [0, 1, 2], null);
    // A's result is shown; B starts: A's frames are kept.
    s = add(s, 'B', 2, [0], 'A');
    expect(s.kept).toEqual({ key: 'A', frames: [0, 1, 2] });
    // C starts before B ends: B's partial run is not kept, A's stays.
    s = add(s, 'C', 3, [0], 'A');
    expect(s.kept).toEqual({ key: 'A', frames: [0, 1, 2] });
    expect(s).toMatchObject({ key: 'C', frames: [0] });
    // A new run of A itself makes the kept one stale.
    s = add(s, 'A', 4, [0], 'A');
    expect(s.kept).toBeNull();
  });

  it('does not keep a run whose result was never shown', () => {
    let s = add(NO_STREAM, 'A', 1, [0, 1], null);
    s = add(s, 'B', 2, [0], null);
    expect(s.kept).toBeNull();
  });
});
