/**
 * The animated router's picture at time t: the router on the left, requests in flight to the replicas, and per
 * replica its queue and batch (one mark per request) and what its HBM holds (a bar of KV blocks by session,
 * the app's shared head first). A pure function of (result, t): scrubbing back costs nothing.
 */
import { useMemo } from 'react';
import { useChartSize } from '../kit/charts/useChartSize';
import { formatBytesDecimal, formatCount, formatPercent, formatTokens } from '../../lib/format';
import type { RouterAnimationResult } from '../../sim/lessons/routing/lab';
import { POLICY_LABELS } from '../../sim/lessons/routing/constants';
import { frameAt } from '../../sim/lessons/routing/summary';
import { sessionColor, sessionLabel, sessionPath, sessionShapeName } from './sessionStyle';

/** Widest drawing in px; wider figures scale it up. */
const MAX_LOGICAL_WIDTH = 720;

/** Simulated seconds a request takes to cross from the router to its replica in the picture. */
export const TRAVEL_S = 1;

const REASON_TEXT: Record<string, string> = {
  'round-robin': 'next in turn',
  random: 'random pick',
  'least-load': 'least loaded',
  sticky: 'sticky replica',
  'sticky-overflow': 'overflow: idlest',
  'cache-hit': 'longest prefix',
  'cache-balance': 'balance: idlest',
  'cache-miss': 'most free KV',
  'power-of-two': 'less loaded of 2',
  'weighted-score': 'best score',
};

export interface PictureLayout {
  width: number;
  height: number;
  /** Side by side (router left of the replicas) or stacked (router above, for phones). */
  stacked: boolean;
  router: { x: number; y: number; w: number; h: number };
  x0: number;
  boxW: number;
  rowY: (r: number) => number;
  rowH: number;
  /** The path a request takes to replica r: a polyline from the router to the row's queue. */
  lane: (r: number) => [number, number][];
}

export function pictureLayout(width: number, replicas: number): PictureLayout {
  const rowH = 78;
  const stacked = width < 560;
  if (stacked) {
    const router = { x: 0, y: 20, w: width, h: 46 };
    const top = router.y + router.h + 14;
    const x0 = 24;
    const rowY = (r: number) => top + r * (rowH + 8);
    return {
      width,
      height: top + replicas * (rowH + 8),
      stacked,
      router,
      x0,
      boxW: Math.max(120, width - x0 - 1),
      rowY,
      rowH,
      lane: (r) => [
        [10, router.y + router.h],
        [10, rowY(r) + 31],
        [x0 + 10, rowY(r) + 31],
      ],
    };
  }
  const routerW = 116;
  const x0 = routerW + 64;
  const top = 22;
  const rowY = (r: number) => top + r * (rowH + 8);
  const cy = top + (replicas * (rowH + 8) - 8) / 2;
  const router = { x: 0, y: cy - 62, w: routerW, h: 124 };
  return {
    width,
    height: top + replicas * (rowH + 8),
    stacked,
    router,
    x0,
    boxW: Math.max(120, width - x0 - 2),
    rowY,
    rowH,
    lane: (r) => [
      [routerW, cy],
      [x0 + 10, rowY(r) + 31],
    ],
  };
}

/** The point a fraction p ∈ [0, 1] of the way along a polyline. */
export function along(pts: readonly [number, number][], p: number): [number, number] {
  let total = 0;
  for (let i = 1; i < pts.length; i++)
    total += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
  let d = Math.min(1, Math.max(0, p)) * total;
  for (let i = 1; i < pts.length; i++) {
    const seg = Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
    if (d <= seg || i === pts.length - 1) {
      const u = seg > 0 ? Math.min(1, d / seg) : 1;
      return [
        pts[i - 1][0] + u * (pts[i][0] - pts[i - 1][0]),
        pts[i - 1][1] + u * (pts[i][1] - pts[i - 1][1]),
      ];
    }
    d -= seg;
  }
  return pts[pts.length - 1];
}

export function RouterPicture({
  r,
  t,
  follow,
}: {
  r: RouterAnimationResult;
  t: number;
  follow: number | null;
}) {
  const { observe, width: shown } = useChartSize({ aspect: 1 });
  // Past 720 px (fullscreen, a projector) the picture is drawn at 720 and scaled up, text included.
  const width = Math.min(shown, MAX_LOGICAL_WIDTH);
  const scale = shown / width;
  const L = pictureLayout(width, r.replicas);
  const R = r.replicas;
  const fr = r.frames;
  const f = frameAt(fr, t);
  const req = r.requests;

  // Requests in flight from the router: arrival in (t − TRAVEL_S, t].
  const inFlight = useMemo(() => {
    const out: number[] = [];
    for (let i = req.count - 1; i >= 0; i--) {
      if (req.arrival[i] > t) continue;
      if (req.arrival[i] <= t - TRAVEL_S) break;
      out.push(i);
    }
    return out.reverse();
  }, [req, t]);

  // The latest routing decision at t.
  let last = -1;
  {
    let lo = 0;
    let hi = req.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (req.arrival[mid] <= t) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
  }

  const barX = L.x0 + 8;
  const barW = L.boxW - 16;
  const slot = 25;
  const maxMarks = Math.max(3, Math.floor((L.boxW - 16) / slot));
  const small = L.stacked;

  const rows = [];
  const descParts: string[] = [];
  for (let ri = 0; ri < R; ri++) {
    const y = L.rowY(ri);
    const k = f * R + ri;
    const waiting = f >= 0 ? fr.waiting[k] : 0;
    const running = f >= 0 ? fr.running[k] : 0;
    // KV segments.
    const segs: { s: number; blocks: number }[] = [];
    let used = 0;
    if (f >= 0) {
      for (let j = fr.kvOffsets[k]; j < fr.kvOffsets[k + 1]; j++) {
        segs.push({ s: fr.kvSession[j], blocks: fr.kvBlocks[j] });
        used += fr.kvBlocks[j];
      }
    }
    const cap = r.hbmBlocks;
    let x = barX;
    const segEls = segs.map(({ s, blocks }) => {
      const w = (blocks / cap) * barW;
      const el = (
        <g key={s} data-session={s}>
          <rect
            x={x}
            y={y + 54}
            width={Math.max(0.5, w)}
            height={18}
            className={s < 0 ? 'router-kv-shared' : 'router-kv-seg'}
            style={s < 0 ? undefined : { fill: sessionColor(s) }}
          >
            <title>{`${sessionLabel(s)}: ${blocks} blocks = ${formatTokens(blocks * r.blockSize)}, ${formatBytesDecimal(blocks * r.bytesPerBlock)}`}</title>
          </rect>
          {follow !== null && s === follow ? (
            <rect x={x} y={y + 52} width={Math.max(2, w)} height={22} className="router-kv-follow" />
          ) : null}
          {w >= (s < 0 ? 40 : 22) ? (
            <text
              x={x + w / 2}
              y={y + 66.5}
              textAnchor="middle"
              className={s < 0 ? 'router-kv-label-shared' : 'router-kv-label'}
            >
              {sessionLabel(s)}
            </text>
          ) : null}
        </g>
      );
      x += w;
      return el;
    });
    // Queue and batch marks.
    const marks: { req: number; phase: number }[] = [];
    if (f >= 0) {
      for (let j = fr.memOffsets[k]; j < fr.memOffsets[k + 1]; j++) {
        const id = fr.memRequest[j];
        if (req.arrival[id] > t - TRAVEL_S) continue; // still on its way in the picture
        marks.push({ req: id, phase: fr.memPhase[j] });
      }
    }
    marks.sort((a, b) => (a.phase === 0 ? 0 : 1) - (b.phase === 0 ? 0 : 1));
    const shown = marks.slice(0, maxMarks - (marks.length > maxMarks ? 1 : 0));
    const markEls = shown.map((m, i) => {
      const s = req.session[m.req];
      const cx = L.x0 + 16 + i * slot;
      const cls =
        m.phase === 0
          ? 'router-mark is-waiting'
          : m.phase === 3
            ? 'router-mark is-decode'
            : 'router-mark is-prefill';
      return (
        <g key={m.req} transform={`translate(${cx},${y + 31})`} className={cls} data-phase={m.phase}>
          <path d={sessionPath(s, 110)} style={{ fill: sessionColor(s), stroke: sessionColor(s) }} />
          {m.phase === 1 || m.phase === 2 ? (
            <circle r={8.5} className="router-mark-ring" style={{ stroke: sessionColor(s) }} />
          ) : null}
          <text y={17} textAnchor="middle" className="router-mark-label">
            {sessionLabel(s)}
          </text>
          <title>{`${sessionLabel(s)} turn ${req.turn[m.req] + 1}: ${['waiting', 'loading KV', 'prefilling', 'decoding'][m.phase]}`}</title>
        </g>
      );
    });
    const more = marks.length - shown.length;
    const sessionsHere = segs.filter((g) => g.s >= 0).length;
    descParts.push(
      `Replica ${ri + 1}: ${waiting} waiting, ${running} running, HBM ${formatPercent(used / cap, 2)} full, ${sessionsHere} sessions cached.`,
    );
    rows.push(
      <g key={ri} className="router-replica" data-replica={ri}>
        <rect x={L.x0} y={y} width={L.boxW} height={L.rowH} rx={7} className="router-box" />
        <text x={L.x0 + 8} y={y + 15} className="router-title">
          {small ? `R${ri + 1}` : `Replica ${ri + 1}`}
          <tspan className="router-sub">{` · HBM ${formatPercent(used / cap, 2)}${small ? '' : ` · ${sessionsHere} sessions`}`}</tspan>
        </text>
        <text x={L.x0 + L.boxW - 8} y={y + 15} textAnchor="end" className="router-sub">
          {`${waiting} waiting · ${running} running`}
        </text>
        {markEls}
        {more > 0 ? (
          <text x={L.x0 + 16 + shown.length * slot} y={y + 35} className="router-sub" textAnchor="middle">
            +{more}
          </text>
        ) : null}
        <rect x={barX} y={y + 54} width={barW} height={18} className="router-kv-free" />
        {segEls}
      </g>,
    );
  }

  const flights = inFlight.map((i) => {
    const p = Math.min(1, Math.max(0, (t - req.arrival[i]) / TRAVEL_S));
    const [x, y] = along(L.lane(req.replica[i]), p);
    const s = req.session[i];
    return (
      <g key={i} transform={`translate(${x},${y})`} className="router-flight" data-request={i}>
        <path d={sessionPath(s, 130)} style={{ fill: sessionColor(s), stroke: 'var(--chart-bg)' }} />
        <text y={-10} textAnchor="middle" className="router-mark-label">
          {sessionLabel(s)}
        </text>
      </g>
    );
  });

  const lastReason = last >= 0 && r.reason[last] !== 255 ? r.reasonNames[r.reason[last]] : null;
  const lines: string[] = [];
  if (last >= 0) {
    lines.push(`${sessionLabel(req.session[last])} turn ${req.turn[last] + 1}`);
    lines.push(`→ replica ${req.replica[last] + 1}`);
    if (lastReason) lines.push(REASON_TEXT[lastReason] ?? lastReason);
    if (r.matched[last] >= 0 && lastReason?.startsWith('cache'))
      lines.push(`${formatCount(r.matched[last] * r.blockSize)} cached`);
  }
  const desc = `At ${t.toFixed(1)} s. ${descParts.join(' ')}`;

  return (
    <div className="router-picture" ref={observe}>
      <svg
        width={shown}
        height={Math.round(L.height * scale)}
        viewBox={`0 0 ${width} ${L.height}`}
        role="img"
        aria-label={`Animated router, ${POLICY_LABELS[r.policy]}: requests travel to ${R} replicas; each shows its queue, its batch and its HBM KV cache by session`}
        className="chart-svg router-svg"
        data-chart="router"
        xmlns="http://www.w3.org/2000/svg"
      >
        <desc>{desc}</desc>
        <defs>
          <pattern id="router-shared-hatch" patternUnits="userSpaceOnUse" width={6} height={6}>
            <rect width={6} height={6} className="router-hatch-bg" />
            <path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" className="router-hatch-line" />
          </pattern>
        </defs>
        <text x={0} y={13} className="router-sub">
          {`t = ${t.toFixed(1)} s`}
        </text>
        {Array.from({ length: R }, (_, ri) => (
          <polyline
            key={ri}
            points={L.lane(ri)
              .map((q) => q.join(','))
              .join(' ')}
            className="router-lane"
          />
        ))}
        <rect
          x={L.router.x}
          y={L.router.y}
          width={L.router.w}
          height={L.router.h}
          rx={8}
          className="router-node"
        />
        {L.stacked ? (
          <>
            <text x={8} y={L.router.y + 17} className="router-title">
              {'Router '}
              <tspan className="router-sub">{POLICY_LABELS[r.policy]}</tspan>
            </text>
            <text x={8} y={L.router.y + 35} className="router-decision">
              {lines.length ? (
                <>
                  <tspan className="router-decision-head">{lines[0]}</tspan>
                  {` ${lines.slice(1).join(' · ')}`}
                </>
              ) : null}
            </text>
          </>
        ) : (
          <>
            <text x={L.router.w / 2} y={L.router.y + 18} textAnchor="middle" className="router-title">
              Router
            </text>
            <text x={L.router.w / 2} y={L.router.y + 33} textAnchor="middle" className="router-sub">
              {POLICY_LABELS[r.policy]}
            </text>
            {lines.map((line, i) => (
              <text
                key={i}
                x={L.router.w / 2}
                y={L.router.y + 54 + i * 14}
                textAnchor="middle"
                className={i === 0 ? 'router-decision-head' : 'router-decision'}
              >
                {truncate(line, 18)}
              </text>
            ))}
          </>
        )}
        {rows}
        {flights}
      </svg>
      {follow !== null ? <FollowNote r={r} f={f} follow={follow} /> : null}
    </div>
  );
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** Where the followed session's KV is at this frame. */
function FollowNote({ r, f, follow }: { r: RouterAnimationResult; f: number; follow: number }) {
  const R = r.replicas;
  const where: { replica: number; blocks: number }[] = [];
  if (f >= 0) {
    for (let ri = 0; ri < R; ri++) {
      const k = f * R + ri;
      for (let j = r.frames.kvOffsets[k]; j < r.frames.kvOffsets[k + 1]; j++) {
        if (r.frames.kvSession[j] === follow) where.push({ replica: ri, blocks: r.frames.kvBlocks[j] });
      }
    }
  }
  const total = where.reduce((a, w) => a + w.blocks, 0);
  const largest = where.reduce((a, w) => Math.max(a, w.blocks), 0);
  return (
    <p className="router-follow-note" data-follow-copies={where.length}>
      <svg width={14} height={14} viewBox="-7 -7 14 14" aria-hidden="true">
        <path d={sessionPath(follow, 90)} style={{ fill: sessionColor(follow) }} />
      </svg>{' '}
      <strong>{sessionLabel(follow)}</strong> ({sessionShapeName(follow)}):{' '}
      {where.length === 0
        ? 'nothing of its own in any replica’s HBM now.'
        : `its own KV sits on ${where.length} of ${R} replicas (${where.map((w) => `R${w.replica + 1}`).join(', ')}); ${
            where.length > 1
              ? `${formatBytesDecimal((total - largest) * r.bytesPerBlock)} of it held in duplicate.`
              : 'no duplicate.'
          }`}
    </p>
  );
}
