import { describe, expect, it } from 'vitest';
import {
  AreaChart,
  bytesTicks,
  LineChart,
  valueAt,
  type LineChartProps,
  type LineSeries,
} from '../../src/widgets/kit/charts';
import { formatBytes, formatDuration } from '../../src/lib/format';
import { attrs, count, noBadNumbers, pretty, render, texts } from './helpers';
import { ChartZoomContext } from '../../src/widgets/kit/charts/zoom';

const kv: LineSeries[] = [
  { name: 'Llama-3.1-8B', points: [1e3, 1e4, 3e4, 1e5, 1.28e5].map((t) => ({ x: t, y: t * 131072 })) },
  { name: 'Llama-3.1-70B', points: [1e3, 1e4, 3e4, 1e5, 1.28e5].map((t) => ({ x: t, y: t * 327680 })) },
];

/** The axis titles (x, then y) a 500 × 300 LineChart draws with these props. */
const axisTitles = (props: Pick<LineChartProps, 'x' | 'y' | 'series'> & Partial<LineChartProps>) =>
  texts(
    render(<LineChart title="t" width={500} height={300} legend={false} {...props} />),
    'chart-axis-label',
  );

describe('LineChart', () => {
  it('draws an emphasised series last, heavier, keeping its colour and its place in the legend', () => {
    const series: LineSeries[] = ['a', 'b', 'c'].map((name, i) => ({
      name,
      points: [0, 1, 2].map((x) => ({ x, y: x + i })),
      emphasis: name === 'a',
    }));
    const svg = render(
      <LineChart title="t" width={500} height={300} series={series} x={{ label: 'x' }} y={{ label: 'y' }} />,
    );
    const drawn = [...svg.matchAll(/<g class="chart-series-item[^"]*" data-series="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(drawn).toEqual(['b', 'c', 'a']);
    expect(svg).toMatch(/<g class="chart-series-item is-emphasis" data-series="a"/);
    // the colour is the first slot's, as without emphasis
    const plain = render(
      <LineChart
        title="t"
        width={500}
        height={300}
        series={series.map((x) => ({ ...x, emphasis: false }))}
        x={{ label: 'x' }}
        y={{ label: 'y' }}
      />,
    );
    const colourOf = (markup: string) =>
      /data-series="a"><path class="chart-line"[^>]*style="stroke:([^;"]+)/.exec(markup)?.[1];
    expect(colourOf(svg)).toBeDefined();
    expect(colourOf(svg)).toBe(colourOf(plain));
  });

  it('names the unit in the axis title only when the ticks do not print it', () => {
    const series = [{ name: 'a', points: [0.02, 0.1, 0.2].map((y, x) => ({ x, y })) }];
    const titles = (format?: (v: number) => string) =>
      axisTitles({ x: { label: 'Turn' }, y: { label: 'TTFT', unit: 's', format, zero: true }, series });
    // Ticks of "100 ms" under a title of "TTFT (s)" would name one unit and show another.
    expect(titles((v) => formatDuration(v))).toEqual(['Turn', 'TTFT']);
    expect(titles()).toEqual(['Turn', 'TTFT (s)']);
  });

  it('lets an x title too wide for a plot with direct labels use their column, rather than end in "…"', () => {
    const series = ['Round-robin', 'Session affinity'].map((name, i) => ({
      name,
      points: [0.5, 1, 1.5].map((x) => ({ x, y: x * (i + 1) })),
    }));
    const xTitle = (directLabels: boolean, width = 300) =>
      axisTitles({
        width,
        height: 240,
        x: { label: 'Offered load', unit: 'new sessions/s' },
        y: { label: 'TTFT' },
        series,
        directLabels,
      })[0];
    expect(xTitle(true)).toBe('Offered load (new sessions/s)');
    expect(xTitle(false)).toBe('Offered load (new sessions/s)');
    // Narrower still, it also takes the room under the y tick labels ("100 ms"), not the y title's column.
    expect(xTitle(true, 230)).toBe('Offered load (new sessions/s)');
  });

  it('leaves the unit out of an axis title that already names it', () => {
    const series = [{ name: 'a', points: [0, 1, 2].map((x) => ({ x, y: x + 1 })) }];
    const title = (label: string, unit: string) =>
      axisTitles({ x: { label: 'Step' }, y: { label, unit }, series })[1];
    expect(title('Allowed tokens', 'tokens')).toBe('Allowed tokens');
    expect(title('Generation step', 'tokens')).toBe('Generation step (tokens)');
    // A symbol is never taken for a word that contains it: "Sessions" does not name seconds.
    expect(title('Sessions', 's')).toBe('Sessions (s)');
  });

  it('matches the snapshot (two series, log x, markers)', async () => {
    const html = render(
      <LineChart
        title="KV memory against context length"
        description="Two models; HBM capacity as a rule."
        width={640}
        height={320}
        x={{ label: 'Context', unit: 'tokens', scale: 'log' }}
        y={{ label: 'KV memory', format: (v) => formatBytes(v), ticks: bytesTicks }}
        series={kv}
        markers={[
          { kind: 'y', y: 80e9, label: 'H100 HBM 80 GB', tone: 'danger' },
          { kind: 'x', x: 3e4, label: 'break-even' },
          { kind: 'band', x0: 8e3, x1: 2e4, label: 'typical' },
          { kind: 'point', x: 1e5, y: 1e5 * 131072, label: '12.2 GiB' },
        ]}
      />,
    );
    noBadNumbers(html);
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/line-log-markers.svg');
  });

  it('puts a vertical rule’s label at the bottom when asked, and stacks each end’s labels apart', () => {
    // A line across the middle leaves both ends of the rules clear, so every label keeps its usual row.
    const level: LineSeries[] = [{ name: 'level', points: [1e3, 1.28e5].map((x) => ({ x, y: 50 })) }];
    const labelYs = (markers: Parameters<typeof LineChart>[0]['markers']) => {
      const html = render(
        <LineChart
          title="t"
          width={500}
          height={300}
          x={{ label: 'x' }}
          y={{ label: 'y', domain: [0, 100] }}
          series={level}
          markers={markers}
        />,
      );
      return attrs(html, 'chart-marker-label', 'y').map(Number);
    };
    const [top] = labelYs([{ kind: 'x', x: 3e4, label: 'top' }]);
    const [bottom] = labelYs([{ kind: 'x', x: 3e4, label: 'bottom', labelAt: 'bottom' }]);
    expect(top).toBe(12);
    expect(bottom).toBeGreaterThan(150);
    const [a, b, c] = labelYs([
      { kind: 'x', x: 2e4, label: 'a', labelAt: 'bottom' },
      { kind: 'x', x: 3e4, label: 'b' },
      { kind: 'x', x: 4e4, label: 'c', labelAt: 'bottom' },
    ]);
    // Each end counts its own rows: the top label is in the first row, the two bottom ones a row apart.
    expect(b).toBe(12);
    expect(a - c).toBe(14);
  });

  it('draws one path per series and one symbol per point', () => {
    const html = render(
      <LineChart title="t" width={500} height={300} x={{ label: 'x' }} y={{ label: 'y' }} series={kv} />,
    );
    expect(count(html, /class="chart-line" d=/)).toBe(2);
    expect(count(html, /class="chart-symbol chart-point"/)).toBe(10);
    expect(count(html, /class="chart-legend-item"/)).toBe(2);
    // Series 2 is dashed, so colour is not the only carrier.
    expect(html).toMatch(/style="stroke:var\(--series-2\)" stroke-dasharray="7 4"/);
  });

  it('has decade ticks on a log axis, formatted without NaN', () => {
    const html = render(
      <LineChart
        title="t"
        width={800}
        height={300}
        x={{ label: 'Context', unit: 'tokens', scale: 'log' }}
        y={{ label: 'y', scale: 'log' }}
        series={kv}
      />,
    );
    const ticks = texts(html, 'chart-tick');
    expect(ticks).toContain('1k');
    expect(ticks).toContain('10k');
    expect(ticks).toContain('100k');
    expect(ticks).toContain('100M');
    expect(ticks).toContain('10B');
    for (const t of ticks) expect(t).toMatch(/^(1|10|100)(k|M|B|T)?$|^1e\d+$/);
    noBadNumbers(html);
  });

  it('puts a vertical marker at the right x', () => {
    // Linear x over [0, 100] on an inner width we can read back from the overlay.
    const html = render(
      <LineChart
        title="t"
        width={600}
        height={300}
        x={{ label: 'x', domain: [0, 100] }}
        y={{ label: 'y' }}
        series={[
          {
            name: 'a',
            points: [
              { x: 0, y: 0 },
              { x: 100, y: 1 },
            ],
          },
        ]}
        markers={[{ kind: 'x', x: 25, label: 'q' }]}
      />,
    );
    const innerWidth = Number(attrs(html, 'chart-overlay', 'width')[0]);
    const mx = Number(html.match(/data-marker="x" data-x="([\d.]+)"/)![1]);
    expect(mx).toBeCloseTo(innerWidth * 0.25, 1);
    // Markers outside the domain are skipped.
    const off = render(
      <LineChart
        title="t"
        width={600}
        height={300}
        x={{ label: 'x', domain: [0, 100] }}
        y={{ label: 'y' }}
        series={[{ name: 'a', points: [{ x: 0, y: 0 }] }]}
        markers={[{ kind: 'x', x: 250 }]}
      />,
    );
    expect(off).not.toMatch(/data-marker="x"/);
  });

  it('shows "No data" for empty or all-non-finite series', () => {
    for (const series of [
      [],
      [{ name: 'a', points: [] }],
      [
        {
          name: 'a',
          points: [
            { x: NaN, y: 1 },
            { x: 1, y: Infinity },
          ],
        },
      ],
    ]) {
      const html = render(
        <LineChart
          title="empty"
          width={400}
          height={240}
          x={{ label: 'x' }}
          y={{ label: 'y' }}
          series={series}
        />,
      );
      expect(texts(html, 'chart-empty')).toEqual(['No data']);
      expect(html).not.toMatch(/tabindex/);
    }
  });

  it('skips non-finite points and non-positive values on a log axis', () => {
    const html = render(
      <LineChart
        title="t"
        width={400}
        height={240}
        x={{ label: 'x', scale: 'log' }}
        y={{ label: 'y' }}
        series={[
          {
            name: 'a',
            points: [
              { x: 0, y: 1 },
              { x: 1, y: 2 },
              { x: 10, y: NaN },
              { x: 100, y: 3 },
            ],
          },
        ]}
      />,
    );
    noBadNumbers(html);
    expect(count(html, /class="chart-symbol chart-point"/)).toBe(2);
  });

  it('renders a single point, huge and tiny values', () => {
    const one = render(
      <LineChart
        title="t"
        width={320}
        height={220}
        x={{ label: 'x' }}
        y={{ label: 'y' }}
        series={[{ name: 'a', points: [{ x: 5, y: 5 }] }]}
      />,
    );
    noBadNumbers(one);
    expect(count(one, /class="chart-symbol chart-point"/)).toBe(1);
    expect(texts(one, 'chart-tick').length).toBeGreaterThan(2);

    const huge = render(
      <LineChart
        title="t"
        width={320}
        height={220}
        x={{ label: 'x' }}
        y={{ label: 'y' }}
        series={[
          {
            name: 'a',
            points: [
              { x: 0, y: 1e20 },
              { x: 1, y: 3e20 },
            ],
          },
        ]}
      />,
    );
    noBadNumbers(huge);
    for (const t of texts(huge, 'chart-tick')) expect(t.length).toBeLessThanOrEqual(8);

    const tiny = render(
      <LineChart
        title="t"
        width={320}
        height={220}
        x={{ label: 't', format: formatDuration }}
        y={{ label: 'y' }}
        series={[
          {
            name: 'a',
            points: [
              { x: 1e-7, y: 1e-9 },
              { x: 3e-7, y: 4e-9 },
            ],
          },
        ]}
      />,
    );
    noBadNumbers(tiny);
    expect(texts(tiny, 'chart-tick').some((t) => t.endsWith('ns'))).toBe(true);
    for (const t of texts(tiny, 'chart-tick')) expect(t.length).toBeLessThanOrEqual(8);
  });

  it('uses fewer x ticks when narrow, and labels do not overlap', () => {
    const make = (w: number) =>
      render(
        <LineChart
          title="t"
          width={w}
          height={240}
          x={{ label: 'x', domain: [0, 1_000_000] }}
          y={{ label: 'y' }}
          series={[
            {
              name: 'a',
              points: [
                { x: 0, y: 0 },
                { x: 1e6, y: 1 },
              ],
            },
          ]}
        />,
      );
    const narrow = make(320);
    const wide = make(1280);
    const xTicks = (h: string) =>
      [...h.matchAll(/<g class="chart-tick-mark" transform="translate\(([\d.]+),0\)">/g)].map((m) =>
        Number(m[1]),
      );
    expect(xTicks(narrow).length).toBeLessThan(xTicks(wide).length);
    const xs = xTicks(narrow);
    for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThan(30);
  });

  it('AreaChart fills under each series down to zero', async () => {
    const html = render(
      <AreaChart
        title="area"
        width={480}
        height={260}
        x={{ label: 'Time', unit: 's' }}
        y={{ label: 'Tokens' }}
        series={[
          {
            name: 'a',
            points: [
              { x: 0, y: 2 },
              { x: 1, y: 3 },
              { x: 2, y: 1 },
            ],
          },
        ]}
      />,
    );
    expect(count(html, /class="chart-area"/)).toBe(1);
    expect(texts(html, 'chart-tick')).toContain('0');
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/area.svg');
  });
});

describe('valueAt', () => {
  const pts = [
    { x: 0, y: 0 },
    { x: 10, y: 10 },
  ];
  it('interpolates, holds on steps and is null outside', () => {
    expect(valueAt(pts, 5)).toBe(5);
    expect(valueAt(pts, 5, 'step-after')).toBe(0);
    expect(valueAt(pts, 5, 'step-before')).toBe(10);
    expect(valueAt(pts, 11)).toBeNull();
    expect(valueAt([], 1)).toBeNull();
  });
});

describe('chart zoom (presentation mode)', () => {
  it('lays the chart out in fewer units and draws it zoomed into the same width', () => {
    const chart = (
      <LineChart title="t" width={800} height={400} x={{ label: 'x' }} y={{ label: 'y' }} series={kv} />
    );
    const plain = render(chart);
    const zoomed = render(<ChartZoomContext.Provider value={2}>{chart}</ChartZoomContext.Provider>);
    // Same width on the page...
    expect(attrs(plain, 'chart-svg', 'width')).toEqual(['800']);
    expect(attrs(zoomed, 'chart-svg', 'width')).toEqual(['800']);
    // ...a picture half as many units across, so its text, marks and strokes are drawn twice as large; its fixed
    // height keeps the units it has at 1.5× (267, not 200), so past 1.5× the chart grows taller on screen rather
    // than squeezing its plot under the larger text.
    expect(attrs(zoomed, 'chart-svg', 'viewBox')).toEqual(['0 0 400 267']);
    expect(attrs(zoomed, 'chart-svg', 'height')).toEqual(['534']);
    expect(attrs(plain, 'chart-svg', 'viewBox')).toEqual(['0 0 800 400']);
    expect(texts(zoomed, 'chart-tick').length).toBeLessThan(texts(plain, 'chart-tick').length);
    noBadNumbers(zoomed);
    // Up to 1.5× a fixed height keeps its box (its rounding aside).
    const projected = render(<ChartZoomContext.Provider value={1.5}>{chart}</ChartZoomContext.Provider>);
    expect(attrs(projected, 'chart-svg', 'height')).toEqual(['400.5']);
    expect(attrs(projected, 'chart-svg', 'viewBox')).toEqual(['0 0 533 267']);
  });
});

describe('direct labels at the lines’ ends', () => {
  it('name every line beside its last point, none overlapping', async () => {
    const { spreadLabels } = await import('../../src/widgets/kit/charts/LineChart');
    const html = render(
      <LineChart
        title="t"
        width={640}
        height={300}
        x={{ label: 'x' }}
        y={{ label: 'y' }}
        series={kv}
        directLabels
      />,
    );
    expect(texts(html, 'chart-end-label')).toEqual(['Llama-3.1-8B', 'Llama-3.1-70B']);
    const ys = spreadLabels([50, 52, 51, 200], 12, 0, 300);
    const sorted = [...ys].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBeGreaterThanOrEqual(12);
    expect(ys[3]).toBe(200);
    // A run pushed past the bottom moves up as a whole.
    const low = spreadLabels([295, 296, 297], 12, 0, 300);
    expect(Math.max(...low)).toBeLessThanOrEqual(300);
  });
});
