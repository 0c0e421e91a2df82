/** The frames a streamed widget keeps (src/widgets/kit/streamedFrames.ts). */
import { describe, expect, it } from 'vitest';
import { FrameStream, NO_STREAM, withBatch, type Streamed } from '../src/widgets/kit/streamedFrames';

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

/** A host whose "animation frames" run when the test says, and which records what was published. */
function fakeHost() {
  const queued = new Map<number, () => void>();
  let next = 1;
  const published: Streamed<number>[] = [];
  return {
    published,
    host: {
      schedule: (flush: () => void) => {
        queued.set(next, flush);
        return next++;
      },
      cancel: (h: unknown) => void queued.delete(h as number),
      publish: (s: Streamed<number>) => void published.push(s),
    },
    /** Run the animation frames queued so far. */
    frame() {
      const due = [...queued.values()];
      queued.clear();
      for (const f of due) f();
    },
    pending: () => queued.size,
  };
}

describe('FrameStream', () => {
  it('hands over the frames that arrive within one animation frame together', () => {
    const h = fakeHost();
    const stream = new FrameStream<number>(h.host);
    stream.push('A', 1, 0);
    stream.push('A', 1, 1);
    expect(h.published).toHaveLength(0);
    expect(h.pending()).toBe(1);
    h.frame();
    expect(h.published).toHaveLength(1);
    expect(h.published[0]).toMatchObject({ key: 'A', job: 1, frames: [0, 1] });
    stream.push('A', 1, 2);
    h.frame();
    expect(stream.current.frames).toEqual([0, 1, 2]);
  });

  it('publishes each hand-over whole: every value holds all the frames so far, so the last one holds them all', () => {
    // React may apply a state update computed against a state older than the one before it (a frame was lost
    // that way at 07.04's load; tests/streamed-frames-react.test.tsx): a value replacing the state loses nothing.
    const h = fakeHost();
    const stream = new FrameStream<number>(h.host);
    for (let i = 0; i < 10; i++) {
      stream.push('A', 1, i);
      if (i % 3 === 2) h.frame();
    }
    h.frame();
    expect(h.published).toHaveLength(4);
    h.published.forEach((s, i) => {
      expect(typeof s).toBe('object');
      expect(s.frames).toEqual(Array.from({ length: Math.min(10, 3 * (i + 1)) }, (_, j) => j));
    });
  });

  it('hands over the rest of a run before the first frame of the next one, and keeps the run shown', () => {
    const h = fakeHost();
    const stream = new FrameStream<number>(h.host);
    stream.push('A', 1, 0);
    h.frame();
    stream.push('A', 1, 1);
    stream.showing('A');
    stream.push('B', 2, 10);
    // A's last frame went in at once, before B's first.
    expect(h.published.at(-1)).toMatchObject({ key: 'A', frames: [0, 1] });
    h.frame();
    expect(stream.current).toMatchObject({
      key: 'B',
      job: 2,
      frames: [10],
      kept: { key: 'A', frames: [0, 1] },
    });
  });

  it('a new job of the same arguments starts over', () => {
    const h = fakeHost();
    const stream = new FrameStream<number>(h.host);
    stream.push('A', 1, 0);
    stream.push('A', 1, 1);
    stream.push('A', 2, 0);
    h.frame();
    expect(stream.current).toMatchObject({ key: 'A', job: 2, frames: [0] });
  });

  it('paused (effects torn down, component alive): frames wait, and are handed over when it resumes', () => {
    const h = fakeHost();
    const stream = new FrameStream<number>(h.host);
    stream.push('A', 1, 0);
    stream.pause();
    expect(h.pending()).toBe(0);
    stream.push('A', 1, 1);
    // A hand-over scheduled while paused is one the resumed stream still makes.
    h.frame();
    stream.resume();
    h.frame();
    expect(stream.current.frames).toEqual([0, 1]);
    expect(stream.stats()).toMatchObject({ receiving: { key: 'A', job: 1, frames: 2 }, buffered: 0 });
  });
});
