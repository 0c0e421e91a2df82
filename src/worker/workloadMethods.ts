/**
 * Worker methods of lesson 07.01 (the agent workload): one session turn by turn, the shape of many sessions,
 * the figures behind the lesson's table of broken assumptions, and the statistics of a trace loaded from disk.
 * Plain structured-cloneable arguments; pure apart from a small memo of deterministic results.
 */
import {
  assumptionFigures,
  generateTrajectory,
  generateWorkload,
  workloadTable,
  type AssumptionFigures,
  type Trajectory,
  type WorkloadMix,
} from '../sim/lessons/agentWorkload';
import type { ToolLatencyPreset } from '../sim/engine/fleet/dist';
import { trafficShape, sniffFormat, type TrafficShape } from '../sim/lessons/trafficShape';
import { readTraceTable } from '../sim/engine/trace/table';
import { TraceError, type TraceIssue } from '../sim/engine/trace/errors';
import type { JobContext } from './job';
import { MAX_TRACE_BYTES } from './traceLimits';
import {
  readTraceText,
  rejectedTrace,
  TraceRejected,
  type TraceProgress,
  type TraceRequest,
} from './traceInput';

export { MAX_TRACE_BYTES, TraceRejected };
export type { TraceProgress, TraceRequest };

/** Results of deterministic methods, by arguments: the lesson's inline figures all ask for the same run. */
const memo = new Map<string, Promise<unknown>>();
function memoized<T>(key: string, compute: () => T): Promise<T> {
  const hit = memo.get(key);
  if (hit) return hit as Promise<T>;
  const p = Promise.resolve().then(compute);
  memo.set(key, p);
  p.catch(() => memo.delete(key));
  if (memo.size > 16) memo.delete(memo.keys().next().value as string);
  return p;
}

export interface TrajectoryRequest {
  seed: number;
  toolLatency: ToolLatencyPreset;
  medianTurns: number;
}

/** One agent session and one chat session of the same seed (drawn on the same axes). */
function agentTrajectory(req: TrajectoryRequest): { agent: Trajectory; chat: Trajectory } {
  return {
    agent: generateTrajectory('agent', req.seed, {
      toolLatency: req.toolLatency,
      medianTurns: req.medianTurns,
    }),
    chat: generateTrajectory('chat', req.seed),
  };
}

export interface ShapeRequest {
  mix: WorkloadMix;
  sessions: number;
  medianTurns: number;
  seed: number;
}

export interface GeneratedShape {
  shape: TrafficShape;
  figures: AssumptionFigures;
}

function generatedShape(req: ShapeRequest): Promise<GeneratedShape> {
  return memoized(`shape:${req.mix}:${req.sessions}:${req.medianTurns}:${req.seed}`, () => {
    const w = generateWorkload({
      mix: req.mix,
      sessions: req.sessions,
      seed: req.seed,
      medianTurns: req.medianTurns,
    });
    return { shape: trafficShape(workloadTable(w), { format: 'generated' }), figures: assumptionFigures(w) };
  });
}

/** The generated workload's shape (the Traffic shape widget). */
function workloadShape(req: ShapeRequest): Promise<GeneratedShape> {
  return generatedShape(req);
}

/** The figures of the lesson's prose and table: the same run for agents and for chat. */
async function workloadFigures(
  req: Omit<ShapeRequest, 'mix'>,
): Promise<{ agent: GeneratedShape; chat: GeneratedShape }> {
  const agent = await generatedShape({ ...req, mix: 'agent' });
  const chat = await generatedShape({ ...req, mix: 'chat' });
  return { agent, chat };
}

export interface TraceResult {
  name: string;
  bytes: number;
  format: TrafficShape['format'];
  shape: TrafficShape;
  /** Malformed lines, skipped (the first 100 in detail; errorCount counts them all). */
  errors: TraceIssue[];
  errorCount: number;
  /** Milliseconds spent in the worker. */
  ms: number;
}

/** Statistics of a trace from the learner's disk: malformed lines are reported by number and skipped. */
async function traceShape(req: TraceRequest, ctx: JobContext<TraceProgress>): Promise<TraceResult> {
  const t0 = Date.now();
  const { text, size } = await readTraceText(req, ctx);
  let format;
  try {
    format = sniffFormat(text);
  } catch (e) {
    if (e instanceof TraceError) throw rejectedTrace(req.name, e);
    throw e;
  }
  const read = readTraceTable(text, { format, onError: 'skip', maxErrors: 100 });
  await ctx.checkpoint();
  await ctx.emit({ phase: 'statistics', bytes: size });
  const shape = trafficShape(read.table);
  return {
    name: req.name,
    bytes: size,
    format,
    shape,
    errors: read.errors,
    errorCount: read.errorCount,
    ms: Date.now() - t0,
  };
}

export const workloadMethods = {
  agentTrajectory,
  workloadShape,
  workloadFigures,
  traceShape,
};
