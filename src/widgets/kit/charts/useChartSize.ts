/** The chart's size: explicit props win; otherwise the container's width (ResizeObserver) and an aspect-ratio height. */
import { useCallback, useLayoutEffect, useRef, useState } from 'react';

export const DEFAULT_WIDTH = 640;

export interface SizeOptions {
  width?: number;
  height?: number;
  aspect?: number;
  minHeight?: number;
  maxHeight?: number;
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
  return Math.round(Math.min(opts.maxHeight ?? 440, Math.max(opts.minHeight ?? 200, h)));
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
