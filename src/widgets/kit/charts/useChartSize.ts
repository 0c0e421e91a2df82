/** The chart's size: explicit props win; otherwise the container's width (ResizeObserver) and an aspect-ratio height. */
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { legendLayout } from './layout';
import { useWindowSize } from './useWindowSize';
import { PRESENT_ZOOM, useChartZoom } from './zoom';

export const DEFAULT_WIDTH = 640;

/**
 * The narrowest a chart of a grid of charts is laid out, in chart units (charts.css .chart-columns: 20rem; keep the
 * two equal): about a chart on a phone (351 at 390 px, 321 at 360 px), where its axis titles and markers' labels
 * have room. e2e/widget-layout.spec.ts checks that no lesson chart is drawn narrower at 1280 px or on a 1920 × 1080
 * projector, but for the pairs a lesson compares side by side (its SIDE_BY_SIDE).
 */
export const CHART_MIN_WIDTH = 320;

export interface SizeOptions {
  width?: number;
  height?: number;
  aspect?: number;
  minHeight?: number;
  maxHeight?: number;
  /**
   * Legend labels drawn above the plot. With an automatic height the legend's rows are added on top of the
   * aspect-ratio height, so a many-series legend on a phone does not squeeze the plot to a sliver.
   */
  legendLabels?: readonly string[];
  /** Share of the window's height the chart may take (MAX_WINDOW_SHARE unless a picture needs more). */
  windowShare?: number;
}

export interface ChartSize {
  /** Callback ref: attach to the element whose width the chart follows. */
  observe: (el: HTMLElement | null) => void;
  /** The chart's size in its own units (what layouts and scales use). */
  width: number;
  height: number;
  /** Screen pixels per chart unit (presentation mode draws above 1; zoom.ts). */
  zoom: number;
  /**
   * The window's height in chart units (Infinity outside a browser): a picture that sizes itself (panels, rows,
   * bands) takes a share of it, so that zoomed it keeps the same share of the screen.
   */
  windowUnits: number;
}

/** Share of the window's height a chart may take by default, so a widget's picture and read-outs fit one screen. */
export const MAX_WINDOW_SHARE = 0.45;

export function heightFor(width: number, opts: SizeOptions, windowCap = Infinity): number {
  if (opts.height !== undefined && opts.height > 0) return Math.round(opts.height);
  const h = width * (opts.aspect ?? 0.56);
  const cap = Math.min(opts.maxHeight ?? 440, windowCap);
  const plot = Math.min(cap, Math.max(opts.minHeight ?? 200, h));
  const legend = opts.legendLabels?.length
    ? legendLayout(opts.legendLabels, Math.max(100, width - 8)).height + 8
    : 0;
  return Math.round(plot + legend);
}

export function useChartSize(opts: SizeOptions = {}): ChartSize {
  const fixedWidth = opts.width !== undefined && opts.width > 0 ? Math.round(opts.width) : undefined;
  const [measured, setMeasured] = useState<number | null>(null);
  const [el, setEl] = useState<HTMLElement | null>(null);
  const frame = useRef(0);

  const observe = useCallback((node: HTMLElement | null) => setEl(node), []);

  useLayoutEffect(() => {
    if (fixedWidth !== undefined || !el) return;
    const read = (w: number) => {
      const rounded = Math.max(0, Math.floor(w));
      if (rounded > 0) setMeasured((prev) => (prev === rounded ? prev : rounded));
    };
    read(el.getBoundingClientRect().width);
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => {
      const w = entries[0]?.contentRect.width ?? 0;
      cancelAnimationFrame(frame.current);
      frame.current = requestAnimationFrame(() => read(w));
    });
    ro.observe(el);
    return () => {
      cancelAnimationFrame(frame.current);
      ro.disconnect();
    };
  }, [el, fixedWidth]);

  const zoom = useChartZoom();
  const windowHeight = useWindowSize().height;
  // Sizes (the container's, or the caller's fixed ones) are screen pixels; a zoomed chart lays itself out in
  // fewer, larger units and so keeps its box.
  const screenWidth = fixedWidth ?? measured ?? DEFAULT_WIDTH;
  const width = zoom === 1 ? screenWidth : Math.max(1, Math.floor(screenWidth / zoom));
  const fixedHeight = opts.height !== undefined && opts.height > 0 ? opts.height : undefined;
  // A fixed height is screen pixels, drawn in fewer units as the zoom grows; up to the type's projected zoom (1.5×)
  // the chart keeps its box, past it (the charts' zoom on a large screen) it keeps the units it has at 1.5× and
  // grows on screen, rather than squeezing its plot under larger text.
  const height =
    fixedHeight !== undefined && zoom !== 1
      ? Math.round(fixedHeight / Math.min(zoom, PRESENT_ZOOM))
      : heightFor(
          width,
          opts,
          windowHeight > 0 ? (windowHeight * (opts.windowShare ?? MAX_WINDOW_SHARE)) / zoom : Infinity,
        );
  return { observe, width, height, zoom, windowUnits: windowHeight > 0 ? windowHeight / zoom : Infinity };
}
