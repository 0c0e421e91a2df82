/** The chart's size: explicit props win; otherwise the container's width (ResizeObserver) and an aspect-ratio height. */
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { legendLayout } from './layout';

export const DEFAULT_WIDTH = 640;

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
}

export interface ChartSize {
  /** Callback ref: attach to the element whose width the chart follows. */
  observe: (el: HTMLElement | null) => void;
  width: number;
  height: number;
}

export function heightFor(width: number, opts: SizeOptions): number {
  if (opts.height !== undefined && opts.height > 0) return Math.round(opts.height);
  const h = width * (opts.aspect ?? 0.56);
  const plot = Math.min(opts.maxHeight ?? 440, Math.max(opts.minHeight ?? 200, h));
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

  const width = fixedWidth ?? measured ?? DEFAULT_WIDTH;
  return { observe, width, height: heightFor(width, opts) };
}
