/**
 * The hierarchy animation's player, shared by 07.04's widget and 07.06's arena: from a run's frames (fleet
 * simulator, frames.ts) to the picture at t. useHierarchyPlayer owns the transport and the layout of the run
 * (stable cells for every copy, computed once); HierarchyView draws the instant: the tiers' canvas, the legend, the
 * per-tier counters and the sessions' phases on a time axis. The picture is a function of (run, t).
 */
import { useMemo, type ReactNode } from 'react';
import { useTransport, type Transport } from '../kit/controls/useTransport';
import { useChartSize } from '../kit/charts/useChartSize';
import { usePreferences } from '../../app/services';
import { formatBytesDecimal, formatCount, formatTokens } from '../../lib/format';
import type { FleetFrame } from '../../sim/engine/fleet/frames';
import { belowHbmShare } from '../../sim/lessons/hierarchyLab';
import { HierarchyCanvas } from './HierarchyCanvas';
import { PhaseStrip } from './PhaseStrip';
import {
  lazySlots,
  capacitiesOf,
  ease,
  stepAt,
  TIER_COUNT,
  TIER_LABELS,
  tierGeometry,
  transition,
} from './layout';
import { sessionPhases } from './phases';
import './kv-hierarchy.css';

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

export interface PlayerOptions {
  /** All frames of the run, or null while it runs. */
  frames: readonly FleetFrame[] | null;
  sharedHashes: readonly number[];
  frameIntervalS: number;
  pageBytes: number;
  /** Simulated seconds per wall-clock second at 1×. */
  rate: number;
  autoplay: boolean;
}

export interface HierarchyPlayer {
  transport: Transport;
  duration: number;
  /** Below-HBM share of the reuse so far, copies on screen. */
  share: number;
  copies: number;
  view: ReactNode;
}

export function useHierarchyPlayer({
  frames,
  sharedHashes,
  frameIntervalS,
  pageBytes,
  rate,
  autoplay,
}: PlayerOptions): HierarchyPlayer {
  const reduced = usePreferences((s) => s.motion) === 'reduced';
  const shared = useMemo(() => new Set(sharedHashes), [sharedHashes]);
  const marks = useMemo(() => (frames ? lazySlots(frames, shared) : null), [frames, shared]);
  const times = useMemo(() => (frames ? frames.map((f) => f.t) : []), [frames]);
  const phases = useMemo(() => (frames ? sessionPhases(frames) : null), [frames]);
  const duration = times.length ? times[times.length - 1] : 0;
  const transport = useTransport({
    duration,
    rate,
    step: frameIntervalS,
    autoplay,
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
    return k < last ? transition(marks.at(k), marks.at(k + 1)) : transition(null, marks.at(k));
  }, [marks, k, last]);
  const progress = k < last ? ease(frac) : 0;
  // Counters read from the frame the picture is nearest to (the one it is resting at or arriving at).
  const shownFrame = frames ? frames[Math.min(last, progress >= 1 ? k + 1 : k)] : null;
  const rows = shownFrame ? tierRows(shownFrame) : [];

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
  const copies = marks && k >= 0 ? marks.at(Math.min(last, k)).count : 0;

  const view = (
    <div ref={observe} className="kvh" data-figure="kv-hierarchy">
      {stepTr ? (
        <HierarchyCanvas
          geometry={geometry}
          step={stepTr}
          progress={progress}
          labels={labels}
          description={`KV pages in ${rows.length} tiers at ${Math.round(transport.t)} s: ${rows
            .map(
              (row) => `${row.name} ${formatCount(row.usedPages)} of ${formatCount(row.capacityPages)} pages`,
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
            Sessions over time, one lane each: full-height bar = prefill, two-thirds height = decode,
            one-third height = queued or loading KV, hairline = tool wait.
          </figcaption>
          <PhaseStrip grid={phases} width={width} durationS={duration} t={transport.t} />
        </figure>
      ) : null}
    </div>
  );
  return { transport, duration, share, copies, view };
}
