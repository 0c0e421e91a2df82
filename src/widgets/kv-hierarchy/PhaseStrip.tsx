/**
 * The sessions' phases on a time axis (phases.ts): one lane per session, a bar per frame whose height says the
 * phase (full: prefill, two thirds: decode, a third: queued or loading KV, a hairline: tool wait), so the phase is
 * not told by colour alone; a playhead at t. The lanes are drawn once per run and size, the playhead per frame.
 */
import { memo, useEffect, useMemo, useRef } from 'react';
import { useCanvasScale, useThemeVersion } from '../kit/charts/CanvasLayer';
import { resolveCssColor } from '../kit/charts/theme';
import { PHASE_DECODE, PHASE_PREFILL, PHASE_QUEUED, PHASE_TOOL, type PhaseGrid } from './phases';

const LANE_H = 7;
const AXIS_H = 16;

export const PhaseStrip = memo(function PhaseStrip({
  grid,
  width,
  durationS,
  t,
}: {
  grid: PhaseGrid;
  width: number;
  durationS: number;
  t: number;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const theme = useThemeVersion();
  const height = grid.lanes * LANE_H + AXIS_H;
  const { zoom, px } = useCanvasScale();
  const lanes = useMemo(() => {
    if (typeof document === 'undefined') return null;
    const el = document.documentElement;
    const c = document.createElement('canvas');
    c.width = Math.round(width * px);
    c.height = Math.round(height * px);
    const g = c.getContext('2d');
    if (!g) return null;
    g.setTransform(px, 0, 0, px, 0, 0);
    const colour = {
      [PHASE_PREFILL]: resolveCssColor(el, 'var(--series-2)', '#c60'),
      [PHASE_DECODE]: resolveCssColor(el, 'var(--series-1)', '#36c'),
      [PHASE_QUEUED]: resolveCssColor(el, 'var(--chart-danger)', '#c33'),
      [PHASE_TOOL]: resolveCssColor(el, 'var(--chart-muted)', '#999'),
    } as Record<number, string>;
    const frac = {
      [PHASE_PREFILL]: 1,
      [PHASE_DECODE]: 0.66,
      [PHASE_QUEUED]: 0.33,
      [PHASE_TOOL]: 0.15,
    } as Record<number, number>;
    const dx = width / Math.max(1, grid.frames);
    for (let l = 0; l < grid.lanes; l++) {
      for (let k = 0; k < grid.frames; k++) {
        const p = grid.phase[l * grid.frames + k];
        if (!p) continue;
        const h = Math.max(1, (LANE_H - 1) * frac[p]);
        g.fillStyle = colour[p];
        g.fillRect(k * dx, l * LANE_H + (LANE_H - 1 - h), Math.ceil(dx), h);
      }
    }
    g.fillStyle = resolveCssColor(el, 'var(--chart-fg)', '#111');
    g.font = '11px system-ui, sans-serif';
    g.textBaseline = 'top';
    const ticks = 4;
    for (let i = 0; i <= ticks; i++) {
      const s = (durationS * i) / ticks;
      const x = (width * i) / ticks;
      g.textAlign = i === 0 ? 'left' : i === ticks ? 'right' : 'center';
      g.fillText(`${Math.round(s)} s`, x, grid.lanes * LANE_H + 3);
    }
    return { image: c };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- theme is the reason to redraw
  }, [grid, width, height, durationS, px, theme]);

  useEffect(() => {
    const c = ref.current;
    const g = c?.getContext('2d');
    if (!c || !g || !lanes) return;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, c.width, c.height);
    g.drawImage(lanes.image, 0, 0);
  }, [lanes]);

  // The playhead is a composited element moved by a transform: playing repaints nothing of the lanes.
  const x = durationS > 0 ? Math.min(width - 2, (t / durationS) * width) : 0;
  return (
    <div className="kvh-phases-wrap" style={{ width: width * zoom, height: height * zoom }}>
      <canvas
        ref={ref}
        className="kvh-phases"
        width={Math.round(width * px)}
        height={Math.round(height * px)}
        style={{ width: width * zoom, height: height * zoom }}
        role="img"
        aria-label={`Phases of ${grid.lanes} session lanes over ${Math.round(durationS)} s of simulated time`}
      />
      <div
        className="kvh-playhead"
        style={{ height: grid.lanes * LANE_H * zoom, transform: `translateX(${x * zoom}px)` }}
        aria-hidden="true"
      />
    </div>
  );
});
