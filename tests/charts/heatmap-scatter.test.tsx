import { describe, expect, it } from 'vitest';
import {
  Heatmap,
  ScatterCanvas,
  heatFill,
  stepCell,
  stepIndex,
  resolveCssColor,
} from '../../src/widgets/kit/charts';
import { formatPercent } from '../../src/lib/format';
import { attrs, count, noBadNumbers, pretty, render, texts } from './helpers';
import { mulberry32 } from './rng';

const rows = ['1', '2', '4', '8'];
const cols = ['1k', '4k', '16k', '64k', '128k'];
const hit = [
  [0.1, 0.3, 0.5, 0.8, 0.95],
  [0.05, 0.2, 0.4, 0.7, 0.9],
  [0.02, 0.1, 0.3, null, 0.85],
  [0, 0.05, 0.2, 0.5, 1],
];

describe('Heatmap', () => {
  it('matches the snapshot', async () => {
    const html = render(
      <Heatmap
        title="Prefix hit rate by replicas and cache size"
        width={640}
        rows={rows}
        columns={cols}
        values={hit}
        value={{ label: 'Hit rate', format: (v) => formatPercent(v), domain: [0, 1] }}
        rowAxis={{ label: 'Replicas' }}
        columnAxis={{ label: 'Cache (tokens)' }}
      />,
    );
    noBadNumbers(html);
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/heatmap.svg');
  });

  it('one labelled cell per entry; missing cells say so; svg is a group so the cell labels are exposed', () => {
    const html = render(
      <Heatmap
        title="h"
        width={640}
        rows={rows}
        columns={cols}
        values={hit}
        value={{ label: 'Hit rate', format: (v) => formatPercent(v) }}
      />,
    );
    expect(count(html, /class="chart-heat-cell/)).toBe(20);
    expect(count(html, /role="img" aria-label="[^"]+"/)).toBe(20);
    expect(html).toContain('aria-label="4, 64k: no data"');
    expect(html).toContain('aria-label="1, 128k: 95%"');
    expect(html).toMatch(/<svg[^>]*role="group"[^>]*aria-label="h"/);
    // Colour legend with formatted ticks.
    expect(texts(html, 'chart-tick')).toEqual(expect.arrayContaining(['0%', '100%']));
    // Value labels printed in cells wide enough.
    expect(texts(html, 'chart-heat-text')).toHaveLength(19);
  });

  it('lowest value gets the low end of the ramp, highest the high end', () => {
    const html = render(
      <Heatmap
        title="h"
        width={400}
        rows={['a']}
        columns={['x', 'y']}
        values={[[1, 3]]}
        value={{ label: 'v' }}
      />,
    );
    expect(html).toContain(`fill:${heatFill(0)}`);
    expect(html).toContain(`fill:${heatFill(1)}`);
    expect(heatFill(0)).toContain('0%');
    expect(heatFill(1)).toContain('var(--heat-3) 100%');
  });

  it('small cells at 320 px drop the in-cell labels; empty matrix shows the message', () => {
    const many = Array.from({ length: 30 }, (_, i) => `c${i}`);
    const html = render(
      <Heatmap
        title="h"
        width={320}
        rows={['a', 'b']}
        columns={many}
        values={[many.map((_, i) => i * 1000), many.map((_, i) => i)]}
        value={{ label: 'v' }}
      />,
    );
    expect(texts(html, 'chart-heat-text')).toHaveLength(0);
    expect(texts(html, 'chart-tick').filter((t) => t.startsWith('c')).length).toBeLessThan(30);
    noBadNumbers(html);
    const empty = render(
      <Heatmap title="h" width={320} rows={[]} columns={[]} values={[]} value={{ label: 'v' }} />,
    );
    expect(texts(empty, 'chart-empty')).toEqual(['No data']);
  });
});

describe('ScatterCanvas', () => {
  const rnd = mulberry32(1);
  const pts = Array.from({ length: 10_000 }, () => ({ x: rnd() * 3600, y: Math.exp(rnd() * 10) }));

  it('10k points: the SVG holds axes only, the points go on a canvas sized to the plot', async () => {
    const html = render(
      <ScatterCanvas
        title="Requests"
        width={640}
        height={320}
        series={[{ name: 'req', points: pts }]}
        x={{ label: 'Time', unit: 's' }}
        y={{ label: 'Prompt', unit: 'tokens', scale: 'log' }}
      />,
    );
    expect(html.length).toBeLessThan(12_000);
    expect(count(html, /<circle/)).toBe(0);
    expect(count(html, /<canvas/)).toBe(1);
    const w = attrs(html, 'chart-overlay', 'width')[0];
    const h = attrs(html, 'chart-overlay', 'height')[0];
    expect(html).toMatch(
      new RegExp(`<canvas class="chart-canvas" style="left:\\d+px;top:\\d+px;width:${w}px;height:${h}px"`),
    );
    expect(html).toContain('10,000 points.');
    noBadNumbers(html);
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/scatter.svg');
  });

  it('skips non-finite points and shows "No data" when none remain', () => {
    const html = render(
      <ScatterCanvas
        title="s"
        width={400}
        height={240}
        series={[{ name: 'a', points: [{ x: NaN, y: 1 }] }]}
        x={{ label: 'x' }}
        y={{ label: 'y' }}
      />,
    );
    expect(texts(html, 'chart-empty')).toEqual(['No data']);
    expect(html).not.toContain('<canvas');
  });
});

describe('keyboard read-out steps', () => {
  it('←/→, Home/End, PageUp/PageDown, Escape', () => {
    expect(stepIndex('ArrowRight', null, 5)).toBe(0);
    expect(stepIndex('ArrowLeft', null, 5)).toBe(4);
    expect(stepIndex('ArrowRight', 4, 5)).toBe(4);
    expect(stepIndex('ArrowLeft', 0, 5)).toBe(0);
    expect(stepIndex('ArrowRight', 2, 5)).toBe(3);
    expect(stepIndex('End', 1, 5)).toBe(4);
    expect(stepIndex('Home', 3, 5)).toBe(0);
    expect(stepIndex('PageDown', 0, 100)).toBe(10);
    expect(stepIndex('Escape', 3, 5)).toBeNull();
    expect(stepIndex('a', 3, 5)).toBeUndefined();
    expect(stepIndex('ArrowRight', null, 0)).toBeUndefined();
    // Horizontal bars step with ↑/↓.
    expect(stepIndex('ArrowDown', 0, 3, true)).toBe(1);
    expect(stepIndex('ArrowRight', 0, 3, true)).toBeUndefined();
  });
  it('heatmap cells move in 2-D and stay inside', () => {
    expect(stepCell('ArrowRight', null, 3, 4)).toEqual({ r: 0, c: 0 });
    expect(stepCell('ArrowDown', { r: 2, c: 1 }, 3, 4)).toEqual({ r: 2, c: 1 });
    expect(stepCell('ArrowUp', { r: 2, c: 1 }, 3, 4)).toEqual({ r: 1, c: 1 });
    expect(stepCell('End', { r: 1, c: 1 }, 3, 4)).toEqual({ r: 1, c: 3 });
    expect(stepCell('Escape', { r: 1, c: 1 }, 3, 4)).toBeNull();
  });
});

describe('resolveCssColor', () => {
  it('passes plain colours through and falls back without a DOM', () => {
    expect(resolveCssColor(null, '#123456')).toBe('#123456');
    expect(resolveCssColor(null, 'var(--series-1)', '#000')).toBe('#000');
  });
});
