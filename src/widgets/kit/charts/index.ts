/**
 * Charts kit: D3 computes scales, ticks, shapes and bins; React owns the DOM. Colours come only from the
 * CSS custom properties in charts.css (import it once in the app).
 */
export type {
  AxisSpec,
  ScaleKind,
  Marker,
  RuleXMarker,
  RuleYMarker,
  PointMarker,
  BandMarker,
  Tone,
  ChartBaseProps,
  XY,
  Margins,
} from './types';
export {
  LineChart,
  AreaChart,
  valueAt,
  type LineChartProps,
  type LineSeries,
  type CurveKind,
} from './LineChart';
export { BarChart, type BarChartProps, type BarSeries } from './BarChart';
export { useChartSize, heightFor, DEFAULT_WIDTH, type ChartSize, type SizeOptions } from './useChartSize';
export { ChartShell, type ChartShellProps } from './ChartShell';
export { GridLines, XAxis, YAxis } from './Axes';
export { EntryLegend, Legend, Swatch, type LegendEntry, type SwatchKind } from './Legend';
export { Markers, positionIn, type Positioner } from './Markers';
export {
  Readout,
  useReadout,
  readoutSentence,
  stepIndex,
  type ReadoutRow,
  type ReadoutState,
} from './Readout';
export {
  axisTicks,
  bytesTicks,
  durationTicks,
  durationAxis,
  shareAxis,
  decadesIn,
  extentOf,
  makeScale,
  resolveDomain,
  usable,
  type Tick,
  type NumScale,
} from './scales';
export { defaultFormat, axisTitle, valueText, tickFormatter } from './chartFormat';
export {
  seriesColor,
  seriesDash,
  seriesSymbolPath,
  toneColor,
  resolveCssColor,
  DASHES,
  SERIES_COUNT,
} from './theme';
export { textWidth, truncate } from './layout';
export { xyLayout, type XYLayout } from './xyLayout';
export { XYPlot, type XYPlotProps } from './XYPlot';
export {
  HistogramChart,
  computeBins,
  type HistogramChartProps,
  type HistogramSeries,
  type Bins,
} from './HistogramChart';
export {
  CdfChart,
  cdfPoints,
  ecdf,
  quantileSorted,
  sortedSamples,
  type CdfChartProps,
  type CdfSeries,
} from './CdfChart';
export { Heatmap, heatFill, stepCell, type HeatmapProps, type Cell } from './Heatmap';
export { ScatterCanvas, type ScatterCanvasProps, type ScatterSeries } from './ScatterCanvas';
export { CanvasLayer, useThemeVersion, type CanvasLayerProps, type CanvasDrawInfo } from './CanvasLayer';
