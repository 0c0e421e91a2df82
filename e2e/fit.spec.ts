import { expect, test } from './fixtures';
import type { Locator, Page } from '@playwright/test';
import { WIDGETS } from '../src/widgets/registry';

/**
 * Every widget opened alone, at 1280 × 800 and 1366 × 768 (fit only), in presentation mode at 1920 × 1080 (1.5×
 * type), at 1280 × 800 (a WXGA projector, where the projected zoom is reading size) and at 1280 × 720 (an HD one,
 * fit only), and (legibility only) on a phone:
 *  - its picture and key read-outs on one screen (#11): its first chart or canvas and its read-out row end inside
 *    the window;
 *  - its drawings legible: no SVG text outside its SVG (cut off) or over another text, and every bar of a bar chart
 *    named (a category label thinned out because the bars run too close, at reading size or zoomed, leaves a bar
 *    nobody can name);
 *  - (at 1280) every chart axis in round units: no label repeated on one axis, and a time past a minute a whole or
 *    half unit ("1.5 min", never the "1.7 min" 100 s prints as; kit/charts/scales.ts durationTicks).
 */
interface Findings {
  over: string[];
  drawing: string[];
  axes: string[];
}

async function walkWidgets(page: Page, query: string, windowHeight: number): Promise<Findings> {
  const found: Findings = { over: [], drawing: [], axes: [] };
  for (const w of WIDGETS) {
    await page.goto(`/widget/${w.id}${query}`);
    const widget = page.locator(`[data-widget="${w.id}"]`);
    await expect(widget, w.id).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    const bottom = await widget.evaluate((el) => {
      const picture = el.querySelector('.widget-figure svg, .widget-figure canvas');
      const readouts = el.querySelector('.widget-readouts');
      return Math.max(
        picture?.getBoundingClientRect().bottom ?? 0,
        readouts?.getBoundingClientRect().bottom ?? 0,
      );
    });
    if (bottom > windowHeight) found.over.push(`${w.id} (${Math.round(bottom)} px)`);
    for (const fault of await textFaults(widget)) found.drawing.push(`${w.id}: ${fault}`);
    for (const bar of await unnamedBars(widget)) found.drawing.push(`${w.id}: bar "${bar}" has no label`);
    for (const labels of await axisLabels(widget)) {
      const odd = labels.filter((l) => /\d\.\d+ (min|h|d)\b/.test(l) && !/\.5 /.test(l));
      const repeated = labels.filter((l, i) => labels.indexOf(l) !== i);
      if (odd.length || repeated.length) found.axes.push(`${w.id}: ${labels.join(' · ')}`);
    }
  }
  return found;
}

/** Each chart axis's tick labels. */
function axisLabels(widget: Locator): Promise<string[][]> {
  return widget.evaluate((el) =>
    [...el.querySelectorAll('.chart-axis')].map((a) =>
      [...a.querySelectorAll('.chart-tick')].map((t) => t.textContent ?? ''),
    ),
  );
}

/** Categories of a bar chart (kit BarChart) whose bars no category label names (thinned out, or never drawn). */
function unnamedBars(widget: Locator): Promise<string[]> {
  return widget.evaluate((el) => {
    const out: string[] = [];
    // Compared without white space: a label wrapped onto two lines ("TTL→" / "offload") still names its bar.
    const bare = (s: string) => s.replace(/\s+/g, '');
    for (const svg of el.querySelectorAll('svg[data-chart="bar"]')) {
      const labels = [...svg.querySelectorAll('.chart-tick')].map((t) => bare(t.textContent ?? ''));
      const cats = new Set(
        [...svg.querySelectorAll('.chart-bar')].map((b) => b.getAttribute('data-category') ?? ''),
      );
      // A label may be cut to its band with "…": it names its category if the category starts with what it shows.
      const named = (c: string) =>
        labels.some((l) => l === bare(c) || (l.endsWith('…') && bare(c).startsWith(l.slice(0, -1))));
      for (const c of cats) if (c && !named(c)) out.push(c);
    }
    return out;
  });
}

/** SVG texts drawn partly outside their SVG, or more than 15% of the smaller one over another. */
function textFaults(widget: Locator): Promise<string[]> {
  return widget.evaluate((el) => {
    const out: string[] = [];
    for (const svg of el.querySelectorAll('svg')) {
      const s = svg.getBoundingClientRect();
      if (s.width < 50) continue;
      const boxes = [...svg.querySelectorAll('text')]
        .filter((t) => (t.textContent ?? '').trim() && getComputedStyle(t).opacity !== '0')
        .map((t) => ({ text: (t.textContent ?? '').trim(), r: t.getBoundingClientRect() }))
        .filter((b) => b.r.width > 0);
      for (const b of boxes)
        if (
          b.r.left < s.left - 1 ||
          b.r.right > s.right + 1 ||
          b.r.top < s.top - 1 ||
          b.r.bottom > s.bottom + 1
        )
          out.push(`"${b.text}" outside its picture`);
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i].r;
          const c = boxes[j].r;
          const ix = Math.min(a.right, c.right) - Math.max(a.left, c.left);
          const iy = Math.min(a.bottom, c.bottom) - Math.max(a.top, c.top);
          const smaller = Math.min(a.width * a.height, c.width * c.height);
          if (ix > 2 && iy > 3 && (ix * iy) / smaller > 0.15)
            out.push(`"${boxes[i].text}" over "${boxes[j].text}"`);
        }
    }
    return out;
  });
}

test.describe('at 1280 × 800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  test('every widget’s picture and key read-outs fit one screen, legible, its axes in round units', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const found = await walkWidgets(page, '', 800);
    expect.soft(found.over).toEqual([]);
    expect.soft(found.drawing).toEqual([]);
    expect(found.axes).toEqual([]);
  });
});

test.describe('at 1366 × 768, the commonest laptop screen', () => {
  test.use({ viewport: { width: 1366, height: 768 } });
  test('every widget’s picture and key read-outs fit one screen', async ({ page }) => {
    test.setTimeout(300_000);
    const found = await walkWidgets(page, '', 768);
    expect(found.over).toEqual([]);
  });
});

test.describe('in presentation mode at 1920 × 1080', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });
  test('every widget’s picture and key read-outs fit one projected screen, legible', async ({ page }) => {
    test.setTimeout(300_000);
    const found = await walkWidgets(page, '?present', 1080);
    expect.soft(found.over).toEqual([]);
    expect(found.drawing).toEqual([]);
    await expect(page.locator('html')).toHaveAttribute('data-present', '');
  });
});

test.describe('in presentation mode on a 1280 × 720 projector', () => {
  test.use({ viewport: { width: 1280, height: 720 } });
  test('every widget’s picture and key read-outs fit one projected screen', async ({ page }) => {
    test.setTimeout(300_000);
    const found = await walkWidgets(page, '?present', 720);
    expect(found.over).toEqual([]);
  });
});

test.describe('in presentation mode on a 1280 × 800 projector', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  test('every widget’s picture and key read-outs fit one projected screen, legible', async ({ page }) => {
    test.setTimeout(300_000);
    const found = await walkWidgets(page, '?present', 800);
    expect.soft(found.over).toEqual([]);
    expect(found.drawing).toEqual([]);
  });
});

test.describe('on a phone, 390 × 844', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('every widget’s drawings legible: no text cut off or over other text', async ({ page }) => {
    test.setTimeout(300_000);
    const found = await walkWidgets(page, '', Infinity);
    expect(found.drawing).toEqual([]);
  });
});
