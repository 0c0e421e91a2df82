import { describe, expect, it } from 'vitest';
import { BarChart } from '../../src/widgets/kit/charts';
import { formatPercent } from '../../src/lib/format';
import { attrs, count, noBadNumbers, pretty, render, texts } from './helpers';
import { LABEL_FONT, textWidth } from '../../src/widgets/kit/charts/layout';
import { ChartZoomContext } from '../../src/widgets/kit/charts/zoom';

const schedulers = ['precise', 'approximate', 'load-only', 'random'];
const tput = [8730, 6944, 4429, 4429];
const ttft = [0.542, 31.08, 94.87, 92.55];

describe('BarChart', () => {
  it('puts a category label too long for its bar on two lines, and keeps the plot clear of them', () => {
    const chart = (categories: string[], width = 420) =>
      render(
        <BarChart
          title="t"
          width={width}
          height={260}
          categories={categories}
          series={[{ name: 'a', values: [9.67, 11.6, 11.6, 21.3] }]}
          value={{ label: 'Time', unit: 'ms' }}
          category={{ label: 'What' }}
        />,
      );
    const long = chart(['GPU step', 'Masks (CPU wall)', 'TPOT overlapped', 'TPOT charged after the step']);
    // Two lines, each whole words; nothing ends in "…" where the words fit in two lines.
    expect(long).toMatch(/<tspan[^>]*>TPOT charged<\/tspan><tspan[^>]*dy="14"[^>]*>after the step<\/tspan>/);
    expect(long).not.toContain('…');
    // The second line takes room from the plot (the chart keeps its height): the tallest bar is a line shorter.
    const tallest = (html: string) => Math.max(...attrs(html, 'chart-bar', 'height').map(Number));
    const short = chart(['a', 'b', 'c', 'd']);
    expect(tallest(short) - tallest(long)).toBeGreaterThanOrEqual(12);
    // On a phone's narrower bars (07.09's label) a third line keeps the label whole.
    const phone = chart(['GPU step', 'Masks (CPU wall)', 'TPOT overlapped', 'TPOT charged after'], 340);
    expect(phone).toMatch(/<tspan[^>]*>TPOT<\/tspan><tspan[^>]*>charged<\/tspan><tspan[^>]*>after<\/tspan>/);
    expect(phone).not.toContain('…');
  });

  it('runs a value title longer than a short plot into the corner below it before cutting it', () => {
    const chart = (label: string) =>
      render(
        <BarChart
          title="t"
          width={340}
          height={120}
          categories={['hold', 'TTL → offload', 'write-through', 'evict']}
          series={[{ name: 'a', values: [1200, 4827, 1500, 900] }]}
          value={{ label }}
          category={{ label: 'Idle-KV policy' }}
        />,
      );
    const title = (html: string) => texts(html, 'chart-axis-label')[0];
    const plotHeight = (html: string) => Math.max(...attrs(html, 'chart-bar', 'height').map(Number));
    // 07.12's cost chart on a phone: the plot is shorter than the title, which reads whole all the same.
    const short = chart('Agents per MW');
    expect(textWidth('Agents per MW', LABEL_FONT)).toBeGreaterThan(plotHeight(short));
    expect(title(short)).toBe('Agents per MW');
    // Longer than the plot and the corner together: cut, never drawn over the x axis's labels.
    expect(title(chart('Agents per megawatt of facility power'))).toMatch(/…$/);
  });

  it('runs a value title wider than a narrow horizontal plot under the category labels', () => {
    const html = render(
      <BarChart
        title="t"
        width={260}
        height={200}
        orientation="horizontal"
        categories={['Generated', 'Mooncake chat*', 'Mooncake agent*', 'Codex agent*']}
        series={[{ name: 'a', values: [0.958, 0.4, 0.59, 0.942] }]}
        value={{ label: 'Prefix hit share of the prompt', format: (x) => formatPercent(x) }}
      />,
    );
    expect(texts(html, 'chart-axis-label')).toContain('Prefix hit share of the prompt');
  });

  it('matches the snapshot (grouped, vertical, with a value rule)', async () => {
    const html = render(
      <BarChart
        title="Routing schedulers"
        width={640}
        height={320}
        categories={schedulers}
        series={[
          { name: 'TTFT p90', values: ttft },
          { name: 'TTFT mean', values: [0.298, 13.32, 46.99, 45.28] },
        ]}
        value={{ label: 'TTFT', unit: 's' }}
        category={{ label: 'Scheduler' }}
        markers={[{ kind: 'y', y: 30, label: 'SLO 30 s', tone: 'danger' }]}
      />,
    );
    noBadNumbers(html);
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/bar-grouped.svg');
  });

  it('draws one rect per finite value and prints value labels', () => {
    const html = render(
      <BarChart
        title="t"
        width={640}
        height={300}
        categories={schedulers}
        series={[
          { name: 'a', values: tput },
          { name: 'b', values: [1, null, NaN, 3] },
        ]}
        value={{ label: 'Output', unit: 'tok/s' }}
      />,
    );
    expect(count(html, /class="chart-bar"/)).toBe(6);
    expect(texts(html, 'chart-value-label')).toEqual(['8.73k', '6.94k', '4.43k', '4.43k', '1', '3']);
    // Second series is hatched, not only coloured.
    expect(html).toMatch(/fill:url\(#bars-[^)]*-p1\)/);
    expect(count(html, /<pattern /)).toBe(1);
    noBadNumbers(html);
  });

  it('prints why a value draws no bar, at its foot and in no bar', () => {
    const html = render(
      <BarChart
        title="t"
        width={640}
        height={300}
        categories={schedulers}
        series={[
          { name: 'a', values: [1, null, null, 2], gaps: [null, 'computing…', 'none meets', 'ignored'] },
          { name: 'b', values: [1, 2, 3, null] },
        ]}
        value={{ label: 'Agents' }}
      />,
    );
    expect(count(html, /class="chart-bar"/)).toBe(5);
    // A gap label only where the value draws nothing: the fourth category's bar is drawn, so its label is not.
    expect(texts(html, 'chart-gap-label')).toEqual(['computing…', 'none meets']);
    const narrow = render(
      <BarChart
        title="t"
        width={240}
        height={300}
        categories={schedulers}
        series={[
          { name: 'a', values: [1, null, 3, 4], gaps: [null, 'none meets'] },
          { name: 'b', values: [1, 2, 3, 4] },
        ]}
        value={{ label: 'Agents' }}
      />,
    );
    // Every value a gap: the axes stay and say why, where an empty chart would only say "No data".
    const allGaps = render(
      <BarChart
        title="t"
        width={400}
        height={300}
        categories={['a', 'b']}
        series={[{ name: 's', values: [null, null], gaps: ['none meets', 'computing…'] }]}
        value={{ label: 'Agents' }}
      />,
    );
    expect(allGaps).not.toMatch(/No data/);
    expect(texts(allGaps, 'chart-gap-label')).toEqual(['none meets', 'computing…']);
    // Too wide for its band: it reads up along the bar instead of spilling onto the neighbours.
    expect(narrow).toMatch(/class="chart-gap-label" transform="translate\([\d.]+,[\d.]+\) rotate\(-90\)"/);
  });

  it('prints a bar’s own label where it says more than the number (a floor)', () => {
    const html = render(
      <BarChart
        title="t"
        width={640}
        height={300}
        categories={['a', 'b']}
        series={[{ name: 's', values: [5164, 603], labels: ['≥ 5.16k', null] }]}
        value={{ label: 'Agents per MW' }}
      />,
    );
    expect(texts(html, 'chart-value-label')).toEqual(['≥ 5.16k', '603']);
  });

  it('bars start at zero and their heights follow the values', () => {
    const html = render(
      <BarChart
        title="t"
        width={400}
        height={300}
        categories={['a', 'b']}
        series={[{ name: 's', values: [10, 20] }]}
        value={{ label: 'v', domain: [0, 20] }}
      />,
    );
    const heights = attrs(html, 'chart-bar', 'height').map(Number);
    expect(heights[1]).toBeCloseTo(heights[0] * 2, 0);
    expect(texts(html, 'chart-tick')).toContain('0');
  });

  it('horizontal: categories on the left, values on x, value rule drawn vertically', async () => {
    const html = render(
      <BarChart
        title="h"
        orientation="horizontal"
        width={390}
        height={260}
        categories={['system prompt + tool definitions', 'history', 'new user turn']}
        series={[{ name: 'share', values: [0.62, 0.3, 0.08] }]}
        value={{ label: 'Share of prompt', format: (v) => formatPercent(v) }}
        markers={[{ kind: 'y', y: 0.5, label: 'half' }]}
      />,
    );
    expect(count(html, /class="chart-bar"/)).toBe(3);
    expect(html).toMatch(/data-marker="x"/);
    expect(texts(html, 'chart-value-label')).toEqual(['62%', '30%', '8%']);
    // A long category label takes a second line on a 390 px phone rather than ending in "…".
    const tspans = [...html.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((m) => m[1]);
    expect(tspans.length).toBe(2);
    expect(tspans.join(' ')).toBe('system prompt + tool definitions');
    expect(html).not.toMatch(/…/);
    noBadNumbers(html);
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/bar-horizontal.svg');
  });

  describe('a long horizontal list in columns (maxColumns, rowHeight: 07.07’s 36 tools)', () => {
    const names = Array.from({ length: 36 }, (_, i) => `tool_${String(i).padStart(2, '0')}`);
    const tokens = names.map((_, i) => 220 - 4 * i);
    const chart = (width: number, zoom = 1) =>
      render(
        <ChartZoomContext.Provider value={zoom}>
          <BarChart
            title="tools"
            orientation="horizontal"
            width={width}
            categories={names}
            series={[{ name: 'Tokens', values: tokens }]}
            value={{ label: 'Tokens of the definition' }}
            category={{ label: 'Tool' }}
            rowHeight={12.8}
            maxColumns={2}
          />
        </ChartZoomContext.Provider>,
      );
    const barsOf = (html: string) =>
      [
        ...html.matchAll(/<rect class="chart-bar" x="([\d.]+)" y="([\d.]+)"[^>]*data-category="([^"]+)"/g),
      ].map((m) => ({ x: Number(m[1]), y: Number(m[2]), name: m[3] }));

    it('sets them top to bottom in two columns where the width allows, every name and value printed', () => {
      const html = chart(930);
      const bars = barsOf(html);
      expect(bars.length).toBe(36);
      // The second column starts with the 19th tool, level with the first, to the right of the whole first column.
      const first = bars.find((b) => b.name === 'tool_00')!;
      const nineteenth = bars.find((b) => b.name === 'tool_18')!;
      expect(nineteenth.y).toBe(first.y);
      expect(nineteenth.x).toBeGreaterThan(Math.max(...bars.slice(0, 18).map((b) => b.x)));
      expect(texts(html, 'chart-tick').filter((t) => t.startsWith('tool_'))).toHaveLength(36);
      expect(texts(html, 'chart-value-label')).toHaveLength(36);
      // 18 rows of 12.8 units set the height, not an aspect ratio; one value title and one category title.
      const height = Number(attrs(html, 'chart-svg', 'height')[0]);
      expect(height).toBeGreaterThan(18 * 12.8);
      expect(height).toBeLessThan(18 * 12.8 + 80);
      expect(count(html, />Tokens of the definition</)).toBe(1);
      expect(count(html, />Tool</)).toBe(1);
      noBadNumbers(html);
    });

    it('keeps a short list in one column however wide the chart (5 tools: no 3 + 2)', () => {
      const five = render(
        <BarChart
          title="five"
          orientation="horizontal"
          width={930}
          categories={names.slice(0, 5)}
          series={[{ name: 'Tokens', values: tokens.slice(0, 5) }]}
          value={{ label: 'Tokens of the definition' }}
          rowHeight={12.8}
          maxColumns={2}
        />,
      );
      expect(new Set(barsOf(five).map((b) => b.x)).size).toBe(1);
      expect(barsOf(five)).toHaveLength(5);
    });

    it('keeps one column on a phone, its rows still 12.8 units', () => {
      const html = chart(390);
      const ys = barsOf(html).map((b) => b.y);
      expect(new Set(barsOf(html).map((b) => b.x)).size).toBe(1);
      expect(ys[1] - ys[0]).toBeCloseTo(12.8, 6);
      expect(texts(html, 'chart-tick').filter((t) => t.startsWith('tool_'))).toHaveLength(36);
    });

    it('zooms its rows with the chart (presentation mode): every name still printed, the box 1.5× as tall', () => {
      const reading = chart(930);
      const projected = chart(1400, 1.5);
      expect(texts(projected, 'chart-tick').filter((t) => t.startsWith('tool_'))).toHaveLength(36);
      expect(texts(projected, 'chart-value-label')).toHaveLength(36);
      const h = (html: string) => Number(attrs(html, 'chart-svg', 'height')[0]);
      expect(h(projected) / h(reading)).toBeCloseTo(1.5, 1);
    });
  });

  it('negative values go below the zero line', () => {
    const html = render(
      <BarChart
        title="t"
        width={400}
        height={300}
        categories={['gain', 'loss']}
        series={[{ name: 's', values: [5, -5] }]}
        value={{ label: 'Δ' }}
      />,
    );
    const ys = attrs(html, 'chart-bar', 'y').map(Number);
    const hs = attrs(html, 'chart-bar', 'height').map(Number);
    expect(ys[1]).toBeCloseTo(ys[0] + hs[0], 0);
  });

  it('empty data shows the message', () => {
    for (const html of [
      render(
        <BarChart title="t" width={300} height={200} categories={[]} series={[]} value={{ label: 'v' }} />,
      ),
      render(
        <BarChart
          title="t"
          width={300}
          height={200}
          categories={['a']}
          series={[{ name: 's', values: [NaN] }]}
          value={{ label: 'v' }}
          emptyMessage="Run the simulation"
        />,
      ),
    ]) {
      expect(count(html, /class="chart-bar"/)).toBe(0);
      expect(texts(html, 'chart-empty')).toHaveLength(1);
    }
  });

  it('value labels that would touch their neighbours are dropped (grouped bars at 390 px)', () => {
    const props = {
      title: 't',
      height: 260,
      categories: schedulers,
      series: [
        { name: 'p90', values: ttft },
        { name: 'mean', values: [0.298, 13.32, 46.99, 45.28] },
      ],
      value: { label: 'TTFT', unit: 's' },
    };
    expect(texts(render(<BarChart {...props} width={390} />), 'chart-value-label')).toHaveLength(0);
    const wide = render(<BarChart {...props} width={900} />);
    const xs = attrs(wide, 'chart-value-label', 'x')
      .map(Number)
      .sort((a, b) => a - b);
    expect(xs).toHaveLength(8);
    for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThan(32);
  });

  it("a legend's rows come on top of the aspect height, as in the other charts, so a phone keeps the plot", () => {
    const series = [
      { name: 'matmuls (2 FLOP per parameter per token)', values: [270, 270, 140] },
      { name: 'attention', values: [562, 281, 288] },
      { name: 'all-reduce and overhead (no kernel changes them)', values: [70, 70, 40] },
    ];
    const chart = (legend: boolean) =>
      render(
        <BarChart
          title="t"
          width={390}
          aspect={0.32}
          legend={legend}
          categories={['90% hits', '90%, 2× kernel', '95% hits']}
          series={series}
          value={{ label: 'Time', unit: 'ms' }}
        />,
      );
    const svgHeight = (html: string) => Number(/<svg[^>]*\sheight="([\d.]+)"/.exec(html)![1]);
    const barsHeight = (html: string) => Math.max(...attrs(html, 'chart-bar', 'height').map(Number));
    // Three rows of legend at 390 px: the chart grows by them and its tallest bar keeps its length.
    expect(svgHeight(chart(true)) - svgHeight(chart(false))).toBeGreaterThanOrEqual(40);
    expect(barsHeight(chart(true))).toBeGreaterThan(barsHeight(chart(false)) - 10);
  });

  it('many categories at 320 px: labels thinned, no NaN', () => {
    const cats = Array.from({ length: 40 }, (_, i) => `n${i}`);
    const html = render(
      <BarChart
        title="t"
        width={320}
        height={220}
        categories={cats}
        series={[{ name: 's', values: cats.map((_, i) => i * 1e9) }]}
        value={{ label: 'v', unit: 'B' }}
      />,
    );
    expect(count(html, /class="chart-bar"/)).toBe(40);
    expect(texts(html, 'chart-tick').filter((t) => t.startsWith('n')).length).toBeLessThan(40);
    // Value labels dropped where they cannot fit.
    expect(texts(html, 'chart-value-label')).toHaveLength(0);
    noBadNumbers(html);
  });
});
