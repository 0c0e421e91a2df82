/**
 * Trajectory anatomy (lesson 07.01): one session laid out turn by turn. Per turn, the tokens already seen (the
 * prompt's common prefix with the previous turn's full context, which an agent's prompt starts with whole), the
 * new input and the output; below, the session on a time axis with the model's work and the tool calls (or
 * the human) in between. Agent and chat are drawn on the same token axis. Computed in the worker (method agentTrajectory) from the fleet's workload generator.
 */
import { useMemo } from 'react';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import { formatDuration, formatNumber, formatPercent, formatRatio, formatTokens } from '../../lib/format';
import { TRAJECTORY_ID, trajectoryArgs, trajectorySchema } from './schema';
import { SessionTimeline, TurnColumns } from './TrajectoryCharts';
import { TryThis, type TryItem } from '../kit/TryThis';
import { TourMark } from '../kit/TourMark';
import './trajectory-anatomy.css';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-01 checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Switch <em>Session</em> to Chat: on the same axes the columns shrink to slivers and ρ drops by well
        over an order of magnitude, while the gaps between turns grow from fractions of a second to a minute
        and more.
      </>
    ),
    set: { kind: 'chat' },
    highlight: 'io-ratio',
  },
  {
    text: (
      <>
        Raise the median turns to 80: every turn re-sends a longer context, so Σ I grows roughly with the
        square of the turns while Σ O grows linearly, and ρ climbs.
      </>
    ),
    set: { medianTurns: 80 },
    highlight: 'io-ratio',
  },
  {
    text: (
      <>
        Set the tool latency to Human approval: the model&apos;s work stays the same, but the session&apos;s
        wall time stretches from minutes to days. Whatever holds its KV cache holds it that long.
      </>
    ),
    set: { toolLatency: 'human' },
    highlight: 'wall-time',
  },
];

export function TrajectoryAnatomy() {
  const params = useWidgetParams(TRAJECTORY_ID, trajectorySchema);
  const v = params.values;
  const args = useMemo(() => trajectoryArgs(v), [v]);
  const sim = useSimulation('agentTrajectory', args);
  const r = sim.result;
  const kind = v.kind === 'chat' ? 'chat' : 'agent';
  const shown = r ? r[kind] : null;
  const tot = shown?.totals;

  const { xMax, yMax } = useMemo(() => {
    if (!r || !shown) return { xMax: 1, yMax: 1 };
    const peak = (t: typeof shown) => Math.max(1, ...t.turns.map((k) => k.promptTokens + k.outputTokens));
    return v.sameAxes
      ? {
          xMax: Math.max(r.agent.turns.length, r.chat.turns.length),
          yMax: Math.max(peak(r.agent), peak(r.chat)),
        }
      : { xMax: shown.turns.length, yMax: peak(shown) };
  }, [r, shown, v.sameAxes]);

  const waitLabel = kind === 'agent' ? 'Tool call wait' : 'Human think wait';
  const other = r ? r[kind === 'agent' ? 'chat' : 'agent'].totals : null;

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={TRAJECTORY_ID}
      title="Trajectory anatomy: one session, turn by turn"
      exportData={() => ({
        rows: shown
          ? shown.turns.map((t) => ({
              session: kind,
              turn: t.turn + 1,
              promptTokens: t.promptTokens,
              reusedTokens: t.reusedTokens,
              newTokens: t.newTokens,
              outputTokens: t.outputTokens,
              prefixShare: t.prefixShare,
              startS: t.startS,
              prefillS: t.prefillS,
              decodeS: t.decodeS,
              gap: t.gapKind,
              gapS: t.gapS,
            }))
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        tot && shown ? (
          <>
            <Readout
              emphasis
              label="Input : output ratio ρ, this session"
              value={<span data-readout="io-ratio">{formatRatio(tot.ioRatio)}</span>}
              formula={
                <>
                  ρ = Σ I<sub>k</sub> / Σ O<sub>k</sub> = {formatTokens(tot.inputTokens)} /{' '}
                  {formatTokens(tot.outputTokens)}
                  {other
                    ? ` (${kind === 'agent' ? 'chat' : 'agent'}, same seed: ${formatRatio(other.ioRatio)})`
                    : ''}
                </>
              }
            />
            <Readout
              emphasis
              label="Share of the prompt that repeats the previous context"
              value={
                <span data-readout="prefix-share">
                  {tot.prefixShare === null ? '— (one turn)' : formatPercent(tot.prefixShare)}
                </span>
              }
              formula={
                <>
                  s = Σ<sub>k≥2</sub> r<sub>k</sub> / Σ<sub>k≥2</sub> I<sub>k</sub>, r<sub>k</sub> = common
                  prefix of prompt<sub>k</sub> and prompt
                  <sub>k−1</sub> ‖ output<sub>k−1</sub>
                </>
              }
            />
            <Readout
              label="Turns; last prompt"
              value={
                <>
                  <span data-readout="turns">{tot.turns}</span> turns; {formatTokens(tot.lastPromptTokens)}
                </>
              }
              formula={`Σ I = ${formatTokens(tot.inputTokens)} sent, of which only Σ n = ${formatTokens(tot.newTokens)} new (${formatRatio(tot.newTokens > 0 ? tot.inputTokens / tot.newTokens : NaN)} less prefill with the prefix cached)`}
            />
            <Readout
              label="Model busy / session wall time"
              value={
                // The pair is one read-out: the item it serves compares the two (work stays, wall time grows).
                <span data-readout="wall-time">
                  {formatDuration(tot.modelS)} / {formatDuration(tot.wallS)}
                </span>
              }
              formula={`${formatPercent(tot.wallS > 0 ? tot.modelS / tot.wallS : NaN)} on the model; ${formatDuration(tot.gapS)} waiting on ${kind === 'agent' ? 'tools' : 'the human'} (${shown.timing})`}
            />
          </>
        ) : null
      }
      caption={
        shown && r ? (
          <>
            Top: one {shown.className} session (seed {formatNumber(shown.seed)}), each column a model call:
            the part of its prompt the previous turn already held (solid), what is new (hatched:{' '}
            {kind === 'agent'
              ? 'the tool result, and on turn 1 the whole head'
              : 'the user’s message, and on turn 1 the system prompt'}
            ), and the output (lined).{' '}
            {v.sameAxes ? 'Agent and chat share the token axis.' : 'The token axis fits this session alone.'}{' '}
            Bottom: the same session against wall-clock time (its own scale): the model’s prefill and decode,
            then the {kind === 'agent' ? 'tool call' : 'human thinking'} before the next turn. Times are for{' '}
            {shown.timing}, the earlier context still cached.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {shown ? (
        <div className="trajectory-figures">
          {/* Marks a tour step can highlight (lesson 07.01's tour: the lower chart's step). */}
          <TourMark id="turn-columns">
            <TurnColumns
              turns={shown.turns}
              xMax={xMax}
              yMax={yMax}
              title={`Tokens per turn of one ${shown.className} session: reused prefix, new input, output`}
            />
          </TourMark>
          <TourMark id="session-timeline">
            <SessionTimeline
              turns={shown.turns}
              waitLabel={waitLabel}
              title={`The ${shown.className} session on a time axis: model work and ${kind === 'agent' ? 'tool calls' : 'human think time'}`}
            />
          </TourMark>
        </div>
      ) : null}
    </WidgetFrame>
  );
}
