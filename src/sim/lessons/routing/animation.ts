/**
 * Lesson 07.03's animated router: one fleet run with frames, reduced to typed arrays per frame (KV blocks in HBM
 * per replica and session, queue and batch members) and a per-request table, so the picture is a function of
 * (result, t). The run also streams itself in chunks as it advances (`RouterChunk`): frames and the request
 * rows that are final so far, and the time up to which they are the whole run's, so a widget can draw the
 * playhead's picture long before the run ends (the chunks, concatenated, are the result's arrays:
 * tests/router-animation-stream.test.ts).
 */
import type { FleetSim } from '../../engine/fleet/engine';
import { REQUEST_COLUMNS } from '../../engine/fleet/requestColumns';
import type { FleetFrame } from '../../engine/fleet/frames';
import { ROUTE_REASONS } from '../../engine/fleet/router';
import { runScenario, type FleetResult, type RequestTable } from '../../engine/fleet/run';
import { LAB_BLOCK_SIZE, type RouterPolicy } from './constants';
import { labBytesPerBlock, labScenario, sharedPrefixHashes, type LabFleet, type RunHooks } from './lab';
import { ResidencyTracker } from './residency';
import { requestRows, summarizeRows, type PolicySummary, type RequestRows } from './summary';

export interface RouterAnimationArgs extends LabFleet {
  policy: RouterPolicy;
  /** Simulated seconds between frames. Default 0.5. */
  frameIntervalS?: number;
}

export interface AnimationFrames {
  count: number;
  t: Float64Array;
  /** Per frame and replica (row-major F × R): requests waiting, and running (loading, prefill or decode). */
  waiting: Uint16Array;
  running: Uint16Array;
  /** HBM blocks by session: entries kvOffsets[f·R + r] … kvOffsets[f·R + r + 1] (session −1 = shared head). */
  kvOffsets: Uint32Array;
  kvSession: Int32Array;
  kvBlocks: Uint32Array;
  /** Queue and batch: entries memOffsets[f·R + r] … of request ids and phases (0 waiting, 1 loading, 2 prefill, 3 decode). */
  memOffsets: Uint32Array;
  memRequest: Int32Array;
  memPhase: Uint8Array;
  /** Session-private HBM blocks held in duplicate, per frame. */
  duplicateBlocks: Uint32Array;
}

/** What the picture needs of a run besides its frames and requests: known from the start. */
export interface RouterRunSetup {
  policy: RouterPolicy;
  replicas: number;
  frameIntervalS: number;
  hbmBlocks: number;
  blockSize: number;
  bytesPerBlock: number;
  sharedBlocks: number;
  /** The shared pool's capacity (0: none). */
  poolGB: number;
  reasonNames: readonly string[];
}

export interface RouterAnimationResult extends RouterRunSetup {
  sessions: number;
  /** Simulated seconds until the last event. */
  endS: number;
  frames: AnimationFrames;
  requests: RequestRows;
  /** Why each request went where it went (index into ROUTE_REASONS), and the prefix the router saw (blocks, −1 if it did not look). */
  reason: Uint8Array;
  matched: Int32Array;
  summary: PolicySummary;
}

/**
 * A part of the run, streamed as it advances. Frames `from` … `from + t.length − 1` (their kv and member entries
 * continue the previous chunk's: `kvEnds[i]` is kvOffsets[(from·R) + i + 1], likewise `memEnds`), and request
 * rows `rowsFrom` … (every one final: the request has ended). Up to `readyS` (exclusive) the frames and rows
 * received so far are all the picture reads, exactly as the whole run has them.
 */
export interface RouterChunk extends RouterRunSetup {
  from: number;
  t: Float64Array;
  waiting: Uint16Array;
  running: Uint16Array;
  kvEnds: Uint32Array;
  kvSession: Int32Array;
  kvBlocks: Uint32Array;
  memEnds: Uint32Array;
  memRequest: Int32Array;
  memPhase: Uint8Array;
  duplicateBlocks: Uint32Array;
  rowsFrom: number;
  rows: RequestRows;
  readyS: number;
  /** Sessions started so far. */
  sessions: number;
}

/** Frames per streamed chunk: 4 simulated seconds at the widget's 0.5 s, about 1/120 of its run. */
export const CHUNK_FRAMES = 8;

/** The buffers of a chunk, to transfer it without copying. */
export function chunkTransferables(c: RouterChunk): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const v of [...Object.values(c), ...Object.values(c.rows)])
    if (ArrayBuffer.isView(v)) out.push(v.buffer as ArrayBuffer);
  return out;
}

class Grow<A extends Uint32Array | Int32Array | Uint16Array | Uint8Array | Float64Array> {
  n = 0;
  constructor(
    public buf: A,
    private readonly make: (n: number) => A,
  ) {}
  push(x: number): void {
    if (this.n === this.buf.length) {
      const b = this.make(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
    this.buf[this.n++] = x;
  }
  slice(from: number, to = this.n): A {
    return this.buf.slice(from, to) as A;
  }
}

const u32 = () => new Grow(new Uint32Array(1024), (n) => new Uint32Array(n));
const i32 = () => new Grow(new Int32Array(1024), (n) => new Int32Array(n));
const u16 = () => new Grow(new Uint16Array(1024), (n) => new Uint16Array(n));
const u8 = () => new Grow(new Uint8Array(1024), (n) => new Uint8Array(n));
const f64 = () => new Grow(new Float64Array(1024), (n) => new Float64Array(n));

/** Request rows from..to−1 of a running fleet, as requestRows makes them of the final table. */
function rowsOf(sim: FleetSim, from: number, to: number): RequestRows {
  const data: Record<string, Float64Array> = {};
  for (const k of REQUEST_COLUMNS) {
    const col = sim.cols[k];
    const a = new Float64Array(to - from);
    for (let i = from; i < to; i++) a[i - from] = col.get(i);
    data[k] = a;
  }
  const table: RequestTable = { columns: REQUEST_COLUMNS, data };
  return requestRows(table);
}

export async function runRouterAnimation(
  a: RouterAnimationArgs,
  hooks: RunHooks<RouterChunk> = {},
): Promise<RouterAnimationResult> {
  const interval = a.frameIntervalS ?? 0.5;
  const shared = sharedPrefixHashes();
  const R = a.replicas;
  const t = f64();
  const waiting = u16();
  const running = u16();
  const dup = u32();
  const kvOff = u32();
  const kvSes = i32();
  const kvBlk = u32();
  const memOff = u32();
  const memReq = i32();
  const memPh = u8();
  kvOff.push(0);
  memOff.push(0);
  let hbmBlocks = 0;
  let tracker: ResidencyTracker | null = null;
  let sim: FleetSim | null = null;
  const setup = (): RouterRunSetup => ({
    policy: a.policy,
    replicas: R,
    frameIntervalS: interval,
    hbmBlocks,
    blockSize: LAB_BLOCK_SIZE,
    bytesPerBlock: labBytesPerBlock(),
    sharedBlocks: shared.size,
    poolGB: a.poolGB ?? 0,
    reasonNames: ROUTE_REASONS,
  });
  // Streaming: frames sent so far, and the rows: every request before `ended` has ended (its row is final).
  let sentFrames = 0;
  let sentRows = 0;
  let ended = 0;
  const chunk = (s: FleetSim): RouterChunk => {
    const status = s.cols.status;
    const created = status.length;
    while (ended < created && status.get(ended) !== 0) ended++;
    const arrival = s.cols.arrival;
    const F = t.n;
    const c: RouterChunk = {
      ...setup(),
      from: sentFrames,
      t: t.slice(sentFrames),
      waiting: waiting.slice(sentFrames * R),
      running: running.slice(sentFrames * R),
      kvEnds: kvOff.slice(sentFrames * R + 1),
      kvSession: kvSes.slice(kvOff.buf[sentFrames * R]),
      kvBlocks: kvBlk.slice(kvOff.buf[sentFrames * R]),
      memEnds: memOff.slice(sentFrames * R + 1),
      memRequest: memReq.slice(memOff.buf[sentFrames * R]),
      memPhase: memPh.slice(memOff.buf[sentFrames * R]),
      duplicateBlocks: dup.slice(sentFrames),
      rowsFrom: sentRows,
      rows: rowsOf(s, sentRows, ended),
      // The last frame is now's, and a request arriving later than the first one still running changes nothing before it.
      readyS: ended < created ? Math.min(s.now, arrival.get(ended)) : s.now,
      sessions: s.sessions.filter(Boolean).length,
    };
    sentFrames = F;
    sentRows = ended;
    return c;
  };
  const onFrame = async (f: FleetFrame) => {
    for (let r = 0; r < R; r++) {
      for (let j = f.members.offsets[r]; j < f.members.offsets[r + 1]; j++) {
        memReq.push(f.members.request[j]);
        memPh.push(f.members.phase[j]);
      }
      memOff.push(memReq.n);
    }
    if (hooks.emit && sim && t.n - sentFrames >= CHUNK_FRAMES) await hooks.emit(chunk(sim));
  };
  const afterEvent = (s: FleetSim) => {
    sim = s;
    // Residency follows the caches from the first event on (it starts from one snapshot), not per frame.
    tracker ??= new ResidencyTracker(s.caches, shared);
    const f = s.pendingFrame;
    if (!f) return;
    t.push(f.t);
    hbmBlocks = f.replicas.kvCapacity[0];
    for (let r = 0; r < R; r++) {
      waiting.push(f.replicas.waiting[r]);
      running.push(f.replicas.loading[r] + f.replicas.prefilling[r] + f.replicas.decoding[r]);
      const by = tracker.sessionsOn(r);
      for (const session of [...by.keys()].sort((x, y) => x - y)) {
        kvSes.push(session);
        kvBlk.push(by.get(session)!);
      }
      kvOff.push(kvSes.n);
    }
    dup.push(tracker.duplicateBlocks);
  };
  const res: FleetResult = await runScenario(labScenario(a.policy, a, interval), {
    onFrame,
    afterEvent,
    checkpoint: hooks.checkpoint,
    checkpointEvery: 2000,
    includeRequests: true,
    includeSeries: false,
  });
  (tracker as ResidencyTracker | null)?.detach();
  // Each request's routing decision comes with its row of the request table (reason, matched, queued).
  const rows = requestRows(res.requests!);
  const run = setup();
  return {
    ...run,
    hbmBlocks: hbmBlocks || res.metrics.config.hbmBlocksPerReplica,
    sessions: res.metrics.sessions.started,
    endS: res.metrics.simulatedS,
    frames: {
      count: t.n,
      t: t.slice(0),
      waiting: waiting.slice(0),
      running: running.slice(0),
      kvOffsets: kvOff.slice(0),
      kvSession: kvSes.slice(0),
      kvBlocks: kvBlk.slice(0),
      memOffsets: memOff.slice(0),
      memRequest: memReq.slice(0),
      memPhase: memPh.slice(0),
      duplicateBlocks: dup.slice(0),
    },
    requests: rows,
    reason: rows.reason,
    matched: rows.matched,
    summary: summarizeRows(rows, R),
  };
}
