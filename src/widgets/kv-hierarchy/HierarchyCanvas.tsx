/**
 * The canvas of the hierarchy animation: one instant (frame step k at eased progress e). Redrawn only when the
 * step, the progress, the size or the theme changes. For benches and browser tests the canvas carries
 * data-frame="<n>", the number of pictures drawn so far, and data-marks, the marks of the current step.
 */
import { memo, useEffect, useMemo, useRef } from 'react';
import { useCanvasScale, useThemeVersion } from '../kit/charts/CanvasLayer';
import { distinctColor, resolveCssColor } from '../kit/charts/theme';
import { drawBackdrop, drawHierarchy, placeStep, type Palette, type TierLabel } from './draw';
import { SESSION_COLOURS, type Geometry, type Transition } from './layout';

export interface HierarchyCanvasProps {
  geometry: Geometry;
  step: Transition;
  progress: number;
  labels: readonly TierLabel[];
  description: string;
}

function palette(el: Element): Palette {
  return {
    sessions: Array.from({ length: SESSION_COLOURS }, (_, i) =>
      resolveCssColor(el, distinctColor(i), '#4477aa'),
    ),
    shared: resolveCssColor(el, 'var(--chart-muted)', '#8a8f98'),
    sharedRing: resolveCssColor(el, 'var(--chart-fg)', '#111'),
    band: resolveCssColor(el, 'var(--kvh-band)', 'rgba(127,127,127,0.08)'),
    bandEdge: resolveCssColor(el, 'var(--chart-grid)', '#ccc'),
    // The colour of a free block in 07.04's budget grid too (BudgetFill), so the two grids read alike.
    freeCell: resolveCssColor(el, 'var(--chart-grid)', '#d0d7de'),
    label: resolveCssColor(el, 'var(--chart-fg)', '#111'),
    page: resolveCssColor(el, 'var(--bg-elev)', '#fff'),
  };
}

export const HierarchyCanvas = memo(function HierarchyCanvas({
  geometry,
  step,
  progress,
  labels,
  description,
}: HierarchyCanvasProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const drawn = useRef(0);
  const theme = useThemeVersion();
  const pal = useMemo(
    () => (typeof document === 'undefined' ? null : palette(document.documentElement)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- theme is the reason to resolve again
    [theme],
  );
  const placed = useMemo(() => placeStep(step, geometry), [step, geometry]);
  const { zoom, px } = useCanvasScale();
  const backdrop = useMemo(() => {
    if (!pal || typeof document === 'undefined') return null;
    const b = document.createElement('canvas');
    b.width = Math.round(geometry.width * px);
    b.height = Math.round(geometry.height * px);
    const ctx = b.getContext('2d', { alpha: false });
    if (!ctx) return null;
    ctx.setTransform(px, 0, 0, px, 0, 0);
    drawBackdrop(ctx, geometry, pal);
    return b;
  }, [geometry, pal, px]);

  useEffect(() => {
    const c = ref.current;
    // Opaque: the compositor need not blend the canvas with the page under it.
    const ctx = c?.getContext('2d', { alpha: false });
    if (!c || !ctx || !pal || !backdrop) return;
    ctx.setTransform(px, 0, 0, px, 0, 0);
    drawHierarchy(ctx, geometry, step, placed, progress, pal, labels, backdrop);
    drawn.current++;
    c.dataset.frame = String(drawn.current);
    c.dataset.marks = String(step.count);
  }, [geometry, step, placed, progress, pal, labels, px, backdrop]);

  return (
    <canvas
      ref={ref}
      className="kvh-canvas"
      width={Math.round(geometry.width * px)}
      height={Math.round(geometry.height * px)}
      style={{ width: geometry.width * zoom, height: geometry.height * zoom }}
      role="img"
      aria-label={description}
    />
  );
});
