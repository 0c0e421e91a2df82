/**
 * Where the tool block sits (lesson 07.07): one agent session of N turns in six prompt layouts, every prompt cut
 * into KV blocks with chained hashes (src/sim/engine/kvcache/hash.ts) and checked against the blocks earlier turns left
 * in the prefix cache. Per turn: tokens prefilled after the hit, and hit rate; prefill time from src/sim/engine/cost.ts. Method
 * toolLayouts.
 */
import { useMemo } from 'react';
import { LineChart, type LineSeries, type Marker } from '../kit/charts';
import { seriesColor } from '../kit/charts/theme';
import { useProgressSimulation } from '../kit/useSimulation';
import { useCancelToShown } from '../kit/JobProgress';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import {
  formatCount,
  formatDuration,
  formatNumber,
  formatPercent,
  formatRatio,
  formatTokens,
} from '../../lib/format';
import {
  LAYOUT_LABELS,
  type LayoutId,
  type SegmentKind,
  type TurnResult,
} from '../../sim/lessons/toolLayouts';
import { LAYOUT_ID, layoutArgs, layoutSchema } from './schema';
import './tool-schema.css';
import { TryThis, type TryItem } from '../kit/TryThis';

const KIND_LABEL: Record<SegmentKind, string> = {
  timestamp: 'timestamp',
  tools: 'tools',
  system: 'system prompt',
  history: 'history',
  new: 'new turn',
};

/** Series order, drawn last on top: the timestamp line lies almost on the re-sorted one, and is the one to see. */
const DRAW_ORDER: LayoutId[] = [
  'tools-first',
  'tool-added',
  'tools-resorted',
  'timestamp-after-tools',
  'tools-after-history',
  'timestamp-top',
];

/**
 * Each layout's colour. Slot order would draw tools-first, the best layout, and the timestamp above the tools, the
 * worst, in the palette's blue and sky blue, which read as one on a projector; the worst layout is drawn in grey
 * instead, apart from the best's blue and from the re-sorted tools' green under it. The tool added mid-session, which
 * lies on tools-first but for its spike, stays vermillion. Each line keeps its slot's dash and symbol.
 */
export const LAYOUT_COLORS: Readonly<Record<LayoutId, string>> = {
  'tools-first': seriesColor(0),
  'tool-added': seriesColor(1),
  'tools-resorted': seriesColor(2),
  'timestamp-after-tools': seriesColor(3),
  'tools-after-history': seriesColor(4),
  'timestamp-top': seriesColor(6),
};

/**
 * What the strip calls a group's uncached part. "Re-prefilled" only for tokens an earlier prompt already held: the
 * turn's new tokens and the timestamp are new text on every turn, and nothing was seen before turn 1; on the turn a
 * tool is added, the tool block's miss starts at that new tool, so it is "prefilled" too.
 */
export function missWord(kind: SegmentKind, turn: number, toolAdded: boolean): string {
  if (turn === 1 || kind === 'new' || kind === 'timestamp') return 'prefilled';
  if (kind === 'tools' && toolAdded) return 'prefilled';
  return 're-prefilled';
}

/** The prompt of one turn as labelled groups; the cached part of each solid, the prefilled part hatched. */
function PromptStrip({ turn, label, toolAdded }: { turn: TurnResult; label: string; toolAdded: boolean }) {
  return (
    <figure className="schema-strip" data-figure="prompt-strip" aria-label={label}>
      <figcaption className="schema-strip-title">{label}</figcaption>
      <div className="schema-strip-bar" aria-hidden="true">
        {turn.groups.map((g, i) => (
          <div
            key={i}
            className="schema-strip-seg"
            style={{ flexGrow: g.tokens, flexBasis: 0 }}
            title={`${KIND_LABEL[g.kind]}: ${formatNumber(g.tokens, 6)} tokens`}
          >
            {g.hit > 0 ? (
              <div className="schema-strip-hit" style={{ flexGrow: g.hit, flexBasis: 0 }} />
            ) : null}
            {g.tokens - g.hit > 0 ? (
              <div className="schema-strip-miss" style={{ flexGrow: g.tokens - g.hit, flexBasis: 0 }} />
            ) : null}
          </div>
        ))}
      </div>
      <ul className="schema-strip-legend">
        {turn.groups.map((g, i) => (
          <li key={i} data-kind={g.kind} data-hit={g.hit} data-tokens={g.tokens}>
            {i + 1}. {KIND_LABEL[g.kind]}: {formatTokens(g.tokens)},{' '}
            {g.hit === g.tokens
              ? 'cached'
              : g.hit === 0
                ? missWord(g.kind, turn.turn, toolAdded)
                : `${formatTokens(g.tokens - g.hit)} ${missWord(g.kind, turn.turn, toolAdded)}`}
          </li>
        ))}
        <li>
          <span className="schema-key schema-strip-hit" /> cached{' '}
          <span className="schema-key schema-strip-miss" /> prefilled
        </li>
      </ul>
    </figure>
  );
}

/** The turn the "one tool added" item moves the new tool to (any turn off the default shows the same spike). */
const ADDED_TOOL_TURN = 6;

/** "Try this": each item with the state it describes (the lesson's tour plays them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Pick <em>Timestamp above the tools</em>: the hit rate falls to 0%. Twenty tokens that change every
        turn sit in the first blocks, and every block after them chains from those.
      </>
    ),
    set: { layout: 'timestamp-top' },
    highlight: 'hit-rate',
  },
  {
    text: (
      <>
        Pick <em>Timestamp between system and history</em>: the tools and system prompt hit again, but the
        whole history is re-prefilled every turn. Dynamic content belongs at the end, in the new message.
      </>
    ),
    set: { layout: 'timestamp-after-tools' },
    highlight: 'prefilled',
  },
  {
    text: (
      <>
        Pick <em>One tool added mid-session</em> and move the turn it arrives, here to{' '}
        {layoutSchema.changeTurn.format(ADDED_TOOL_TURN)}: one spike. The blocks from the new tool on miss
        once, then hit again. <em>Tools re-sorted every turn</em> is that spike on every turn.
      </>
    ),
    set: { layout: 'tool-added', changeTurn: ADDED_TOOL_TURN },
    highlight: 'tool-prefilled',
  },
  {
    text: (
      <>
        Pick <em>Tools after the history</em>: the history hits, but the tool block moves as the history grows
        and is re-prefilled every turn.
      </>
    ),
    set: { layout: 'tools-after-history' },
    highlight: 'tool-prefilled',
  },
];

export function ToolBlockLayout() {
  const params = useWidgetParams(LAYOUT_ID, layoutSchema);
  const v = params.values;
  const args = useMemo(() => layoutArgs(v), [v]);
  // ≈19 s at the controls' maxima (docs/reliability.md): progress and Cancel above the picture.
  const sim = useProgressSimulation('toolLayouts', args);
  const cancel = useCancelToShown(params, sim.status === 'ready' && !sim.stale);
  const r = sim.result;
  const layout = v.layout as LayoutId;
  const sel = r?.layouts.find((l) => l.layout === layout);
  const best = r?.layouts.find((l) => l.layout === 'tools-first');

  const series: LineSeries[] = useMemo(
    () =>
      r
        ? DRAW_ORDER.map((id) => r.layouts.find((l) => l.layout === id)!).map((l) => ({
            name: `${LAYOUT_LABELS[l.layout]}${l.layout === layout ? ' ◀' : ''}`,
            points: l.turns.map((t) => ({ x: t.turn, y: t.prefillTokens })),
            color: LAYOUT_COLORS[l.layout],
            emphasis: l.layout === layout,
          }))
        : [],
    [r, layout],
  );
  const shownTurn = sel ? (layout === 'tool-added' ? Math.min(v.changeTurn, v.turns) : sel.turns.length) : 0;
  const markers: Marker[] =
    layout === 'tool-added' && v.changeTurn <= v.turns
      ? [{ kind: 'x', x: v.changeTurn, label: 'tool added', tone: 'muted' }]
      : [];

  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={LAYOUT_ID}
      title="Where the tool block sits"
      progress={sim.progress}
      onCancel={cancel}
      fixFields={{ modelId: 'model' }}
      exportData={() => ({
        rows: r
          ? r.layouts.flatMap((l) =>
              l.turns.map((t, i) => ({
                layout: l.layout,
                turn: t.turn,
                promptTokens: t.promptTokens,
                hitTokens: t.hitTokens,
                prefillTokens: t.prefillTokens,
                toolTokensPrefilled: t.toolTokensPrefilled,
                prefillSeconds: l.seconds[i],
              })),
            )
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && sel && best ? (
          <>
            <Readout
              emphasis
              label="Prefix-cache hit rate over the session"
              value={
                <span data-readout="hit-rate" data-value={sel.hitRate}>
                  {formatPercent(sel.hitRate)}
                </span>
              }
              formula={`Σ hit / Σ prompt = ${formatCount(sel.hitTokens)} / ${formatCount(sel.promptTokens)}`}
            />
            <Readout
              emphasis
              label={`Tokens prefilled over ${v.turns} turns`}
              value={
                <span data-readout="prefilled" data-value={sel.prefillTokens}>
                  {formatNumber(sel.prefillTokens, 6)}
                </span>
              }
              formula={
                sel.layout === 'tools-first'
                  ? `Σ (prompt − hit); the best layout`
                  : `${formatRatio(sel.prefillTokens / best.prefillTokens)} the ${formatNumber(best.prefillTokens, 6)} of tools-first`
              }
            />
            <Readout
              label="Tool-block tokens prefilled"
              value={
                <span data-readout="tool-prefilled" data-value={sel.toolTokensPrefilled}>
                  {formatTokens(sel.toolTokensPrefilled)}
                </span>
              }
              formula={`the block is ${formatNumber(r.toolTokens, 6)} tokens (${r.toolCount} tools); ${formatNumber(sel.toolTokensPrefilled / Math.max(1, r.toolTokens), 3)} × the block`}
            />
            <Readout
              label="Prefill time over the session"
              value={formatDuration(sel.totalSeconds)}
              formula={`${r.modelName}, ${r.gpus} × ${r.acceleratorName}; tools-first ${formatDuration(best.totalSeconds)}`}
            />
          </>
        ) : null
      }
      caption={
        r ? (
          <>
            One session, {v.turns} turns: a tool block of {formatNumber(r.toolTokens, 6)} tokens (
            {r.toolCount} tools, o200k_base), a system prompt of {formatTokens(v.systemTokens)},{' '}
            {formatTokens(v.newTokens)} new and {formatTokens(v.outputTokens)} of output each turn. Each line
            is one layout: tokens the turn must prefill after the prefix-cache hit, with {v.blockSize}-token
            blocks keyed by chained hashes, only full blocks cached, nothing evicted (the re-sorted tools lie
            just under the timestamp line: both miss from the first block). The strip shows the selected
            layout&apos;s prompt on turn {shownTurn}.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      <div className="schema-charts">
        <LineChart
          title="Tokens prefilled on each turn, by prompt layout"
          description="One line per prompt layout: tokens prefilled on each turn after the prefix-cache hit."
          series={series}
          x={{ label: 'Turn', format: (t) => formatNumber(t) }}
          y={{ label: 'Prefilled', unit: 'tokens', format: (x) => formatCount(x), zero: true }}
          markers={markers}
          points="auto"
          aspect={0.5}
        />
        {sel && shownTurn > 0 ? (
          <PromptStrip
            turn={sel.turns[shownTurn - 1]}
            toolAdded={layout === 'tool-added' && shownTurn === v.changeTurn}
            label={`${LAYOUT_LABELS[layout]}: the prompt of turn ${shownTurn}, ${formatTokens(sel.turns[shownTurn - 1].promptTokens)}, in order`}
          />
        ) : null}
      </div>
    </WidgetFrame>
  );
}
