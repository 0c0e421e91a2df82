/**
 * The plot area every chart with two continuous axes shares: grid, markers under and over the marks, both axes,
 * the read-out and the pointer overlay, in one paint order. LineChart, HistogramChart, ScatterCanvas, the memory
 * ladder and the trajectory charts draw only their marks into it, so a fix to the frame (or its scaling in
 * presentation mode) lands once.
 *
 * Paint order: grid → markers (under) → `under` → marks (children) → axes → markers (over) → `over` → read-out →
 * overlay. Marks sit below the axes so a series at the baseline never hides the axis line.
 */
import type { ReactNode } from 'react';
import { GridLines, XAxis, YAxis } from './Axes';
import { Markers } from './Markers';
import type { ReadoutState } from './Readout';
import type { Marker, XY } from './types';
import type { XYLayout } from './xyLayout';

export interface XYPlotProps {
  layout: XYLayout;
  /** Which grid lines to draw (default both). */
  grid?: 'xy' | 'x' | 'y' | 'none';
  markers?: readonly Marker[];
  /** The marks' lines in plot pixels, which the markers' labels keep clear of (LineChart passes its series). */
  markerAvoid?: readonly (readonly XY[])[];
  /** Drawn after the grid and the markers under the marks (bands, highlighted bins). */
  under?: ReactNode;
  /** Drawn above the axes and the markers over the marks (labels, symbols that must stay on top). */
  over?: ReactNode;
  /** The read-out (crosshair and tooltip), drawn above everything but the pointer overlay. */
  readout?: ReactNode;
  /** The pointer overlay's handlers (useReadout().overlay); no overlay without them. */
  overlay?: ReadoutState['overlay'];
  /** The chart's marks, inside <g class="chart-series">. */
  children?: ReactNode;
}

export function XYPlot({
  layout: L,
  grid = 'xy',
  markers,
  markerAvoid,
  under,
  over,
  readout,
  overlay,
  children,
}: XYPlotProps) {
  const { innerWidth, innerHeight, margin } = L;
  const markerProps = { markers, x: L.xPos, y: L.yPos, innerWidth, innerHeight, avoid: markerAvoid };
  return (
    <g className="chart-plot" transform={`translate(${margin.left},${margin.top})`}>
      {grid !== 'none' ? (
        <GridLines
          xTicks={grid === 'xy' || grid === 'x' ? L.xTicks : undefined}
          yTicks={grid === 'xy' || grid === 'y' ? L.yTicks : undefined}
          innerWidth={innerWidth}
          innerHeight={innerHeight}
        />
      ) : null}
      {markers?.length ? <Markers {...markerProps} layer="under" /> : null}
      {under}
      {children !== undefined ? <g className="chart-series">{children}</g> : null}
      <XAxis
        ticks={L.xTicks}
        innerWidth={innerWidth}
        innerHeight={innerHeight}
        title={L.xTitle}
        titleOffset={L.xTitleOffset}
        roomLeft={L.xTitleRoom.left}
        roomRight={L.xTitleRoom.right}
      />
      <YAxis
        ticks={L.yTicks}
        innerHeight={innerHeight}
        title={L.yTitle}
        titleOffset={L.yTitleOffset}
        roomBelow={L.yTitleRoomBelow}
      />
      {markers?.length ? <Markers {...markerProps} layer="over" /> : null}
      {over}
      {readout}
      {overlay ? (
        <rect className="chart-overlay" width={innerWidth} height={innerHeight} {...overlay} />
      ) : null}
    </g>
  );
}
