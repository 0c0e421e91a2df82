/**
 * Lessons 07.04 and 07.06: the KV hierarchy, animated. One replica's HBM, host DRAM, local NVMe and a remote pool
 * drawn to scale of their capacity in pages; every page of KV a mark, coloured by the session that last used it
 * (the sessions' shared head grey with a ring), hollow while it is being computed. The fleet simulator's frames
 * (worker method kvHierarchyRun, streamed) say where every copy is; layout.ts keeps each copy in its cell from
 * frame to frame and moves a copy that changes tier, so a write-through, an offload, a promotion or an eviction
 * is seen as a mark flying, appearing or shrinking. The picture is a function of (run, t).
 */
import { useMemo } from 'react';
import { ParamControls } from '../kit/controls/ParamControls';
import { TransportBar } from '../kit/controls/TransportBar';
import { useTransport } from '../kit/controls/useTransport';
import { useStreamingSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { useChartSize } from '../kit/charts/useChartSize';
import { usePreferences } from '../../app/services';
import { formatBytesDecimal, formatCount, formatPercent, formatTokens } from '../../lib/format';
import type { FleetFrame } from '../../sim/engine/fleet/frames';
import { belowHbmShare, type HierarchyArgs } from '../../sim/lessons/hierarchyLab';
import { HierarchyCanvas } from './HierarchyCanvas';
import { PhaseStrip } from './PhaseStrip';
import {
  assignSlots,
  capacitiesOf,
  ease,
  stepAt,
  TIER_COUNT,
  TIER_LABELS,
  tierGeometry,
  transition,
} from './layout';
import { sessionPhases } from './phases';
import { KV_HIERARCHY_ID, kvHierarchySchema } from './schema';
import './kv-hierarchy.css';

/** Simulated seconds per wall-clock second at 1×: the 240 s run plays in 30 s. */
const PLAY_RATE = 8;

/** Where every number of the tier table comes from: frame k's cumulative counters (frames.ts). */
export function tierRows(f: FleetFrame) {
  return Array.from({ length: TIER_COUNT }, (_, t) => ({
    tier: t,
    name: TIER_LABELS[t],
    usedPages: f.replicas.kvUsed[t],
    capacityPages: f.replicas.kvCapacity[t],
    tokens: f.replicas.kvTokens[t],
    hitTokens: f.replicas.hitTokens[t],
    bytesDown: f.replicas.bytesDown[t],
    bytesUp: f.replicas.bytesUp[t],
  })).filter((r) => r.capacityPages > 0 || r.tier === 0);
}

export function KvHierarchy({ id = KV_HIERARCHY_ID, title }: { id?: string; title?: string }) {
  const params = useWidgetParams(id, kvHierarchySchema);
  const v = params.values;
  const args = useMemo<HierarchyArgs>(
    () => ({
      modelId: v.modelId as HierarchyArgs['modelId'],
      sessions: v.sessions,
      policy: v.policy as HierarchyArgs['policy'],
      tool: v.tool as HierarchyArgs['tool'],
      hbmGB: v.hbmGB,
      dramGB: v.dramGB,
      nvmeGB: v.nvmeGB,
      poolGB: v.poolGB,
      seed: 1,
    }),
    [v.modelId, v.sessions, v.policy, v.tool, v.hbmGB, v.dramGB, v.nvmeGB, v.poolGB],
  );
  const sim = useStreamingSimulation('kvHierarchyRun', args);
  const r = sim.result;
  const ready = sim.status === 'ready' && r !== null && sim.frames.length === r.frames;
  const frames = ready ? sim.frames : null;
  const reduced = usePreferences((s) => s.motion) === 'reduced';

  const shared = useMemo(() => new Set(r?.sharedHashes ?? []), [r]);
  const marks = useMemo(() => (frames ? assignSlots(frames, shared) : null), [frames, shared]);
  const times = useMemo(() => (frames ? frames.map((f) => f.t) : []), [frames]);
  const phases = useMemo(() => (frames ? sessionPhases(frames) : null), [frames]);
  const duration = times.length ? times[times.length - 1] : 0;
  const transport = useTransport({
    duration,
    rate: PLAY_RATE,
    step: r?.frameIntervalS ?? 1,
    autoplay: true,
    reducedMotion: reduced,
  });

  const { observe, width } = useChartSize({ aspect: 0.5, minHeight: 260, maxHeight: 420 });
  const caps = useMemo(() => (frames && frames.length ? capacitiesOf(frames[0]) : [0, 0, 0, 0]), [frames]);
  const geometry = useMemo(() => tierGeometry(caps, width, width < 500 ? 520 : 400, 12), [caps, width]);

  const { k, frac } = stepAt(times, transport.t);
  const last = frames ? frames.length - 1 : -1;
  const stepTr = useMemo(() => {
    if (!marks || k < 0) return null;
    // Step k → k + 1; on the last frame, the frame alone at rest.
    return k < last ? transition(marks[k], marks[k + 1]) : transition(null, marks[k]);
  }, [marks, k, last]);
  const progress = k < last ? ease(frac) : 0;
  // Counters read from the frame the picture is nearest to (the one it is resting at or arriving at).
  const shownFrame = frames ? frames[Math.min(last, progress >= 1 ? k + 1 : k)] : null;
  const rows = shownFrame ? tierRows(shownFrame) : [];
  const pageBytes = r?.pageBytes ?? 0;

  const labels = useMemo(
    () =>
      rows.map((row) => ({
        tier: row.tier,
        text: `${row.name}: ${formatCount(row.usedPages)} of ${formatCount(row.capacityPages)} pages (${formatBytesDecimal(row.capacityPages * pageBytes)})`,
      })),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rows are derived from shownFrame
    [shownFrame, pageBytes],
  );
  const share = shownFrame ? belowHbmShare(shownFrame) : 0;
  const copies = marks && k >= 0 ? marks[Math.min(last, k)].count : 0;

  return (
    <WidgetFrame
      id={id}
      title={title ?? 'KV pages through the memory hierarchy'}
      status={ready ? 'ready' : sim.status === 'error' ? 'error' : 'loading'}
      error={sim.error}
      onRetry={sim.retry}
      stale={sim.stale}
      corrected={params.corrected}
      onReset={() => {
        params.reset();
        transport.seek(0);
      }}
      onKeyDown={transport.handleKey}
      controls={<ParamControls params={params} />}
      transport={<TransportBar transport={transport} format={(t) => `${Math.round(t)} s`} />}
      readouts={
        <>
          <Readout
            label="Reuse served from below HBM"
            value={<span data-readout="below-hbm">{formatPercent(share)}</span>}
            formula="prompt tokens found in DRAM, NVMe or the pool ÷ all found in the cache, so far"
            emphasis
          />
          <Readout label="Copies on screen" value={<span data-readout="marks">{formatCount(copies)}</span>} />
          <Readout
            label="Page"
            value={`${formatCount(r?.pageTokens ?? 0)} tokens = ${formatBytesDecimal(pageBytes)}`}
          />
        </>
      }
      caption={
        <>
          Each tier's band has one cell per page it can hold, so the bands are to scale. A filled mark is a
          computed page, a hollow one is being computed; grey with a ring is the system prompt and tool
          schemas every session shares (one copy serves all). A page in two bands has two copies: the tiers
          are inclusive. Counters are the run's totals up to the frame shown.
        </>
      }
      tryThis={
        <ul>
          <li>
            Raise <em>HBM for KV</em> to 60 GB: more of the reuse is found in HBM itself, and the share served
            from below falls.
          </li>
          <li>
            Set the pause policy to <em>Evict (recompute)</em>: a paused session’s pages are dropped rather
            than written down, the lower bands stay nearly empty, and almost no reuse comes from below HBM.
          </li>
          <li>
            Switch the model to Llama 3.1 8B: half the KV per token, so the same gigabytes hold twice the
            pages and the bands grow.
          </li>
          <li>Pause, then step back with ←: the picture returns exactly to the frame before.</li>
        </ul>
      }
      exportData={() => ({
        rows: frames
          ? frames.flatMap((f) =>
              tierRows(f).map((row) => ({
                t: f.t,
                tier: row.name,
                usedPages: row.usedPages,
                tokens: row.tokens,
                hitTokens: row.hitTokens,
                bytesDown: row.bytesDown,
                bytesUp: row.bytesUp,
              })),
            )
          : [],
        json: { parameters: v, result: r },
      })}
    >
      <div ref={observe} className="kvh" data-figure="kv-hierarchy">
        {stepTr ? (
          <HierarchyCanvas
            geometry={geometry}
            step={stepTr}
            progress={progress}
            labels={labels}
            description={`KV pages in ${rows.length} tiers at ${Math.round(transport.t)} s: ${rows
              .map(
                (row) =>
                  `${row.name} ${formatCount(row.usedPages)} of ${formatCount(row.capacityPages)} pages`,
              )
              .join(', ')}`}
          />
        ) : null}
        <ul className="kvh-legend" aria-label="Legend">
          <li>
            <span className="kvh-swatch kvh-swatch-session" /> a session’s page (colour: session)
          </li>
          <li>
            <span className="kvh-swatch kvh-swatch-pending" /> being computed
          </li>
          <li>
            <span className="kvh-swatch kvh-swatch-shared" /> shared prefix (all sessions)
          </li>
        </ul>
        <table className="kvh-table" data-table="tiers">
          <thead>
            <tr>
              <th scope="col">Tier</th>
              <th scope="col">Resident</th>
              <th scope="col">Hits served</th>
              <th scope="col">Written in</th>
              <th scope="col">Read out</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.tier} data-tier={row.tier}>
                <th scope="row">{row.name}</th>
                <td>{formatTokens(row.tokens)}</td>
                <td data-cell="hits">{formatTokens(row.hitTokens)}</td>
                <td>{row.tier === 0 ? '—' : formatBytesDecimal(row.bytesDown)}</td>
                <td>{row.tier === 0 ? '—' : formatBytesDecimal(row.bytesUp)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {phases ? (
          <figure className="kvh-timeline">
            <figcaption>
              Sessions over time: tall bar prefill, two-thirds decode, short queued or loading KV, hairline
              tool wait.
            </figcaption>
            <PhaseStrip grid={phases} width={width} durationS={duration} t={transport.t} />
          </figure>
        ) : null}
      </div>
    </WidgetFrame>
  );
}
