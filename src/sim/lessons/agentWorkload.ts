/**
 * The agent workload of lesson 07.01: many sessions (agentSession.ts) as a request table, so that generated traffic
 * and a loaded trace go through the same statistics (trafficShape.ts), and as a Mooncake-format trace (the sample
 * trace the lesson ships). The figures that break the chat-serving assumptions are agentWorkloadFigures.ts.
 */
import {
  aloneTiming,
  chatClass,
  codingAgentClass,
  lessonHardware,
  runSessionSteps,
  type AgentPresetOptions,
  type SessionKind,
  type TurnTiming,
} from './agentSession';
import { WorkloadGenerator, type SessionClass } from '../engine/fleet/workload';
import { PromptHasher, type Segment } from '../engine/kvcache/hash';
import { finish, Pace, type Steps } from '../engine/cooperative';
import { sortSteps } from '../engine/sortSteps';
import { createRng } from '../engine/rng';
import type { RequestTable } from '../engine/trace/table';
import { WORKLOAD_LIMITS } from './agentWorkloadSetup';
import { refuseOutside } from '../engine/limits';

export type WorkloadMix = 'agent' | 'chat' | 'mix';

export interface GeneratedRequest {
  session: number;
  kind: SessionKind;
  turn: number;
  arrivalS: number;
  inputTokens: number;
  outputTokens: number;
  reusedTokens: number;
  segments: Segment[];
  /** Time to the session's next request after this one's output ends (0 at the end). */
  gapS: number;
}

export interface GeneratedWorkload {
  requests: GeneratedRequest[];
  sessions: number;
  /** Turns of each session. */
  turnsPerSession: number[];
  kindOfSession: SessionKind[];
}

export interface WorkloadOptions extends AgentPresetOptions {
  mix: WorkloadMix;
  sessions: number;
  seed: number;
  /** New sessions per second (a Poisson process). Default 0.5. */
  sessionRatePerS?: number;
  timing?: TurnTiming;
}

/**
 * Many sessions: session starts are a Poisson process; each session's turns follow from its own timing (served
 * alone, its context cached) and its tool or think gaps. Requests come back in arrival order (ties: session
 * order, then turn).
 */
export function generateWorkload(opts: WorkloadOptions): GeneratedWorkload {
  return finish(generateWorkloadSteps(opts));
}

/** Requests generated between yields of generateWorkloadSteps (about a millisecond of work per 100). */
const REQUESTS_PER_YIELD = 2_000;

/** generateWorkload as a cooperative computation (cooperative.ts): it yields between sessions. */
export function* generateWorkloadSteps(opts: WorkloadOptions): Steps<GeneratedWorkload> {
  refuseOutside(WORKLOAD_LIMITS.sessions, opts.sessions);
  const classes: SessionClass[] =
    opts.mix === 'agent'
      ? [codingAgentClass(opts)]
      : opts.mix === 'chat'
        ? [chatClass()]
        : [codingAgentClass(opts), chatClass()];
  const gen = new WorkloadGenerator(classes, opts.seed);
  const arrivals = createRng((opts.seed ^ 0x5a17) >>> 0);
  const rate = opts.sessionRatePerS ?? 0.5;
  const { model, hw } = lessonHardware();
  const timing = opts.timing ?? aloneTiming(model, hw);
  const requests: GeneratedRequest[] = [];
  const turnsPerSession: number[] = [];
  const kindOfSession: SessionKind[] = [];
  let start = 0;
  const pace = new Pace(REQUESTS_PER_YIELD);
  let done = 0;
  const progress = () => ({ done, total: opts.sessions });
  for (let i = 0; i < opts.sessions; i++) {
    if (i > 0) start += arrivals.exponential(1 / rate);
    const cls = gen.pickClass();
    const kind = classes[cls].kind;
    // The pace counts turns, inside the session too (its last turn's yield is at the next session's first).
    const reqs = yield* runSessionSteps(gen, i, cls, timing, pace, progress);
    turnsPerSession.push(reqs.length);
    kindOfSession.push(kind);
    for (const r of reqs)
      requests.push({
        session: i,
        kind,
        turn: r.spec.turn,
        arrivalS: start + r.startS,
        inputTokens: r.spec.promptTokens,
        outputTokens: r.spec.outputTokens,
        reusedTokens: r.reusedTokens,
        segments: r.spec.segments,
        gapS: r.gapS,
      });
    done = i + 1;
    if (pace.due()) yield progress();
  }
  yield* sortSteps(requests, (a, b) => a.arrivalS - b.arrivalS || a.session - b.session || a.turn - b.turn);
  yield progress();
  return { requests, sessions: opts.sessions, turnsPerSession, kindOfSession };
}

/**
 * The generated requests as a request table (the structure trace statistics run on), blocks of `blockSize`
 * tokens hashed from the prompt's segments, block ids renumbered densely in first-seen order.
 */
export function workloadTable(w: GeneratedWorkload, blockSize = 512): RequestTable {
  return finish(workloadTableSteps(w, blockSize));
}

/** Blocks between yields of workloadTableSteps (a few ms of work). */
const TABLE_BLOCKS_PER_YIELD = 20_000;

/** A session's previous prompt: its block hashes and their ids in the table. */
interface SessionBlocks {
  hasher: PromptHasher;
  hashes: readonly number[];
  ids: number[];
}

/**
 * workloadTable as a cooperative computation (cooperative.ts). A turn's prompt is mostly the previous turn's
 * prompt and what the turn appended, so each session keeps a PromptHasher (only appended segments are hashed;
 * the same hashes as segmentBlockHashes on the whole prompt) and its previous prompt's block ids: the blocks a
 * prompt shares with the previous one (equal chained hashes, so equal prefixes) take their ids from it, and only
 * the rest are looked up. At 1,000 sessions of 100 median turns, rehashing and looking up every prompt's 23 million
 * blocks from the start was most of a 10–30 s run.
 */
export function* workloadTableSteps(w: GeneratedWorkload, blockSize = 512): Steps<RequestTable> {
  const n = w.requests.length;
  const bySession = new Map<number, SessionBlocks>();
  const pace = new Pace(TABLE_BLOCKS_PER_YIELD);
  const arrivalS = new Float64Array(n);
  const inputTokens = new Float64Array(n);
  const outputTokens = new Float64Array(n);
  const blockStart = new Int32Array(n + 1);
  const session = new Int32Array(n);
  const line = new Int32Array(n);
  const ids = new Map<number, number>();
  // A typed buffer sized for every prompt's blocks (grown if a prompt has more): at 1,000 sessions of 100 median
  // turns, 23 million block ids pushed to an array and copied into an Int32Array at the end took 0.1–0.2 s in
  // one call (and the array's own regrowth as long), where no yield could come.
  let expected = 0;
  for (const r of w.requests) expected += Math.ceil(r.inputTokens / blockSize);
  let blocks = new Int32Array(Math.max(16, expected));
  let count = 0;
  let mismatches = 0;
  for (let i = 0; i < n; i++) {
    const r = w.requests[i];
    arrivalS[i] = r.arrivalS;
    inputTokens[i] = r.inputTokens;
    outputTokens[i] = r.outputTokens;
    session[i] = r.session;
    line[i] = i + 1;
    let prev = bySession.get(r.session);
    if (!prev) bySession.set(r.session, (prev = { hasher: new PromptHasher(blockSize), hashes: [], ids: [] }));
    const { hashes } = prev.hasher.hash(r.segments);
    const own: number[] = new Array<number>(hashes.length);
    let shared = 0;
    while (shared < hashes.length && shared < prev.hashes.length && hashes[shared] === prev.hashes[shared]) {
      own[shared] = prev.ids[shared];
      shared++;
    }
    for (let k = shared; k < hashes.length; k++) {
      const h = hashes[k];
      let id = ids.get(h);
      if (id === undefined) {
        id = ids.size;
        ids.set(h, id);
      }
      own[k] = id;
    }
    if (count + own.length > blocks.length) {
      const grown = new Int32Array(Math.max(2 * blocks.length, count + own.length));
      grown.set(blocks.subarray(0, count));
      blocks = grown;
    }
    for (let k = 0; k < own.length; k++) blocks[count++] = own[k];
    prev.hashes = hashes;
    prev.ids = own;
    blockStart[i + 1] = count;
    if (hashes.length !== Math.ceil(r.inputTokens / blockSize)) mismatches++;
    if (pace.due(hashes.length)) yield { done: i + 1, total: n };
  }
  yield { done: n, total: n };
  return {
    format: 'native',
    blockSize,
    count: n,
    arrivalS,
    inputTokens,
    outputTokens,
    blockStart,
    blocks: count === blocks.length ? blocks : blocks.slice(0, count),
    uniqueBlocks: ids.size,
    session,
    sessions: w.sessions,
    line,
    lengthMismatches: mismatches,
  };
}

/**
 * A request table written as a Mooncake-format trace (one JSON object per line: `timestamp` in whole ms,
 * `input_length`, `output_length`, `hash_ids`), block ids as in the table (dense, first-seen order, as the
 * released Mooncake traces remap theirs). Rows in table order.
 */
export function toMooncakeJsonl(t: RequestTable): string {
  const lines: string[] = [];
  for (let i = 0; i < t.count; i++) {
    const ids: number[] = [];
    for (let k = t.blockStart[i]; k < t.blockStart[i + 1]; k++) ids.push(t.blocks[k]);
    lines.push(
      `{"timestamp": ${Math.round(t.arrivalS[i] * 1000)}, "input_length": ${t.inputTokens[i]}, "output_length": ${t.outputTokens[i]}, "hash_ids": [${ids.join(', ')}]}`,
    );
  }
  return lines.join('\n') + '\n';
}

/** The sample trace shipped at public/traces/agent-mix.mooncake.jsonl (scripts/make-sample-trace.ts writes it). */
export const SAMPLE_TRACE_OPTIONS: WorkloadOptions = { mix: 'mix', sessions: 24, seed: 7, medianTurns: 20 };

export function sampleTraceText(): string {
  return toMooncakeJsonl(workloadTable(generateWorkload(SAMPLE_TRACE_OPTIONS)));
}
