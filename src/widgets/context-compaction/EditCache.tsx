/**
 * "Edit the prompt, watch the cache" (lesson 07.11): an agent's prompt drawn as its segments (system, tools,
 * task, the turns, the latest tool result), before and after an edit; under each, which tokens the prefix cache
 * still serves and which must be prefilled again. The cache lookup walks the edited prompt's chained block hashes
 * (src/sim/engine/kvcache/hash.ts) in the worker (method compactionEdit); the re-prefill is priced by src/sim/engine/cost.ts.
 */
import { useMemo } from 'react';
import { scaleLinear, ticks as d3ticks } from 'd3';
import { textWidth, TICK_FONT } from '../kit/charts/layout';
import { ParamControls } from '../kit/controls/ParamControls';
import { useChartSize } from '../kit/charts';
import { useSimulation } from '../kit/useSimulation';
import { useWidgetParams } from '../kit/useWidgetParams';
import { Readout, WidgetFrame } from '../kit/WidgetFrame';
import { simulationFrame, paramsFrame } from '../kit/frameProps';
import {
  formatBytesDecimal,
  formatCount,
  formatDuration,
  formatFlops,
  formatNumber,
  formatRatio,
  formatTokens,
} from '../../lib/format';
import type { DrawnSeg, SegKind } from '../../sim/lessons/compaction';
import type { EditResult } from '../../worker/compactionMethods';
import { EDIT_CONTROLS, EDIT_ID, editArgs, editSchema } from './schema';
import { TryThis, type TryItem } from '../kit/TryThis';

/** "Try this": each item with the state it describes (the lesson's tour plays them; tests/lesson-07-11 checks them). */
export const TRY_THIS: readonly TryItem[] = [
  {
    text: (
      <>
        Lower <em>Edit at turn</em> from 10 to 2: the summary is the same size, yet the hatched re-prefill
        grows by every turn that now sits after it.
      </>
    ),
    set: { editTurn: 2 },
    highlight: 'reprefill-tokens',
  },
  {
    text: <>Raise it to 28: only the turns after the summary miss.</>,
    set: { editTurn: 28 },
    highlight: 'reprefill-tokens',
  },
  {
    text: (
      <>
        Pick <em>Change one token</em> at position 10 (a timestamp in the system prompt): one token costs a
        full prefill of the whole prompt.
      </>
    ),
    set: { edit: 'token', tokenPosition: 10 },
    highlight: 'hit-tokens',
  },
  {
    text: <>Move it to 79,000: almost everything hits.</>,
    set: { edit: 'token', tokenPosition: 79_000 },
    highlight: 'hit-tokens',
  },
  {
    text: (
      <>
        Pick <em>Prune old tool results</em> from turn 0: the context shrinks most, but the edit point sits
        right after the task, so everything after it, most of what is left, is prefilled again.
      </>
    ),
    set: { edit: 'prune', editTurn: 0 },
    highlight: 'reprefill-tokens',
  },
  {
    text: (
      <>
        <em>Insert a retrieved document</em> before turn 39 instead of turn 5 and compare.
      </>
    ),
    set: { edit: 'retrieve', editTurn: 39 },
    highlight: 'reprefill-tokens',
  },
];
import './context-compaction.css';

/** Colour slot and legend text of each segment kind. */
export const KIND_STYLE: Record<SegKind, { color: string; label: string }> = {
  system: { color: 'var(--series-7)', label: 'system' },
  tools: { color: 'var(--series-8)', label: 'tools' },
  task: { color: 'var(--series-4)', label: 'task' },
  out: { color: 'var(--series-5)', label: 'model output' },
  result: { color: 'var(--series-1)', label: 'tool result' },
  summary: { color: 'var(--series-2)', label: 'summary' },
  stub: { color: 'var(--series-3)', label: 'stub' },
  doc: { color: 'var(--series-6)', label: 'retrieved doc' },
  edited: { color: 'var(--chart-danger)', label: 'edited token' },
};

const n6 = (x: number) => formatNumber(x, 6);

interface StripProps {
  y: number;
  h: number;
  segs: DrawnSeg[];
  x: (t: number) => number;
}

function Segments({ y, h, segs, x }: StripProps) {
  return (
    <g>
      {segs.map((s, i) =>
        s.tokens > 0 ? (
          <rect
            key={i}
            x={x(s.start)}
            y={y}
            width={Math.max(0.6, x(s.start + s.tokens) - x(s.start))}
            height={h}
            style={{ fill: KIND_STYLE[s.kind].color, stroke: 'var(--chart-bg)', strokeWidth: 0.4 }}
          >
            <title>
              {KIND_STYLE[s.kind].label}
              {s.turn >= 0 ? ` (turn ${s.turn})` : ''}: tokens {n6(s.start)}–{n6(s.start + s.tokens)}
            </title>
          </rect>
        ) : null,
      )}
    </g>
  );
}

/** A status strip: [from, to) solid (cached) or hatched (to prefill / dead), with its text when it fits. */
function Status({
  x,
  y,
  h,
  from,
  to,
  kind,
  text,
}: {
  x: (t: number) => number;
  y: number;
  h: number;
  from: number;
  to: number;
  kind: 'hit' | 'miss' | 'dead' | 'new';
  text: string;
}) {
  if (to <= from) return null;
  const x0 = x(from);
  const w = Math.max(1, x(to) - x0);
  const fill =
    kind === 'hit'
      ? 'var(--chart-ok)'
      : kind === 'miss'
        ? 'url(#cc-hatch-miss)'
        : kind === 'dead'
          ? 'url(#cc-hatch-dead)'
          : 'var(--chart-muted)';
  const fits = w > text.length * 6.4 + 8;
  return (
    <g data-status={kind}>
      <rect x={x0} y={y} width={w} height={h} style={{ fill }}>
        <title>
          {text}: tokens {n6(from)}–{n6(to)}
        </title>
      </rect>
      {fits ? (
        <text x={x0 + 4} y={y + h / 2} dominantBaseline="central" className="cc-strip-text" data-kind={kind}>
          {text}
        </text>
      ) : null}
    </g>
  );
}

/** The prompt picture's height in chart units (its rows below end at the axis, 164). */
const PROMPT_PICTURE_H = 196;

function PromptPicture({ r }: { r: EditResult }) {
  const { observe, width, zoom } = useChartSize({ aspect: 0.34, minHeight: 230, maxHeight: 260 });
  const left = 8;
  const end = Math.max(r.tokensBefore, r.tokensAfter);
  // d3's ticks depend on the domain alone: the last one's label, centred on it, sets the right margin ("80k" at the
  // prompt's end would otherwise be cut in half).
  const ticks = d3ticks(0, end, width < 500 ? 4 : 8);
  const lastTick = ticks[ticks.length - 1] ?? 0;
  const right = Math.max(
    8,
    textWidth(formatCount(lastTick), TICK_FONT) / 2 +
      2 -
      ((width - 8 - left) * (end - lastTick)) / (end || 1),
  );
  const x = scaleLinear()
    .domain([0, end])
    .range([left, width - right]);
  const segH = 26;
  const stH = 20;
  const rows = {
    beforeLabel: 14,
    before: 20,
    beforeStatus: 48,
    afterLabel: 96,
    after: 102,
    afterStatus: 130,
    axis: 164,
  };
  const edit = r.applied.kind !== 'none' && r.editPoint < r.tokensBefore;
  return (
    <div ref={observe} className="cc-picture">
      <svg
        width={width * zoom}
        height={PROMPT_PICTURE_H * zoom}
        viewBox={`0 0 ${width} ${PROMPT_PICTURE_H}`}
        role="img"
        aria-label="The prompt before and after the edit, as segments, with the cached and the re-prefilled tokens beneath each"
        data-chart="prompt-blocks"
      >
        <desc>
          Upper bar: the prompt the cache holds, and beneath it which of its cached tokens the next request
          still uses (solid) and which became dead KV (hatched). Lower bar: the next prompt after the edit,
          and beneath it the cache hit (solid) and the tokens to prefill again (hatched). The dashed rule
          marks the edit point.
        </desc>
        <defs>
          <pattern
            id="cc-hatch-miss"
            patternUnits="userSpaceOnUse"
            width={7}
            height={7}
            patternTransform="rotate(45)"
          >
            <rect width={7} height={7} style={{ fill: 'var(--chart-danger)', fillOpacity: 0.25 }} />
            <line x1={0} y1={0} x2={0} y2={7} style={{ stroke: 'var(--chart-danger)', strokeWidth: 3 }} />
          </pattern>
          <pattern
            id="cc-hatch-dead"
            patternUnits="userSpaceOnUse"
            width={7}
            height={7}
            patternTransform="rotate(-45)"
          >
            <rect width={7} height={7} style={{ fill: 'var(--chart-muted)', fillOpacity: 0.2 }} />
            <line x1={0} y1={0} x2={0} y2={7} style={{ stroke: 'var(--chart-muted)', strokeWidth: 2 }} />
          </pattern>
        </defs>
        <text x={left} y={rows.beforeLabel} className="cc-row-label">
          Before: the cached prompt ({formatTokens(r.tokensBefore)})
        </text>
        <Segments y={rows.before} h={segH} segs={r.before} x={x} />
        <Status x={x} y={rows.beforeStatus} h={stH} from={0} to={r.hitTokens} kind="hit" text="still used" />
        <Status
          x={x}
          y={rows.beforeStatus}
          h={stH}
          from={r.hitTokens}
          to={r.cachedBefore}
          kind="dead"
          text={`dead KV ${formatCount(r.deadTokens)}`}
        />
        <Status
          x={x}
          y={rows.beforeStatus}
          h={stH}
          from={r.cachedBefore}
          to={r.tokensBefore}
          kind="new"
          text="new"
        />
        <text x={left} y={rows.afterLabel} className="cc-row-label">
          After: the next prompt ({formatTokens(r.tokensAfter)})
        </text>
        <Segments y={rows.after} h={segH} segs={r.after} x={x} />
        <Status
          x={x}
          y={rows.afterStatus}
          h={stH}
          from={0}
          to={r.hitTokens}
          kind="hit"
          text={`cache hit ${formatCount(r.hitTokens)}`}
        />
        <Status
          x={x}
          y={rows.afterStatus}
          h={stH}
          from={r.hitTokens}
          to={r.tokensAfter}
          kind="miss"
          text={`re-prefill ${formatCount(r.reprefillTokens)}`}
        />
        {edit ? (
          <g data-marker="edit-point">
            <line
              x1={x(r.editPoint)}
              x2={x(r.editPoint)}
              y1={rows.before - 4}
              y2={rows.afterStatus + stH + 4}
              style={{ stroke: 'var(--chart-fg)', strokeWidth: 1.5, strokeDasharray: '4 3' }}
            />
          </g>
        ) : null}
        <g className="cc-axis" transform={`translate(0, ${rows.axis})`}>
          <line x1={left} x2={width - right} y1={0} y2={0} style={{ stroke: 'var(--chart-muted)' }} />
          {ticks.map((t) => (
            <g key={t} transform={`translate(${x(t)}, 0)`}>
              <line y2={4} style={{ stroke: 'var(--chart-muted)' }} />
              <text y={15} textAnchor={t === 0 ? 'start' : 'middle'} className="cc-tick">
                {formatCount(t)}
              </text>
            </g>
          ))}
          <text x={width - right} y={30} textAnchor="end" className="cc-tick">
            Position in the prompt (tokens)
          </text>
        </g>
      </svg>
      <ul className="cc-legend" aria-label="Legend">
        {(Object.keys(KIND_STYLE) as SegKind[])
          .filter((k) => r.after.some((s) => s.kind === k) || r.before.some((s) => s.kind === k))
          .map((k) => (
            <li key={k}>
              <span className="cc-swatch" style={{ background: KIND_STYLE[k].color }} aria-hidden="true" />
              {KIND_STYLE[k].label}
            </li>
          ))}
        <li>
          <span className="cc-swatch" style={{ background: 'var(--chart-ok)' }} aria-hidden="true" /> cached
          (solid)
        </li>
        <li>
          <span className="cc-swatch cc-swatch-miss" aria-hidden="true" /> re-prefill (hatched)
        </li>
        <li>
          <span className="cc-swatch cc-swatch-dead" aria-hidden="true" /> dead KV (grey hatch)
        </li>
        {edit ? <li>┆ edit point</li> : null}
      </ul>
    </div>
  );
}

export function editSentence(r: EditResult): string {
  const a = r.applied;
  switch (a.kind) {
    case 'summarise':
      return `Turns ${a.fromTurn}–${a.fromTurn + a.span - 1} replaced by a ${formatTokens(a.summaryTokens)} summary.`;
    case 'prune':
      return `Tool results of turns ${a.fromTurn} to ${r.before.filter((s) => s.kind === 'result').length - a.keepLast - 1} replaced by ${formatTokens(a.stubTokens)} stubs.`;
    case 'retrieve':
      return `A ${formatTokens(a.docTokens)} document inserted before turn ${a.atTurn}.`;
    case 'token':
      return `One token changed at position ${n6(a.position)}.`;
    default:
      return 'Nothing edited: the next prompt extends the cached one.';
  }
}

export function EditCache() {
  const params = useWidgetParams(EDIT_ID, editSchema);
  const v = params.values;
  const args = useMemo(() => editArgs(v), [v]);
  const sim = useSimulation('compactionEdit', args);
  const r = sim.result;
  const keys = useMemo(
    () =>
      (Object.keys(editSchema) as (keyof typeof editSchema)[]).filter((k) => {
        const specific = [
          'editTurn',
          'span',
          'summaryTokens',
          'keepLast',
          'stubTokens',
          'docTokens',
          'tokenPosition',
        ];
        return !specific.includes(k) || (EDIT_CONTROLS[v.edit] ?? []).includes(k);
      }),
    [v.edit],
  );
  const ri = r?.replica;
  return (
    <WidgetFrame
      {...simulationFrame(sim)}
      {...paramsFrame(params)}
      id={EDIT_ID}
      title="Edit the prompt, watch the cache"
      fixFields={{ modelId: 'model' }}
      controls={<ParamControls params={params} only={keys} />}
      exportData={() => ({
        rows: r
          ? [
              ...r.before.map((s) => ({
                prompt: 'before',
                kind: s.kind,
                turn: s.turn,
                start: s.start,
                tokens: s.tokens,
              })),
              ...r.after.map((s) => ({
                prompt: 'after',
                kind: s.kind,
                turn: s.turn,
                start: s.start,
                tokens: s.tokens,
              })),
            ]
          : [],
        json: { parameters: v, result: r },
      })}
      readouts={
        r && ri ? (
          <>
            <Readout
              label="Edit point"
              value={
                <span data-readout="edit-point" data-value={r.editPoint}>
                  {r.applied.kind === 'none' || r.editPoint >= r.tokensBefore
                    ? 'none'
                    : `token ${n6(r.editPoint)}`}
                </span>
              }
              formula={editSentence(r)}
            />
            <Readout
              emphasis
              label="Tokens still cached"
              value={
                <span data-readout="hit-tokens" data-value={r.hitTokens}>
                  {formatTokens(r.hitTokens)}
                </span>
              }
              formula={`⌊edit point / block⌋ × block = ${formatNumber(r.blocksHit, 6)} blocks × ${r.blockSize}: the walk along the chained hashes stops at the first block that differs`}
            />
            <Readout
              emphasis
              label="Tokens to re-prefill"
              value={
                <span data-readout="reprefill-tokens" data-value={r.reprefillTokens}>
                  {formatTokens(r.reprefillTokens)}
                </span>
              }
              formula={`prompt − hit = ${n6(r.tokensAfter)} − ${n6(r.hitTokens)}; without the edit ${n6(r.baselineReprefillTokens)} (the latest result)${r.movedTokens > 0 && r.applied.kind !== 'none' ? `; ${formatTokens(r.movedTokens)} of it unchanged content that only moved` : ''}`}
            />
            <Readout
              label="Re-prefill time"
              value={
                <span data-readout="reprefill-time" data-value={r.reprefillSeconds}>
                  {formatDuration(r.reprefillSeconds)}
                </span>
              }
              formula={`FLOPs / G = (2N·n + A·(n·c + n²/2)) / G with n = ${formatCount(r.reprefillTokens)}, c = ${formatCount(r.hitTokens)}: ${formatFlops(r.reprefillFlops)} / ${formatFlops(ri.effectiveFlops, true)} (${r.reprefillBound}-bound); without the edit ${formatDuration(r.baselineSeconds)}; the edit makes it ${formatRatio(r.reprefillSeconds / r.baselineSeconds, 3)} as long`}
            />
            <Readout
              label="Dead KV left behind"
              value={
                <span data-readout="dead-tokens" data-value={r.deadTokens}>
                  {formatTokens(r.deadTokens)} = {formatBytesDecimal(r.deadBytes)}
                </span>
              }
              formula={`cached − hit = ${n6(r.cachedBefore)} − ${n6(r.hitTokens)}, × ${formatBytesDecimal(ri.kvBytesPerToken)} per token: held until evicted, used by no one`}
            />
          </>
        ) : null
      }
      caption={
        r && ri ? (
          <>
            A session of {formatTokens(r.tokensBefore)}: system prompt, tool schemas and task (10k tokens),
            then {v.turns} turns of model output and tool result. The cache holds every full {r.blockSize}
            -token block before the latest tool result, which has just arrived. Each block&apos;s hash chains
            its parent&apos;s, so the lookup stops at the first block that differs and nothing after it can
            hit, even content that did not change. {ri.modelName} on {ri.gpus} × {ri.acceleratorName} at
            matmuls at {formatNumber(ri.gemmEfficiency * 100)}% of peak (G ={' '}
            {formatFlops(ri.effectiveFlops, true)}), attention at {formatNumber(ri.attentionEfficiency * 100)}
            % (G_a = {formatFlops(ri.attentionFlops, true)}), plus{' '}
            {ri.gpus > 1
              ? `${formatDuration(ri.allReducePerTokenS)} of all-reduce per token (2 per layer, 2(TP−1)/TP × hidden × 2 B over NVLink) and `
              : ''}
            {formatDuration(ri.iterationFixedS)} per prefill
            {ri.gpus > 1 ? ' of all-reduce latency and overhead' : ' of overhead'}.
          </>
        ) : null
      }
      tryThis={<TryThis items={TRY_THIS} />}
    >
      {r ? <PromptPicture r={r} /> : <div className="cc-picture" style={{ minHeight: 230 }} />}
    </WidgetFrame>
  );
}
