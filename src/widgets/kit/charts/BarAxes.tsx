/**
 * A bar chart's axes (BarChart.tsx): the value axis's ticks and title, and the category axis's line, its names
 * (wrapped, cut or thinned to fit their bands) and its title; for horizontal bars in columns, one set a column.
 */
import type { BarLayout } from './barLayout';
import { CAT_LINE, LINE_ROOM } from './barLayout';
import { HorizontalAxisTitle, VerticalAxisTitle, XAxis, YAxis } from './Axes';
import { Shifted } from './BarMarks';
import { TextLines } from './TextLines';
import { AXIS_TITLE_BAND, r2, TICK_FONT, wrapLabel, X_TITLE_OFFSET } from './layout';

export interface BarAxesProps {
  layout: BarLayout;
  categories: readonly string[];
  horizontal: boolean;
  /** Where bars start on the value axis: the category axis's line. */
  base: number;
  /** Horizontal bars in columns: category i's column and row. */
  colOf: (i: number) => number;
  slotOf: (i: number) => number;
}

export function BarAxes({ layout: L, categories, horizontal, base, colOf, slotOf }: BarAxesProps) {
  const { margin, innerWidth, innerHeight, vTicks, band, columns, colStep } = L;
  // Room a bottom title too wide for the plot may take on its left: under the left axis's labels, not its title.
  const titleRoomLeft = margin.left - ((horizontal ? L.cTitle : L.vTitle) ? AXIS_TITLE_BAND : 0) - 4;
  const vTitleOffset = X_TITLE_OFFSET;
  const columnOffsets = Array.from({ length: columns }, (_, col) => col * colStep);
  // Category labels: truncated to the band; thinned when bands are closer than a line of text.
  const catStep = band.step();
  const hStride = horizontal ? Math.max(1, Math.ceil(LINE_ROOM / catStep)) : 1;
  const catMax = ('maxCat' in L ? L.maxCat : undefined) ?? 100;
  const vStride = L.vStride;
  return horizontal ? (
    <>
      {columnOffsets.map((x, col) => (
        <Shifted key={x} x={x}>
          <XAxis
            marks={false}
            ticks={vTicks}
            innerWidth={innerWidth}
            innerHeight={innerHeight}
            title={columns > 1 ? undefined : L.vTitle}
            titleOffset={vTitleOffset}
            roomLeft={titleRoomLeft}
            roomRight={margin.right - 4}
          />
          <g className="chart-axis chart-axis-y">
            <line
              className="chart-domain"
              x1={Math.round(base) + 0.5}
              x2={Math.round(base) + 0.5}
              y1={0}
              y2={innerHeight}
            />
            {categories.map((c, i) => {
              if (colOf(i) !== col || slotOf(i) % hStride !== 0) return null;
              // A band tall enough for two lines gives a long name its second line ("Llama 3.1 405B:
              // weights do not fit") before it is cut.
              const lines = wrapLabel(c, catMax, TICK_FONT, catStep >= 2 * CAT_LINE + 4 ? 2 : 1);
              const y = r2(band(slotOf(i))! + band.bandwidth() / 2 - ((lines.length - 1) * CAT_LINE) / 2);
              return (
                <TextLines
                  key={i}
                  className="chart-tick"
                  lines={lines}
                  x={-8}
                  y={y}
                  dy="0.32em"
                  lineHeight={CAT_LINE}
                  textAnchor="end"
                />
              );
            })}
            {col === 0 ? (
              <VerticalAxisTitle
                title={L.cTitle}
                x={-margin.left + 4}
                innerHeight={innerHeight}
                roomBelow={margin.bottom - 4}
              />
            ) : null}
          </g>
        </Shifted>
      ))}
      {columns > 1 ? (
        <g className="chart-axis chart-axis-x" transform={`translate(0,${innerHeight})`}>
          <HorizontalAxisTitle title={L.vTitle} y={vTitleOffset} innerWidth={L.plotWidth} />
        </g>
      ) : null}
    </>
  ) : (
    <>
      <YAxis
        marks={false}
        ticks={vTicks}
        innerHeight={innerHeight}
        title={L.vTitle}
        titleOffset={margin.left - 4}
        roomBelow={margin.bottom - 4}
      />
      <g className="chart-axis chart-axis-x" transform={`translate(0,${innerHeight})`}>
        <line
          className="chart-domain"
          x1={0}
          x2={innerWidth}
          y1={Math.round(base - innerHeight) + 0.5}
          y2={Math.round(base - innerHeight) + 0.5}
        />
        {categories.map((c, i) => {
          if (i % vStride !== 0) return null;
          const x = r2(band(i)! + band.bandwidth() / 2);
          return (
            <TextLines
              key={i}
              className="chart-tick"
              lines={L.catLines[i] ?? [c]}
              x={x}
              y={17}
              lineHeight={CAT_LINE}
              textAnchor="middle"
            />
          );
        })}
        <HorizontalAxisTitle
          title={L.cTitle}
          y={vTitleOffset + L.catExtra}
          innerWidth={innerWidth}
          roomLeft={titleRoomLeft}
          roomRight={margin.right - 4}
        />
      </g>
    </>
  );
}
