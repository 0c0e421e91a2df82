/**
 * 07.06: the arena's own run of the chosen policy, page by page (the hierarchy animation of
 * src/widgets/kv-hierarchy): HBM and host DRAM to scale, every page of KV a mark, written through, offloaded,
 * reloaded or evicted as the run's frames play. Same scenario and seed as the arena's charts (worker method
 * pauseHierarchyRun), so the picture and the charts describe one run.
 */
import { TransportBar } from '../kit/controls/TransportBar';
import { Readout } from '../kit/WidgetFrame';
import { useStreamingSimulation } from '../kit/useSimulation';
import { formatCount, formatPercent } from '../../lib/format';
import { useHierarchyPlayer } from '../kv-hierarchy/HierarchyPlayer';
import type { PauseArenaRequest } from '../../worker/pauseMethods';
import { PAUSE_POLICY_LABELS } from '../../sim/lessons/pauseLabSetup';

/** Simulated seconds per wall-clock second at 1×: the arena's 600 s run plays in 40 s. */
const PLAY_RATE = 15;
const NO_HASHES: number[] = [];

export function ArenaHierarchy({ args }: { args: PauseArenaRequest }) {
  const sim = useStreamingSimulation('pauseHierarchyRun', args);
  const r = sim.result;
  const ready = sim.status === 'ready' && r !== null && !sim.stale && sim.frames.length === r.frames;
  const player = useHierarchyPlayer({
    frames: ready ? sim.frames : null,
    sharedHashes: r?.sharedHashes ?? NO_HASHES,
    frameIntervalS: r?.frameIntervalS ?? 4,
    pageBytes: r?.bytesPerBlock ?? 0,
    rate: PLAY_RATE,
    autoplay: true, // plays once on screen: "0 s / 600 s" over an empty grid showed nothing
  });
  return (
    <section
      className="tool-pause-hierarchy"
      data-figure="arena-hierarchy"
      data-state={ready ? 'ready' : sim.status === 'error' ? 'error' : 'loading'}
      aria-label="This run, page by page"
      onKeyDown={player.transport.handleKey}
    >
      <h4>This run, page by page: “{PAUSE_POLICY_LABELS[args.policy]}”</h4>
      {sim.error ? <p role="alert">{sim.error}</p> : null}
      {ready ? (
        <>
          <TransportBar transport={player.transport} format={(t) => `${Math.round(t)} s`} />
          {player.view}
          <div className="widget-readouts">
            <Readout
              label="Reuse served from DRAM"
              value={<span data-readout="below-hbm">{formatPercent(player.share)}</span>}
              formula="prompt tokens found in DRAM ÷ all found in the cache, so far"
            />
            {/* Every mark in every band: a page held in HBM and in DRAM is two marks, so this is not a count of
                pages (an empty DRAM band still leaves HBM's marks counted). */}
            <Readout
              label="Page marks, HBM and DRAM together"
              value={<span data-readout="marks">{formatCount(player.copies)}</span>}
              formula="one mark per copy of a page in a tier: a page in both tiers counts twice"
            />
          </div>
        </>
      ) : sim.error ? null : (
        <p aria-busy="true">Running the arena’s simulation page by page…</p>
      )}
    </section>
  );
}
