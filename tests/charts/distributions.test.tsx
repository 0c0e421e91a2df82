import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CdfChart,
  HistogramChart,
  cdfPoints,
  computeBins,
  durationTicks,
  durationAxis,
  ecdf,
  shareAxis,
  quantileSorted,
  sortedSamples,
} from '../../src/widgets/kit/charts';
import { formatDuration, formatPercent } from '../../src/lib/format';
import { attrs, count, noBadNumbers, pretty, render, texts } from './helpers';
import { mulberry32 } from './rng';

const rnd = mulberry32(42);
const lognormal = (median: number, sigma: number) =>
  median * Math.exp(sigma * Math.sqrt(-2 * Math.log(rnd() || 1e-12)) * Math.cos(2 * Math.PI * rnd()));
const claude = Array.from({ length: 2000 }, () => lognormal(0.129, 2.2));
const codex = Array.from({ length: 1500 }, () => lognormal(0.626, 1.8));
const toolAxis = durationAxis('Tool call duration', { scale: 'log' });

describe('computeBins', () => {
  it('counts every usable sample once, on shared edges', () => {
    const b = computeBins({ label: 'x' }, [{ samples: [0, 1, 2, 2, 3, 9.99, 10, NaN, Infinity] }], 10)!;
    expect(b.totals[0]).toBe(7);
    expect(b.counts[0].reduce((a, c) => a + c, 0)).toBe(7);
    expect(b.edges[0]).toBe(0);
    expect(b.edges[b.edges.length - 1]).toBe(10);
  });
  it('log bins: geometric edges, a whole number per decade, non-positive samples skipped', () => {
    const b = computeBins({ label: 'x', scale: 'log' }, [{ samples: [0, -1, 0.001, 0.01, 0.1, 1, 10] }], 12)!;
    expect(b.totals[0]).toBe(5);
    const ratios = b.edges.slice(1).map((e, i) => e / b.edges[i]);
    for (const r of ratios) expect(r).toBeCloseTo(ratios[0], 6);
    expect(b.edges).toContain(0.01);
    expect(b.edges).toContain(1);
  });
  it('explicit thresholds', () => {
    const b = computeBins({ label: 'x' }, [{ samples: [1, 2, 3, 4] }], [0, 2, 4])!;
    expect(b.counts[0]).toEqual([1, 3]);
  });
  it('all-equal samples still give a bin', () => {
    const b = computeBins({ label: 'x' }, [{ samples: [5, 5, 5] }], 10)!;
    expect(b.counts[0].reduce((a, c) => a + c, 0)).toBe(3);
  });
});

describe('HistogramChart', () => {
  it('matches the snapshot (log-x durations, published median marked)', async () => {
    const html = render(
      <HistogramChart
        title="Tool call durations"
        width={640}
        height={300}
        bins={28}
        series={[{ name: 'Claude Code', samples: claude }]}
        x={toolAxis}
        markers={[{ kind: 'x', x: 0.129, label: 'published p50 129 ms' }]}
      />,
    );
    noBadNumbers(html);
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/histogram-log.svg');
  });

  it('one rect per bin, and bin heights sum to the sample count', () => {
    const samples = Array.from({ length: 500 }, () => rnd() * 100);
    const html = render(
      <HistogramChart
        title="h"
        width={600}
        height={300}
        bins={10}
        series={[{ name: 'u', samples }]}
        x={{ label: 'x' }}
        y={{ label: 'Samples', domain: [0, 100] }}
      />,
    );
    const b = computeBins({ label: 'x' }, [{ samples }], 10)!;
    expect(count(html, /class="chart-bar"/)).toBe(b.edges.length - 1);
    const innerHeight = Number(attrs(html, 'chart-overlay', 'height')[0]);
    const total = attrs(html, 'chart-bar', 'height')
      .map(Number)
      .reduce((a, h) => a + h, 0);
    expect((total / innerHeight) * 100).toBeCloseTo(500, -1);
  });

  it('log-x has decade-based duration ticks and the marker at its x', () => {
    const html = render(
      <HistogramChart
        title="h"
        width={800}
        height={300}
        series={[{ name: 'c', samples: claude }]}
        x={toolAxis}
        markers={[{ kind: 'x', x: 1 }]}
      />,
    );
    const ticks = texts(html, 'chart-tick');
    expect(ticks).toContain('1 ms');
    expect(ticks).toContain('1 s');
    const innerWidth = Number(attrs(html, 'chart-overlay', 'width')[0]);
    // The marker at 1 s sits where the "1 s" tick is.
    const tickX = Number(
      html.match(
        /translate\(([\d.]+),0\)"><line class="chart-domain" y1="0" y2="5"><\/line><text class="chart-tick" y="17" text-anchor="middle">1 s</,
      )![1],
    );
    const mx = Number(html.match(/data-marker="x" data-x="([\d.]+)"/)![1]);
    expect(Math.abs(mx - tickX)).toBeLessThan(1);
    expect(mx).toBeLessThan(innerWidth);
  });

  it('two series: step outlines with distinct dashes; fraction normalisation', () => {
    const html = render(
      <HistogramChart
        title="h"
        width={500}
        height={300}
        normalize="fraction"
        series={[
          { name: 'Claude', samples: claude },
          { name: 'Codex', samples: codex },
        ]}
        x={toolAxis}
      />,
    );
    expect(count(html, /class="chart-line chart-step"/)).toBe(2);
    expect(html).toMatch(/chart-step" d="[^"]+" style="stroke:var\(--series-2\)" stroke-dasharray="7 4"/);
    expect(texts(html, 'chart-tick').some((t) => t.endsWith('%'))).toBe(true);
    noBadNumbers(html);
  });

  it('empty samples show the message', () => {
    const html = render(
      <HistogramChart
        title="h"
        width={400}
        height={240}
        series={[{ name: 'c', samples: [] }]}
        x={{ label: 'x' }}
      />,
    );
    expect(texts(html, 'chart-empty')).toEqual(['No data']);
    const neg = render(
      <HistogramChart
        title="h"
        width={400}
        height={240}
        series={[{ name: 'c', samples: [-1, 0] }]}
        x={{ label: 'x', scale: 'log' }}
      />,
    );
    expect(texts(neg, 'chart-empty')).toEqual(['No data']);
  });
});

describe('ECDF helpers', () => {
  const s = sortedSamples({ label: 'x' }, [3, 1, NaN, 2, 2, 4]);
  it('sorts usable samples, computes F and nearest-rank quantiles', () => {
    expect(Array.from(s)).toEqual([1, 2, 2, 3, 4]);
    expect(ecdf(s, 2)).toBeCloseTo(0.6);
    expect(ecdf(s, 0.5)).toBe(0);
    expect(ecdf(s, 4)).toBe(1);
    expect(quantileSorted(s, 0.5)).toBe(2);
    expect(quantileSorted(s, 1)).toBe(4);
  });
  it('step points end at 1 and are thinned to the cap', () => {
    const pts = cdfPoints(s);
    expect(pts[0]).toEqual({ x: 1, y: 0 });
    expect(pts[pts.length - 1]).toEqual({ x: 4, y: 1 });
    // The tie at 2 is one step of height 2/5.
    expect(pts).toContainEqual({ x: 2, y: 0.6 });
    const big = sortedSamples({ label: 'x' }, claude);
    const thin = cdfPoints(big, 200);
    expect(thin.length).toBeLessThanOrEqual(202);
    expect(thin[thin.length - 1].y).toBe(1);
  });
});

describe('CdfChart', () => {
  it('matches the snapshot (two series, log-x, medians marked)', async () => {
    const html = render(
      <CdfChart
        title="Tool call durations, CDF"
        maxPoints={150}
        width={640}
        height={320}
        series={[
          { name: 'Claude Code', samples: claude },
          { name: 'Codex', samples: codex },
        ]}
        x={toolAxis}
        markers={[
          { kind: 'x', x: 0.129, label: 'Claude p50 129 ms' },
          { kind: 'x', x: 0.626, label: 'Codex p50 626 ms', tone: 'danger' },
        ]}
      />,
    );
    noBadNumbers(html);
    expect(count(html, /class="chart-line" d=/)).toBe(2);
    expect(html).toMatch(/data-chart="cdf"/);
    const ticks = texts(html, 'chart-tick');
    expect(ticks).toContain('100%');
    expect(ticks).toContain('0%');
    await expect(pretty(html)).toMatchFileSnapshot('./__snapshots__/cdf.svg');
  });

  it('the drawn median crosses 50% at the sample median', () => {
    const samples = Array.from({ length: 1001 }, (_, i) => i);
    const html = render(
      <CdfChart
        title="c"
        width={600}
        height={300}
        series={[{ name: 'u', samples }]}
        x={{ label: 'x', domain: [0, 1000] }}
        markers={[{ kind: 'point', x: 500, y: 0.5, label: 'p50' }]}
      />,
    );
    const innerWidth = Number(attrs(html, 'chart-overlay', 'width')[0]);
    const innerHeight = Number(attrs(html, 'chart-overlay', 'height')[0]);
    const m = html.match(/data-marker="point" data-x="([\d.]+)" data-y="([\d.]+)"/)!;
    expect(Number(m[1])).toBeCloseTo(innerWidth / 2, 0);
    expect(Number(m[2])).toBeCloseTo(innerHeight / 2, 0);
  });

  it('complementary CDF starts at 100%', () => {
    const html = render(
      <CdfChart
        title="c"
        width={400}
        height={240}
        complementary
        series={[{ name: 'u', samples: [1, 2, 3] }]}
        x={{ label: 'x' }}
      />,
    );
    const d = html.match(/class="chart-line" d="M([\d.]+),([\d.]+)/)!;
    expect(Number(d[2])).toBe(0);
    noBadNumbers(html);
  });

  it('empty data shows the message', () => {
    const html = render(
      <CdfChart
        title="c"
        width={400}
        height={240}
        series={[{ name: 'u', samples: [NaN] }]}
        x={{ label: 'x' }}
      />,
    );
    expect(texts(html, 'chart-empty')).toEqual(['No data']);
  });
});

describe('durationTicks', () => {
  it('log: 1 ms … 1 s, 10 s, 1 min, 10 min, 1 h', () => {
    expect(durationTicks([1e-3, 3600], 10, true).map((v) => formatDuration(v))).toEqual([
      '1 ms',
      '10 ms',
      '100 ms',
      '1 s',
      '10 s',
      '1 min',
      '10 min',
      '1 h',
    ]);
  });
  it('linear: minutes once the span passes two minutes', () => {
    expect(durationTicks([0, 600], 5).map((v) => formatDuration(v))).toEqual([
      '0 s',
      '2 min',
      '4 min',
      '6 min',
      '8 min',
      '10 min',
    ]);
  });
  const labels = (d: [number, number], count: number) =>
    durationTicks(d, count).map((v) => formatDuration(v, 2));
  it('linear: half and whole minutes, hours and days past a minute, never 1.7 min', () => {
    expect(labels([0, 100], 8)).toEqual(['0 s', '30 s', '1 min', '1.5 min']);
    expect(labels([0, 597], 8)).toEqual(['0 s', '2 min', '4 min', '6 min', '8 min']);
    expect(labels([0, 5400], 6)).toEqual(['0 s', '30 min', '1 h', '1.5 h']);
    expect(labels([0, 3 * 86400], 4)).toEqual(['0 s', '1 d', '2 d', '3 d']);
  });
  it('linear: below a minute, round steps of seconds as d3 gives them', () => {
    expect(labels([0, 45], 5)).toEqual(['0 s', '10 s', '20 s', '30 s', '40 s']);
    expect(labels([0, 0.2], 4)).toEqual(['0 s', '50 ms', '100 ms', '150 ms', '200 ms']);
  });
  it('linear: every label past a minute is a whole or half unit (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 60, max: 30 * 86400, noNaN: true }),
        fc.integer({ min: 2, max: 12 }),
        (hi, count) => {
          const ticks = durationTicks([0, hi], count);
          expect(ticks.length).toBeGreaterThanOrEqual(2);
          expect(ticks.length).toBeLessThanOrEqual(count + 1);
          for (const v of ticks) expect(formatDuration(v, 2)).toMatch(/^(0 s|30 s|\d+(\.5)? (min|h|d))$/);
        },
      ),
    );
  });
});

describe('durationAxis', () => {
  it('pairs formatDuration at the digits asked with durationTicks, keeping the rest of the spec', () => {
    const a = durationAxis('TTFT', { unit: 's', digits: 2, zero: true, scale: 'log' });
    expect(a).toMatchObject({ label: 'TTFT', unit: 's', zero: true, scale: 'log', ticks: durationTicks });
    expect(a.format(100)).toBe(formatDuration(100, 2));
    expect(durationAxis('t').format(0.1234)).toBe(formatDuration(0.1234));
    expect(a).not.toHaveProperty('digits');
  });
});

describe('shareAxis', () => {
  it('a share from 0 to 1 in percent, ticks to 2 significant digits, the rest of the spec kept', () => {
    const a = shareAxis('Prefix hit rate');
    expect(a).toMatchObject({ label: 'Prefix hit rate', domain: [0, 1] });
    expect(a.format!(0.5)).toBe('50%');
    expect(a.format!(0.123)).toBe(formatPercent(0.123, 2));
    expect(a.readout!(0.123)).toBe(formatPercent(0.123));
    expect(shareAxis('Share', { domain: [0, 0.5], zero: true })).toMatchObject({
      domain: [0, 0.5],
      zero: true,
    });
  });
});
