/**
 * Drawing one instant of the hierarchy onto a canvas: a frame step's marks (layout.ts transition) at eased
 * progress e, over the tiers' bands. Positions of a step are computed once per (step, geometry) and the marks
 * sorted by colour, so a drawn frame is one fillRect per mark with a handful of fillStyle changes.
 */
import {
  cellXY,
  MOVE_GROW,
  MOVE_SHRINK,
  SHARED_COLOUR,
  SESSION_COLOURS,
  STATE_PENDING,
  TIER_LABELS,
  type Geometry,
  type Transition,
} from './layout';

export interface Palette {
  sessions: string[];
  shared: string;
  sharedRing: string;
  band: string;
  bandEdge: string;
  label: string;
  /** A free cell of a band: one page of capacity not holding a copy. */
  freeCell: string;
  /** Behind the bands (the canvas is opaque). */
  page: string;
}

/** A step placed on a geometry: start and end corners of each mark, in colour order. */
export interface PlacedStep {
  count: number;
  order: Uint32Array;
  fx: Float32Array;
  fy: Float32Array;
  tx: Float32Array;
  ty: Float32Array;
  /** Offsets into `order` where each colour bucket starts (SESSION_COLOURS + 1 buckets, shared last). */
  buckets: Uint32Array;
}

function bucketOf(colour: number): number {
  return colour === SHARED_COLOUR ? SESSION_COLOURS : colour % SESSION_COLOURS;
}

export function placeStep(tr: Transition, g: Geometry): PlacedStep {
  const n = tr.count;
  const p: PlacedStep = {
    count: n,
    order: new Uint32Array(n),
    fx: new Float32Array(n),
    fy: new Float32Array(n),
    tx: new Float32Array(n),
    ty: new Float32Array(n),
    buckets: new Uint32Array(SESSION_COLOURS + 2),
  };
  for (let i = 0; i < n; i++) {
    const [fx, fy] = cellXY(g, tr.fromTier[i], tr.fromSlot[i]);
    const [tx, ty] = cellXY(g, tr.toTier[i], tr.toSlot[i]);
    p.fx[i] = fx;
    p.fy[i] = fy;
    p.tx[i] = tx;
    p.ty[i] = ty;
    p.buckets[bucketOf(tr.colour[i]) + 1]++;
  }
  for (let b = 1; b < p.buckets.length; b++) p.buckets[b] += p.buckets[b - 1];
  const fill = p.buckets.slice(0, -1);
  for (let i = 0; i < n; i++) p.order[fill[bucketOf(tr.colour[i])]++] = i;
  return p;
}

export interface TierLabel {
  tier: number;
  text: string;
}

/**
 * What stays from frame to frame: the page, each tier's band and one free cell per page of its capacity, so a
 * band reads as the pages it can hold before anything arrives (and its last row ends where its capacity does).
 * Drawn once per geometry and palette (thousands of cells), then copied under every frame.
 */
export function drawBackdrop(ctx: CanvasRenderingContext2D, g: Geometry, pal: Palette): void {
  ctx.fillStyle = pal.page;
  ctx.fillRect(0, 0, g.width, g.height);
  const gap = g.cell >= 4 ? 1 : 0;
  const full = Math.max(1, g.cell - gap);
  for (const b of g.boxes) {
    ctx.fillStyle = pal.band;
    ctx.fillRect(b.x, b.y, b.cols * g.cell, b.rows * g.cell);
    ctx.fillStyle = pal.freeCell;
    for (let slot = 0; slot < b.capacity; slot++)
      ctx.fillRect(b.x + (slot % b.cols) * g.cell, b.y + Math.floor(slot / b.cols) * g.cell, full, full);
    ctx.strokeStyle = pal.bandEdge;
    ctx.lineWidth = 1;
    ctx.strokeRect(b.x + 0.5, b.y + 0.5, b.cols * g.cell - 1, b.rows * g.cell - 1);
  }
}

/** Draw one frame: the backdrop, the bands' labels and the marks at eased progress e ∈ [0, 1] of the step. */
export function drawHierarchy(
  ctx: CanvasRenderingContext2D,
  g: Geometry,
  tr: Transition,
  p: PlacedStep,
  e: number,
  pal: Palette,
  labels: readonly TierLabel[],
  /** drawBackdrop's picture for this geometry and palette, at the canvas's scale. */
  backdrop: CanvasImageSource,
): void {
  ctx.drawImage(backdrop, 0, 0, g.width, g.height);
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = pal.label;
  for (const b of g.boxes) {
    const text = labels.find((l) => l.tier === b.tier)?.text ?? TIER_LABELS[b.tier];
    ctx.fillText(text, b.x + 2, b.labelY + 9);
  }
  const gap = g.cell >= 4 ? 1 : 0;
  const full = Math.max(1, g.cell - gap);
  for (let c = 0; c <= SESSION_COLOURS; c++) {
    const from = p.buckets[c];
    const to = p.buckets[c + 1];
    if (from === to) continue;
    const colour = c === SESSION_COLOURS ? pal.shared : pal.sessions[c];
    ctx.fillStyle = colour;
    ctx.strokeStyle = colour;
    for (let j = from; j < to; j++) {
      const i = p.order[j];
      const k = tr.kind[i];
      const s = k === MOVE_GROW ? e : k === MOVE_SHRINK ? 1 - e : 1;
      if (s <= 0) continue;
      const size = full * s;
      const off = (full - size) / 2;
      const x = p.fx[i] + (p.tx[i] - p.fx[i]) * e + off;
      const y = p.fy[i] + (p.ty[i] - p.fy[i]) * e + off;
      if (tr.state[i] === STATE_PENDING && size >= 3) ctx.strokeRect(x + 0.5, y + 0.5, size - 1, size - 1);
      else ctx.fillRect(x, y, size, size);
    }
    if (c === SESSION_COLOURS && full >= 3) {
      // The shared head's pages also carry a ring, so "shared" is not told by colour alone.
      ctx.strokeStyle = pal.sharedRing;
      ctx.lineWidth = 1;
      for (let j = from; j < to; j++) {
        const i = p.order[j];
        const k = tr.kind[i];
        if (k === MOVE_SHRINK || k === MOVE_GROW) continue;
        const x = p.fx[i] + (p.tx[i] - p.fx[i]) * e;
        const y = p.fy[i] + (p.ty[i] - p.fy[i]) * e;
        ctx.strokeRect(x + 0.5, y + 0.5, full - 1, full - 1);
      }
    }
  }
}
