/**
 * Trace replay: Mooncake and native (`sal-trace`) traces, read with src/sim/engine/trace, turned into requests for
 * the fleet (docs/traces.md describes both formats).
 *
 *  - Mooncake records carry chained block hashes (512-token blocks): the fleet's block size must match. The
 *    output's blocks get fresh hashes chained after the prompt's.
 *  - Native turns carry content segments, hashed with the fleet's block size like generated workloads.
 * Replay modes: `timestamps` (every request at its recorded time, open loop) or `sessions` (a session's first
 * turn at its recorded time, each later turn when the previous one finished plus its recorded tool duration, or
 * the recorded gap between the two turns when there is no tool call): the trace's agents re-run closed-loop
 * against the simulated fleet.
 */
import { chainHash, segmentBlockHashes } from '../kvcache/hash';
import { readMooncake, readNative, type MooncakeRequest } from '../trace/index';
import type { TraceWorkload } from './scenario';
import { SEG, segId, type RequestSpec } from './workload';

export interface TraceTurn {
  /** Session index (native), or −1 (Mooncake: requests are independent). */
  session: number;
  turn: number;
  /** Arrival time, s (time-scaled, from 0). */
  t: number;
  spec: RequestSpec;
  /** Seconds between this turn's end and the session's next request (sessions replay). */
  gapS: number;
}

export interface LoadedTrace {
  format: 'mooncake' | 'native';
  turns: TraceTurn[];
  sessions: number;
  /** For each session, the indices of its turns in `turns`, in turn order. */
  bySession: number[][];
  errorCount: number;
  firstErrors: string[];
}

export class TraceLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceLoadError';
  }
}

function mooncakeTurns(reqs: MooncakeRequest[], bs: number): TraceTurn[] {
  return reqs.map((rec, i) => {
    const input = Math.max(1, rec.inputLength);
    const output = Math.max(1, rec.outputLength);
    const nIn = Math.ceil(input / bs);
    // Shift ids by one so none equals the root hash 0; they stay chained (equal ids = equal prefixes).
    const hashes = rec.hashIds.slice(0, nIn).map((h) => h + 1);
    let parent = hashes.length ? hashes[hashes.length - 1] : 0;
    // A partial last prompt block is a different block once the output fills it: give it a fresh hash.
    if (input % bs !== 0 && hashes.length === nIn) {
      parent = chainHash(nIn > 1 ? hashes[nIn - 2] : 0, segId(SEG.trace, i, nIn - 1));
      hashes[nIn - 1] = parent;
    }
    const total = Math.ceil((input + output) / bs);
    for (let k = hashes.length; k < total; k++) {
      parent = chainHash(parent, segId(SEG.trace, i, k));
      hashes.push(parent);
    }
    const spec: RequestSpec = {
      segments: [],
      promptTokens: input,
      outputTokens: output,
      outputSegmentId: 0,
      schemaId: -1,
      turn: 0,
      hashes,
    };
    return { session: -1, turn: 0, t: rec.timestampMs / 1000, spec, gapS: 0 };
  });
}

/** Read and prepare a trace workload. `text` (JSONL) or `records` (Mooncake objects) must be present. */
export function loadTrace(w: TraceWorkload, blockSize: number): LoadedTrace {
  const scale = w.timeScale ?? 1;
  let turns: TraceTurn[];
  let errorCount = 0;
  let firstErrors: string[] = [];
  let sessions = 0;
  if (w.format === 'mooncake') {
    let reqs: MooncakeRequest[];
    if (w.records) {
      reqs = w.records.map((r, i) => ({
        line: i + 1,
        timestampMs: r.timestamp,
        inputLength: r.input_length,
        outputLength: r.output_length,
        hashIds: r.hash_ids,
      }));
    } else if (typeof w.text === 'string') {
      const res = readMooncake(w.text, { onError: w.onError ?? 'stop' });
      reqs = res.requests;
      errorCount = res.errorCount;
      firstErrors = res.errors.slice(0, 5).map((e) => `line ${e.line}: ${e.message}`);
    } else
      throw new TraceLoadError(
        'a Mooncake trace workload needs "records" or the file\'s "text" (the command line reads "path")',
      );
    if (w.limit) reqs = reqs.slice(0, w.limit);
    turns = mooncakeTurns(reqs, blockSize);
  } else {
    if (typeof w.text !== 'string')
      throw new TraceLoadError(
        'a native trace workload needs the file\'s "text" (the command line reads "path")',
      );
    const res = readNative(w.text, { onError: w.onError ?? 'stop' });
    errorCount = res.errorCount;
    firstErrors = res.errors.slice(0, 5).map((e) => `line ${e.line}: ${e.message}`);
    let nt = res.turns;
    if (w.limit) nt = nt.slice(0, w.limit);
    const ids = new Map<string, number>();
    turns = nt.map((x) => {
      let s = ids.get(x.session);
      if (s === undefined) ids.set(x.session, (s = ids.size));
      const outId = segId(SEG.out, s, x.turn);
      // Keep the trace's output id so a later turn that includes it (via append or input) matches it.
      const out = { id: x.output.id, tokens: x.output.tokens };
      const hashSegments = x.input.concat(out);
      const hashes = segmentBlockHashes(hashSegments, blockSize).hashes;
      const spec: RequestSpec = {
        segments: x.input,
        promptTokens: Math.max(1, x.inputTokens),
        outputTokens: Math.max(1, x.output.tokens),
        outputSegmentId: outId,
        schemaId: -1,
        turn: x.turn,
        hashes,
        hashSegments,
      };
      return { session: s, turn: x.turn, t: x.t, spec, gapS: x.tool ? x.tool.durationS : -1 };
    });
    sessions = ids.size;
  }
  // Arrival order (stable among equal times), times from 0, scaled.
  const order = turns.map((_, i) => i).sort((a, b) => turns[a].t - turns[b].t || a - b);
  turns = order.map((i) => turns[i]);
  const t0 = turns.length ? turns[0].t : 0;
  for (const x of turns) x.t = (x.t - t0) * scale;
  const bySession: number[][] = Array.from({ length: sessions }, () => []);
  turns.forEach((x, i) => {
    if (x.session >= 0) bySession[x.session].push(i);
  });
  // Without a tool call, the gap to the next turn is the recorded one (a human's reply time, roughly).
  for (const list of bySession) {
    list.sort((a, b) => turns[a].turn - turns[b].turn || a - b);
    for (let k = 0; k < list.length; k++) {
      const x = turns[list[k]];
      if (x.gapS < 0) x.gapS = k + 1 < list.length ? Math.max(0, turns[list[k + 1]].t - x.t) : 0;
      else x.gapS *= scale;
    }
  }
  return { format: w.format, turns, sessions, bySession, errorCount, firstErrors };
}
