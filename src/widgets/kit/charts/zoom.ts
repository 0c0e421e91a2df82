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
