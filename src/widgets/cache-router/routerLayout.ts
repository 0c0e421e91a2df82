/**
 * Geometry of the animated router (lesson 07.03): where the router, the replicas' rows, the lanes between them
 * and the optional shared pool sit, side by side on wide figures and stacked on phones. Pure: no React.
 *
 * Sizes are chosen to read on a projector from the back of a room: text ≥ 14 px at the figure's logical width
 * (a 1280 px window shows it at 1:1), request marks about 22 px across.
 */

/** Simulated seconds a request takes to cross from the router to its replica in the picture. */
export const TRAVEL_S = 1.5;
/** Simulated seconds a routed request's trail takes to fade out (it starts when the request leaves the router). */
export const TRAIL_S = 4;

export interface PictureLayout {
  width: number;
  height: number;
  /** Side by side (router left of the replicas) or stacked (router above, for phones). */
  stacked: boolean;
  router: { x: number; y: number; w: number; h: number };
  /** The shared pool's box (null when the fleet has none). */
  pool: { x: number; y: number; w: number; h: number } | null;
  x0: number;
  boxW: number;
  rowY: (r: number) => number;
  rowH: number;
  /** Offsets inside a row: the title's baseline, the marks' centre line, the arrival bar, the HBM bar. */
  titleDy: number;
  markDy: number;
  arrivalDy: number;
  kvDy: number;
  barH: number;
  /** Horizontal room per queue/batch mark. */
  slot: number;
  /**
   * Where the latest arrival's prompt bar and the HBM bar run, each from its label: one above the other in a
   * narrow row; side by side in a wide one, which keeps the row short so a projected picture scales up further.
   */
  arrivalLane: { x: number; w: number };
  kvLane: { x: number; w: number };
  /** The path a request takes to replica r: a polyline from the router to the row's first mark. */
  lane: (r: number) => [number, number][];
}

/** A replica's box this wide or wider puts its two bars side by side. */
const SIDE_BY_SIDE_BOX = 500;
/** Gap between the two bars side by side, and the prompt bar's share of the width they have. */
const LANE_GAP = 18;
const ARRIVAL_SHARE = 0.55;

export function pictureLayout(width: number, replicas: number, withPool = false): PictureLayout {
  const stacked = width < 560;
  const titleDy = stacked ? 17 : 19;
  const markDy = stacked ? 38 : 42;
  // Below the marks' labels (their baselines at markDy + 25 or 29) with room for the bars' own labels' ascent.
  const arrivalDy = stacked ? 68 : 76;
  const barH = stacked ? 18 : 20;
  const gap = 6;
  const slot = stacked ? 33 : 36;
  const boxWidth = (x0: number, right: number) => Math.max(120, width - x0 - right);
  /** The row's bar lanes in a box from x0, wide enough or not. */
  const bars = (x0: number, boxW: number) => {
    const inner = boxW - 16;
    if (stacked || boxW < SIDE_BY_SIDE_BOX) {
      const kvDy = arrivalDy + barH + (stacked ? 6 : 8);
      const lane = { x: x0 + 8, w: inner };
      return { kvDy, rowH: kvDy + barH + 8, arrivalLane: lane, kvLane: lane };
    }
    const arrivalW = Math.round((inner - LANE_GAP) * ARRIVAL_SHARE);
    return {
      kvDy: arrivalDy,
      rowH: arrivalDy + barH + 8,
      arrivalLane: { x: x0 + 8, w: arrivalW },
      kvLane: { x: x0 + 8 + arrivalW + LANE_GAP, w: inner - arrivalW - LANE_GAP },
    };
  };
  if (stacked) {
    const router = { x: 0, y: 26, w: width, h: 64 };
    const top = router.y + router.h + 16;
    const x0 = 28;
    const boxW = boxWidth(x0, 1);
    const { kvDy, rowH, arrivalLane, kvLane } = bars(x0, boxW);
    const rowY = (r: number) => top + r * (rowH + gap);
    const rowsEnd = top + replicas * (rowH + gap);
    const pool = withPool ? { x: 0, y: rowsEnd + 4, w: width, h: 44 } : null;
    return {
      width,
      height: pool ? pool.y + pool.h + 2 : rowsEnd,
      stacked,
      router,
      pool,
      x0,
      boxW,
      rowY,
      rowH,
      titleDy,
      markDy,
      arrivalDy,
      kvDy,
      barH,
      slot,
      arrivalLane,
      kvLane,
      lane: (r) => [
        [13, router.y + router.h],
        [13, rowY(r) + markDy],
        [x0 + 16, rowY(r) + markDy],
      ],
    };
  }
  const routerW = 168;
  const x0 = routerW + 56;
  const boxW = boxWidth(x0, 2);
  const { kvDy, rowH, arrivalLane, kvLane } = bars(x0, boxW);
  const top = 24;
  const rowY = (r: number) => top + r * (rowH + gap);
  const rowsEnd = top + replicas * (rowH + gap) - gap;
  const poolH = withPool ? 96 : 0;
  const cy = top + (rowsEnd - top - poolH - (withPool ? 14 : 0)) / 2;
  const routerH = 150;
  const router = { x: 0, y: Math.max(top, cy - routerH / 2), w: routerW, h: routerH };
  // The pool sits at the rows' foot, or below the router where few short rows leave no room beside it.
  const poolY = Math.max(rowsEnd - poolH, router.y + routerH + 14);
  const pool = withPool ? { x: 0, y: poolY, w: routerW, h: poolH } : null;
  const ry = router.y + router.h / 2;
  return {
    width,
    height: Math.max(rowsEnd, router.y + router.h, pool ? pool.y + pool.h : 0) + 2,
    stacked,
    router,
    pool,
    x0,
    boxW,
    rowY,
    rowH,
    titleDy,
    markDy,
    arrivalDy,
    kvDy,
    barH,
    slot,
    arrivalLane,
    kvLane,
    lane: (r) => [
      [routerW, ry],
      [x0 + 18, rowY(r) + markDy],
    ],
  };
}

function segLengths(pts: readonly [number, number][]): number[] {
  const out: number[] = [];
  for (let i = 1; i < pts.length; i++)
    out.push(Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]));
  return out;
}

/** The point a fraction p ∈ [0, 1] of the way along a polyline. */
export function along(pts: readonly [number, number][], p: number): [number, number] {
  const lens = segLengths(pts);
  let d = Math.min(1, Math.max(0, p)) * lens.reduce((a, b) => a + b, 0);
  for (let i = 1; i < pts.length; i++) {
    const seg = lens[i - 1];
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

/** The polyline from its start to the point a fraction p of the way along (a trail behind a moving mark). */
export function lanePart(pts: readonly [number, number][], p: number): [number, number][] {
  const q = Math.min(1, Math.max(0, p));
  if (q >= 1) return pts.slice();
  const lens = segLengths(pts);
  let d = q * lens.reduce((a, b) => a + b, 0);
  const out: [number, number][] = [pts[0]];
  for (let i = 1; i < pts.length; i++) {
    if (d <= lens[i - 1]) {
      out.push(along([pts[i - 1], pts[i]], lens[i - 1] > 0 ? d / lens[i - 1] : 1));
      return out;
    }
    d -= lens[i - 1];
    out.push(pts[i]);
  }
  return out;
}

/** Opacity of a trail `age` simulated seconds after its request left the router: 1 fading linearly to 0. */
export function trailOpacity(age: number): number {
  if (!(age >= 0) || age >= TRAIL_S) return 0;
  return 1 - age / TRAIL_S;
}
