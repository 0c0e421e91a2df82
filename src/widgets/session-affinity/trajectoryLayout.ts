/**
 * The trajectory chart's geometry (TrajectoryChart.tsx): the legend, the route panel (a row per replica) over the
 * prompt panel (a token axis), and the band of each turn that both share. A function of the run's turns, the
 * fleet's size, the width and the height the window leaves the chart.
 */
import { scaleBand } from 'd3';
import { stackPanels } from '../kit/charts/panels';
import { axisTicks, makeScale, resolveDomain, type Tick } from '../kit/charts/scales';
import { computeMargins, legendLayout, r2, textWidth, TICK_FONT } from '../kit/charts/layout';
import type { AxisSpec } from '../kit/charts/types';
import { formatCount } from '../../lib/format';
import type { TurnRow } from '../../sim/lessons/affinity';
import { PARTS, ROUTE_LEGEND } from './turnMarks';

export type TrajectoryLayout = ReturnType<typeof trajectoryLayout>;

/**
 * The chart's height is its panels' natural height; `maxHeight` (useChartSize's, a share of the window) only
 * bounds the prompt panel, down to `minPrompt` units, so picture and read-outs share a short screen. Presented, the
 * panel is shorter (a smaller `minPrompt`) and keeps `labelRoom` above its tallest bar.
 */
export function trajectoryLayout(
  rows: readonly TurnRow[],
  replicas: number,
  width: number,
  maxHeight: number,
  minPrompt = 120,
  labelRoom = 0,
) {
  const n = rows.length;
  const narrow = width < 520;
  const labels = [...PARTS.map((p) => p.label), ...ROUTE_LEGEND.map((r) => r.label)];
  const legend = legendLayout(labels, Math.max(100, width - 8));
  const yAxis: AxisSpec = { label: 'Prompt', unit: 'tokens', format: (v) => formatCount(v) };
  const maxPrompt = Math.max(1, ...rows.map((r) => r.promptTokens));
  const domain = resolveDomain(yAxis, [0, maxPrompt], { zero: true });
  const provisional = computeMargins({
    yTickLabels: ['00k'],
    hasXTitle: true,
    hasYTitle: true,
    legendHeight: legend.height,
  });
  const rowH = replicas <= 4 ? 20 : replicas <= 8 ? 16 : 12;
  const hA = replicas * rowH;
  // The prompt panel takes what the window leaves it, between minPrompt units and its natural height.
  const natural = Math.max(150, Math.min(240, width * 0.3));
  const room = maxHeight - provisional.top - provisional.bottom;
  const left = stackPanels(provisional.top, [{ height: hA }, { gapAbove: 12 }], room, minPrompt).heights[1];
  const hB = Math.round(Math.min(natural, left));
  const panels = stackPanels(provisional.top, [{ height: hA }, { height: hB, gapAbove: 12 }]);
  const [top, bTop] = panels.tops;
  // A cold turn's extra TTFT is printed above its bar (TrajectoryChart, 10.5 units): given `labelRoom`, the tallest
  // bar leaves it that much under the panel's title, which a short panel (presented) does not by itself.
  let yB = makeScale(yAxis, domain, [hB, 0]);
  if (yB(maxPrompt) < labelRoom && hB > 2 * labelRoom)
    yB = makeScale(yAxis, resolveDomain(yAxis, [0, (maxPrompt * hB) / (hB - labelRoom)], { zero: true }), [
      hB,
      0,
    ]);
  const yTicks = axisTicks(yAxis, yB, 'y');
  const m = computeMargins({
    yTickLabels: [...yTicks.map((t) => t.label), 'r15'],
    hasXTitle: true,
    hasYTitle: true,
    legendHeight: legend.height,
  });
  const right = narrow ? 46 : 72;
  const innerWidth = Math.max(60, width - m.left - right);
  const x = scaleBand<number>()
    .domain(rows.map((_, i) => i))
    .range([0, innerWidth])
    .paddingInner(n > 30 ? 0.12 : 0.2)
    .paddingOuter(0.1);
  const yA = scaleBand<number>()
    .domain(Array.from({ length: replicas }, (_, i) => i))
    .range([0, hA]);
  const band = x.bandwidth();
  /** Centre of turn i's band. */
  const cx = (i: number) => r2((x(i) ?? 0) + band / 2);
  /** Centre of replica r's row in the route panel. */
  const cyA = (r: number) => r2((yA(r) ?? 0) + yA.bandwidth() / 2);
  const stride = xStride(n, x.step());
  const turnTicks: Tick[] = rows.flatMap((_, i) =>
    i % stride === 0 ? [{ value: i, pos: cx(i), label: String(i) }] : [],
  );
  return {
    narrow,
    legend,
    yB,
    yTicks,
    m,
    right,
    innerWidth,
    x,
    band,
    cx,
    yA,
    cyA,
    turnTicks,
    hB,
    top,
    bTop,
    plotHeight: panels.span,
    height: panels.bottom + provisional.bottom,
    rowH,
  };
}

/** Label every k-th turn, k in 1, 2, 4, 5, 10, 20, so labels do not touch. */
function xStride(n: number, step: number): number {
  const need = (textWidth(String(n), TICK_FONT) + 10) / Math.max(1, step);
  return [1, 2, 4, 5, 10, 20].find((s) => s >= need) ?? Math.ceil(need);
}
