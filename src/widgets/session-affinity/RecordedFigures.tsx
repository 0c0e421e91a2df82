/**
 * Inline figures of lesson 07.02 on the shipped recorded trajectory (SWE-agent, marshmallow-1867), computed in the
 * worker by the replay widget's own method at the widget's defaults, so prose and widget never disagree.
 */
import { InlineFigure } from '../kit/InlineFigure';
import { useSimulation } from '../kit/useSimulation';
import { formatCount, formatDuration, formatPercent, formatTokens } from '../../lib/format';
import type { AffinityPolicy } from '../../sim/lessons/affinity';
import type { RecordedTrajectoryRequest } from '../../worker/recordedTrajectoryMethods';
import { affinityReplaySchema as s } from './schema';

/** The replay widget's defaults (its schema), as the prose quotes them. */
export const RECORDED_DEFAULTS: RecordedTrajectoryRequest = {
  modelId: s.model.default,
  acceleratorId: s.accelerator.default,
  gpus: s.gpus.default,
  replicas: s.replicas.default,
  routing: s.routing.default as RecordedTrajectoryRequest['routing'],
  seed: s.seed.default,
  blockSize: Number(s.blockSize.default),
};

export type RecordedWhat =
  | 'turns'
  | 'firstPrompt'
  | 'lastPrompt'
  | 'toolS'
  | 'hitRate'
  | 'turnHitRate'
  | 'rePrefilled'
  | 'extraS'
  | 'dropped'
  | 'coldTurns'
  | 'firstRewrite';

/**
 * One figure of the recorded trajectory. `session`: 1 = as SWE-agent sent it, 2 = the same steps with the full
 * history. `policy`: the request-level routing of the widget's default (round-robin) or session affinity.
 */
export function Recorded({
  what,
  session = 1,
  policy = 'session-affinity',
  turn = 0,
}: {
  what: RecordedWhat;
  session?: number;
  policy?: AffinityPolicy;
  turn?: number;
}) {
  const sim = useSimulation('recordedTrajectory', RECORDED_DEFAULTS);
  const r = sim.result?.replays[session - 1];
  const summary = sim.result?.sessions[session - 1];
  if (!r || !summary) return <InlineFigure value={null} failed={sim.status === 'error'} />;
  const run = policy === 'session-affinity' ? r.affinity : r.request;
  const row = run.rows[turn];
  let text: string;
  switch (what) {
    case 'turns':
      text = formatCount(summary.turns);
      break;
    case 'firstPrompt':
      text = formatTokens(summary.firstPromptTokens);
      break;
    case 'lastPrompt':
      text = formatTokens(summary.lastPromptTokens);
      break;
    case 'toolS':
      text = formatDuration(summary.toolS, 2);
      break;
    case 'hitRate':
      text = formatPercent(run.totals.hitRate);
      break;
    case 'turnHitRate':
      text = row ? formatPercent(row.hitRate) : '—';
      break;
    case 'rePrefilled':
      text = formatTokens(run.totals.rePrefilledTokens);
      break;
    case 'extraS':
      text = formatDuration(run.totals.extraS);
      break;
    case 'dropped':
      text = row ? formatTokens(row.droppedTokens) : '—';
      break;
    case 'coldTurns':
      text = formatCount(run.totals.coldTurns);
      break;
    case 'firstRewrite': {
      const k = run.rows.findIndex((x) => x.droppedTokens > 0);
      text = k < 0 ? 'no turn' : String(k);
      break;
    }
  }
  return (
    <InlineFigure
      value={text}
      title={`${summary.id}, ${policy}, ${r.replicas} replicas, ${r.modelName} on ${r.gpus} × ${r.acceleratorName}, computed by the replay`}
    />
  );
}
