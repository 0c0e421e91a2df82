/**
 * Lesson 07.06, widget 2: the pause-policy arena. The fleet simulator runs one replica (Qwen3-32B on 2 × H100,
 * 500 GB host DRAM) serving a closed loop of agents under each pause policy (hold, LRU, write-through to DRAM,
 * offload, evict, TTL then offload, TTL then evict). PCIe traffic is counted per block copy sent (the KV cache's
 * tiers are inclusive: a block already in DRAM is not sent again). The chosen policy's run comes first and is drawn as soon as it is done: where the
 * KV sits over time, stacked by the state of its session; the others stream in behind it, into the trade-off
 * chart (idle HBM against resume TTFT) and the comparison table. Computed in the worker (pauseArena).
 */
import { useMemo } from 'react';
import { useStreamingSimulation } from '../kit/useSimulation';
import { streamProgress, useCancelToShown } from '../kit/JobProgress';
import { useWidgetParams } from '../kit/useWidgetParams';
import { WidgetFrame } from '../kit/WidgetFrame';
import { paramsFrame, streamingFrame } from '../kit/frameProps';
import { TryThis, type TryItem } from '../kit/TryThis';
import type { PauseRun } from '../../sim/lessons/pauseLab';
import {
  PAUSE_DURATION_S,
  PAUSE_POLICIES,
  PAUSE_POLICY_LABELS,
  TOOL_PRESET_LABELS,
  type PausePolicyId,
} from '../../sim/lessons/pauseLabSetup';
import { arenaSetup } from './arenaData';
import type { PauseArenaRequest } from '../../worker/pauseMethods';
import { ArenaHierarchy } from './ArenaHierarchy';
import { ArenaReadouts } from './ArenaReadouts';
import { arenaExportRow, dramMaxGB, trackJson } from './arenaData';
import { OccupancyChart } from './OccupancyChart';
import { PolicyTable } from './PolicyTable';
import { PAUSE_ARENA_ID, pauseArenaSchema } from './schema';
import { TradeOffChart } from './TradeOffChart';
import './tool-pause.css';

// The lesson's figures import it from the widget.

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-06 checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Switch from hold to evict: the red band of pinned idle sessions disappears, and the resume TTFT jumps
        from a fraction of a second to seconds, because every resume now recomputes its context.
      </>
    ),
    set: { policy: 'evict' },
    highlight: 'resume-ttft-p50',
  },
  {
    text: (
      <>
        Compare “Offload to DRAM” with “Write through to DRAM, LRU” in the table: both keep every context in
        DRAM, but offloading reloads it on every resume, while writing through copies each block down once and
        leaves the sessions in HBM while there is room.
      </>
    ),
    set: { policy: 'write-through' },
    highlight: 'pcie',
  },
  {
    text: (
      <>
        Pick “TTL, then offload” and slide τ from 0.1 s to 60 s: the share of resumes found in HBM follows the
        closed form F(τ), and the pinned band grows with it. Where does the TTFT stop improving?
      </>
    ),
    set: { policy: 'ttl-offload', ttlS: 60 },
    highlight: 'arena-in-hbm',
  },
  {
    text: (
      <>
        Raise the agents to 16: HBM fills up, held sessions are released under pressure, and hold, LRU and TTL
        start to look alike.
      </>
    ),
    set: { agents: 16 },
    highlight: 'arena-in-hbm',
  },
  {
    text: (
      <>
        Then choose the human in the loop: pauses of minutes leave the replica nearly idle, so LRU resumes as
        fast as holding with nothing pinned, and a TTL of seconds catches almost no resume. Holding buys
        nothing.
      </>
    ),
    set: { agents: 16, tool: 'human' },
    highlight: 'resume-ttft-p50',
  },
];
export function arenaArgs(v: {
  policy: string;
  ttlS: number;
  tool: string;
  agents: number;
  seed: number;
}): PauseArenaRequest {
  return {
    policy: v.policy as PausePolicyId,
    ttlS: v.ttlS,
    tool: v.tool as PauseArenaRequest['tool'],
    agents: v.agents,
    seed: v.seed,
  };
}

export function PauseArena() {
  const params = useWidgetParams(PAUSE_ARENA_ID, pauseArenaSchema);
  const v = params.values;
  const args = useMemo(() => arenaArgs(v), [v]);
  const sim = useStreamingSimulation('pauseArena', args);
  const r = sim.result;
  const final = r && !sim.stale ? r : null;
  const partial = sim.frames;
  const runs: PauseRun[] = final ? final.runs : partial.length ? partial : (r?.runs ?? []);
  const byPolicy = new Map(runs.map((x) => [x.summary.policy, x]));
  const selected = byPolicy.get(args.policy) ?? (final ? final.selected : null) ?? r?.selected ?? null;
  const selectedIsCurrent = selected?.summary.policy === args.policy;
  const running = !final;
  // ≈2.6 s at the controls' maxima under load (docs/reliability.md): the kit's progress line and Cancel.
  const progress = streamProgress(sim, PAUSE_POLICIES.length, 'Simulating each pause policy', 'policies');
  const cancel = useCancelToShown(params, final !== null);
  const frame = streamingFrame(sim, selected !== null, selectedIsCurrent);
  const bpb = selected?.bytesPerBlock ?? 0;
  const ordered = PAUSE_POLICIES.map((p) => byPolicy.get(p)).filter((x): x is PauseRun => Boolean(x));

  return (
    <WidgetFrame
      {...frame}
      {...paramsFrame(params)}
      id={PAUSE_ARENA_ID}
      title="Pause policy arena: hold, write through, offload, evict or time-to-live"
      progress={progress}
      onCancel={cancel}
      exportData={() => ({
        rows: ordered.map((x) => arenaExportRow(x.summary, bpb)),
        json: {
          parameters: v,
          runs: ordered.map((x) => ({
            summary: x.summary,
            hbmCapacityBlocks: x.hbmCapacityBlocks,
            track: trackJson(x),
          })),
        },
      })}
      readouts={
        selected ? (
          <ArenaReadouts
            s={selected.summary}
            bpb={bpb}
            budget={selected.hbmCapacityBlocks * bpb}
            closedForm={args.policy.startsWith('ttl') ? final?.closedFormInHbm : undefined}
          />
        ) : null
      }
      caption={
        <>
          One replica of {arenaSetup.replica} (BF16, {arenaSetup.blockTokens}-token blocks) with{' '}
          {PAUSE_DURATION_S / 60} minutes of {args.agents} agents in flight, each a session of{' '}
          {arenaSetup.turns} turns on an {arenaSetup.sharedPrompt} shared prompt, calling{' '}
          {TOOL_PRESET_LABELS[args.tool].toLowerCase()} between turns; host DRAM {arenaSetup.dram} over{' '}
          {arenaSetup.hostLinks} PCIe Gen5 links. Top: where every KV block sits over the run, by the state of
          its session. Bottom: every policy on the same workload.
          {running ? ` Computing: ${runs.length} of ${PAUSE_POLICIES.length} policies so far.` : ''}
        </>
      }
      tryThis={<TryThis items={TRY_THIS} />}
      more={
        // The rest of the picture; on a phone it follows the controls, which follow the occupancy chart.
        selected ? (
          <div className="tool-pause-charts">
            <ArenaHierarchy args={args} />
            <TradeOffChart ordered={ordered} bytesPerBlock={bpb} current={args.policy} />
            <PolicyTable runs={byPolicy} bytesPerBlock={bpb} current={args.policy} ttlS={args.ttlS} />
          </div>
        ) : null
      }
    >
      {selected ? (
        <OccupancyChart
          track={selected.track}
          bytesPerBlock={bpb}
          capacityBlocks={selected.hbmCapacityBlocks}
          dramMaxGB={final ? dramMaxGB(final.runs) : undefined}
          title={`Where the KV sits over time under “${PAUSE_POLICY_LABELS[selected.summary.policy]}”: HBM and host DRAM by session state`}
        />
      ) : null}
    </WidgetFrame>
  );
}
