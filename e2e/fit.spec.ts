import { expect, test } from './fixtures';
import { WIDGETS } from '../src/widgets/registry';

/**
 * Every widget's picture and key read-outs on one 1280 × 800 screen (#11): opened alone, its first chart or canvas
 * and its read-out row end inside the window.
 */
test.use({ viewport: { width: 1280, height: 800 } });

test('every widget’s picture and key read-outs fit one 1280 × 800 screen', async ({ page }) => {
  test.setTimeout(300_000);
  const over: string[] = [];
  for (const w of WIDGETS) {
    await page.goto(`/widget/${w.id}`);
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
    if (bottom > 800) over.push(`${w.id} (${Math.round(bottom)} px)`);
  }
  expect(over).toEqual([]);
});
