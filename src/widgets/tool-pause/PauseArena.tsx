/**
 * Lesson 07.06, widget 2: the pause-policy arena. The fleet simulator runs one replica (Qwen3-32B on 2 × H100,
 * 500 GB host DRAM) serving a closed loop of agents under each pause policy (hold, LRU, write-through to DRAM,
 * offload, evict, TTL then offload, TTL then evict). PCIe traffic is counted per block copy sent (the KV cache's
 * tiers are inclusive: a block already in DRAM is not sent again). The chosen policy's run comes first and is drawn as soon as it is done: where the
 * KV sits over time, stacked by the state of its session; the others stream in behind it, into the trade-off
 * chart (idle HBM against resume TTFT) and the comparison table. Computed in the worker (pauseArena).
 */
import { useMemo } from 'react';
import { LineChart } from '../kit/charts/LineChart';
import type { PointMarker } from '../kit/charts/types';
import { useStreamingSimulation } from '../kit/useSimulation';
import { streamProgress, useCancelToShown } from '../kit/JobProgress';
import { ArenaHierarchy } from './ArenaHierarchy';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { paramsFrame, streamingFrame } from '../kit/frameProps';
import { formatBytesDecimal, formatDuration, formatNumber, formatPercent } from '../../lib/format';
import type { PauseRun, PauseSummary } from '../../sim/lessons/pauseLab';
import {
  PAUSE_DURATION_S,
  PAUSE_POLICIES,
  PAUSE_POLICY_LABELS,
  PAUSE_POLICY_SHORT,
  TOOL_PRESET_LABELS,
  type PausePolicyId,
} from '../../sim/lessons/pauseLabSetup';
import type { PauseArenaRequest } from '../../worker/pauseMethods';
import { OccupancyChart } from './OccupancyChart';
import { PAUSE_ARENA_ID, pauseArenaSchema } from './schema';
import { SeparatedFigures } from '../kit/SeparatedFigures';
import { TryThis, type TryItem } from '../kit/TryThis';

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
import './tool-pause.css';

/** Idle sessions' KV in HBM (pinned and cached), bytes; `bpb` = bytes per KV block. */
export function idleHbmBytes(s: PauseSummary, bpb: number): number {
  return (s.idlePinnedBlocks + s.idleCachedBlocks) * bpb;
}

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
  const s = selected?.summary;
  const bpb = selected?.bytesPerBlock ?? 0;
  const budget = selected ? selected.hbmCapacityBlocks * bpb : 0;
  const closedForm = final?.closedFormInHbm;
  const isTtl = args.policy.startsWith('ttl');

  // One DRAM scale for every policy (once all are in), so switching policies compares at a glance.
  let dramMax: number | undefined;
  if (final) {
    let m = 0;
    for (const x of final.runs)
      for (let i = 0; i < x.track.t.length; i++)
        m = Math.max(m, (x.track.dramIdle[i] + x.track.dramOther[i]) * x.bytesPerBlock);
    dramMax = m / 1e9;
  }

  const ordered = PAUSE_POLICIES.map((p) => byPolicy.get(p)).filter((x): x is PauseRun => Boolean(x));
  const tradeSeries = ordered.map((x) => ({
    name: PAUSE_POLICY_SHORT[x.summary.policy],
    points: [{ x: idleHbmBytes(x.summary, bpb) / 1e9, y: x.summary.resumes.ttft.p90 }],
  }));
  // Every policy labelled on the chart itself (legible on a projector); the chosen one in the foreground tone.
  const maxIdle = Math.max(1, ...ordered.map((x) => idleHbmBytes(x.summary, bpb) / 1e9));
  // Of two policies that land close together (LRU and write-through at light load), one takes its label under
  // its point, so neither hides the other: within 15% of the idle-HBM axis and 12% in resume TTFT.
  const tradeMarkers: PointMarker[] = ordered.map((x) => ({
    kind: 'point',
    x: idleHbmBytes(x.summary, bpb) / 1e9,
    y: x.summary.resumes.ttft.p90,
    label: PAUSE_POLICY_SHORT[x.summary.policy],
    tone: x.summary.policy === args.policy ? 'fg' : 'muted',
  }));
  tradeMarkers.forEach((m, i) => {
    const near = (o: PointMarker) =>
      Math.abs(o.x - m.x) < 0.15 * maxIdle && Math.abs(Math.log(o.y / m.y)) < Math.log(1.12);
    const o = tradeMarkers.slice(0, i).find((p) => !p.labelBelow && near(p));
    if (!o) return;
    // The one further right goes under its point (labels run rightwards, so the left one's label is above it).
    if (o.x > m.x) o.labelBelow = true;
    else m.labelBelow = true;
  });
  const ttfts = ordered.map((x) => x.summary.resumes.ttft.p90).filter((t) => t > 0);
  const yLo = Math.min(0.1, ...ttfts) * 0.7;
  const yHi = Math.max(1, ...ttfts) * 1.5;

  const toolLabel = TOOL_PRESET_LABELS[args.tool].toLowerCase();
  const pct = (b: number) => (budget > 0 ? formatPercent(b / budget) : '—');

  return (
    <WidgetFrame
      {...frame}
      {...paramsFrame(params)}
      id={PAUSE_ARENA_ID}
      title="Pause policy arena: hold, write through, offload, evict or time-to-live"
      progress={progress}
      onCancel={cancel}
      exportData={() => ({
        rows: ordered.map((x) => flatten(x.summary, bpb)),
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
        s ? (
          <>
            <Readout
              emphasis
              label="Idle sessions’ KV in HBM (time mean)"
              value={
                <span data-readout="idle-hbm" data-value={idleHbmBytes(s, bpb)}>
                  {formatBytesDecimal(idleHbmBytes(s, bpb))}
                </span>
              }
              formula={`pinned ${formatBytesDecimal(s.idlePinnedBlocks * bpb)} + cached ${formatBytesDecimal(s.idleCachedBlocks * bpb)} = ${pct(idleHbmBytes(s, bpb))} of the ${formatBytesDecimal(budget)} KV budget`}
            />
            <Readout
              emphasis
              label="Resume TTFT, p50 · p90"
              value={
                <SeparatedFigures
                  figures={[
                    <span key="p50" data-readout="resume-ttft-p50" data-value={s.resumes.ttft.p50}>
                      {formatDuration(s.resumes.ttft.p50)}
                    </span>,
                    <span key="p90" data-readout="resume-ttft-p90" data-value={s.resumes.ttft.p90}>
                      {formatDuration(s.resumes.ttft.p90)}
                    </span>,
                  ]}
                />
              }
              formula={`${formatNumber(s.resumes.count, 6)} resumes after a tool call; first turns p50 ${formatDuration(s.firstTtftP50)}`}
            />
            <Readout
              label="Resumes that found their whole context in HBM"
              value={
                <span data-readout="arena-in-hbm" data-value={s.resumes.inHbmShare}>
                  {formatPercent(s.resumes.inHbmShare)}
                </span>
              }
              formula={
                <>
                  context from HBM {formatPercent(s.resumes.source.hbm)}, DRAM{' '}
                  {formatPercent(s.resumes.source.dram)}, recomputed{' '}
                  {formatPercent(s.resumes.source.recomputed)}
                  {isTtl && closedForm !== undefined
                    ? `; closed form F(τ) = ${formatPercent(closedForm)}`
                    : ''}
                </>
              }
            />
            <Readout
              label="PCIe traffic (reloads up · copies to DRAM down)"
              value={
                <span data-readout="pcie" data-value={s.pcieUpBytes + s.pcieDownBytes}>
                  {formatBytesDecimal(s.pcieUpBytes + s.pcieDownBytes)}
                </span>
              }
              formula={`${formatBytesDecimal(s.pcieUpBytes)} up · ${formatBytesDecimal(s.pcieDownBytes)} down in ${formatDuration(s.simulatedS)}, once per block copy`}
            />
            <Readout
              label="Output throughput · goodput"
              value={
                <span>
                  <span data-readout="throughput" data-value={s.outputTokensPerS}>
                    {formatNumber(s.outputTokensPerS)} tok/s
                  </span>{' '}
                  · <span data-readout="goodput">{formatPercent(s.goodputShare)}</span>
                </span>
              }
              formula={`goodput: requests with TTFT ≤ 2 s and TPOT ≤ 100 ms; ${formatPercent(s.prefilledTokens / s.promptTokens)} of prompt tokens prefilled`}
            />
          </>
        ) : null
      }
      caption={
        <>
          One replica of Qwen3-32B on 2 × H100 SXM (BF16, 256-token blocks) with {PAUSE_DURATION_S / 60}{' '}
          minutes of {args.agents} agents in flight, each a session of 10–30 turns on an 8k-token shared
          prompt, calling {toolLabel} between turns; host DRAM 500 GB over two PCIe Gen5 links. Top: where
          every KV block sits over the run, by the state of its session. Bottom: every policy on the same
          workload.
          {running ? ` Computing: ${runs.length} of ${PAUSE_POLICIES.length} policies so far.` : ''}
        </>
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {selected ? (
        <div className="tool-pause-charts">
          <OccupancyChart
            track={selected.track}
            bytesPerBlock={bpb}
            capacityBlocks={selected.hbmCapacityBlocks}
            dramMaxGB={dramMax}
            title={`Where the KV sits over time under “${PAUSE_POLICY_LABELS[selected.summary.policy]}”: HBM and host DRAM by session state`}
          />
          <ArenaHierarchy args={args} />
          <LineChart
            title="Every policy: idle sessions’ KV in HBM against resume TTFT p90"
            series={tradeSeries}
            x={{
              label: 'Idle sessions’ KV in HBM',
              unit: 'GB',
              domain: [0, maxIdle * 1.15],
              format: (g) => formatNumber(g),
              zero: true,
            }}
            y={{
              label: 'Resume TTFT p90',
              unit: 's',
              scale: 'log',
              domain: [yLo, yHi],
              format: (t) => formatDuration(t, 2),
            }}
            markers={tradeMarkers}
            legend={false}
            points
            aspect={0.42}
          />
          <div className="table-scroll">
            <table className="compare-table" data-table="policies">
              <caption>Every policy on the same workload and seed (time means over the run).</caption>
              <thead>
                <tr>
                  <th scope="col">Policy</th>
                  <th scope="col">Idle KV: HBM · DRAM</th>
                  <th scope="col">Resumes in HBM</th>
                  <th scope="col">Resume TTFT p50 · p90</th>
                  <th scope="col">PCIe traffic</th>
                  <th scope="col">Output · goodput</th>
                </tr>
              </thead>
              <tbody>
                {PAUSE_POLICIES.map((p) => {
                  const x = byPolicy.get(p)?.summary;
                  const cur = p === args.policy;
                  return (
                    <tr
                      key={p}
                      data-policy={p}
                      aria-current={cur ? 'true' : undefined}
                      className={cur ? 'is-current' : undefined}
                    >
                      <th scope="row">
                        {PAUSE_POLICY_SHORT[p]}
                        {p.startsWith('ttl') ? ` (τ = ${formatDuration(args.ttlS, 2)})` : ''}
                      </th>
                      {x ? (
                        <>
                          <td data-label="Idle KV: HBM · DRAM">
                            <SeparatedFigures
                              figures={[
                                formatBytesDecimal(idleHbmBytes(x, bpb)),
                                formatBytesDecimal(x.idleDramBlocks * bpb),
                              ]}
                            />
                          </td>
                          <td data-label="Resumes in HBM">{formatPercent(x.resumes.inHbmShare)}</td>
                          <td data-label="Resume TTFT p50 · p90">
                            <SeparatedFigures
                              figures={[
                                formatDuration(x.resumes.ttft.p50),
                                formatDuration(x.resumes.ttft.p90),
                              ]}
                            />
                          </td>
                          <td data-label="PCIe traffic" className="nw">
                            {formatBytesDecimal(x.pcieUpBytes + x.pcieDownBytes)}
                          </td>
                          <td data-label="Output · goodput">
                            <SeparatedFigures
                              figures={[
                                `${formatNumber(x.outputTokensPerS)} tok/s`,
                                formatPercent(x.goodputShare),
                              ]}
                            />
                          </td>
                        </>
                      ) : (
                        <td colSpan={5} className="pending" aria-busy="true">
                          computing…
                        </td>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}
    </WidgetFrame>
  );
}

function flatten(s: PauseSummary, bpb: number) {
  return {
    policy: s.policy,
    ttlS: s.ttlS ?? '',
    idleHbmPinnedGB: (s.idlePinnedBlocks * bpb) / 1e9,
    idleHbmCachedGB: (s.idleCachedBlocks * bpb) / 1e9,
    idleDramGB: (s.idleDramBlocks * bpb) / 1e9,
    hbmUsedGB: (s.hbmUsedBlocks * bpb) / 1e9,
    resumes: s.resumes.count,
    resumesInHbm: s.resumes.inHbmShare,
    contextFromHbm: s.resumes.source.hbm,
    contextFromDram: s.resumes.source.dram,
    contextRecomputed: s.resumes.source.recomputed,
    resumeTtftP50S: s.resumes.ttft.p50,
    resumeTtftP90S: s.resumes.ttft.p90,
    resumeTtftP99S: s.resumes.ttft.p99,
    pcieUpGB: s.pcieUpBytes / 1e9,
    pcieDownGB: s.pcieDownBytes / 1e9,
    outputTokensPerS: s.outputTokensPerS,
    goodputShare: s.goodputShare,
    prefilledTokens: s.prefilledTokens,
    promptTokens: s.promptTokens,
  };
}

function trackJson(x: PauseRun) {
  const t = x.track;
  return {
    t: Array.from(t.t),
    hbmActive: Array.from(t.hbmActive),
    hbmIdlePinned: Array.from(t.hbmIdlePinned),
    hbmIdleCached: Array.from(t.hbmIdleCached),
    hbmDone: Array.from(t.hbmDone),
    dramIdle: Array.from(t.dramIdle),
    dramOther: Array.from(t.dramOther),
  };
}
