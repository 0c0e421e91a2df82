/**
 * Lesson 07.02's figures on the shipped recorded trajectory (public/traces/swe-agent-marshmallow-1867.jsonl,
 * bundled as text so the prose and the tests read the same bytes the widget fetches): its sessions, and each
 * replayed under request-level routing and session affinity by the same method the widget calls. Memoized per
 * worker: every inline figure asks for the same run.
 */
import shippedTrajectory from '../../public/traces/swe-agent-marshmallow-1867.jsonl?raw';
import { listTraceSessions, type TraceSessionSummary } from '../sim/lessons/affinityTrace';
import { isCannotRun } from '../sim/engine/cannotRun';
import { affinityMethods, type AffinityReplayRequest, type AffinityReplayResponse } from './affinityMethods';

export const SHIPPED_TRAJECTORY_TEXT: string = shippedTrajectory;

export type RecordedTrajectoryRequest = Omit<AffinityReplayRequest, 'session' | 'turns' | 'toolResultTokens'>;

export interface RecordedTrajectoryResponse {
  sessions: TraceSessionSummary[];
  /** One replay per listed session, in the picker's order (1 = the longest). */
  replays: AffinityReplayResponse[];
}

const memo = new Map<string, RecordedTrajectoryResponse>();

function recordedTrajectory(req: RecordedTrajectoryRequest): RecordedTrajectoryResponse {
  const key = JSON.stringify(req);
  const hit = memo.get(key);
  if (hit) return hit;
  const list = listTraceSessions(SHIPPED_TRAJECTORY_TEXT);
  const replays = list.sessions.map((s, i) => {
    const r = affinityMethods.affinityReplay({
      ...req,
      turns: 2,
      toolResultTokens: 0,
      session: { id: s.id, text: list.texts[i] },
    });
    // The prose's figures run on the lesson's own hardware, which fits; a setting that does not is a bug here.
    if (isCannotRun(r)) throw new Error(r.reason);
    return r;
  });
  const out = { sessions: list.sessions, replays };
  if (memo.size > 8) memo.delete(memo.keys().next().value as string);
  memo.set(key, out);
  return out;
}

export const recordedTrajectoryMethods = { recordedTrajectory };
