/**
 * Worker methods of lesson 07.02 (session affinity): one trajectory replayed over R replicas, the fleet view
 * (hit rate and TTFT against R, streamed point by point), and the cold-turn cost of the exercise. Plain
 * structured-cloneable arguments (catalog ids); every figure comes from src/sim (cost.ts, the fleet simulator).
 */
import { asRefusal, BadRequest, within } from './badRequest';
import { replicaHardware } from './replicaHardware';
import { prefillFormula, type PrefillFormula } from './prefillFormula';
import { BLOCK_SIZE } from './limits/common';
import { limit } from '../sim/engine/limits';
import {
  AFFINITY_LIMITS,
  coldTurnExtra,
  DEFAULT_TRAJECTORY,
  replayTrajectory,
  SWEEP_REPLICAS,
  type AffinityPolicy,
  type ReplayRun,
  type RequestRouting,
  type TrajectoryShape,
} from '../sim/lessons/affinity';
import { affinitySweepPoint, type SweepPoint } from '../sim/lessons/affinitySweep';
import { resolveNode } from '../sim/engine/catalog/index';
import type { ModelSpec } from '../sim/engine/catalog/models';
import { perTokenPrefillTime, type HardwareConfig } from '../sim/engine/cost';
import { ReplicaCannotRun, ScenarioError } from '../sim/engine/fleet/scenario';
import type { CannotRun } from '../sim/engine/cannotRun';
import { TraceError } from '../sim/engine/trace/errors';
import { TraceLoadError } from '../sim/engine/fleet/trace';
import {
  listTraceSessions,
  replayTraceSession,
  TraceSessionError,
  type TraceSessions,
} from '../sim/lessons/affinityTrace';
import type { JobContext } from './job';
import { sweepOrder } from '../lib/progressive';
import { PointMemo, runSweep, type SweepTask } from './pointMemo';

/** The fleet sweep's points by their inputs (pointMemo.ts). */
const affinityMemo = new PointMemo<SweepPoint>();
import {
  readTraceText,
  rejectedTrace,
  TraceRejected,
  type TraceProgress,
  type TraceRequest,
} from './traceInput';

/** Core errors about the request's values as BadRequests; a replica too small to run the model goes back as it is. */
function wrap<T>(f: () => T): T {
  return asRefusal(f, (e) => {
    if (e instanceof ReplicaCannotRun) return undefined;
    if (e instanceof ScenarioError) return e.errors.map((x) => x.message).join('; ');
    if (e instanceof TraceSessionError || e instanceof TraceLoadError) return e.message;
    if (e instanceof TraceError) return `the session's trace, ${e.message}`;
    return undefined;
  });
}

/** The cold-turn exercise's prompt; the cached part is at most one token short of it. */
const COLD_PROMPT = limit('the prompt', 1, 10_000_000, { integer: true, unit: 'tokens' });

/** The cold turn's formula: the replica's prefill constants and t_tok(0), the first token's cost. */
export interface ColdTurnFormula extends PrefillFormula {
  perTokenAtZeroS: number;
}

function formulaOf(model: ModelSpec, hw: HardwareConfig): ColdTurnFormula {
  return { ...prefillFormula(model, hw), perTokenAtZeroS: perTokenPrefillTime(model, hw, 0) };
}

// ───────────────────────────── replay ─────────────────────────────

export interface AffinityReplayRequest {
  modelId: string;
  acceleratorId: string;
  gpus: number;
  replicas: number;
  /** The request-level policy compared with session affinity. */
  routing: RequestRouting;
  turns: number;
  toolResultTokens: number;
  seed: number;
  /** The engine's block size, tokens: the unit of prefix reuse (default 16, vLLM's). */
  blockSize?: number;
  /**
   * A recorded session to replay instead of the synthetic trajectory: its own native trace (one of the texts
   * `traceSessions` returns) and its id. `turns` and `toolResultTokens` then do not apply.
   */
  session?: { id: string; text: string };
}

export interface AffinityReplayResponse {
  modelName: string;
  acceleratorName: string;
  gpus: number;
  replicas: number;
  blockSize: number;
  turns: number;
  requestedTurns: number;
  maxContext: number;
  /** What was replayed: the synthetic trajectory's shape, or the recorded session's per-turn figures. */
  source: 'synthetic' | 'trace';
  shape: TrajectoryShape;
  session: {
    id: string;
    promptTokens: number[];
    outputTokens: number[];
    tools: ({ name: string; durationS: number } | null)[];
  } | null;
  /** The request-level run (round-robin or random). */
  request: ReplayRun;
  /** The same trajectory under session affinity. */
  affinity: ReplayRun;
  formula: ColdTurnFormula;
}

/** A replica that cannot run (no room for KV) is an outcome the widget draws, not an error. */
function orCannotRun<T>(f: () => T): T | CannotRun {
  try {
    return f();
  } catch (e) {
    if (e instanceof ReplicaCannotRun) return e.outcome;
    throw e;
  }
}

async function orCannotRunAsync<T>(f: () => Promise<T>): Promise<T | CannotRun> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof ReplicaCannotRun) return e.outcome;
    throw e;
  }
}

function affinityReplay(req: AffinityReplayRequest): AffinityReplayResponse | CannotRun {
  return orCannotRun(() => replayOnce(req));
}

function replayOnce(req: AffinityReplayRequest): AffinityReplayResponse {
  const { model, accelerator, hw } = replicaHardware(req.modelId, req.acceleratorId, req.gpus);
  if (req.routing !== 'round-robin' && req.routing !== 'random')
    throw new BadRequest(`routing must be "round-robin" or "random", got ${String(req.routing)}`);
  const shape: TrajectoryShape = {
    ...DEFAULT_TRAJECTORY,
    turns: within(AFFINITY_LIMITS.turns, req.turns),
    toolResultTokens: within(AFFINITY_LIMITS.toolResultTokens, req.toolResultTokens),
  };
  const replicas = within(AFFINITY_LIMITS.replicas, req.replicas);
  const blockSize = req.blockSize === undefined ? undefined : within(BLOCK_SIZE, req.blockSize);
  const choice = { model: model.id, accelerator: accelerator.id, tp: hw.tp };
  // One replay, from the learner's trace session or the synthetic trajectory; one response shape for both.
  const session = req.session;
  const trace = session
    ? wrap(() =>
        replayTraceSession(
          choice,
          session.text,
          replicas,
          [req.routing, 'session-affinity'],
          req.seed,
          blockSize,
        ),
      )
    : null;
  const out =
    trace ??
    wrap(() =>
      replayTrajectory(
        { model: model.id, accelerator: accelerator.id, tp: hw.tp },
        shape,
        replicas,
        [req.routing, 'session-affinity'],
        req.seed,
        blockSize,
      ),
    );
  return {
    modelName: model.name,
    acceleratorName: accelerator.name,
    gpus: hw.tp,
    replicas,
    blockSize: out.blockSize,
    turns: out.turns,
    requestedTurns: out.requestedTurns,
    maxContext: model.maxContext,
    source: session ? 'trace' : 'synthetic',
    shape: { ...shape, turns: out.turns },
    session: session && trace ? { id: session.id, ...trace.session } : null,
    request: out.runs[0],
    affinity: out.runs[1],
    formula: formulaOf(model, hw),
  };
}

// ───────────────────────────── a trace's sessions ─────────────────────────────

export interface TraceSessionsResult extends TraceSessions {
  name: string;
  bytes: number;
  /** Milliseconds spent in the worker. */
  ms: number;
}

/** The sessions of a trace from the learner's disk (or the shipped one), longest first, for the replay's picker. */
async function traceSessions(
  req: TraceRequest,
  ctx: JobContext<TraceProgress>,
): Promise<TraceSessionsResult> {
  const t0 = Date.now();
  const { text, size } = await readTraceText(req, ctx);
  let list: TraceSessions;
  try {
    list = listTraceSessions(text);
  } catch (e) {
    if (e instanceof TraceError) throw rejectedTrace(req.name, e);
    if (e instanceof TraceSessionError) throw new TraceRejected(`${req.name}: ${e.message}`);
    throw e;
  }
  await ctx.emit({ phase: 'statistics', bytes: size });
  return { ...list, name: req.name, bytes: size, ms: Date.now() - t0 };
}

// ───────────────────────────── fleet sweep ─────────────────────────────

export interface AffinitySweepRequest {
  modelId: string;
  acceleratorId: string;
  gpus: number;
  agentsPerReplica: number;
  routing: RequestRouting;
  seed: number;
}

export interface AffinitySweepResponse {
  modelName: string;
  acceleratorName: string;
  gpus: number;
  agentsPerReplica: number;
  routing: RequestRouting;
  /** Points sorted by replicas, then policy. */
  points: SweepPoint[];
}

function affinitySweep(
  req: AffinitySweepRequest,
  ctx: JobContext<SweepPoint>,
): Promise<AffinitySweepResponse | CannotRun> {
  return orCannotRunAsync(() => sweepOnce(req, ctx));
}

async function sweepOnce(
  req: AffinitySweepRequest,
  ctx: JobContext<SweepPoint>,
): Promise<AffinitySweepResponse> {
  const { model, accelerator, hw } = replicaHardware(req.modelId, req.acceleratorId, req.gpus);
  if (req.routing !== 'round-robin' && req.routing !== 'random')
    throw new BadRequest(`routing must be "round-robin" or "random", got ${String(req.routing)}`);
  const agents = within(AFFINITY_LIMITS.agentsPerReplica, req.agentsPerReplica);
  const choice = { model: model.id, accelerator: accelerator.id, tp: hw.tp };
  // Coarse to fine over the fleet sizes (lib/progressive.ts), points already computed for the same inputs
  // first (pointMemo.ts): a step of one control reruns only what it changes.
  const policies: AffinityPolicy[] = ['session-affinity', req.routing];
  const tasks: SweepTask<SweepPoint>[] = [];
  for (const r of SWEEP_REPLICAS)
    for (const policy of policies) {
      // With one replica every policy sends every request to it: one run, whatever the policy.
      const runAs: AffinityPolicy = r === 1 ? policies[0] : policy;
      tasks.push({
        key: JSON.stringify([choice, agents, req.seed, r, runAs]),
        run: async (checkpoint) => {
          try {
            return await affinitySweepPoint(
              choice,
              { agentsPerReplica: agents },
              r,
              runAs,
              req.seed,
              checkpoint,
            );
          } catch (e) {
            if (e instanceof ScenarioError && !(e instanceof ReplicaCannotRun))
              throw new BadRequest(e.errors.map((x) => x.message).join('; '));
            throw e;
          }
        },
      });
    }
  const order = sweepOrder(SWEEP_REPLICAS.length, policies.length).map(
    (c) => c.x * policies.length + c.series,
  );
  // Each task's point under its own policy (R = 1 shares one run between them).
  const asPolicy = (p: SweepPoint, i: number): SweepPoint =>
    p.policy === policies[i % policies.length] ? p : { ...p, policy: policies[i % policies.length] };
  const points = await runSweep(tasks, order, affinityMemo, ctx, asPolicy);
  points.sort((a, b) => a.replicas - b.replicas || a.policy.localeCompare(b.policy));
  return {
    modelName: model.name,
    acceleratorName: accelerator.name,
    gpus: hw.tp,
    agentsPerReplica: agents,
    routing: req.routing,
    points,
  };
}

// ───────────────────────────── the exercise ─────────────────────────────

export interface ColdTurnRequest {
  modelId: string;
  /** A node from the catalog (its accelerator and GPU count), or an accelerator and a GPU count. */
  nodeId?: string;
  acceleratorId?: string;
  gpus?: number;
  promptTokens: number;
  /** Tokens the warm replica holds (the previous turn's context). */
  cachedTokens: number;
}

export interface ColdTurnResponse {
  modelName: string;
  hardwareName: string;
  gpus: number;
  promptTokens: number;
  cachedTokens: number;
  /** prefillTime(P, 0): the cold replica prefills everything. */
  coldS: number;
  /** prefillTime(P − K, K): the warm replica prefills the new tokens only. */
  warmS: number;
  /** coldS − warmS. */
  extraS: number;
  /** t_tok at the middle of the K re-prefilled positions, and K · t_tok(c̄). */
  perTokenS: number;
  midContext: number;
  approxS: number;
  formula: ColdTurnFormula;
}

function coldTurnCost(req: ColdTurnRequest): ColdTurnResponse {
  const { model, hw, hardwareName } = wrap(() => {
    if (req.nodeId) {
      const node = resolveNode(req.nodeId);
      const h = replicaHardware(req.modelId, node.accelerator, node.gpuCount);
      return { ...h, hardwareName: node.name };
    }
    const h = replicaHardware(req.modelId, req.acceleratorId ?? '', req.gpus ?? 1);
    return { ...h, hardwareName: `${h.hw.tp} × ${h.accelerator.name}` };
  });
  const P = within(COLD_PROMPT, req.promptTokens);
  const K = within(
    limit('the cached part of the prompt', 0, P - 1, { integer: true, unit: 'tokens' }),
    req.cachedTokens,
  );
  const c = coldTurnExtra(model, hw, P, K);
  return {
    modelName: model.name,
    hardwareName,
    gpus: hw.tp,
    promptTokens: P,
    cachedTokens: K,
    ...c,
    formula: formulaOf(model, hw),
  };
}

export const affinityMethods = { affinityReplay, affinitySweep, coldTurnCost, traceSessions };
