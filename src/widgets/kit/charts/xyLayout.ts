/** The layout shared by charts with two continuous axes: legend, margins from label sizes, scales and ticks. */
import { axisTitle, tickFormatter } from './chartFormat';
import {
  AXIS_TITLE_BAND,
  computeMargins,
  legendLayout,
  type LegendItemLayout,
  X_TITLE_OFFSET,
} from './layout';
import { axisTicks, makeScale, resolveDomain, isLog, type NumScale, type Tick } from './scales';
import type { AxisSpec, Margins } from './types';
import { positionIn, type Positioner } from './Markers';

export interface XYLayout {
  margin: Margins;
  innerWidth: number;
  innerHeight: number;
  xScale: NumScale;
  yScale: NumScale;
  xTicks: Tick[];
  yTicks: Tick[];
  xPos: Positioner;
  yPos: Positioner;
  legend: { items: LegendItemLayout[]; height: number };
  xTitle: string;
  yTitle: string;
  /** Distances from the plot edge to the axis titles. */
  xTitleOffset: number;
  xTitleRoom: { left: number; right: number };
  yTitleOffset: number;
  /** Below the plot, the height a y title too long for it may run on into (the corner under the y ticks). */
  yTitleRoomBelow: number;
}

export function xyLayout(opts: {
  width: number;
  height: number;
  x: AxisSpec;
  y: AxisSpec;
  xExtent: [number, number] | null;
  yExtent: [number, number] | null;
  legendLabels: readonly string[];
  yZero?: boolean;
  xZero?: boolean;
  xNice?: boolean;
  /** Room to keep right of the plot (direct labels at the lines' ends). */
  extraRight?: number;
}): XYLayout {
  const { width, height, x, y } = opts;
  const legend = opts.legendLabels.length
    ? legendLayout(opts.legendLabels, Math.max(100, width - 8))
    : { items: [], height: 0 };
  // Present or not is all the margins need; the words follow the ticks (axisTitle drops a unit they print).
  const xHasTitle = !!axisTitle(x);
  const yHasTitle = !!axisTitle(y);
  const xDomain = resolveDomain(x, opts.xExtent, { zero: opts.xZero, nice: opts.xNice });
  const yDomain = resolveDomain(y, opts.yExtent, { zero: opts.yZero });
  const provisional = computeMargins({
    yTickLabels: [],
    hasXTitle: xHasTitle,
    hasYTitle: yHasTitle,
    legendHeight: legend.height,
  });
  const innerHeight = Math.max(40, Math.floor(height - provisional.top - provisional.bottom));
  const yScale = makeScale(y, yDomain, [innerHeight, 0]);
  const yTicks = axisTicks(y, yScale, 'y');
  const xFmt = tickFormatter(x);
  const margin = computeMargins({
    yTickLabels: yTicks.map((t) => t.label),
    hasXTitle: xHasTitle,
    hasYTitle: yHasTitle,
    legendHeight: legend.height,
    lastXTickLabel: xFmt(xDomain[1]),
    extraRight: opts.extraRight,
  });
  const innerWidth = Math.max(40, Math.floor(width - margin.left - margin.right));
  const xScale = makeScale(x, xDomain, [0, innerWidth]);
  const xTicks = axisTicks(x, xScale, 'x');
  return {
    margin,
    innerWidth,
    innerHeight,
    xScale,
    yScale,
    xTicks,
    yTicks,
    xPos: positionIn(xScale, isLog(x)),
    yPos: positionIn(yScale, isLog(y)),
    legend,
    xTitle: axisTitle(
      x,
      xTicks.map((t) => t.label),
    ),
    yTitle: axisTitle(
      y,
      yTicks.map((t) => t.label),
    ),
    xTitleOffset: X_TITLE_OFFSET,
    // Beside the plot, room an x title too wide for it may take: under the y tick labels (not the y title's
    // band) and the right margin (the direct labels' column).
    xTitleRoom: { left: margin.left - (yHasTitle ? AXIS_TITLE_BAND : 0) - 4, right: margin.right - 4 },
    yTitleOffset: margin.left - 4,
    yTitleRoomBelow: margin.bottom - 4,
  };
}
