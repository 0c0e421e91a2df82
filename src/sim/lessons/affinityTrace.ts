/**
 * Lesson 07.02 on a recorded trajectory: one session picked from a native (`sal-trace`) trace, replayed alone over
 * R replicas by the fleet simulator, as `replayTrajectory` does for the lesson's synthetic one.
 *
 * A real agent's prompt is not always a pure extension of the previous one (SWE-agent's `last_n_observations`
 * history processor, for one, rewrites an old tool result every turn), so what a turn "computed before" is not the
 * previous prompt and output: it is the longest prefix of the turn's own blocks that any earlier turn computed
 * (`knownBeforeTurns`, from the trace's content segments hashed as the fleet hashes them). The rows then split
 * each prompt into reused, re-prefilled (computed before, on another replica) and new tokens, and count the tokens
 * the previous turn computed that are no longer a prefix (`TurnRow.droppedTokens`).
 *
 * Pure and deterministic; no DOM.
 */
import { segmentBlockHashes } from '../engine/kvcache/hash';
import { readNative, type NativeTurn } from '../engine/trace/native';
import { detectFormat } from '../engine/trace/table';
import type { TraceIssue } from '../engine/trace/errors';
import { runScenarioSync } from '../engine/fleet/run';
import { resolveScenario, type Scenario } from '../engine/fleet/scenario';
import {
  affinityFleet,
  holdingsBeforeTurns,
  trajectoryRows,
  trajectoryTotals,
  type AffinityPolicy,
  type HardwareChoice,
  type ReplayRun,
} from './affinity';

/** Sessions the picker lists (the longest first); a trace with more keeps only these in memory. */
export const SESSION_PICKER_MAX = 50;

/** The trace cannot serve the replay (the reason is worded for the learner). */
export class TraceSessionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceSessionError';
  }
}

export interface TraceSessionSummary {
  id: string;
  turns: number;
  firstPromptTokens: number;
  lastPromptTokens: number;
  /** Σ prompt tokens over the turns. */
  promptTokens: number;
  outputTokens: number;
  /** Turns whose output makes a tool call with a recorded duration, and their total, s. */
  toolCalls: number;
  toolS: number;
}

export interface TraceSessions {
  /** At most SESSION_PICKER_MAX sessions: most turns first, then in file order. */
  sessions: TraceSessionSummary[];
  /** The session's own trace (native JSONL, times from 0), one per listed session, same order. */
  texts: string[];
  totalSessions: number;
  turns: number;
  errors: TraceIssue[];
  errorCount: number;
}

/** One session's turns as a native trace of its own: `append` where a prompt extends the previous context. */
export function sessionTraceText(turns: readonly NativeTurn[]): string {
  const lines = [JSON.stringify({ format: 'sal-trace', version: 1 })];
  const t0 = turns.length ? turns[0].t : 0;
  let context: NativeTurn['input'] = [];
  for (const x of turns) {
    const extends_ =
      context.length > 0 &&
      x.input.length >= context.length &&
      context.every((s, i) => s.id === x.input[i].id && s.tokens === x.input[i].tokens);
    const prompt = extends_ ? { append: x.input.slice(context.length) } : { input: x.input };
    lines.push(
      JSON.stringify({
        session: x.session,
        turn: x.turn,
        t: Math.max(0, x.t - t0),
        ...prompt,
        output: x.output,
        tool: x.tool,
      }),
    );
    context = x.input.concat([x.output]);
  }
  return lines.join('\n') + '\n';
}

/**
 * The sessions of a trace, longest first, each with its own trace text for the replay. Malformed lines are
 * skipped and reported. A Mooncake trace has no sessions: a TraceSessionError says so.
 */
export function listTraceSessions(text: string, max = SESSION_PICKER_MAX): TraceSessions {
  if (detectFormat(text) === 'mooncake')
    throw new TraceSessionError(
      'this is a Mooncake trace: its requests carry no session id, so no session can be picked from it. The replay needs a native (sal-trace) trace, whose lines name their session (docs/traces.md).',
    );
  const read = readNative(text, { onError: 'skip', maxErrors: 100 });
  const bySession = new Map<string, NativeTurn[]>();
  for (const t of read.turns) {
    let list = bySession.get(t.session);
    if (!list) bySession.set(t.session, (list = []));
    list.push(t);
  }
  if (bySession.size === 0)
    throw new TraceSessionError(
      read.errorCount > 0
        ? `no line of the trace could be read (${read.errorCount} malformed; the first: line ${read.errors[0].line}: ${read.errors[0].message})`
        : 'the trace holds no turn',
    );
  const all = [...bySession.entries()].map(([id, turns], order) => {
    turns.sort((a, b) => a.turn - b.turn || a.line - b.line);
    let promptTokens = 0;
    let outputTokens = 0;
    let toolCalls = 0;
    let toolS = 0;
    for (const t of turns) {
      promptTokens += t.inputTokens;
      outputTokens += t.output.tokens;
      if (t.tool) {
        toolCalls++;
        toolS += t.tool.durationS;
      }
    }
    const summary: TraceSessionSummary = {
      id,
      turns: turns.length,
      firstPromptTokens: turns[0].inputTokens,
      lastPromptTokens: turns[turns.length - 1].inputTokens,
      promptTokens,
      outputTokens,
      toolCalls,
      toolS,
    };
    return { summary, turns, order };
  });
  all.sort((a, b) => b.summary.turns - a.summary.turns || a.order - b.order);
  const kept = all.slice(0, Math.max(1, max));
  return {
    sessions: kept.map((s) => s.summary),
    texts: kept.map((s) => sessionTraceText(s.turns)),
    totalSessions: all.length,
    turns: read.turns.length,
    errors: read.errors,
    errorCount: read.errorCount,
  };
}

/**
 * For each turn of one session (in turn order): the tokens of its prompt that some earlier turn computed, as the
 * longest run of its leading full blocks whose chained hashes an earlier turn's prompt and output produced (less
 * that turn's last sampled token, whole blocks only), capped at prompt − 1 as trajectoryRows caps a turn's reuse.
 */
export function knownBeforeTurns(turns: readonly NativeTurn[], blockSize: number): number[] {
  const computed = new Set<number>();
  const out: number[] = [];
  for (const x of turns) {
    const prompt = segmentBlockHashes(x.input, blockSize, { fullBlocksOnly: true }).hashes;
    let n = 0;
    while (n < prompt.length && computed.has(prompt[n])) n++;
    out.push(Math.min(n * blockSize, Math.max(0, x.inputTokens - 1)));
    const all = segmentBlockHashes(x.input.concat([x.output]), blockSize).hashes;
    const full = Math.floor((x.inputTokens + x.output.tokens - 1) / blockSize);
    for (let i = 0; i < Math.min(full, all.length); i++) computed.add(all[i]);
  }
  return out;
}

/** The turns of a session, in turn order, that fit the model's context window (prompt and output). */
function turnsWithin(turns: readonly NativeTurn[], maxContext: number): number {
  let n = 0;
  while (n < turns.length && turns[n].inputTokens + turns[n].output.tokens <= maxContext) n++;
  return n;
}

/**
 * The scenario of one recorded session alone on R replicas, replayed closed-loop (each turn when the previous one
 * finished plus its recorded tool time). The cache pages are the engine's blocks, so a prompt that diverges inside
 * a page keeps every block before the divergence, as the engine does (fleet/tails.ts says what coarser pages lose).
 */
export function traceReplayScenario(
  hw: HardwareChoice,
  sessionText: string,
  replicas: number,
  policy: AffinityPolicy,
  seed: number,
  blockSize: number,
  limit?: number,
): Scenario {
  return {
    name: `07.02 replay: a recorded session, ${replicas} replicas, ${policy}`,
    kv: { blockSize, pageTokens: blockSize },
    ...affinityFleet(hw, replicas, policy, seed),
    workload: {
      kind: 'trace',
      format: 'native',
      text: sessionText,
      replay: 'sessions',
      ...(limit === undefined ? {} : { limit }),
    },
    output: { sampleIntervalS: 1e6 },
  };
}

export interface TraceReplayOutput {
  blockSize: number;
  turns: number;
  /** Turns of the session; more than `turns` when the model's context window cut it short. */
  requestedTurns: number;
  runs: ReplayRun[];
  /** Per turn: prompt tokens, output tokens, the recorded tool (null: none). */
  session: { promptTokens: number[]; outputTokens: number[]; tools: (NativeTurn['tool'] | null)[] };
}

/** Replay one recorded session under each policy (same hardware, same seed). */
export function replayTraceSession(
  hwChoice: HardwareChoice,
  sessionText: string,
  replicas: number,
  policies: readonly AffinityPolicy[],
  seed = 1,
  blockSize = 16,
): TraceReplayOutput {
  const read = readNative(sessionText, { onError: 'stop' });
  const ids = new Set(read.turns.map((t) => t.session));
  if (ids.size !== 1)
    throw new TraceSessionError(`the replay takes one session, got ${ids.size}`);
  const all = read.turns.slice().sort((a, b) => a.turn - b.turn || a.line - b.line);
  const probe = resolveScenario(traceReplayScenario(hwChoice, sessionText, replicas, policies[0], seed, blockSize));
  const turns = turnsWithin(all, probe.model.maxContext);
  if (turns === 0)
    throw new TraceSessionError(
      `the session's first turn needs ${all[0].inputTokens + all[0].output.tokens} tokens, more than ${probe.model.name}'s ${probe.model.maxContext}-token context window`,
    );
  const used = all.slice(0, turns);
  const known = knownBeforeTurns(used, probe.engineBlockSize);
  const runs: ReplayRun[] = policies.map((policy) => {
    const sc = traceReplayScenario(
      hwChoice,
      sessionText,
      replicas,
      policy,
      seed,
      blockSize,
      turns < all.length ? turns : undefined,
    );
    const res = runScenarioSync(sc, { includeRequests: true, includeSeries: false });
    const rows = trajectoryRows(res.requests!, probe.engineBlockSize, probe.model, probe.hw, known);
    return {
      policy,
      rows,
      totals: trajectoryTotals(rows),
      holdings: holdingsBeforeTurns(rows, replicas, probe.engineBlockSize),
    };
  });
  return {
    blockSize: probe.engineBlockSize,
    turns,
    requestedTurns: all.length,
    runs,
    session: {
      promptTokens: used.map((t) => t.inputTokens),
      outputTokens: used.map((t) => t.output.tokens),
      tools: used.map((t) => t.tool),
    },
  };
}
