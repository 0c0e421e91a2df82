/**
 * What the fleet keeps of one session while it runs: its workload session, where its KV is held through a tool
 * pause, its totals, and its prompts' hashes kept from turn to turn, so that a turn hashes only what it appends.
 */
import { PromptHasher, type Segment } from '../kvcache/hash';
import { settleFields } from '../settleFields';
import { TailHasher } from './tails';
import type { Req } from './request';
import type { RequestSpec, Session } from './workload';

export interface SessionRt {
  s: Session | null;
  cls: number;
  start: number;
  end: number;
  turns: number;
  gpuSeconds: number;
  /** Replica holding its KV through a pause (hold / ttl), or −1. */
  heldOn: number;
  pauseGen: number;
  current: Req | null;
  done: boolean;
  dropped: boolean;
  /** Its prompts' block hashes so far: each turn hashes only what it appends (null for trace sessions). */
  hasher: PromptHasher | null;
  /** Its requests' tail hashes (fleet/tails.ts), resumed from one request to the next. */
  tails: TailHasher | null;
  /**
   * Its request's segments with the output (Req.segs), grown in place while the context is (segsOf), and the
   * context array and length they were made from (set from the start, so that every session has one shape).
   */
  segs: Segment[] | null;
  segsBase: readonly Segment[] | null;
  segsBaseLen: number;
}

/** A session's record; `first` for the run's first one, which settles the fields that change late (settleFields.ts). */
export function newSessionRt(s: Session | null, cls: number, start: number, first: boolean): SessionRt {
  const rt: SessionRt = {
    s,
    cls,
    start,
    end: -1,
    turns: 0,
    gpuSeconds: 0,
    heldOn: -1,
    pauseGen: 0,
    current: null,
    done: false,
    dropped: false,
    hasher: null,
    tails: null,
    segs: null,
    segsBase: null,
    segsBaseLen: 0,
  };
  // Fields that change only when the first session ends.
  if (first) settleFields(rt, { done: true, dropped: true, end: 0.5, s: null });
  return rt;
}

/**
 * The request's prompt + output as segments, and its chained page hashes. The session's hasher keeps the chain of
 * its previous prompt + output, which this prompt extends: only the new segments are hashed.
 */
export function sessionHashes(
  spec: RequestSpec,
  rt: SessionRt,
  blockSize: number,
): { segs: Segment[]; hashes: number[]; tails: TailHasher | null } {
  const out: Segment = (spec.outputSegment ??= { id: spec.outputSegmentId, tokens: spec.outputTokens });
  const segs = rt.current ? spec.segments.concat(out) : segsOf(rt, spec.segments, out);
  rt.hasher ??= new PromptHasher(blockSize);
  rt.tails ??= new TailHasher();
  // The session's one request at a time reads its hashes in place (no copy per turn); were an earlier request of
  // the session still live, it gets a copy, so that hashing this one cannot change that one's.
  const list = rt.current ? rt.hasher.hash(spec.segments, out) : rt.hasher.hashInPlace(spec.segments, out);
  return { segs, hashes: list.hashes, tails: rt.tails };
}

/**
 * The prompt's segments and then the output, as one list (Req.segs). A session's context grows in place (the
 * workload's contextInPlace): then last turn's list is this one's first part, last turn's output included (the
 * context appended that very segment), so the list is grown in place too instead of copied. Its readers (the
 * tail hasher, which skips comparing a list it has seen) rely on a list never changing what they read: only
 * entries past the old prompt are written, and the old output's entry is written with itself. A context that was
 * replaced (compaction, reordered tools, a per-turn header) gets a new list, which the readers compare.
 */
function segsOf(rt: SessionRt, segments: readonly Segment[], out: Segment): Segment[] {
  const a = rt.segs;
  const n = rt.segsBaseLen;
  if (a && rt.segsBase === segments && segments.length > n && a[n] === segments[n]) {
    for (let i = n + 1; i < segments.length; i++) a[i] = segments[i];
    a[segments.length] = out;
  } else rt.segs = segments.concat(out);
  rt.segsBase = segments;
  rt.segsBaseLen = segments.length;
  return rt.segs!;
}
