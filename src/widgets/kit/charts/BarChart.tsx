/** Grouped bar chart, vertical or horizontal, with value labels, a read-out per category and value-axis rules. */
import { useCallback, useMemo } from 'react';
import { scaleBand } from 'd3';
import type { AxisSpec, ChartBaseProps, Marker } from './types';
import { barChartLayout, LINE_ROOM } from './barLayout';
import { useChartSize } from './useChartSize';
import { ChartShell, useSafeId } from './ChartShell';
import { GridLines } from './Axes';
import { BarAxes } from './BarAxes';
import { BarMarks, Shifted } from './BarMarks';
import { Legend } from './Legend';
import { Markers, positionIn } from './Markers';
import { Readout, readoutSentence, useReadout, type ReadoutRow } from './Readout';
import { extentOf, isLog, usable } from './scales';
import { SeriesPatterns } from './patterns';
import { tickFormatter, valueText } from './chartFormat';
import { r2 } from './layout';

export interface BarSeries {
  name: string;
  /** One value per category; null/non-finite values draw no bar. */
  values: readonly (number | null | undefined)[];
  /**
   * Why a value draws no bar, one per category ("computing…", "none meets"): printed at the bar's foot and in
   * the read-out, so a bar not yet computed never reads like a bar that is zero or missing for good.
   */
  gaps?: readonly (string | null | undefined)[];
  /** A bar's printed value where it must say more than the number ("≥ 5,164" for a floor), one per category. */
  labels?: readonly (string | null | undefined)[];
  color?: string;
}

export interface BarChartProps extends ChartBaseProps {
  categories: readonly string[];
  series: readonly BarSeries[];
  /** The value axis (y when vertical, x when horizontal). Zero is included unless `value.zero === false`. */
  value: AxisSpec;
  /** Title of the category axis. */
  category?: { label?: string };
  orientation?: 'vertical' | 'horizontal';
  /** Print each bar's value (default true; dropped where they do not fit). */
  valueLabels?: boolean;
  /** Rules on the value axis: `{ kind: 'y', y }` whatever the orientation. Other kinds are ignored. */
  markers?: readonly Marker[];
  /**
   * Horizontal bars: set a long list in up to this many columns side by side where the width allows (barLayout.ts),
   * so that it keeps every label on a wide screen and in presentation mode without running past the fold.
   */
  maxColumns?: number;
  /**
   * Horizontal bars in columns: the least plot a column keeps (default MIN_COLUMN_PLOT, 200 units) and the
   * largest share of a column its labels may take (default 0.38); a list that must fit a projected screen lowers them.
   */
  minColumnPlot?: number;
  maxLabelShare?: number;
  /** Horizontal bars: each row this tall in chart units (zoomed with the chart), the height following. */
  rowHeight?: number;
}

export function BarChart(props: BarChartProps) {
  const {
    categories,
    series,
    value,
    category,
    orientation = 'vertical',
    valueLabels = true,
    markers,
    maxColumns,
    minColumnPlot,
    maxLabelShare,
    rowHeight,
    title,
    description,
    className,
    ref,
    emptyMessage,
  } = props;
  const horizontal = orientation === 'horizontal';
  const showLegend = (props.legend ?? series.length > 1) && series.length > 0;
  const size = useChartSize({
    width: props.width,
    height: props.height,
    aspect:
      props.aspect ??
      (horizontal
        ? Math.max(0.4, Math.min(1.2, 0.12 + categories.length * series.length * 0.05))
        : undefined),
    // As the other charts do: the legend's rows come on top of the aspect height, so that on a phone a legend of
    // three rows does not leave the bars a sliver (07.10's prefill split: 70 px of plot at 390 px).
    legendLabels: showLegend ? series.map((s) => s.name) : undefined,
  });
  const { width, height } = size;
  const prefix = useSafeId('bars');
  const fmt = tickFormatter(value);

  const values = useMemo(
    () => series.flatMap((s) => s.values.slice(0, categories.length)),
    [series, categories.length],
  );
  // Categories whose every value is a gap still get their axes, so "none meets" is read, not "No data".
  const ext = useMemo(() => {
    const hasGaps = series.some((s) => s.gaps?.some(Boolean));
    return extentOf(value, values) ?? (hasGaps && !isLog(value) ? ([0, 1] as [number, number]) : null);
  }, [series, value, values]);
  const empty = !ext || categories.length === 0;

  const L = useMemo(
    () =>
      barChartLayout({
        categories,
        series,
        value,
        categoryTitle: category?.label ?? '',
        horizontal,
        valueLabels,
        showLegend,
        width,
        height,
        ext,
        values,
        fmt,
        maxColumns,
        minColumnPlot,
        maxLabelShare,
        rowHeight,
        // Zoomed, a fixed or window-capped height holds fewer units: the rows keep room for their labels.
        keepLabels: size.zoom > 1,
      }),
    [
      size.zoom,
      maxColumns,
      minColumnPlot,
      maxLabelShare,
      rowHeight,
      showLegend,
      series,
      width,
      height,
      value,
      category,
      ext,
      valueLabels,
      values,
      fmt,
      horizontal,
      categories,
    ],
  );

  const { margin, innerWidth, innerHeight, vScale, vTicks, band } = L;
  const inner = useMemo(
    () =>
      scaleBand<number>()
        .domain(series.map((_, i) => i))
        .range([0, band.bandwidth()])
        .paddingInner(series.length > 1 ? 0.08 : 0),
    [series, band],
  );
  const [d0, d1] = vScale.domain();
  const base = vScale(
    isLog(value) ? Math.min(d0, d1) : Math.max(Math.min(d0, d1), Math.min(0, Math.max(d0, d1))),
  );

  // Horizontal bars may run in columns (L.columns): category i sits in column colOf(i), at row slotOf(i) of the
  // bands, its column's plot colX(i) right of the first's.
  const { rows, colStep, columns } = L;
  const colOf = (i: number) => (columns > 1 ? Math.floor(i / rows) : 0);
  const slotOf = (i: number) => i - colOf(i) * rows;
  const colX = (i: number) => colOf(i) * colStep;
  const indexAt = useCallback(
    (px: number, py: number) => {
      const p = horizontal ? py : px;
      const step = band.step();
      if (!categories.length || step <= 0) return null;
      const slot = Math.floor((p - band(0)! + (step - band.bandwidth()) / 2) / step);
      // A column's labels stand left of its plot: the pointer over them reads that column's rows.
      const lead = colStep - innerWidth - margin.right;
      const col = columns > 1 ? Math.max(0, Math.min(columns - 1, Math.floor((px + lead) / colStep))) : 0;
      const i = col * rows + Math.max(0, Math.min(rows - 1, slot));
      return Math.max(0, Math.min(categories.length - 1, i));
    },
    [horizontal, band, categories.length, columns, rows, colStep, innerWidth, margin.right],
  );
  const ro = useReadout(categories.length, indexAt, horizontal);

  // Neighbouring labels sit one sub-band step apart: horizontal ones need a line's height of it, vertical ones
  // the widest label's width.
  const labelStep = series.length > 1 ? inner.step() : band.step();
  const labelsFit = valueLabels && (horizontal ? labelStep >= LINE_ROOM : L.labelW + 6 <= labelStep);

  let readout = null;
  let live = '';
  if (ro.index !== null) {
    const c = ro.index;
    const readRows: ReadoutRow[] = series.map((s, i) => ({
      label: s.name,
      value: usable(value, s.values[c])
        ? (s.labels?.[c] ?? valueText(value, s.values[c]))
        : (s.gaps?.[c] ?? valueText(value, null)),
      index: i,
      color: s.color,
    }));
    const center = r2(band(slotOf(c))! + band.bandwidth() / 2);
    readout = horizontal ? (
      <Shifted x={colX(c)}>
        <Readout
          y={center}
          crosshair={false}
          innerWidth={innerWidth}
          innerHeight={innerHeight}
          title={categories[c]}
          rows={readRows}
          swatch="bar"
          prefix={prefix}
        />
      </Shifted>
    ) : (
      <Readout
        x={center}
        crosshair={false}
        innerWidth={innerWidth}
        innerHeight={innerHeight}
        title={categories[c]}
        rows={readRows}
        swatch="bar"
        prefix={prefix}
      />
    );
    live = readoutSentence(categories[c], readRows);
  }

  const vPos = positionIn(vScale, isLog(value));
  const ruleMarkers = (markers ?? [])
    .filter((m) => m.kind === 'y')
    .map((m) => (horizontal ? { ...m, kind: 'x' as const, x: m.y } : m));
  const columnOffsets = Array.from({ length: columns }, (_, col) => col * colStep);

  return (
    <ChartShell
      kind="bar"
      size={L.height === size.height ? size : { ...size, height: L.height }}
      fixedWidth={props.width}
      title={title}
      description={description}
      className={className}
      svgRef={ref}
      empty={empty}
      emptyMessage={emptyMessage}
      interactive
      keyboardHint={`Use the ${horizontal ? 'up and down' : 'left and right'} arrow keys to read values; Escape hides the read-out.`}
      onKeyDown={ro.onKeyDown}
      onBlur={ro.onBlur}
      live={live}
    >
      <SeriesPatterns prefix={prefix} count={series.length} />
      {showLegend ? (
        <Legend
          items={L.legend.items}
          x={4}
          y={4}
          kind="bar"
          prefix={prefix}
          colors={series.map((s) => s.color)}
        />
      ) : null}
      <g className="chart-plot" transform={`translate(${margin.left},${margin.top})`}>
        {horizontal ? (
          columnOffsets.map((x) => (
            <Shifted key={x} x={x}>
              <GridLines xTicks={vTicks} innerWidth={innerWidth} innerHeight={innerHeight} />
            </Shifted>
          ))
        ) : (
          <GridLines yTicks={vTicks} innerWidth={innerWidth} innerHeight={innerHeight} />
        )}
        {ro.index !== null ? (
          horizontal ? (
            <rect
              className="chart-marker-band"
              x={colX(ro.index)}
              y={r2(band(slotOf(ro.index))! - (band.step() - band.bandwidth()) / 2)}
              width={innerWidth}
              height={r2(band.step())}
            />
          ) : (
            <rect
              className="chart-marker-band"
              x={r2(band(ro.index)! - (band.step() - band.bandwidth()) / 2)}
              y={0}
              width={r2(band.step())}
              height={innerHeight}
            />
          )
        ) : null}
        <BarMarks
          series={series}
          categories={categories}
          value={value}
          horizontal={horizontal}
          vScale={vScale}
          band={band}
          inner={inner}
          base={base}
          labelsFit={labelsFit}
          fmt={fmt}
          prefix={prefix}
          active={ro.index}
          colX={colX}
          slotOf={slotOf}
        />
        <BarAxes
          layout={L}
          categories={categories}
          horizontal={horizontal}
          base={base}
          colOf={colOf}
          slotOf={slotOf}
        />
        {horizontal ? (
          columnOffsets.map((x) => (
            <Shifted key={x} x={x}>
              <Markers
                markers={ruleMarkers}
                x={vPos}
                innerWidth={innerWidth}
                innerHeight={innerHeight}
                layer="over"
              />
            </Shifted>
          ))
        ) : (
          <Markers
            markers={ruleMarkers}
            y={vPos}
            innerWidth={innerWidth}
            innerHeight={innerHeight}
            layer="over"
          />
        )}
        {readout}
        <rect className="chart-overlay" width={L.plotWidth} height={innerHeight} {...ro.overlay} />
      </g>
    </ChartShell>
  );
}
