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
import { TourMark } from '../kit/TourMark';
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
import { PHASE_LABELS, PHASE_QUEUED, sessionPhases } from './phases';
import './kv-hierarchy.css';

/** Share of the window the tier bands may take when zoomed (400 px of a 720-pixel window). */
const WINDOW_SHARE = 0.55;

/** Where every number of the tier table comes from: frame k's cumulative counters (frames.ts). */
/** The lanes' key, drawn as PhaseStrip draws them (its colours and heights; kv-hierarchy.css). */
const PHASE_KEY = [
  { kind: 'prefill', label: 'prefill', height: 'full-height bar' },
  { kind: 'decode', label: 'decode', height: 'two-thirds height' },
  { kind: 'queued', label: PHASE_LABELS[PHASE_QUEUED].replace(' / ', ' or '), height: 'one-third height' },
  { kind: 'tool', label: 'tool wait', height: 'hairline' },
] as const;

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

  const { observe, width, zoom, windowUnits } = useChartSize({ aspect: 0.5, minHeight: 260, maxHeight: 420 });
  const caps = useMemo(() => (frames && frames.length ? capacitiesOf(frames[0]) : [0, 0, 0, 0]), [frames]);
  // Zoomed (presentation, fullscreen), the bands take the share of the window they take at reading size on a
  // laptop, so that larger labels leave the picture and its read-outs on one screen: smaller cells, not more rows.
  const bandsHeight = Math.min(width < 500 ? 520 : 400, zoom > 1 ? windowUnits * WINDOW_SHARE : Infinity);
  const geometry = useMemo(() => tierGeometry(caps, width, bandsHeight, 12), [caps, width, bandsHeight]);

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
      {/* The pages moving between the tiers, which lesson 07.04's tour highlights. */}
      {stepTr ? (
        <TourMark id="pages">
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
        </TourMark>
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
            Sessions over time, one lane per session in flight (a lane a session has left takes the next one);
            a lane&apos;s bar says what its session is doing, by height and colour:
            <span className="kvh-phase-key" aria-hidden="true">
              {PHASE_KEY.map((k) => (
                <span key={k.label} className="kvh-phase-key-item">
                  <span className={`kvh-phase-swatch kvh-phase-${k.kind}`} />
                  {k.label}
                </span>
              ))}
            </span>
            <span className="visually-hidden">
              {PHASE_KEY.map((k) => `${k.label}: ${k.height}`).join('; ')}.
            </span>
          </figcaption>
          <PhaseStrip grid={phases} width={width} durationS={duration} t={transport.t} />
        </figure>
      ) : null}
    </div>
  );
  return { transport, duration, share, copies, view };
}
