/**
 * Lesson 07.02, widget 1: replay one agent trajectory over R replicas with session affinity on or off
 * (off = round-robin or random per request). Per turn: the replica, what it found in its prefix cache, the
 * tokens prefilled again, TTFT; a cold turn's extra TTFT spelled out as tokens × per-token prefill time.
 * Computed in the worker (affinityReplay: the fleet simulator, both policies); the transport steps through
 * the turns, and the picture is a function of (result, turn).
 */
import { useEffect, useMemo } from 'react';
import { LineChart } from '../kit/charts/LineChart';
import type { Marker } from '../kit/charts/types';
import { ParamControls } from '../kit/controls/ParamControls';
import { useTraceLoader } from '../kit/traces/useTraceLoader';
import { TransportBar } from '../kit/controls/TransportBar';
import { useTransport } from '../kit/controls/useTransport';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { WidgetFrame } from '../kit/WidgetFrame';
import { usePreferences } from '../../app/services';
import { formatCount, formatNumber, formatTokens } from '../../lib/format';
import {
  AFFINITY_REPLAY_ID,
  affinityReplayArgs,
  affinityReplaySchema,
  SHIPPED_TRAJECTORY_PATH,
} from './schema';
import { lowerSeries, policyNames, replayExportRows, replayPolicies, turnAt } from './replayData';
import { ReplayReadouts } from './ReplayReadouts';
import { TraceSessionPicker } from './TraceSessionPicker';
import { TrajectoryChart } from './TrajectoryChart';
import { Recorded } from './RecordedFigures';
import { TryThis, type TryItem } from '../kit/TryThis';
import { TourTransport } from '../kit/TourTransport';
import { TourMark } from '../kit/TourMark';
import './session-affinity.css';
import { durationAxis } from '../kit/charts/scales';

/**
 * "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-02-try-this and
 * tests/lesson-07-02 check their claims). The first three read the recorded trace, the rest the synthetic
 * trajectory, so each says which it sets; times are turns (the transport counts them from 0).
 */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        On the recorded trajectory, switch session affinity on: turns 1 to 5 find everything the session
        computed before. From turn 6 the hit rate falls anyway: SWE-agent replaced an old tool result with a
        one-line stub, so no replica holds the prompt past it.
      </>
    ),
    set: { source: 'trace', affinity: true },
    time: 6,
    highlight: 'turn-hit-rate',
  },
  {
    text: (
      <>
        Pick session 2, the same run with its full history: every turn extends the previous one, so affinity
        finds everything the session computed before. At turn 8, where session 1 found only{' '}
        <Recorded what="turnHitRate" turn={8} /> of its prompt, it finds{' '}
        <Recorded what="turnHitRate" turn={8} session={2} />.
      </>
    ),
    set: { source: 'trace', session: 2, affinity: true },
    time: 8,
    highlight: 'turn-hit-rate',
  },
  { text: <>Load a native trace of your own (docs/traces.md) and pick its longest session.</> },
  {
    text: (
      <>
        On the synthetic trajectory, switch session affinity on: every turn after the first lands warm, the
        re-prefilled tokens drop to zero and TTFT stays under a fifth of a second.
      </>
    ),
    set: { source: 'synthetic', affinity: true },
    highlight: 're-prefilled',
  },
  {
    text: (
      <>
        With affinity off, raise the replicas from 4 to 16: under round-robin the first 15 turns land on
        replicas that have never seen the session, each paying for its whole context again. How does the extra
        TTFT grow from turn to turn?
      </>
    ),
    set: { source: 'synthetic', replicas: 16 },
    time: 15,
    highlight: 'cold-extra',
  },
  {
    text: (
      <>
        Pick random routing and change the seed: sometimes a turn lands on its previous replica by luck
        (probability 1/R), and is warm.
      </>
    ),
    set: { source: 'synthetic', routing: 'random', seed: 2 },
    highlight: 'hit-rate',
  },
];

/** Controls of the synthetic trajectory only. */
const SYNTHETIC_ONLY = new Set(['turns', 'toolResultTokens']);

export function AffinityReplay() {
  const params = useWidgetParams(AFFINITY_REPLAY_ID, affinityReplaySchema);
  const v = params.values;
  const fromTrace = v.source === 'trace';
  // The trace comes through 07.01's loader: the shipped SWE-agent trajectory unless the learner gives a file.
  const trace = useTraceLoader('traceSessions', SHIPPED_TRAJECTORY_PATH);
  const { load, loadSample } = trace;
  useEffect(() => {
    if (fromTrace && load.state === 'idle') void loadSample();
  }, [fromTrace, load.state, loadSample]);
  const list = load.state === 'ready' ? load.result : null;
  // The rank the schema admits, within the sessions this trace has.
  const rank = list ? Math.min(v.session, list.sessions.length) : v.session;
  const picked = useMemo(
    () => (list ? { summary: list.sessions[rank - 1], text: list.texts[rank - 1] } : null),
    [list, rank],
  );
  const args = useMemo(
    () =>
      fromTrace && !picked
        ? null
        : affinityReplayArgs(
            v,
            fromTrace && picked ? { id: picked.summary.id, text: picked.text } : undefined,
          ),
    [fromTrace, picked, v],
  );
  const sim = useSimulation('affinityReplay', args);
  const traceFailed = fromTrace && load.state === 'error';
  const r = sim.result;
  const reduced = usePreferences((s) => s.motion) === 'reduced';
  const turns = r?.turns ?? v.turns;
  const transport = useTransport({
    duration: Math.max(1, turns - 1),
    rate: 3,
    step: 1,
    reducedMotion: reduced,
  });

  const policies = useMemo(
    () => (r ? replayPolicies(r, v.affinity, v.routing) : null),
    [r, v.affinity, v.routing],
  );
  const { shownName, otherName } = policyNames(v.affinity, v.routing);
  const cur = turnAt(policies?.shown ?? null, transport.t);
  const lower = useMemo(() => (policies ? lowerSeries(policies, v.lower) : []), [policies, v.lower]);
  const markers: Marker[] = policies ? [{ kind: 'x', x: cur, label: `turn ${cur}`, tone: 'muted' }] : [];

  return (
    <WidgetFrame
      id={AFFINITY_REPLAY_ID}
      title="Replay one trajectory over R replicas"
      status={traceFailed ? 'error' : sim.status}
      error={
        traceFailed
          ? `The trace could not be used (${load.name}: ${load.message}). Load another file, or the shipped trajectory.`
          : sim.error
      }
      onRetry={traceFailed ? () => void loadSample() : sim.retry}
      stale={sim.stale}
      cannotRun={sim.cannotRun}
      fixFields={{ modelId: 'model' }}
      corrected={params.corrected}
      onReset={() => {
        params.reset();
        transport.seek(0);
      }}
      onKeyDown={transport.handleKey}
      controls={
        <>
          <ParamControls params={params} only={['source']} />
          {fromTrace ? (
            <TraceSessionPicker
              load={load}
              onFile={trace.loadFile}
              onSample={() => void loadSample()}
              onClear={trace.clear}
              session={v.session}
              rank={rank}
              onSession={(x) => params.set('session', x)}
            />
          ) : null}
          <ParamControls
            params={params}
            only={(Object.keys(affinityReplaySchema) as (keyof typeof affinityReplaySchema)[]).filter(
              (k) => k !== 'source' && k !== 'session' && (!fromTrace || !SYNTHETIC_ONLY.has(k)),
            )}
          />
        </>
      }
      transport={<TransportBar transport={transport} format={(t) => `turn ${Math.floor(t + 1e-9)}`} />}
      exportData={() => ({
        rows: r ? replayExportRows(r) : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && policies && policies.shown.rows[cur] ? (
          <ReplayReadouts r={r} policies={policies} cur={cur} />
        ) : null
      }
      caption={
        r && r.source === 'trace' && r.session ? (
          <>
            {r.modelName} on {r.gpus} × {r.acceleratorName} per replica, {r.replicas} replica
            {r.replicas > 1 ? 's' : ''}, the session alone on the fleet. Session {r.session.id}: {r.turns}{' '}
            turns, its prompt growing from {formatTokens(r.session.promptTokens[0])} to{' '}
            {formatTokens(r.session.promptTokens[r.turns - 1])}, replayed closed-loop with its recorded tool
            times. The engine reuses a prefix in whole blocks of {formatTokens(r.blockSize)}, as far as the
            prompt's content matches what the replica computed.{' '}
            {r.turns < r.requestedTurns
              ? `The ${formatTokens(r.maxContext)} context window holds ${r.turns} of its ${r.requestedTurns} turns. `
              : ''}
            Shown: {shownName}; the lower chart compares it with {otherName}. Click a turn, or use the
            transport, to step through the trajectory.
          </>
        ) : r ? (
          <>
            {r.modelName} on {r.gpus} × {r.acceleratorName} per replica, {r.replicas} replica
            {r.replicas > 1 ? 's' : ''}, the session alone on the fleet. Its prompt starts at{' '}
            {formatTokens(r.shape.systemTokens + r.shape.toolSchemaTokens + r.shape.taskTokens)} (system
            prompt, tool schemas, task) and grows by{' '}
            {formatTokens(r.shape.outputTokens + r.shape.toolResultTokens)} a turn (the output and the tool
            result). The engine reuses a prefix in whole blocks of {formatTokens(r.blockSize)}.{' '}
            {r.turns < r.requestedTurns
              ? `The ${formatTokens(r.maxContext)} context window holds ${r.turns} turns of it. `
              : ''}
            Shown: {shownName}; the lower chart compares it with {otherName}. Click a turn, or use the
            transport, to step through the trajectory.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
      more={
        r && policies ? (
          <LineChart
            title={
              v.lower === 'ttft'
                ? `Time to first token per turn, ${shownName} against ${otherName}`
                : `Tokens re-prefilled, cumulative, ${shownName} against ${otherName}`
            }
            series={lower}
            x={{ label: 'Turn', format: (t) => formatNumber(t), domain: [0, Math.max(1, r.turns - 1)] }}
            y={
              v.lower === 'ttft'
                ? durationAxis('TTFT', { unit: 's', digits: 2, zero: true })
                : {
                    label: 'Re-prefilled, cumulative',
                    unit: 'tokens',
                    format: (t) => formatCount(t),
                    zero: true,
                  }
            }
            markers={markers}
            aspect={0.34}
          />
        ) : null
      }
    >
      <TourTransport transport={transport} />
      {/* Both panels (replica per turn, the prompt's tokens), which lesson 07.02's tour highlights. The lower chart
          (TTFT or re-prefill per turn) is `more`: on a phone it follows the controls. */}
      {r && policies ? (
        <TourMark id="trajectory">
          <TrajectoryChart
            run={policies.shown}
            compare={policies.other}
            compareLabel={otherName}
            replicas={r.replicas}
            current={cur}
            onPick={(t) => {
              transport.pause();
              transport.seek(t);
            }}
            title={`Trajectory of ${r.turns} turns over ${r.replicas} replicas, ${shownName}: replica of each turn and where each prompt's tokens came from`}
            description="Top: the replica that served each turn, by what it found (warm, older prefix, cold, first turn). Bottom: each turn's prompt split into tokens reused from the cache, re-prefilled and new."
          />
        </TourMark>
      ) : null}
    </WidgetFrame>
  );
}
