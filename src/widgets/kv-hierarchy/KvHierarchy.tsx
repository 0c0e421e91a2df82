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
import { useStreamingSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { formatBytesDecimal, formatCount, formatPercent } from '../../lib/format';
import { tierRows, useHierarchyPlayer } from './HierarchyPlayer';
import { hierarchyArgs, KV_HIERARCHY_ID, kvHierarchySchema } from './schema';
import { TryThis, type TryItem } from '../kit/TryThis';
import { HIERARCHY_SETUPS } from './figures';
import { HIERARCHY_DEFAULTS, pageBytes } from '../../sim/lessons/hierarchyLab';
import { PAUSE_POLICY_LABELS } from '../../sim/lessons/pauseLabSetup';
import { modelName } from '../../sim/engine/catalog/names';
import { partWord, timesWord } from '../../lib/numberWords';

const { bigHbm, evict, small } = HIERARCHY_SETUPS;
const HBM_CONTROL = kvHierarchySchema.hbmGB;
/** KV bytes per page of the default model over the smaller one's (2: Qwen3 32B against Llama 3.1 8B). */
const KV_RATIO = pageBytes(HIERARCHY_DEFAULTS.modelId) / pageBytes(small.modelId);

/**
 * "Try this": each item with the state it describes (the lesson's tour plays them), the setups the prose names
 * (figures.tsx HIERARCHY_SETUPS); every figure in their text is the value the item sets.
 */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Raise <em>{HBM_CONTROL.label}</em> to {HBM_CONTROL.format(bigHbm.hbmGB)}: more of the reuse is found
        in HBM itself, and the share served from below falls.
      </>
    ),
    set: { hbmGB: bigHbm.hbmGB },
    highlight: 'below-hbm',
  },
  {
    text: (
      <>
        Set the pause policy to <em>{PAUSE_POLICY_LABELS[evict.policy]}</em>: a paused session’s pages are
        dropped rather than written down, the lower bands stay nearly empty, and almost no reuse comes from
        below HBM.
      </>
    ),
    set: { policy: evict.policy },
    highlight: 'below-hbm',
  },
  {
    text: (
      <>
        Switch the model to {modelName(small.modelId)}: {partWord(KV_RATIO)} the KV per token, so the same
        gigabytes hold {timesWord(KV_RATIO)} the pages and the bands grow.
      </>
    ),
    set: { modelId: small.modelId },
    highlight: 'marks',
  },
  { text: <>Pause, then step back with ←: the picture returns exactly to the frame before.</> },
];

/** Simulated seconds per wall-clock second at 1×: the 240 s run plays in 30 s. */
const PLAY_RATE = 8;
const NO_HASHES: number[] = [];

export function KvHierarchy({ id = KV_HIERARCHY_ID, title }: { id?: string; title?: string }) {
  const params = useWidgetParams(id, kvHierarchySchema);
  const v = params.values;
  const args = useMemo(() => hierarchyArgs(v), [v]);
  const sim = useStreamingSimulation('kvHierarchyRun', args);
  const r = sim.result;
  const ready = sim.status === 'ready' && r !== null && sim.frames.length === r.frames;
  const frames = ready ? sim.frames : null;

  const player = useHierarchyPlayer({
    frames,
    sharedHashes: r?.sharedHashes ?? NO_HASHES,
    frameIntervalS: r?.frameIntervalS ?? 1,
    pageBytes: r?.pageBytes ?? 0,
    rate: PLAY_RATE,
    autoplay: true,
  });
  const { transport, share, copies } = player;
  // The controls do not change while the transport plays: built once per parameter change, not per picture.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- params is a new object each render; its values are what matter
  const controls = useMemo(() => <ParamControls params={params} />, [v, params.corrected]);
  const pageBytes = r?.pageBytes ?? 0;

  return (
    <WidgetFrame
      id={id}
      title={title ?? 'KV pages through the memory hierarchy'}
      status={
        ready || (sim.cannotRun && sim.status === 'ready')
          ? 'ready'
          : sim.status === 'error'
            ? 'error'
            : 'loading'
      }
      error={sim.error}
      onRetry={sim.retry}
      stale={sim.stale}
      cannotRun={sim.cannotRun}
      corrected={params.corrected}
      onReset={() => {
        params.reset();
        transport.seek(0);
      }}
      onKeyDown={transport.handleKey}
      controls={controls}
      transport={<TransportBar transport={transport} format={(t) => `${Math.round(t)} s`} />}
      readouts={
        <>
          <Readout
            label="Reuse served from below HBM so far"
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
      tryThis={<TryThis items={TRY_THIS} />}
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
      {player.view}
    </WidgetFrame>
  );
}
