import { expect, gotoLessonReady, lessonWidgetCount, test } from './fixtures';
import type { Page } from '@playwright/test';
import { LESSONS } from '../src/app/lessons';
import { CHART_MIN_WIDTH } from '../src/widgets/kit/charts/useChartSize';

/**
 * Where a widget's controls sit among its charts, and selects that show their whole choice (from a student review):
 *  - on a phone a widget of several charts (WidgetFrame `more`) shows its first chart, then its controls, then the
 *    rest, instead of every chart before the first slider; reading, the rest sits under the first chart, beside the
 *    controls;
 *  - a select shows its chosen option whole (wrapped in its box where the column is narrow), never wider than its
 *    column, at 1280 px and at 390 px;
 *  - no lesson chart is drawn narrower than a phone draws it (CHART_MIN_WIDTH chart units), reading at 1280 px or
 *    presenting at 1920 × 1080: a grid of charts puts fewer in a row (07.01's traffic shape drew five 279 px wide,
 *    their markers' labels over each other's rules). But for the pairs compared side by side (SIDE_BY_SIDE).
 */
const SEVERAL = [
  'traffic-shape',
  'affinity-replay',
  'round-robin-spread',
  'tool-latency',
  'pause-arena',
  'asking-nicely',
  'cost-levers',
];

/**
 * Widgets whose other two pictures sit side by side under the first when reading (tested below), each grid by its
 * class: narrower than CHART_MIN_WIDTH at 1280 px on purpose, so the two read as one comparison.
 */
const SIDE_BY_SIDE: readonly (readonly [string, string])[] = [
  ['round-robin-spread', '.router-charts'],
  ['asking-nicely', '.so-more'],
];

async function open(page: Page, id: string) {
  await page.goto(`/widget/${id}`);
  const widget = page.locator(`[data-widget="${id}"]`);
  await expect(widget).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  // The rest of the charts draw with the first.
  await expect(widget.locator('.widget-more svg').first()).toBeVisible({ timeout: 60_000 });
  return widget;
}

/** Top and bottom (px) of the first picture, the controls and the rest. */
function parts(page: Page, id: string) {
  return page.locator(`[data-widget="${id}"]`).evaluate((el) => {
    const box = (e: Element | null) => {
      const r = e!.getBoundingClientRect();
      return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, left: r.left, right: r.right };
    };
    return {
      first: box(el.querySelector('.widget-main .widget-figure :is(svg[role="img"], canvas)')),
      controls: box(el.querySelector('.widget-controls')),
      more: box(el.querySelector('.widget-more')),
      main: box(el.querySelector('.widget-main')),
    };
  });
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const id of SEVERAL)
    test(`${id}: first chart, then the controls, then the other charts`, async ({ page }) => {
      await open(page, id);
      const p = await parts(page, id);
      expect(p.controls.top).toBeGreaterThanOrEqual(p.first.bottom);
      expect(p.more.top).toBeGreaterThanOrEqual(p.controls.bottom);
    });

  test('every select of the 07.02 replay and 07.06 latency widgets shows its choice whole, inside its card', async ({
    page,
  }) => {
    for (const id of ['affinity-replay', 'tool-latency']) {
      const widget = await open(page, id);
      const faults = await widget.evaluate((el) => {
        const out: string[] = [];
        const card = el.getBoundingClientRect();
        for (const face of el.querySelectorAll<HTMLElement>('[data-select-face]')) {
          const r = face.getBoundingClientRect();
          if (r.right > card.right + 0.5 || r.left < card.left - 0.5)
            out.push(`${face.textContent} leaves its card`);
          if (face.scrollWidth > face.clientWidth + 1) out.push(`${face.textContent} overflows its box`);
        }
        return out;
      });
      expect(faults, id).toEqual([]);
    }
  });
});

test.describe('reading at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  for (const id of SEVERAL)
    test(`${id}: the other charts under the first, beside the controls`, async ({ page }) => {
      await open(page, id);
      const p = await parts(page, id);
      expect(p.more.top).toBeGreaterThanOrEqual(p.main.bottom);
      expect(Math.abs(p.more.left - p.main.left)).toBeLessThan(1);
      expect(p.controls.right).toBeLessThanOrEqual(p.more.left);
    });

  test('07.03’s spread and 07.08’s asking nicely keep their other two pictures side by side under the first', async ({
    page,
  }) => {
    for (const [id, grid] of SIDE_BY_SIDE) {
      const widget = await open(page, id);
      const [a, b] = await widget
        .locator(`.widget-more ${grid} > *`)
        .evaluateAll((els) => els.slice(0, 2).map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
      expect(Math.abs(a.top - b.top), id).toBeLessThan(2);
      expect(b.left, id).toBeGreaterThanOrEqual(a.right);
    }
  });

  test('07.06’s “when the TTL runs out” shows its whole choice, on two lines, with the select over it', async ({
    page,
  }) => {
    const widget = await open(page, 'tool-latency');
    const control = widget.locator('[data-param="after"]');
    const select = control.locator('select');
    const chosen = await select.evaluate((s: HTMLSelectElement) => s.options[s.selectedIndex].text);
    const face = control.locator('[data-select-face]');
    await expect(face).toHaveText(chosen);
    expect(await face.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    const [s, f] = [await select.boundingBox(), await face.boundingBox()];
    expect(Math.abs(s!.height - f!.height)).toBeLessThan(1.5);
    expect(f!.height).toBeGreaterThan(40);
    // The select keeps the keys, the value and the list: choosing another option updates the face.
    await select.selectOption('offload');
    await expect(face).toHaveText(
      await select.evaluate((x: HTMLSelectElement) => x.options[x.selectedIndex].text),
    );
    await expect(face).not.toHaveText(chosen);
  });
});

for (const [screen, viewport, query] of [
  ['reading at 1280 px', { width: 1280, height: 800 }, ''],
  ['presenting at 1920 × 1080', { width: 1920, height: 1080 }, '?present'],
] as const)
  test.describe(`every lesson's charts, ${screen}`, () => {
    test.use({ viewport });

    for (const lesson of LESSONS)
      test(`${lesson.slug}: no chart narrower than ${CHART_MIN_WIDTH} chart units`, async ({ page }) => {
        test.setTimeout(120_000);
        await gotoLessonReady(page, `/lessons/${lesson.slug}${query}`, lessonWidgetCount(lesson.slug));
        const pairs = SIDE_BY_SIDE.map(([id, grid]) => `[data-widget="${id}"] ${grid}`).join(', ');
        // A chart's width in its own units is its viewBox's (ChartShell: screen pixels over the zoom), set from its
        // box before the chart is first painted; the charts of a widget's `more` draw with its first, once ready.
        const charts = await page.evaluate((pairs) => {
          return [...document.querySelectorAll<SVGSVGElement>('[data-widget] svg.chart-svg')]
            .filter((svg) => !svg.closest(pairs))
            .map((svg) => ({
              chart: `${svg.closest('[data-widget]')!.getAttribute('data-widget')}: ${svg.getAttribute('aria-label')?.slice(0, 60)}`,
              units: Math.round(svg.viewBox.baseVal.width),
            }));
        }, pairs);
        expect(charts.length).toBeGreaterThan(0);
        const narrow = charts.filter((c) => c.units < CHART_MIN_WIDTH).map((c) => `${c.chart} (${c.units})`);
        expect(narrow).toEqual([]);
      });
  });
