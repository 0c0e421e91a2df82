/**
 * A <canvas> for thousands of marks, sized for devicePixelRatio and redrawn only when `data`, the size, the
 * pixel ratio or the theme change. Colours: pass CSS values such as 'var(--series-1)' through `color()`,
 * which resolves them with getComputedStyle at draw time.
 */
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { resolveCssColor } from './theme';
import { useChartZoom } from './zoom';

export interface CanvasDrawInfo {
  /** CSS pixel size (the context is already scaled by devicePixelRatio). */
  width: number;
  height: number;
  /** Resolve 'var(--name)' to a concrete colour. */
  color: (value: string, fallback?: string) => string;
}

export interface CanvasLayerProps {
  width: number;
  height: number;
  /** Offset inside the chart box (the plot area's top-left). */
  left?: number;
  top?: number;
  /** Anything whose identity changes when the drawing must change. */
  data: unknown;
  draw: (ctx: CanvasRenderingContext2D, info: CanvasDrawInfo) => void;
  /** Called after each redraw (e.g. to snapshot the canvas for export). */
  onDrawn?: (canvas: HTMLCanvasElement) => void;
  className?: string;
}

/** A counter that changes when the document's theme or the colour-scheme preference changes. */
export function useThemeVersion(): number {
  const [v, setV] = useState(0);
  useEffect(() => {
    if (typeof document === 'undefined') return;
    const bump = () => setV((n) => n + 1);
    const mo = new MutationObserver(bump);
    mo.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-theme', 'class', 'style'],
    });
    const mq = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : null;
    mq?.addEventListener('change', bump);
    return () => {
      mo.disconnect();
      mq?.removeEventListener('change', bump);
    };
  }, []);
  return v;
}

function useDevicePixelRatio(): number {
  const [dpr, setDpr] = useState(() => (typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1));
  useEffect(() => {
    if (typeof window === 'undefined' || typeof matchMedia !== 'function') return;
    const mq = matchMedia(`(resolution: ${dpr}dppx)`);
    const on = () => setDpr(window.devicePixelRatio || 1);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [dpr]);
  return dpr;
}

/**
 * For a canvas a widget draws itself in chart units (the units useChartSize gives): its CSS pixels per unit
 * (above 1 in presentation mode; zoom.ts) and its backing-store pixels per unit (that times the device pixel
 * ratio, at most 2: these canvases hold thousands of marks). Size the element at units × zoom, the store at
 * units × px, and draw after ctx.setTransform(px, 0, 0, px, 0, 0).
 */
export function useCanvasScale(): { zoom: number; px: number } {
  const zoom = useChartZoom();
  const dpr = Math.min(2, useDevicePixelRatio());
  return { zoom, px: dpr * zoom };
}

export function CanvasLayer({
  width,
  height,
  left = 0,
  top = 0,
  data,
  draw,
  onDrawn,
  className,
}: CanvasLayerProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const drawRef = useRef(draw);
  const drawnRef = useRef(onDrawn);
  useEffect(() => {
    drawRef.current = draw;
    drawnRef.current = onDrawn;
  });
  // Drawn in chart units; a zoomed chart (presentation mode) scales the backing store and the box with it.
  const zoom = useChartZoom();
  const dpr = useDevicePixelRatio();
  const px = dpr * zoom;
  const theme = useThemeVersion();

  useEffect(() => {
    const canvas = ref.current;
    if (!canvas) return;
    const w = Math.max(1, Math.round(width * px));
    const h = Math.max(1, Math.round(height * px));
    if (canvas.width !== w) canvas.width = w;
    if (canvas.height !== h) canvas.height = h;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(px, 0, 0, px, 0, 0);
    ctx.clearRect(0, 0, width, height);
    drawRef.current(ctx, {
      width,
      height,
      color: (value, fallback) => resolveCssColor(canvas, value, fallback),
    });
    drawnRef.current?.(canvas);
  }, [data, width, height, px, theme]);

  const style: CSSProperties = {
    left: left * zoom,
    top: top * zoom,
    width: width * zoom,
    height: height * zoom,
  };
  return (
    <canvas
      ref={ref}
      className={`chart-canvas${className ? ` ${className}` : ''}`}
      style={style}
      aria-hidden="true"
      data-dpr={dpr}
    />
  );
}
