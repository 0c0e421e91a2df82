import { expect, test } from './fixtures';
import type { Page } from '@playwright/test';
import { WIDGETS } from '../src/widgets/registry';

/**
 * Every widget's picture and key read-outs on one screen (#11): opened alone, its first chart or canvas and its
 * read-out row end inside the window, at 1280 × 800 and in presentation mode at 1920 × 1080.
 */
async function widgetsOver(page: Page, query: string, windowHeight: number): Promise<string[]> {
  const over: string[] = [];
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
    if (bottom > windowHeight) over.push(`${w.id} (${Math.round(bottom)} px)`);
  }
  return over;
}

test.describe('at 1280 × 800', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  test('every widget’s picture and key read-outs fit one screen', async ({ page }) => {
    test.setTimeout(300_000);
    expect(await widgetsOver(page, '', 800)).toEqual([]);
  });
});

test.describe('in presentation mode at 1920 × 1080', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });
  test('every widget’s picture and key read-outs fit one projected screen', async ({ page }) => {
    test.setTimeout(300_000);
    expect(await widgetsOver(page, '?present', 1080)).toEqual([]);
    await expect(page.locator('html')).toHaveAttribute('data-present', '');
  });
});
