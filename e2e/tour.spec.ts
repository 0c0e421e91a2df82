import { expect, gotoLessonReady, test } from './fixtures';

const PATH = '/lessons/07-04-kv-memory-hierarchy';

test.describe('guided tour', () => {
  test('a step applies its state: parameters, highlight and caption from the widget’s Try this item', async ({
    page,
    watch,
  }) => {
    await gotoLessonReady(page, PATH, 3);
    const tour = page.locator('[data-tour="07.04"]');
    const steps = tour.locator('[data-tour-step]');
    expect(await steps.count()).toBeGreaterThanOrEqual(8);
    const widget = page.locator('[data-widget="kv-footprint"]');
    const tryFp8 = widget.locator('[data-try="0"]');
    // The tour's step plays the widget's own "Try this" item: same words.
    await expect(steps.nth(2)).toContainText('Switch the KV dtype to FP8');
    await steps.nth(2).getByRole('button').click();
    await expect(widget.getByLabel('KV-cache dtype')).toHaveValue('fp8');
    await expect(page).toHaveURL(/kv-footprint\.kvDtype=fp8/);
    await expect(widget.locator('[data-readout="concurrent-contexts"]')).toHaveAttribute(
      'data-tour-highlight',
      '',
    );
    const bar = page.getByRole('region', { name: 'Tour step' });
    await expect(bar.locator('[data-tour-caption]')).toHaveAttribute('aria-live', 'polite');
    await expect(bar).toContainText('Switch the KV dtype to FP8');
    await expect(tryFp8).toContainText('Switch the KV dtype to FP8');
    // The next step is absolute: it resets the widget before setting its own state.
    await bar.getByRole('button', { name: 'Next step' }).click();
    await expect(widget.getByLabel('KV-cache dtype')).toHaveValue('bf16');
    await expect(widget.getByLabel('Model')).toHaveValue('llama-3.1-405b');
    await expect(widget.getByLabel('Accelerator')).toHaveValue('h200');
    // Controls stay live during the tour.
    await widget.getByLabel('Model').selectOption('llama-3.1-8b');
    await expect(page).toHaveURL(/kv-footprint\.model=llama-3\.1-8b/);
    await bar.getByRole('button', { name: 'End tour' }).click();
    await expect(bar).toHaveCount(0);
    await expect(page.locator('[data-tour-highlight]')).toHaveCount(0);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('it plays like a video and pauses', async ({ page }) => {
    await gotoLessonReady(page, PATH, 3);
    const tour = page.locator('[data-tour="07.04"]');
    await tour.getByRole('button', { name: 'Play the tour' }).click();
    const bar = page.getByRole('region', { name: 'Tour step' });
    await expect(bar).toContainText('Step 1 of');
    const progress = bar.locator('progress');
    await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThan(0.5);
    await bar.getByRole('button', { name: 'Pause' }).click();
    const paused = Number(await progress.getAttribute('value'));
    await page.waitForTimeout(800);
    expect(Number(await progress.getAttribute('value'))).toBe(paused);
    await expect(tour.locator('[data-tour-step="0"]')).toHaveAttribute('aria-current', 'step');
  });

  test('a widget’s “Show me” sets the state its Try this item describes', async ({ page }) => {
    await gotoLessonReady(page, PATH, 3);
    const ladder = page.locator('[data-widget="memory-ladder"]');
    await ladder.locator('[data-try="0"]').getByRole('button', { name: 'Show me' }).click();
    await expect(page).toHaveURL(/memory-ladder\.dramTB=1\.5/);
    await expect(ladder.locator('[data-readout="contexts-dram"]')).toHaveAttribute('data-tour-highlight', '');
  });
});
