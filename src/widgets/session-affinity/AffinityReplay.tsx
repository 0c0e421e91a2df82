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
import { Select } from '../kit/controls/Select';
import { TraceFilePanel, TraceIssues } from '../kit/traces/TraceFilePanel';
import { useTraceLoader } from '../kit/traces/useTraceLoader';
import { TransportBar } from '../kit/controls/TransportBar';
import { useTransport } from '../kit/controls/useTransport';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { usePreferences } from '../../app/services';
import {
  formatBytes,
  formatCount,
  formatDuration,
  formatFlops,
  formatNumber,
  formatPercent,
  formatTokens,
} from '../../lib/format';
import type { TurnRow } from '../../sim/lessons/affinity';
import {
  AFFINITY_REPLAY_ID,
  affinityReplayArgs,
  affinityReplaySchema,
  SHIPPED_TRAJECTORY_PATH,
} from './schema';
import { KIND_TEXT, TrajectoryChart } from './TrajectoryChart';
import { TryThis, type TryItem } from '../kit/TryThis';
import { TourTransport } from '../kit/TourTransport';
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
        Pick session 2, the same run with its full history: every turn extends the previous one, and from turn
        8 on affinity finds most of each prompt again.
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

const POLICY_NAME: Record<string, string> = {
  'round-robin': 'round-robin',
  random: 'random',
  'session-affinity': 'session affinity',
};

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

  const shown = r ? (v.affinity ? r.affinity : r.request) : null;
  const other = r ? (v.affinity ? r.request : r.affinity) : null;
  const shownName = v.affinity ? 'session affinity' : POLICY_NAME[v.routing];
  const otherName = v.affinity ? POLICY_NAME[v.routing] : 'session affinity';
  const cur = shown ? Math.max(0, Math.min(shown.rows.length - 1, Math.floor(transport.t + 1e-9))) : 0;
  const row: TurnRow | undefined = shown?.rows[cur];

  // The turn whose extra TTFT is spelled out: the current one if it lost work, else the first that did.
  const focus: TurnRow | undefined = shown
    ? row && row.rePrefilledTokens > 0
      ? row
      : shown.rows.find((x) => x.rePrefilledTokens > 0)
    : undefined;
  const upTo = useMemo(() => {
    if (!shown) return { re: 0, extra: 0, prompt: 0, reused: 0 };
    let re = 0;
    let extra = 0;
    let prompt = 0;
    let reused = 0;
    for (const x of shown.rows.slice(0, cur + 1)) {
      re += x.rePrefilledTokens;
      extra += x.extraS;
      prompt += x.promptTokens;
      reused += x.reusedTokens;
    }
    return { re, extra, prompt, reused };
  }, [shown, cur]);

  const lower = useMemo(() => {
    if (!r) return [];
    const runs = v.affinity ? [r.affinity, r.request] : [r.request, r.affinity];
    const names = v.affinity
      ? ['session affinity', POLICY_NAME[v.routing]]
      : [POLICY_NAME[v.routing], 'session affinity'];
    return runs.map((run, i) => {
      let acc = 0;
      return {
        name: names[i],
        points: run.rows.map((x) => {
          acc += x.rePrefilledTokens;
          return { x: x.turn, y: v.lower === 'ttft' ? x.ttftS : acc };
        }),
      };
    });
  }, [r, v.affinity, v.routing, v.lower]);

  const markers: Marker[] = shown ? [{ kind: 'x', x: cur, label: `turn ${cur}`, tone: 'muted' }] : [];
  const f = r?.formula;

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
            <>
              <TraceFilePanel
                load={load}
                onFile={trace.loadFile}
                onSample={() => void loadSample()}
                onClear={trace.clear}
                fileLabel="Trace file (sal-trace JSONL, up to 200 MiB)"
                sampleLabel="Load the shipped SWE-agent trajectory"
                computingLabel="listing its sessions…"
                renderReady={(result) => (
                  <div className="trace-summary">
                    <p>
                      <strong>{result.name}</strong> ({formatBytes(result.bytes)}):{' '}
                      {formatCount(result.turns)} turns in {formatCount(result.totalSessions)} session
                      {result.totalSessions === 1 ? '' : 's'}
                      {result.totalSessions > result.sessions.length
                        ? `; the ${result.sessions.length} longest are listed`
                        : ''}
                      .
                    </p>
                    <TraceIssues errors={result.errors} errorCount={result.errorCount} />
                  </div>
                )}
              />
              {list ? (
                <Select
                  name="session"
                  spec={{
                    kind: 'select',
                    label: affinityReplaySchema.session.label,
                    default: '1',
                    help: affinityReplaySchema.session.help,
                    options: list.sessions.map((x, i) => ({
                      value: String(i + 1),
                      label: `${i + 1}. ${x.id} (${x.turns} turns, ${formatTokens(x.firstPromptTokens)} → ${formatTokens(x.lastPromptTokens)})`,
                    })),
                  }}
                  value={String(rank)}
                  onChange={(x) => params.set('session', Number(x))}
                />
              ) : null}
              {list && v.session > list.sessions.length ? (
                <p className="control-value" role="note" data-session-clamped>
                  This trace lists {list.sessions.length} session{list.sessions.length === 1 ? '' : 's'}, not{' '}
                  {v.session}: showing the last one.
                </p>
              ) : null}
            </>
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
        rows: r
          ? [r.request, r.affinity].flatMap((run) =>
              run.rows.map((x) => ({
                policy: run.policy,
                session: r.session?.id ?? 'synthetic',
                turn: x.turn,
                replica: x.replica,
                found: x.kind,
                promptTokens: x.promptTokens,
                reusedTokens: x.reusedTokens,
                rePrefilledTokens: x.rePrefilledTokens,
                droppedTokens: x.droppedTokens,
                prefilledTokens: x.prefilledTokens,
                hitRate: x.hitRate,
                ttftS: x.ttftS,
                extraTtftS: x.extraS,
                perTokenPrefillS: x.perTokenS,
              })),
            )
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && shown && other && row ? (
          <>
            <Readout
              label="Hit rate over the trajectory"
              value={
                <span>
                  <span data-readout="hit-rate">{formatPercent(shown.totals.hitRate)}</span>
                  <span className="readout-sub">
                    {otherName}: {formatPercent(other.totals.hitRate)}
                  </span>
                </span>
              }
              formula={`Σ reused / Σ prompt = ${formatCount(shown.totals.reusedTokens)} / ${formatCount(shown.totals.promptTokens)}; turns 0–${cur}: ${formatPercent(upTo.prompt > 0 ? upTo.reused / upTo.prompt : 0)}`}
            />
            <Readout
              label="Tokens re-prefilled"
              value={
                <span>
                  <span data-readout="re-prefilled">{formatTokens(shown.totals.rePrefilledTokens)}</span>
                  <span className="readout-sub">
                    {otherName}: {formatTokens(other.totals.rePrefilledTokens)}
                  </span>
                </span>
              }
              formula={`Σ (computed before − found) = ${formatDuration(shown.totals.extraS)} of extra TTFT in all; turns 0–${cur}: ${formatTokens(upTo.re)}, ${formatDuration(upTo.extra)}`}
            />
            <Readout
              emphasis
              label={
                focus
                  ? `Turn ${focus.turn} lands ${focus.kind === 'cold' ? 'cold' : 'on an older prefix'}: extra TTFT`
                  : 'Extra TTFT of a cold turn'
              }
              value={
                <span data-readout="cold-extra">
                  {focus ? `+${formatDuration(focus.extraS)}` : 'none: no turn lands cold'}
                </span>
              }
              formula={
                focus ? (
                  <>
                    {formatCount(focus.rePrefilledTokens)} tokens × t<sub>tok</sub>(
                    {formatCount(focus.midContext)}) = {formatNumber(focus.rePrefilledTokens)} ×{' '}
                    {formatDuration(focus.perTokenS)}; simulated {formatDuration(focus.ttftS)} against{' '}
                    {formatDuration(r.affinity.rows[focus.turn]?.ttftS)} with affinity
                  </>
                ) : (
                  `every turn finds what the session computed before (${shownName})`
                )
              }
            />
            <Readout
              label="Prefill time per token"
              value={`${formatDuration(f?.perTokenAtZeroS)} + ${formatDuration(f ? f.attentionFlopsPerPair / f.attentionFlops : NaN)} × c`}
              formula={
                f ? (
                  <>
                    t<sub>tok</sub>(c) = 2·P<sub>body</sub> / (G·F·e<sub>GEMM</sub>) + a·(c+1) / (G·F·e
                    <sub>attn</sub>) + β = {formatFlops(f.bodyFlopsPerToken)} / ({r.gpus} ×{' '}
                    {formatFlops(f.peakFlopsPerGpu, true)} × {f.gemmEfficiency}) +{' '}
                    {formatFlops(f.attentionFlopsPerPair)} × (c+1) / ({r.gpus} ×{' '}
                    {formatFlops(f.peakFlopsPerGpu, true)} × {f.attentionEfficiency}) +{' '}
                    {formatDuration(f.allReducePerTokenS)} (β: two all-reduces per layer of one token&apos;s
                    hidden state, 2(G−1)/G × hidden × 2 B over NVLink); each extra prefill chunk also pays{' '}
                    {formatDuration(f.iterationFixedS)} of all-reduce latency and overhead
                  </>
                ) : null
              }
            />
            <Readout
              label={`Turn ${cur} (transport)`}
              value={<span data-readout="turn-ttft">{formatDuration(row.ttftS)}</span>}
              formula={`replica ${row.replica}, ${KIND_TEXT[row.kind]}; ${formatTokens(row.promptTokens)} prompt, ${formatTokens(row.prefilledTokens)} prefilled (${otherName}: TTFT ${formatDuration(other.rows[cur]?.ttftS)})`}
            />
            <Readout
              label={`Turn ${cur}: reused / recomputed`}
              value={
                <span>
                  <span data-readout="turn-hit-rate">{formatPercent(row.hitRate)}</span> hit:{' '}
                  {formatTokens(row.reusedTokens)} / {formatTokens(row.promptTokens - row.reusedTokens)}
                </span>
              }
              formula={`recomputed = ${formatTokens(row.rePrefilledTokens)} computed before, elsewhere + ${formatTokens(row.promptTokens - row.reusedTokens - row.rePrefilledTokens)} new to the session${row.droppedTokens > 0 ? `; the prompt rewrote ${formatTokens(row.droppedTokens)} of what turn ${cur - 1} left computed, so no replica holds them` : ''}`}
            />
          </>
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
    >
      <TourTransport transport={transport} />
      {r && shown && other ? (
        <>
          <TrajectoryChart
            run={shown}
            compare={other}
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
        </>
      ) : null}
    </WidgetFrame>
  );
}
