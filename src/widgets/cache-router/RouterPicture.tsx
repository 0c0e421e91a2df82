/**
 * The animated router's picture at time t: the router on the left, each routed request as a mark travelling to
 * its replica with a fading trail, and per replica its queue and batch (one mark per request), the latest
 * arrival's prompt split into the part the replica already held (hit), the part reloaded from the shared pool
 * and the part it must prefill (miss), and what its HBM holds by session. A pure function of (result, t):
 * trails and fades are functions of t too, so scrubbing back restores a frame exactly.
 */
import { memo, useMemo } from 'react';
import { useChartSize } from '../kit/charts/useChartSize';
import { formatPercent } from '../../lib/format';
import type { RouterPictureRun } from '../../sim/lessons/routing/streamed';
import { POLICY_LABELS } from '../../sim/lessons/routing/constants';
import { frameAt } from '../../sim/lessons/routing/summary';
import { describeRoute } from './routeReason';
import { lastArrivalAt } from './playhead';
import { ArrivalBar, KvBar, QueueMark } from './routerParts';
import { FollowNote, PoolNode, RouterNode } from './routerNodes';

export { promptSplit } from './routerParts';
export { wrap } from './routerNodes';
import { lanePart, along, pictureLayout, trailOpacity, TRAIL_S, TRAVEL_S } from './routerLayout';
import { sessionColor, sessionLabel, sessionPath } from './sessionStyle';
import { useFrameStamp } from '../kit/useFrameStamp';
import { useWindowSize } from '../kit/charts/useWindowSize';
import { textWidth } from '../kit/charts/layout';

export { along, pictureLayout, TRAVEL_S } from './routerLayout';

/** Share of the window's height the scaled-up picture may take. */
const MAX_WINDOW_SHARE_ROUTER = 0.62;

/** Widest drawing in px; wider figures scale it up. */
const MAX_LOGICAL_WIDTH = 760;
/** Mark area in flight in px² (d3 symbol size): about 26 px across. */
const FLIGHT_AREA = 520;

export function routeText(r: RouterPictureRun, i: number): string {
  const q = r.requests;
  return describeRoute({
    reason: r.reason[i] === 255 ? null : r.reasonNames[r.reason[i]],
    replica: q.replica[i],
    matchedTokens: r.matched[i] * r.blockSize,
    promptTokens: q.promptTokens[i],
    queued: q.queued[i],
  });
}

/** Memoised: a streaming run re-renders the widget as its chunks arrive, with the same run and time. */
export const RouterPicture = memo(function RouterPicture({
  r,
  t,
  follow,
}: {
  r: RouterPictureRun;
  t: number;
  follow: number | null;
}) {
  // The picture is laid out at its box's width in screen pixels, up to 760, and scaled up as far as the window's
  // height allows: its type (14 units) starts larger than a chart's, and a diagram laid out narrower at the chart
  // zoom (`units`: the box's width divided by it) would only grow taller, not larger.
  const { observe, width: units, zoom } = useChartSize({ aspect: 1 });
  // Past 760 pixels (fullscreen, a projector) the picture is laid out at 760 and scaled up.
  const width = Math.min(units * zoom, MAX_LOGICAL_WIDTH);
  const L = pictureLayout(width, r.replicas, r.poolGB > 0);
  // Scaled up only as far as the window's height allows, so the picture and the read-outs share one screen.
  const windowHeight = useWindowSize().height;
  const maxHeight = windowHeight > 0 ? windowHeight * MAX_WINDOW_SHARE_ROUTER : Infinity;
  const scale = units > 0 ? Math.max(1, Math.min((units * zoom) / width, maxHeight / L.height)) : 1;
  const R = r.replicas;
  const fr = r.frames;
  const f = frameAt(fr, t);
  const req = r.requests;
  const last = lastArrivalAt(req.arrival, req.count, t);

  // Requests whose trail still shows: they left the router in (t − TRAIL_S, t].
  const recent = useMemo(() => {
    const out: number[] = [];
    for (let i = last; i >= 0 && req.arrival[i] > t - TRAIL_S; i--) out.push(i);
    return out.reverse();
  }, [req, t, last]);

  // Per replica, the latest request that has landed there (left the router at or before t − TRAVEL_S).
  const landed = useMemo(() => {
    const out = new Array<number>(R).fill(-1);
    let found = 0;
    for (let i = last; i >= 0 && found < R; i--) {
      if (req.arrival[i] > t - TRAVEL_S) continue;
      const rep = req.replica[i];
      if (out[rep] < 0) {
        out[rep] = i;
        found++;
      }
    }
    return out;
  }, [req, t, last, R]);

  // Pool reloads so far: requests that reloaded any of their prompt from the pool and have landed.
  let poolReloads = 0;
  let poolTokens = 0;
  if (L.pool) {
    for (let i = 0; i <= last; i++) {
      if (req.arrival[i] > t - TRAVEL_S || req.reusedPoolTokens[i] <= 0) continue;
      poolReloads++;
      poolTokens += req.reusedPoolTokens[i];
    }
  }

  let marksDrawn = 0;
  const rows = [];
  const descParts: string[] = [];
  const reloadLinks = [];
  for (let ri = 0; ri < R; ri++) {
    const y = L.rowY(ri);
    const k = f * R + ri;
    const waiting = f >= 0 ? fr.waiting[k] : 0;
    const running = f >= 0 ? fr.running[k] : 0;
    const segs: { s: number; blocks: number }[] = [];
    let used = 0;
    if (f >= 0) {
      for (let j = fr.kvOffsets[k]; j < fr.kvOffsets[k + 1]; j++) {
        segs.push({ s: fr.kvSession[j], blocks: fr.kvBlocks[j] });
        used += fr.kvBlocks[j];
      }
    }
    const marks: { req: number; phase: number }[] = [];
    if (f >= 0) {
      for (let j = fr.memOffsets[k]; j < fr.memOffsets[k + 1]; j++) {
        const id = fr.memRequest[j];
        if (req.arrival[id] > t - TRAVEL_S) continue; // still on its way in the picture
        marks.push({ req: id, phase: fr.memPhase[j] });
      }
    }
    marks.sort((a, b) => (a.phase === 0 ? 0 : 1) - (b.phase === 0 ? 0 : 1));
    const maxMarks = Math.max(3, Math.floor((L.boxW - 60) / L.slot));
    const shownMarks = marks.slice(0, maxMarks - (marks.length > maxMarks ? 1 : 0));
    marksDrawn += shownMarks.length;
    const fill = used / r.hbmBlocks;
    const sessionsHere = segs.filter((g) => g.s >= 0).length;
    const arrived = landed[ri];
    if (arrived >= 0 && L.pool && req.reusedPoolTokens[arrived] > 0) {
      const age = t - req.arrival[arrived] - TRAVEL_S;
      const o = trailOpacity(age);
      if (o > 0)
        reloadLinks.push(
          <line
            key={`reload-${ri}`}
            x1={L.pool.x + L.pool.w}
            y1={L.pool.y + L.pool.h / 2}
            x2={L.x0 + 8}
            y2={y + L.arrivalDy + L.barH / 2}
            className="router-reload-link"
            style={{ opacity: o }}
            data-reload={arrived}
          />,
        );
    }
    descParts.push(
      `Replica ${ri + 1}: ${waiting} waiting, ${running} running, HBM ${formatPercent(fill, 2)} full, ${sessionsHere} sessions cached.`,
    );
    rows.push(
      <g key={ri} className="router-replica" data-replica={ri} data-hbm-fill={fill.toFixed(4)}>
        <rect x={L.x0} y={y} width={L.boxW} height={L.rowH} rx={8} className="router-box" />
        <text x={L.x0 + 10} y={y + L.titleDy} className="router-title">
          {L.stacked ? `R${ri + 1}` : `Replica ${ri + 1}`}
          <tspan className={fill >= 0.9 ? 'router-sub is-full' : 'router-sub'}>
            {` · HBM ${formatPercent(fill, 2)}`}
          </tspan>
        </text>
        <text x={L.x0 + L.boxW - 10} y={y + L.titleDy} textAnchor="end" className="router-sub">
          {L.boxW < 420 ? `${waiting} wait · ${running} run` : `${waiting} waiting · ${running} running`}
        </text>
        {shownMarks.map((m, i) => (
          <QueueMark
            key={m.req}
            x={L.x0 + 18 + i * L.slot}
            y={y + L.markDy}
            s={req.session[m.req]}
            phase={m.phase}
            turn={req.turn[m.req]}
            small={L.stacked}
          />
        ))}
        {marks.length > shownMarks.length ? (
          <text
            x={L.x0 + 18 + shownMarks.length * L.slot}
            y={y + L.markDy + 5}
            className="router-sub"
            textAnchor="middle"
          >
            +{marks.length - shownMarks.length}
          </text>
        ) : null}
        <ArrivalBar r={r} L={L} y={y + L.arrivalDy} i={arrived} t={t} />
        <KvBar r={r} L={L} y={y + L.kvDy} segs={segs} follow={follow} />
      </g>,
    );
  }

  const trails = recent.map((i) => {
    const lane = L.lane(req.replica[i]);
    const age = t - req.arrival[i];
    const p = Math.min(1, age / TRAVEL_S);
    const pts = lanePart(lane, p);
    return (
      <polyline
        key={`trail-${i}`}
        points={pts.map((q) => q.join(',')).join(' ')}
        className="router-trail"
        style={{ stroke: sessionColor(req.session[i]), opacity: 0.85 * trailOpacity(age) }}
        data-trail={i}
      />
    );
  });
  // Requests in flight, newest first, so where two labels would overlap the newer one keeps its label.
  const inFlight = recent
    .filter((i) => t - req.arrival[i] < TRAVEL_S)
    .reverse()
    .map((i) => {
      const [x, y] = along(L.lane(req.replica[i]), (t - req.arrival[i]) / TRAVEL_S);
      return { i, x, y };
    });
  const labelBoxes: { x0: number; x1: number; y0: number; y1: number }[] = [];
  const flightLabels = [];
  for (const { i, x, y } of inFlight) {
    // The label goes before landing, so it never sits on the replica's title.
    if (L.stacked || t - req.arrival[i] > 0.7 * TRAVEL_S) continue;
    const text = sessionLabel(req.session[i]);
    const half = textWidth(text, 14) / 2 + 1;
    const box = { x0: x - half, x1: x + half, y0: y - 30, y1: y - 14 };
    if (labelBoxes.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1)) continue;
    labelBoxes.push(box);
    flightLabels.push(
      <text key={i} x={x} y={y - 17} textAnchor="middle" className="router-mark-label" data-flight-label={i}>
        {text}
      </text>,
    );
  }
  // Marks drawn oldest first (the newest on top), their labels after all of them, so no mark hides a label.
  const flights = inFlight
    .slice()
    .reverse()
    .map(({ i, x, y }) => {
      const s = req.session[i];
      return (
        <g key={i} transform={`translate(${x},${y})`} className="router-flight" data-request={i}>
          <path
            d={sessionPath(s, L.stacked ? 220 : FLIGHT_AREA)}
            style={{ fill: sessionColor(s), stroke: 'var(--chart-bg)' }}
          />
        </g>
      );
    });
  marksDrawn += flights.length;

  const decision = last >= 0 ? routeText(r, last) : null;
  const desc = `At ${t.toFixed(1)} s. ${decision ? `Latest decision: ${sessionLabel(req.session[last])} turn ${req.turn[last] + 1}, ${decision}. ` : ''}${descParts.join(' ')}`;

  // Count the pictures actually drawn (bench and browser tests read data-frame; it changes once per commit).
  const svgRef = useFrameStamp<SVGSVGElement>();

  return (
    <div className="router-picture" ref={observe}>
      <svg
        ref={svgRef}
        width={Math.round(width * scale)}
        height={Math.round(L.height * scale)}
        viewBox={`0 0 ${width} ${L.height}`}
        role="img"
        aria-label={`Animated router, ${POLICY_LABELS[r.policy]}: requests travel to ${R} replicas; each shows its queue, its batch, the latest arrival's cached and prefilled tokens, and its HBM KV cache by session`}
        className="chart-svg router-svg"
        data-chart="router"
        data-marks={marksDrawn}
        data-decision={last}
        xmlns="http://www.w3.org/2000/svg"
      >
        <desc>{desc}</desc>
        <defs>
          <pattern id="router-shared-hatch" patternUnits="userSpaceOnUse" width={6} height={6}>
            <rect width={6} height={6} className="router-hatch-bg" />
            <path d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2" className="router-hatch-line" />
          </pattern>
          <pattern id="router-pool-hatch" patternUnits="userSpaceOnUse" width={7} height={7}>
            <rect width={7} height={7} className="router-pool-bg" />
            <path d="M-1,1 l2,-2 M0,7 l7,-7 M6,8 l2,-2" className="router-pool-line" />
          </pattern>
        </defs>
        <text x={0} y={17} className="router-sub">
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
        {trails}
        <RouterNode r={r} L={L} last={last} decision={decision} />
        {L.pool ? <PoolNode L={L} gb={r.poolGB} reloads={poolReloads} tokens={poolTokens} /> : null}
        {reloadLinks}
        {rows}
        {flights}
        {flightLabels}
      </svg>
      {follow !== null ? <FollowNote r={r} f={f} follow={follow} /> : null}
    </div>
  );
});
