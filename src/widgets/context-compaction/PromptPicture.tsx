/**
 * 07.11's prompt picture: an agent's prompt drawn as its segments (system, tools, task, the turns, the latest tool
 * result) before and after an edit, each with a status strip under it (which tokens the prefix cache still serves,
 * which are prefilled again, which KV is left dead), an axis of token positions and the legend.
 */
import { textWidth, TICK_FONT, X_TITLE_OFFSET } from '../kit/charts/layout';
import { useChartSize } from '../kit/charts';
import { XAxis } from '../kit/charts/Axes';
import { axisTicks, makeScale } from '../kit/charts/scales';
import type { AxisSpec } from '../kit/charts/types';
import { axisTitle } from '../kit/charts/chartFormat';
import { formatCount, formatTokens, formatWhole } from '../../lib/format';
import type { DrawnSeg, SegKind } from '../../sim/lessons/compaction';
import type { EditResult } from '../../worker/compactionMethods';

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
              {s.turn >= 0 ? ` (turn ${s.turn})` : ''}: tokens {formatWhole(s.start)}–
              {formatWhole(s.start + s.tokens)}
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
  const fits = w > textWidth(text, STRIP_FONT) * SEMIBOLD + 8;
  return (
    <g data-status={kind}>
      <rect x={x0} y={y} width={w} height={h} style={{ fill }}>
        <title>
          {text}: tokens {formatWhole(from)}–{formatWhole(to)}
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

/** The status strips' text size (context-compaction.css `.cc-strip-text`, semibold: about 8% wider than textWidth's regular). */
const STRIP_FONT = 11;
const SEMIBOLD = 1.08;

/** The rows' tops in chart units, from the first label to the axis line. */
const ROWS = {
  beforeLabel: 14,
  before: 20,
  beforeStatus: 48,
  afterLabel: 96,
  after: 102,
  afterStatus: 130,
  axis: 164,
};
/** The prompt picture's height in chart units: the axis, its tick labels and its title's line under it. */
const PROMPT_PICTURE_H = ROWS.axis + X_TITLE_OFFSET + 5;

const POSITION_AXIS: AxisSpec = { label: 'Position in the prompt', unit: 'tokens', format: formatCount };

export function PromptPicture({ r }: { r: EditResult }) {
  const { observe, width, zoom } = useChartSize({ aspect: 0.34, minHeight: 230, maxHeight: 260 });
  // Room for the first tick's label ("0") centred on the prompt's start.
  const left = 8;
  const end = Math.max(r.tokensBefore, r.tokensAfter, 1);
  // The last tick's label, centred on it, sets the right margin ("80k" at the prompt's end would otherwise be cut
  // in half); the ticks chosen for the widest plot are the ones drawn unless the margin thins them.
  const provisional = axisTicks(
    POSITION_AXIS,
    makeScale(POSITION_AXIS, [0, end], [0, width - left - 8]),
    'x',
  );
  const lastTick = provisional[provisional.length - 1]?.value ?? 0;
  const right = Math.max(
    8,
    textWidth(formatCount(lastTick), TICK_FONT) / 2 + 2 - ((width - 8 - left) * (end - lastTick)) / end,
  );
  const plotWidth = Math.max(1, width - left - right);
  const scale = makeScale(POSITION_AXIS, [0, end], [0, plotWidth]);
  const ticks = axisTicks(POSITION_AXIS, scale, 'x');
  const x = (t: number) => left + scale(t);
  const segH = 26;
  const stH = 20;
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
        <text x={left} y={ROWS.beforeLabel} className="cc-row-label">
          Before: the cached prompt ({formatTokens(r.tokensBefore)})
        </text>
        <Segments y={ROWS.before} h={segH} segs={r.before} x={x} />
        <Status x={x} y={ROWS.beforeStatus} h={stH} from={0} to={r.hitTokens} kind="hit" text="still used" />
        <Status
          x={x}
          y={ROWS.beforeStatus}
          h={stH}
          from={r.hitTokens}
          to={r.cachedBefore}
          kind="dead"
          text={`dead KV ${formatCount(r.deadTokens)}`}
        />
        <Status
          x={x}
          y={ROWS.beforeStatus}
          h={stH}
          from={r.cachedBefore}
          to={r.tokensBefore}
          kind="new"
          text="new"
        />
        <text x={left} y={ROWS.afterLabel} className="cc-row-label">
          After: the next prompt ({formatTokens(r.tokensAfter)})
        </text>
        <Segments y={ROWS.after} h={segH} segs={r.after} x={x} />
        <Status
          x={x}
          y={ROWS.afterStatus}
          h={stH}
          from={0}
          to={r.hitTokens}
          kind="hit"
          text={`cache hit ${formatCount(r.hitTokens)}`}
        />
        <Status
          x={x}
          y={ROWS.afterStatus}
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
              y1={ROWS.before - 4}
              y2={ROWS.afterStatus + stH + 4}
              style={{ stroke: 'var(--chart-fg)', strokeWidth: 1.5, strokeDasharray: '4 3' }}
            />
          </g>
        ) : null}
        <g transform={`translate(${left},0)`}>
          <XAxis
            ticks={ticks}
            innerWidth={plotWidth}
            innerHeight={ROWS.axis}
            title={axisTitle(
              POSITION_AXIS,
              ticks.map((t) => t.label),
            )}
            titleOffset={X_TITLE_OFFSET}
            roomLeft={left}
            roomRight={right}
          />
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
