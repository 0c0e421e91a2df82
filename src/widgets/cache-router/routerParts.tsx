/**
 * Pieces of the animated router's picture inside a replica's row: a queued or running request's mark, the
 * latest arrival's prompt split into hit / pool reload / prefill, and the HBM bar by session.
 */
import { formatBytesDecimal, formatCount, formatPercent, formatTokens } from '../../lib/format';
import type { RouterPictureRun } from '../../sim/lessons/routing/streamed';
import { TRAIL_S, TRAVEL_S, type PictureLayout } from './routerLayout';
import { sessionColor, sessionLabel, sessionPath } from './sessionStyle';
import { textWidth } from '../kit/charts/layout';

/** Mark areas in px² (d3 symbol sizes): about 22 px across, 18 px on phones. */
const MARK_AREA = 380;
const MARK_AREA_SMALL = 260;

/** Reused-from-HBM, reloaded-from-pool and prefilled tokens of one request (its admissions summed). */
export function promptSplit(r: RouterPictureRun, i: number): { hit: number; pool: number; miss: number } {
  const q = r.requests;
  const pool = q.reusedPoolTokens[i];
  return { hit: Math.max(0, q.reusedTokens[i] - pool), pool, miss: q.prefilledTokens[i] };
}

export function QueueMark({
  x,
  y,
  s,
  phase,
  turn,
  small,
}: {
  x: number;
  y: number;
  s: number;
  phase: number;
  turn: number;
  small: boolean;
}) {
  const cls =
    phase === 0 ? 'router-mark is-waiting' : phase === 3 ? 'router-mark is-decode' : 'router-mark is-prefill';
  return (
    <g transform={`translate(${x},${y})`} className={cls} data-phase={phase}>
      <path
        d={sessionPath(s, small ? MARK_AREA_SMALL : MARK_AREA)}
        style={{ fill: sessionColor(s), stroke: sessionColor(s) }}
      />
      {phase === 1 || phase === 2 ? (
        <circle r={small ? 12 : 14.5} className="router-mark-ring" style={{ stroke: sessionColor(s) }} />
      ) : null}
      <text y={small ? 25 : 29} textAnchor="middle" className="router-mark-label">
        {sessionLabel(s)}
      </text>
      <title>{`${sessionLabel(s)} turn ${turn + 1}: ${['waiting', 'loading KV', 'prefilling', 'decoding'][phase]}`}</title>
    </g>
  );
}

/** The latest arrival's prompt: held (hit), reloaded from the pool, to prefill (miss), with the tokens. */
export function ArrivalBar({
  r,
  L,
  y,
  i,
  t,
}: {
  r: RouterPictureRun;
  L: PictureLayout;
  y: number;
  i: number;
  t: number;
}) {
  const { x, w } = L.arrivalLane;
  if (i < 0)
    return (
      <text x={x} y={y + L.barH - 5} className="router-sub">
        no request yet
      </text>
    );
  const { hit, pool, miss } = promptSplit(r, i);
  const total = Math.max(1, hit + pool + miss);
  const parts = [
    { kind: 'hit', tokens: hit, word: 'cached' },
    { kind: 'pool', tokens: pool, word: 'from pool' },
    { kind: 'miss', tokens: miss, word: 'prefill' },
  ].filter((p) => p.tokens > 0);
  const s = r.requests.session[i];
  const head = `${sessionLabel(s)} t${r.requests.turn[i] + 1}`;
  const headW = L.stacked ? 52 : 62;
  const barX = x + headW;
  const barW = w - headW;
  // Fresh arrivals are drawn full strength, then settle to a calmer tone (a function of t).
  const age = t - r.requests.arrival[i] - TRAVEL_S;
  return (
    <g
      className={age < TRAIL_S ? 'router-arrival is-fresh' : 'router-arrival'}
      data-arrival={i}
      data-hit={hit}
      data-pool={pool}
      data-miss={miss}
    >
      <text x={x} y={y + L.barH - 5} className="router-arrival-head">
        {head}
      </text>
      {stack(
        parts.map((p) => ({ ...p, w: (p.tokens / total) * barW })),
        barX,
      ).map((p) => {
        const { x: px, w: pw } = p;
        const label = `${formatCount(p.tokens)} ${p.word}`;
        const short = formatCount(p.tokens);
        const fits = labelFits(label, pw) ? label : labelFits(short, pw) ? short : null;
        const el = (
          <g key={p.kind}>
            <rect
              x={px}
              y={y}
              width={Math.max(1, pw)}
              height={L.barH}
              className={`router-split is-${p.kind}`}
            >
              <title>{`${label} (${formatPercent(p.tokens / total, 2)} of the prompt)`}</title>
            </rect>
            {fits ? (
              <text
                x={px + pw / 2}
                y={y + L.barH - 5}
                textAnchor="middle"
                className={`router-split-label is-${p.kind}`}
              >
                {fits}
              </text>
            ) : null}
          </g>
        );
        return el;
      })}
    </g>
  );
}

export function KvBar({
  r,
  L,
  y,
  segs,
  follow,
}: {
  r: RouterPictureRun;
  L: PictureLayout;
  y: number;
  segs: { s: number; blocks: number }[];
  follow: number | null;
}) {
  const { x: x0, w: barW } = L.kvLane;
  const headW = L.stacked ? 52 : 62;
  const bx = x0 + headW;
  const bw = barW - headW;
  const placed = stack(
    segs.map((g) => ({ ...g, w: (g.blocks / r.hbmBlocks) * bw })),
    bx,
  );
  return (
    <g>
      <text x={x0} y={y + L.barH - 5} className="router-arrival-head">
        HBM
      </text>
      <rect x={bx} y={y} width={bw} height={L.barH} className="router-kv-free" />
      {placed.map(({ s, blocks, x, w }) => (
        <g key={s} data-session={s}>
          <rect
            x={x}
            y={y}
            width={Math.max(0.5, w)}
            height={L.barH}
            className={s < 0 ? 'router-kv-shared' : 'router-kv-seg'}
            style={s < 0 ? undefined : { fill: sessionColor(s) }}
          >
            <title>{`${sessionLabel(s)}: ${blocks} blocks = ${formatTokens(blocks * r.blockSize)}, ${formatBytesDecimal(blocks * r.bytesPerBlock)}`}</title>
          </rect>
          {follow !== null && s === follow ? (
            <rect x={x} y={y - 2} width={Math.max(2, w)} height={L.barH + 4} className="router-kv-follow" />
          ) : null}
          {w >= (s < 0 ? 58 : 34) ? (
            <text
              x={x + w / 2}
              y={y + L.barH - 5}
              textAnchor="middle"
              className={s < 0 ? 'router-kv-label-shared' : 'router-kv-label'}
            >
              {sessionLabel(s)}
            </text>
          ) : null}
        </g>
      ))}
    </g>
  );
}

/** Whether a bar label (14 px, semibold: about a tenth wider than textWidth's regular) fits a segment `w` wide. */
function labelFits(label: string, w: number): boolean {
  return w >= textWidth(label, 14) * 1.1 + 8;
}

/** Lay segments end to end from x0: each gets the x where it starts. */
function stack<T extends { w: number }>(segs: T[], x0: number): (T & { x: number })[] {
  let x = x0;
  return segs.map((g) => {
    const at = x;
    x += g.w;
    return { ...g, x: at };
  });
}
