/**
 * What the animated router (CacheRouter.tsx, RouterPicture.tsx) reads off a run at the playhead t: the latest
 * request to leave the router, the KV blocks HBM holds, and how many chunks of a run still streaming in the
 * picture needs.
 */
import type { RouterChunk } from '../../sim/lessons/routing/animation';
import type { RouterPictureRun } from '../../sim/lessons/routing/streamed';
import { ANIMATION_PLAY_RATE } from './schema';

/** The latest request that arrived at or before t (requests are in arrival order), −1 if none. */
export function lastArrivalAt(arrival: Float64Array, count: number, t: number): number {
  let lo = 0;
  let hi = count - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (arrival[mid] <= t) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return last;
}

/** KV blocks held in HBM over all replicas at frame f (0 before the first frame). */
export function hbmBlocksAt(r: RouterPictureRun, f: number): number {
  let used = 0;
  if (f < 0) return used;
  const k = f * r.replicas;
  for (let j = r.frames.kvOffsets[k]; j < r.frames.kvOffsets[k + r.replicas]; j++)
    used += r.frames.kvBlocks[j];
  return used;
}

export const NO_CHUNKS: RouterChunk[] = [];
/** Simulated seconds past the playhead that the put-together chunks cover (4 s of play at 1×). */
const LOOKAHEAD_S = 4 * ANIMATION_PLAY_RATE;

/** How many chunks the picture at t needs: the fewest reaching LOOKAHEAD_S past t, all if none do, 0 if t is not reached. */
export function chunksFor(chunks: readonly RouterChunk[], t: number): number {
  const n = chunks.length;
  if (n === 0 || chunks[n - 1].readyS <= t) return 0;
  for (let k = 0; k < n; k++) if (chunks[k].readyS > t + LOOKAHEAD_S) return k + 1;
  return n;
}
