/**
 * BarChart's layout, either orientation: legend, margins from label sizes, the value scale and its ticks, the
 * category bands, and (vertical bars) category labels wrapped to their band. Pure: a function of the data and the
 * size, so the chart re-lays out only when one of them changes.
 */
import { scaleBand, type ScaleBand } from 'd3';
import type { BarSeries } from './BarChart';
import { axisTitle } from './chartFormat';
import {
  AXIS_TITLE_BAND,
  computeMargins,
  legendLayout,
  TICK_FONT,
  textWidth,
  wrapLabel,
  type LegendItemLayout,
} from './layout';
import { axisTicks, makeScale, resolveDomain, usable, type NumScale, type Tick } from './scales';
import type { AxisSpec, Margins } from './types';

/** Height of a category label's second line. */
export const CAT_LINE = TICK_FONT + 3;
/** The least room between two lines of tick-sized text set one above the other: 11 px type 12.65 px apart. */
export const LINE_ROOM = TICK_FONT * 1.15;
/** Horizontal bars in columns: the least plot width a column keeps, and the room between two columns. */
export const MIN_COLUMN_PLOT = 200;
export const COLUMN_GAP = 16;
/** A list wraps into columns only while each keeps this many rows: a short one reads better in one. */
export const MIN_COLUMN_ROWS = 10;

export interface BarLayoutInput {
  categories: readonly string[];
  series: readonly BarSeries[];
  value: AxisSpec;
  /** Title of the category axis ('' for none). */
  categoryTitle: string;
  horizontal: boolean;
  valueLabels: boolean;
  showLegend: boolean;
  width: number;
  height: number;
  /** The values' extent (null: no data). */
  ext: [number, number] | null;
  /** Every series' values, flattened. */
  values: readonly (number | null | undefined)[];
  /** The value axis's tick format. */
  fmt: (v: number) => string;
  /**
   * Horizontal bars: set the categories in up to this many columns side by side (top to bottom, then the next
   * column), as many as keep MIN_COLUMN_PLOT of plot and MIN_COLUMN_ROWS rows each and their labels whole.
   * Default 1.
   */
  maxColumns?: number;
  /** Columns: the least plot width a column keeps (default MIN_COLUMN_PLOT). */
  minColumnPlot?: number;
  /** Columns: the largest share of a column its category labels may take (default 0.38). */
  maxLabelShare?: number;
  /** Horizontal bars: each row this tall in chart units, the chart's height following (instead of `height`). */
  rowHeight?: number;
  /**
   * Horizontal bars: rows at least LINE_ROOM apart, the chart growing past `height` where they need it, so that
   * every bar keeps its label (a zoomed chart, whose fixed or window-capped height holds fewer units).
   */
  keepLabels?: boolean;
}

export interface BarLayout {
  legend: { items: LegendItemLayout[]; height: number };
  cTitle: string;
  vTitle: string;
  /** The widest printed value. */
  labelW: number;
  margin: Margins;
  innerWidth: number;
  innerHeight: number;
  vScale: NumScale;
  vTicks: Tick[];
  band: ScaleBand<number>;
  /** Vertical bars: each category's label, in lines. */
  catLines: string[][];
  /** Vertical bars: a label every vStride-th band. */
  vStride: number;
  /** Vertical bars: height the labels' extra lines take from the plot. */
  catExtra: number;
  /** Horizontal bars: room for the category labels on the left. */
  maxCat?: number;
  /** Columns of categories (1 unless horizontal bars wrap), rows per column, and from one column's plot to the next's. */
  columns: number;
  rows: number;
  colStep: number;
  /** From the first column's plot's left edge to the last one's right edge (innerWidth when one column). */
  plotWidth: number;
  /** The chart's height in its units: `height`, or what `rowHeight` makes of it. */
  height: number;
}

export function barChartLayout(input: BarLayoutInput): BarLayout {
  const { categories, series, value, horizontal, valueLabels, showLegend, width, height, ext, values, fmt } =
    input;
  const legend = showLegend
    ? legendLayout(
        series.map((s) => s.name),
        Math.max(100, width - 8),
      )
    : { items: [], height: 0 };
  const vTitle = axisTitle(value);
  const cTitle = input.categoryTitle;
  // What either orientation lays out, with what both share. Only vertical bars wrap their category labels
  // (horizontal ones print them in the left margin, one line each); the value title follows its ticks.
  const laidOut = (p: {
    margin: Margins;
    innerWidth: number;
    innerHeight: number;
    vScale: NumScale;
    vTicks: Tick[];
    band: ScaleBand<number>;
    catLines?: string[][];
    vStride?: number;
    catExtra?: number;
    maxCat?: number;
    columns?: number;
    rows?: number;
    colStep?: number;
    plotWidth?: number;
    height?: number;
  }) => ({
    legend,
    cTitle,
    labelW,
    catLines: [] as string[][],
    vStride: 1,
    catExtra: 0,
    columns: 1,
    rows: categories.length,
    colStep: 0,
    plotWidth: p.innerWidth,
    height,
    ...p,
    vTitle: axisTitle(
      value,
      p.vTicks.map((t) => t.label),
    ),
  });
  const domain = resolveDomain(value, ext, { zero: true });
  const labelW = valueLabels
    ? Math.max(
        0,
        ...values.filter((v) => usable(value, v)).map((v) => textWidth(fmt(v as number), 11)),
        ...series.flatMap((s) => (s.labels ?? []).map((l) => (l ? textWidth(l, 11) : 0))),
      )
    : 0;
  if (!horizontal) {
    const m0 = computeMargins({
      yTickLabels: [],
      hasXTitle: !!cTitle,
      hasYTitle: !!vTitle,
      legendHeight: legend.height,
    });
    const top = m0.top + (valueLabels ? 14 : 0);
    let innerHeight = Math.max(40, Math.floor(height - top - m0.bottom));
    let vScale = makeScale(value, domain, [innerHeight, 0]);
    let vTicks = axisTicks(value, vScale, 'y');
    const m = computeMargins({
      yTickLabels: vTicks.map((t) => t.label),
      hasXTitle: !!cTitle,
      hasYTitle: !!vTitle,
      legendHeight: legend.height,
    });
    m.top = top;
    const innerWidth = Math.max(40, Math.floor(width - m.left - m.right));
    const band = scaleBand<number>()
      .domain(categories.map((_, i) => i))
      .range([0, innerWidth])
      .paddingInner(0.2)
      .paddingOuter(0.1);
    // Category labels too long for their band take a second line, or a third ("TPOT / charged after / the
    // step" under a phone's narrow bar); the plot gives up those lines' height.
    // Labels every vStride-th band, so each has at least 28 px.
    const vStride = band.step() >= 28 ? 1 : Math.ceil(28 / Math.max(1, band.step()));
    const catLines = categories.map((c) => wrapLabel(c, band.step() * vStride - 4, TICK_FONT, 3));
    const extraLines = Math.max(1, ...catLines.map((l) => l.length)) - 1;
    if (extraLines > 0) {
      m.bottom += extraLines * CAT_LINE;
      innerHeight = Math.max(40, innerHeight - extraLines * CAT_LINE);
      vScale = makeScale(value, domain, [innerHeight, 0]);
      vTicks = axisTicks(value, vScale, 'y');
    }
    return laidOut({
      margin: m,
      innerWidth,
      innerHeight,
      vScale,
      vTicks,
      band,
      catLines,
      vStride,
      catExtra: extraLines * CAT_LINE,
    });
  }
  const m0 = computeMargins({
    yTickLabels: [],
    hasXTitle: !!vTitle,
    hasYTitle: !!cTitle,
    legendHeight: legend.height,
  });
  const right = Math.max(
    m0.right,
    valueLabels ? labelW + 10 : 0,
    textWidth(fmt(domain[1]), TICK_FONT) / 2 + 4,
  );
  const longest = Math.max(0, ...categories.map((c) => textWidth(c, TICK_FONT)));
  // Columns: the most (up to maxColumns) that keep each plot MIN_COLUMN_PLOT wide and every label whole. Each
  // column has its labels on its left; the category title stands once, left of the first.
  let columns = 1;
  let maxCat = Math.min(width * 0.38, longest);
  const minPlot = input.minColumnPlot ?? MIN_COLUMN_PLOT;
  const labelShare = input.maxLabelShare ?? 0.38;
  for (let k = Math.min(input.maxColumns ?? 1, Math.floor(categories.length / MIN_COLUMN_ROWS)); k > 1; k--) {
    const cat = Math.ceil(longest) + 10;
    const left = cat + (cTitle ? AXIS_TITLE_BAND : 0);
    const plot = (width - left - right - (k - 1) * (right + COLUMN_GAP + cat)) / k;
    if (plot >= minPlot && longest <= (width / k) * labelShare) {
      columns = k;
      maxCat = longest;
      break;
    }
  }
  const catArea = Math.ceil(maxCat) + 10;
  const m = { ...m0, left: catArea + (cTitle ? AXIS_TITLE_BAND : 0), right };
  const rows = Math.ceil(categories.length / columns);
  const innerWidth = Math.max(
    40,
    Math.floor((width - m.left - m.right - (columns - 1) * (right + COLUMN_GAP + catArea)) / columns),
  );
  const colStep = columns > 1 ? innerWidth + right + COLUMN_GAP + catArea : 0;
  // The band's padding (0.2 inside, 0.1 outside) makes its step exactly innerHeight / rows.
  const fromHeight = Math.max(40, Math.floor(height - m.top - m.bottom));
  const innerHeight =
    input.rowHeight !== undefined
      ? Math.max(1, rows) * input.rowHeight
      : input.keepLabels
        ? Math.max(fromHeight, Math.ceil(rows * LINE_ROOM))
        : fromHeight;
  const vScale = makeScale(value, domain, [0, innerWidth]);
  const vTicks = axisTicks(value, vScale, 'x');
  const band = scaleBand<number>()
    .domain(Array.from({ length: rows }, (_, i) => i))
    .range([0, innerHeight])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  return laidOut({
    margin: m,
    innerWidth,
    innerHeight,
    vScale,
    vTicks,
    band,
    maxCat,
    columns,
    rows,
    colStep,
    plotWidth: (columns - 1) * colStep + innerWidth,
    height:
      input.rowHeight !== undefined
        ? Math.ceil(m.top + innerHeight + m.bottom)
        : input.keepLabels
          ? Math.max(height, Math.ceil(m.top + innerHeight + m.bottom))
          : height,
  });
}
