/**
 * Chart zoom: how much larger than reading size every chart draws its text, marks and lines. Presentation mode
 * provides a zoom above 1; a chart then lays itself out at (container width ÷ zoom) and draws that picture zoomed
 * to the container, so tick labels, symbols and strokes all grow together and no layout constant needs to know.
 */
import { createContext, useContext } from 'react';

export const ChartZoomContext = createContext(1);

export function useChartZoom(): number {
  const z = useContext(ChartZoomContext);
  return Number.isFinite(z) && z > 0 ? z : 1;
}

/**
 * The pointer's position inside an element drawn in chart units (an overlay <rect> with a width attribute),
 * whatever zoom the chart is drawn at.
 */
export function pointerInPlot(e: { clientX: number; clientY: number; currentTarget: Element }): {
  x: number;
  y: number;
} {
  const el = e.currentTarget;
  const r = el.getBoundingClientRect();
  const w = Number(el.getAttribute('width'));
  const h = Number(el.getAttribute('height'));
  const sx = w > 0 && r.width > 0 ? w / r.width : 1;
  const sy = h > 0 && r.height > 0 ? h / r.height : sx;
  return { x: (e.clientX - r.left) * sx, y: (e.clientY - r.top) * sy };
}

/** Type in presentation mode on a 1920 × 1080 screen (#11 asks ≥ 1.5×); charts draw larger (PRESENT_CHART_ZOOM). */
export const PRESENT_ZOOM = 1.5;
const PROJECTED_SCREEN = { width: 1920, height: 1080 };

/** Past this a window is a wall-sized display read from close by, not a projected screen. */
const MAX_PROJECTED_ZOOM = 3;

/**
 * The zoom presentation mode and fullscreen draw at in a window of this size. A projector at 1280 × 800 fills the
 * same wall as one at 1920 × 1080, so its pixels are 1.5× larger there and reading-size text already reads like
 * 1.5× text on the larger one; zooming it 1.5× again would push every widget's picture past the bottom of the
 * screen. So the zoom keeps what a projected screen holds, as a slide does: 1.5× at 1920 × 1080, in proportion to
 * the window's tighter side (2× at 2560 × 1440), never under reading size and at most 3×. Steps of 0.05, so a
 * window resized by a few pixels does not lay every chart out again.
 */
export function projectedZoom(windowWidth: number, windowHeight: number): number {
  if (!(windowWidth > 0 && windowHeight > 0)) return PRESENT_ZOOM;
  const share = Math.min(windowWidth / PROJECTED_SCREEN.width, windowHeight / PROJECTED_SCREEN.height);
  const z = Math.min(MAX_PROJECTED_ZOOM, Math.max(1, PRESENT_ZOOM * share));
  return Math.floor(z * 20 + 1e-9) / 20;
}

/**
 * Chart text, marks and strokes in presentation mode (and fullscreen) on a 1920 × 1080 screen: a tick label (11 chart
 * units) 24.75 px there, and 16.5 px on a 1280 × 720 projector, the smallest a lecture hall reads from its back rows.
 * Charts take 1.5× the prose's zoom because a chart's text starts smaller than the prose's (11 units against 17 px)
 * and is what the room has to read.
 */
export const PRESENT_CHART_ZOOM = 2.25;
const MAX_PROJECTED_CHART_ZOOM = MAX_PROJECTED_ZOOM * (PRESENT_CHART_ZOOM / PRESENT_ZOOM);

/**
 * The zoom charts draw at in presentation mode (and fullscreen) in a window of this size: PRESENT_CHART_ZOOM on a
 * 1920 × 1080 screen and in proportion to the window's tighter side on any other, so that a chart's text keeps its
 * share of the projected screen (1.5× on a 1280 × 720 or 1280 × 800 projector, 3× at 2560 × 1440); never under
 * reading size, at most 4.5×, in steps of 0.05. Unlike the type (projectedZoom) it has no floor at 1280 pixels: a
 * chart is laid out in (width ÷ zoom) units and fits whatever its zoom, its height capped at a share of the window.
 */
export function projectedChartZoom(windowWidth: number, windowHeight: number): number {
  if (!(windowWidth > 0 && windowHeight > 0)) return PRESENT_CHART_ZOOM;
  const share = Math.min(windowWidth / PROJECTED_SCREEN.width, windowHeight / PROJECTED_SCREEN.height);
  const z = Math.min(MAX_PROJECTED_CHART_ZOOM, Math.max(1, PRESENT_CHART_ZOOM * share));
  return Math.floor(z * 20 + 1e-9) / 20;
}
