/**
 * The animated router's run streamed in chunks (RouterChunk): put together (assembleChunks), the chunks received
 * by any moment are a prefix of the finished run's frames and request rows, and up to the chunk's readyS the
 * picture reads nothing that is not final (the frame at any t < readyS, every request that arrived before it).
 */
import { describe, expect, it } from 'vitest';
import {
  CHUNK_FRAMES,
  frameAt,
  runRouterAnimation,
  type RouterAnimationArgs,
  type RouterChunk,
} from '../src/sim/lessons/routing/lab';
import { assembleChunks } from '../src/sim/lessons/routing/streamed';

const ARGS: RouterAnimationArgs = {
  policy: 'round-robin',
  replicas: 4,
  sessionsPerS: 1,
  arrivalS: 40,
  seed: 4,
  loadThreshold: 8,
  cacheView: 'exact',
  poolGB: 0,
  frameIntervalS: 0.5,
};

async function streamed(a: RouterAnimationArgs) {
  const chunks: RouterChunk[] = [];
  const result = await runRouterAnimation(a, { emit: (c) => void chunks.push(c) });
  return { chunks, result, plain: await runRouterAnimation(a) };
}

/** −1 when `part` (all of it) is the first part.length entries of `whole` and `whole` has `n` of them at least; else the first index that differs. */
function mismatch(part: ArrayLike<number>, whole: ArrayLike<number>, n = part.length): number {
  if (part.length !== n || whole.length < n) return Math.min(part.length, whole.length);
  for (let i = 0; i < n; i++) if (!Object.is(part[i], whole[i])) return i;
  return -1;
}

describe('runRouterAnimation streamed in chunks', () => {
  it.each([
    ['round-robin, 4 replicas', ARGS],
    [
      'cache-aware with a pool, 3 replicas at 1.5/s',
      { ...ARGS, policy: 'cache-aware', replicas: 3, sessionsPerS: 1.5, poolGB: 300 },
    ],
  ] as const)('%s: every prefix of chunks is a prefix of the run, final up to readyS', async (_name, a) => {
    const { chunks, result, plain } = await streamed(a as RouterAnimationArgs);
    // Emitting changes nothing in the result.
    expect(result.frames).toEqual(plain.frames);
    expect(result.requests).toEqual(plain.requests);
    expect(chunks.length).toBeGreaterThan(result.frames.count / CHUNK_FRAMES - 2);
    const R = result.replicas;
    const fr = result.frames;
    const q = result.requests;
    let lastReady = -Infinity;
    for (let k = 1; k <= chunks.length; k++) {
      const run = assembleChunks(chunks.slice(0, k))!;
      const F = run.frames.count;
      expect(run.readyS).toBeGreaterThanOrEqual(lastReady);
      lastReady = run.readyS;
      for (const key of ['t', 'duplicateBlocks'] as const)
        expect(mismatch(run.frames[key], fr[key], F)).toBe(-1);
      for (const key of ['waiting', 'running'] as const)
        expect(mismatch(run.frames[key], fr[key], F * R)).toBe(-1);
      expect(mismatch(run.frames.kvOffsets, fr.kvOffsets, F * R + 1)).toBe(-1);
      expect(mismatch(run.frames.memOffsets, fr.memOffsets, F * R + 1)).toBe(-1);
      const kvN = run.frames.kvOffsets[F * R];
      expect(mismatch(run.frames.kvSession, fr.kvSession, kvN)).toBe(-1);
      expect(mismatch(run.frames.kvBlocks, fr.kvBlocks, kvN)).toBe(-1);
      const memN = run.frames.memOffsets[F * R];
      expect(mismatch(run.frames.memRequest, fr.memRequest, memN)).toBe(-1);
      expect(mismatch(run.frames.memPhase, fr.memPhase, memN)).toBe(-1);
      const n = run.requests.count;
      for (const key of Object.keys(q) as (keyof typeof q)[]) {
        if (key === 'count') continue;
        expect(mismatch(run.requests[key], q[key], n), key).toBe(-1);
      }
      // Final up to readyS: every request that arrived before it is here, the frame drawn at any t < readyS is the run's.
      let arrivedBefore = 0;
      while (arrivedBefore < q.count && q.arrival[arrivedBefore] < run.readyS) arrivedBefore++;
      expect(n).toBeGreaterThanOrEqual(arrivedBefore);
      const t = Math.max(0, run.readyS - 1e-6);
      expect(frameAt(run.frames, t)).toBe(frameAt(fr, t));
      expect(run.readyS).toBeLessThanOrEqual(run.frames.t[F - 1]);
    }
    // The picture can start well before the run ends: the playhead's 40 s are final within the first fifth of the frames.
    const firstAt40 = chunks.findIndex((_, k) => assembleChunks(chunks.slice(0, k + 1))!.readyS > 40);
    expect(firstAt40).toBeGreaterThanOrEqual(0);
    expect((firstAt40 + 1) / chunks.length).toBeLessThan(0.2);
  });
});
