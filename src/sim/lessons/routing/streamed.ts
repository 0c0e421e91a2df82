/**
 * Lesson 07.03: the animated router's run as its chunks arrive (animation.ts RouterChunk), put together into
 * what the picture reads. Pure and free of the simulator (type imports only), so the main thread can use it.
 * Up to `readyS` (exclusive) the picture drawn from it is the whole run's picture at the same time.
 */
import type { AnimationFrames, RouterAnimationResult, RouterChunk } from './animation';
import type { RequestRows } from './summary';

/** What the picture reads of a run: a finished one (RouterAnimationResult) or one still streaming. */
export type RouterPictureRun = Omit<RouterAnimationResult, 'summary' | 'endS'>;

export interface StreamedRun extends RouterPictureRun {
  /** The picture at any t < readyS is final. */
  readyS: number;
}

type Typed = Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;

function concat<A extends Typed>(parts: A[], head: number[] = []): A {
  let n = head.length;
  for (const p of parts) n += p.length;
  const Ctor = parts[0].constructor as new (n: number) => A;
  const out = new Ctor(n);
  out.set(head);
  let o = head.length;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** The chunks of one run received so far, in order (the first one from frame 0), as one run; null if none. */
export function assembleChunks(chunks: readonly RouterChunk[]): StreamedRun | null {
  if (chunks.length === 0) return null;
  const last = chunks[chunks.length - 1];
  const pick = <K extends keyof RouterChunk>(k: K) => chunks.map((c) => c[k] as unknown as Typed);
  const frames: AnimationFrames = {
    count: chunks.reduce((a, c) => a + c.t.length, 0),
    t: concat(pick('t') as Float64Array[]),
    waiting: concat(pick('waiting') as Uint16Array[]),
    running: concat(pick('running') as Uint16Array[]),
    kvOffsets: concat(pick('kvEnds') as Uint32Array[], [0]),
    kvSession: concat(pick('kvSession') as Int32Array[]),
    kvBlocks: concat(pick('kvBlocks') as Uint32Array[]),
    memOffsets: concat(pick('memEnds') as Uint32Array[], [0]),
    memRequest: concat(pick('memRequest') as Int32Array[]),
    memPhase: concat(pick('memPhase') as Uint8Array[]),
    duplicateBlocks: concat(pick('duplicateBlocks') as Uint32Array[]),
  };
  const first = chunks[0].rows;
  const requests = { count: chunks.reduce((a, c) => a + c.rows.count, 0) } as RequestRows;
  for (const k of Object.keys(first) as (keyof RequestRows)[]) {
    if (k === 'count') continue;
    (requests as unknown as Record<string, Typed>)[k] = concat(chunks.map((c) => c.rows[k] as Typed));
  }
  return {
    policy: last.policy,
    replicas: last.replicas,
    frameIntervalS: last.frameIntervalS,
    hbmBlocks: last.hbmBlocks,
    blockSize: last.blockSize,
    bytesPerBlock: last.bytesPerBlock,
    sharedBlocks: last.sharedBlocks,
    poolGB: last.poolGB,
    reasonNames: last.reasonNames,
    sessions: last.sessions,
    frames,
    requests,
    reason: requests.reason,
    matched: requests.matched,
    readyS: last.readyS,
  };
}
