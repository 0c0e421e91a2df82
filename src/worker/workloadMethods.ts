/**
 * Worker methods of lesson 07.01 (the agent workload): one session turn by turn, the shape of many sessions,
 * the figures behind the lesson's table of broken assumptions, and the statistics of a trace loaded from disk.
 * Plain structured-cloneable arguments; pure apart from a small memo of deterministic results. The long ones
 * (a generated workload's shape, a trace's statistics) are cooperative: a superseded request stops at a checkpoint.
 */
import { generateWorkloadSteps, workloadTableSteps, type WorkloadMix } from '../sim/lessons/agentWorkload';
import { MOONCAKE_BLOCK_SIZE } from '../sim/engine/trace/mooncake';
import { assumptionFiguresSteps, type AssumptionFigures } from '../sim/lessons/agentWorkloadFigures';
import { generateTrajectory, type Trajectory } from '../sim/lessons/agentSession';
import type { ToolLatencyPreset } from '../sim/engine/fleet/dist';
import { trafficShapeSteps, sniffFormat, type TrafficShape } from '../sim/lessons/trafficShape';
import { finishCooperatively } from '../sim/engine/cooperative';
import { readTraceTable } from '../sim/engine/trace/table';
import { TraceError, type TraceIssue } from '../sim/engine/trace/errors';
import { directContext, type JobContext } from './job';
import { pacedCheckpoint } from './pacedCheckpoint';
import { ProgressFrames, withStage, type JobProgress, type ProgressStage } from './progress';
import { SharedRuns } from './sharedRuns';
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
  /**
   * Tokens per block the prompts are cut into and the ideal cache keeps (default 512, Mooncake's granularity, which
   * the widget shows); lesson 07.01 asks for vLLM's 16 and for 1 (a token-level radix tree) too.
   */
  blockSize?: number;
}

export interface GeneratedShape {
  shape: TrafficShape;
  figures: AssumptionFigures;
}

/** Shapes by arguments: the lesson's inline figures and the widget at its defaults ask for the same run. */
const shapes = new SharedRuns<GeneratedShape>(16);

/** The four stages of a generated workload's shape, as its progress names them. */
const SHAPE_STAGES: readonly Omit<ProgressStage, 'stage' | 'stages'>[] = [
  { label: 'Generating the sessions', unit: 'sessions' },
  { label: 'Cutting the prompts into blocks', unit: 'requests' },
  { label: 'Replaying the requests into an ideal cache', unit: 'requests' },
  { label: 'Summing the figures (three passes over the requests)', unit: 'requests' },
];

/**
 * Cooperative throughout (engine/cooperative.ts): generating (inside a session's turns too), tabulating,
 * replaying and summarising a workload (its sorts included) yield every few ms, so a newer request cancels it
 * there; the yields carry each stage's progress (≈2–5 s at the widget's maxima under load).
 */
function generatedShape(req: ShapeRequest, ctx: JobContext<unknown>): Promise<GeneratedShape> {
  const blockSize = req.blockSize ?? MOONCAKE_BLOCK_SIZE;
  if (!(Number.isInteger(blockSize) && blockSize >= 1))
    return Promise.reject(new RangeError(`blockSize must be a whole number of tokens ≥ 1, got ${blockSize}`));
  const key = `shape:${req.mix}:${req.sessions}:${req.medianTurns}:${req.seed}:${blockSize}`;
  return shapes.run(key, ctx, async (checkpoint) => {
    const at = (i: number) =>
      withStage(checkpoint, { ...SHAPE_STAGES[i], stage: i + 1, stages: SHAPE_STAGES.length });
    const opts = { mix: req.mix, sessions: req.sessions, seed: req.seed, medianTurns: req.medianTurns };
    const w = await finishCooperatively(generateWorkloadSteps(opts), at(0));
    const table = await finishCooperatively(workloadTableSteps(w, blockSize), at(1));
    const shape = await finishCooperatively(trafficShapeSteps(table, { format: 'generated' }), at(2));
    const figures = await finishCooperatively(assumptionFiguresSteps(w), at(3));
    return { shape, figures };
  });
}

/** The generated workload's shape (the Traffic shape widget), with its progress as frames. */
function workloadShape(
  req: ShapeRequest,
  ctx: JobContext<JobProgress> = directContext(),
): Promise<GeneratedShape> {
  return generatedShape(req, ctx);
}

/** The figures of the lesson's prose and table: the same run for agents and for chat. */
async function workloadFigures(
  req: Omit<ShapeRequest, 'mix'>,
  ctx: JobContext = directContext(),
): Promise<{ agent: GeneratedShape; chat: GeneratedShape }> {
  const agent = await generatedShape({ ...req, mix: 'agent' }, ctx);
  const chat = await generatedShape({ ...req, mix: 'chat' }, ctx);
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
  // The statistics' progress rides on the statistics phase's frames (the trace panel shows both).
  const frames = new ProgressFrames((progress) => ctx.emit({ phase: 'statistics', bytes: size, progress }));
  const stage = { label: 'Replaying the requests into an ideal cache', unit: 'requests' };
  const shape = await finishCooperatively(
    trafficShapeSteps(read.table),
    withStage(pacedCheckpoint(ctx, frames.sink), stage),
  );
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
