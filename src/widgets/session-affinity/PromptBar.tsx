/**
 * One turn's prompt in the trajectory chart's lower panel (TrajectoryChart.tsx): a stacked bar of its tokens
 * reused from the cache, re-prefilled (computed before, computed again) and prefilled new; the current turn's
 * outlined.
 */
import { partFill } from '../kit/charts/patterns';
import { r2 } from '../kit/charts/layout';
import type { TurnRow } from '../../sim/lessons/affinity';
import { PARTS } from './turnMarks';

export function PromptBar({
  row,
  x,
  w,
  y,
  prefix,
  current,
}: {
  row: TurnRow;
  x: number;
  w: number;
  y: (v: number) => number;
  /** The chart's pattern ids' prefix (PartPatterns). */
  prefix: string;
  current: boolean;
}) {
  const parts = [
    row.reusedTokens,
    row.rePrefilledTokens,
    row.promptTokens - row.reusedTokens - row.rePrefilledTokens,
  ];
  let acc = 0;
  return (
    <g data-bar-turn={row.turn}>
      {parts.map((v, k) => {
        if (!(v > 0)) return null;
        const y0 = y(acc);
        acc += v;
        const y1 = y(acc);
        return (
          <rect
            key={k}
            x={r2(x)}
            y={r2(y1)}
            width={r2(w)}
            height={r2(Math.max(0.5, y0 - y1))}
            style={{ fill: partFill(prefix, PARTS, k) }}
          />
        );
      })}
      {current ? (
        <rect
          x={r2(x - 1)}
          y={r2(y(row.promptTokens) - 1)}
          width={r2(w + 2)}
          height={r2(y(0) - y(row.promptTokens) + 2)}
          style={{ fill: 'none', stroke: 'var(--chart-fg)', strokeWidth: 1.5 }}
        />
      ) : null}
    </g>
  );
}
