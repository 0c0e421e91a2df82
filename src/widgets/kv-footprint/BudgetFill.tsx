/**
 * The HBM KV budget as a grid of blocks, filled by agent contexts one after another as the transport plays
 * (fill.ts). Each context's blocks in its own colour with a dark edge where a context begins, so where one ends
 * is not told by colour alone; free blocks in the grid's colour; the blocks of the context that finds no room are
 * drawn hatched below the grid.
 * Redrawn only when the filled count changes.
 */
import { memo, useEffect, useMemo, useRef } from 'react';
import { useCanvasScale, useThemeVersion } from '../kit/charts/CanvasLayer';
import { useChartSize } from '../kit/charts/useChartSize';
import { resolveCssColor, seriesColor } from '../kit/charts/theme';
import { ownerOf, type FillPlan, type FillState } from './fill';

export const BudgetFill = memo(function BudgetFill({
  plan,
  state,
  label,
}: {
  plan: FillPlan;
  state: FillState;
  label: string;
}) {
  const { observe, width } = useChartSize({ aspect: 0.4 });
  const ref = useRef<HTMLCanvasElement>(null);
  const theme = useThemeVersion();
  const cell = useMemo(() => {
    // The largest cell (≤ 12 px) for which the grid fits in about 260 px of height.
    let s = 12;
    while (s > 2 && Math.ceil(plan.budgetCells / Math.floor(width / s)) * s > 260) s -= 0.5;
    return s;
  }, [plan.budgetCells, width]);
  const cols = Math.max(1, Math.floor(width / cell));
  const rows = Math.ceil(plan.budgetCells / cols);
  const overflowRows = Math.ceil(Math.min(plan.contextCells, Math.max(1, state.overflowCells)) / cols);
  const height = Math.ceil((rows + 1 + overflowRows) * cell) + 4;
  const { zoom, px } = useCanvasScale();

  useEffect(() => {
    const c = ref.current;
    const g = c?.getContext('2d');
    if (!c || !g) return;
    const el = document.documentElement;
    g.setTransform(px, 0, 0, px, 0, 0);
    g.clearRect(0, 0, width, height);
    const gap = cell >= 4 ? 1 : 0;
    // Every free cell is drawn too, so the budget reads as a grid of its blocks before anything fills it, and
    // its last row ends where the budget does.
    g.fillStyle = resolveCssColor(el, 'var(--chart-grid)', '#d0d7de');
    for (let i = state.usedCells; i < plan.budgetCells; i++)
      g.fillRect((i % cols) * cell, Math.floor(i / cols) * cell, cell - gap, cell - gap);
    const colours = Array.from({ length: 8 }, (_, i) => resolveCssColor(el, seriesColor(i), '#47a'));
    const edge = resolveCssColor(el, 'var(--chart-fg)', '#111');
    for (let i = 0; i < state.usedCells; i++) {
      const a = ownerOf(plan, i);
      const x = (i % cols) * cell;
      const y = Math.floor(i / cols) * cell;
      g.fillStyle = colours[a % 8];
      g.fillRect(x, y, cell - gap, cell - gap);
      if (i % plan.contextCells === 0) {
        g.fillStyle = edge;
        g.fillRect(x, y, Math.max(1, cell / 4), cell - gap);
      }
    }
    if (state.overflowCells > 0) {
      const top = (rows + 1) * cell;
      const danger = resolveCssColor(el, 'var(--chart-danger)', '#c33');
      g.strokeStyle = danger;
      g.lineWidth = 1;
      for (let j = 0; j < state.overflowCells; j++) {
        const x = (j % cols) * cell;
        const y = top + Math.floor(j / cols) * cell;
        g.strokeRect(x + 0.5, y + 0.5, cell - gap - 1, cell - gap - 1);
        g.beginPath();
        g.moveTo(x, y + cell - gap);
        g.lineTo(x + cell - gap, y);
        g.stroke();
      }
    }
    c.dataset.cell = String(cell);
    c.dataset.used = String(state.usedCells);
    c.dataset.overflow = String(state.overflowCells);
  }, [plan, state.usedCells, state.overflowCells, cols, cell, rows, width, height, px, theme]);

  return (
    <div ref={observe} className="budget-fill" data-figure="budget-fill">
      <canvas
        ref={ref}
        width={Math.round(width * px)}
        height={Math.round(height * px)}
        style={{ width: width * zoom, height: height * zoom, display: 'block', maxWidth: '100%' }}
        role="img"
        aria-label={label}
      />
    </div>
  );
});
