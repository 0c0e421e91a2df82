import { expect, gotoLessonReady, test } from './fixtures';
import { WIDGETS } from '../src/widgets/registry';

const LESSON = '/lessons/07-04-kv-memory-hierarchy';

test.describe('instructor links and standalone widgets', () => {
  test('a link hides one control and locks another at its value', async ({ page, watch }) => {
    await gotoLessonReady(
      page,
      `${LESSON}?kv-footprint.gpus=4&kv-footprint.lock=gpus&kv-footprint.hide=accelerator`,
      3,
    );
    const widget = page.locator('[data-widget="kv-footprint"]');
    await expect(widget.getByLabel('Accelerator')).toHaveCount(0);
    await expect(widget.getByLabel('Model')).toBeVisible();
    const gpus = widget.getByRole('slider', { name: /GPUs per replica/ });
    await expect(gpus).toBeDisabled();
    await expect(gpus).toHaveAttribute('aria-valuetext', '4 GPUs');
    await expect(widget.locator('[data-locked="gpus"]')).toContainText('Fixed by this link');
    // Reset keeps the locked value and the flags.
    await widget.getByRole('button', { name: 'Reset' }).click();
    await expect(gpus).toHaveAttribute('aria-valuetext', '4 GPUs');
    await expect(page).toHaveURL(/kv-footprint\.lock=gpus/);
    // A misspelt control is reported, not silently ignored.
    await page.goto(`${LESSON}?kv-footprint.hide=acelerator`);
    await expect(widget.getByRole('status').first()).toContainText('does not have (acelerator)');
    expect(watch.consoleErrors).toEqual([]);
  });

  test('the share panel builds an instructor link and a standalone link from the current settings', async ({
    page,
  }) => {
    await gotoLessonReady(page, LESSON, 3);
    const widget = page.locator('[data-widget="kv-footprint"]');
    await widget.getByRole('button', { name: 'Share…' }).click();
    const panel = widget.locator('[data-share-panel="kv-footprint"]');
    await panel.getByRole('checkbox', { name: 'Hide Model' }).check();
    await panel.getByRole('checkbox', { name: 'Lock Accelerator' }).check();
    const href = await panel.getByRole('link', { name: 'Open alone' }).getAttribute('href');
    expect(href).toMatch(/\/widget\/kv-footprint\?/);
    const q = new URL(href!).searchParams;
    expect(q.get('kv-footprint.hide')).toBe('model');
    expect(q.get('kv-footprint.lock')).toBe('accelerator');
    await page.goto(new URL(href!).pathname + new URL(href!).search);
    const alone = page.locator('[data-widget="kv-footprint"]');
    await expect(alone).toHaveAttribute('data-state', 'ready');
    await expect(alone.getByLabel('Model')).toHaveCount(0);
    await expect(alone.getByLabel('Accelerator')).toBeDisabled();
  });

  test('every widget renders alone at /widget/<id>, without the site around it', async ({ page, watch }) => {
    test.setTimeout(300_000);
    for (const w of WIDGETS) {
      await page.goto(`/widget/${w.id}`);
      const widget = page.locator('[data-widget]');
      await expect(widget, w.id).toHaveCount(1);
      await expect(widget).toHaveAttribute('data-widget', w.id);
      await expect(widget, w.id).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
      await expect(page.locator('.site-header')).toHaveCount(0);
      await expect(page.locator('html')).toHaveAttribute('data-standalone', '');
    }
    await page.goto('/widget/no-such-widget');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(watch.consoleErrors).toEqual([]);
  });
});
