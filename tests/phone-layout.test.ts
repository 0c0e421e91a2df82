/**
 * Widths stated twice, in a stylesheet and in the kit, must agree: the phone layout's (app.css and PHONE_MAX_WIDTH)
 * and a grid of charts' narrowest column (charts.css .chart-columns and CHART_MIN_WIDTH).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { PHONE_MAX_WIDTH } from '../src/widgets/kit/charts/useWindowSize';
import { CHART_MIN_WIDTH } from '../src/widgets/kit/charts/useChartSize';

describe('PHONE_MAX_WIDTH', () => {
  it('is the width under which app.css lays a widget out in one column, its picture first', () => {
    const css = readFileSync(new URL('../src/styles/app.css', import.meta.url), 'utf8');
    const at = css.indexOf(`@media (max-width: ${PHONE_MAX_WIDTH}px) {`);
    expect(at).toBeGreaterThan(0);
    const block = css.slice(at, css.indexOf('\n}\n', at));
    expect(block).toMatch(/\.widget-body \{\s*grid-template-columns: minmax\(0, 1fr\);/);
    expect(block).toMatch(/\.widget-main \{\s*order: -1;/);
  });
});

describe('CHART_MIN_WIDTH', () => {
  it('is the narrowest column of charts.css’s grid of charts, in chart units (rem × the charts’ gain)', () => {
    const css = readFileSync(new URL('../src/widgets/kit/charts/charts.css', import.meta.url), 'utf8');
    const at = css.indexOf('.chart-columns {');
    expect(at).toBeGreaterThan(0);
    const block = css.slice(at, css.indexOf('}', at));
    const rem = /minmax\(min\(100%, calc\(([\d.]+)rem \* var\(--chart-gain, 1\)\)\), 1fr\)/.exec(block)?.[1];
    // 16 px a rem when reading; presenting, the rem grows with the type and --chart-gain carries it to the charts' zoom.
    expect(Number(rem) * 16).toBe(CHART_MIN_WIDTH);
  });
});
