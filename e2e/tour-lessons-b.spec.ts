/**
 * Guided tours of lessons 07.07, 07.08 and 07.09: each tour exists with its 5–10 minutes, and a step that plays a
 * widget's "Try this" item sets that widget's parameters (the control and the URL) and highlights its read-out.
 */
import type { Locator, Page } from '@playwright/test';
import { dataValue, expect, gotoLessonReady, test } from './fixtures';

/** Open the tour at the step whose caption contains `text`; returns the tour root. */
async function openStep(page: Page, lesson: string, text: string): Promise<Locator> {
  const tour = page.locator(`[data-tour="${lesson}"]`);
  await expect(tour).toHaveCount(1);
  const step = tour.locator('[data-tour-step]').filter({ hasText: text });
  await expect(step).toHaveCount(1);
  await step.getByRole('button').click();
  return tour;
}

/** The tour's length in minutes, from its progress bar (seconds). */
async function tourMinutes(page: Page): Promise<number> {
  const bar = page.getByRole('region', { name: 'Tour step' });
  return Number(await bar.locator('progress').getAttribute('max')) / 60;
}

test.describe('guided tours of 07.07–07.09', () => {
  test('07.07: the layout step sets the timestamp on top and highlights the hit rate', async ({
    page,
    watch,
  }) => {
    await gotoLessonReady(page, '/lessons/07-07-tool-schema-tax', 2);
    await openStep(page, '07.07', 'Pick Timestamp above the tools');
    const minutes = await tourMinutes(page);
    expect(minutes).toBeGreaterThanOrEqual(5);
    expect(minutes).toBeLessThanOrEqual(10);
    const widget = page.locator('[data-widget="tool-block-layout"]');
    await expect(page).toHaveURL(/tool-block-layout\.layout=timestamp-top/);
    await expect(widget.getByLabel('Prompt layout (read-outs)')).toHaveValue('timestamp-top');
    const hit = widget.locator('[data-readout="hit-rate"]');
    await expect(hit).toHaveAttribute('data-tour-highlight', '');
    await expect(hit).toHaveAttribute('data-value', '0');
    // The caption is the widget's own item, read out by the bar's live region.
    await expect(
      page.getByRole('region', { name: 'Tour step' }).locator('[data-tour-caption]'),
    ).toContainText('the hit rate falls to 0%');
    expect(watch.consoleErrors).toEqual([]);
  });

  test('07.08: a step sets ε and the calls; the logit steps land on their frames, across a new run', async ({
    page,
    watch,
  }) => {
    await gotoLessonReady(page, '/lessons/07-08-structured-output', 3);
    await openStep(page, '07.08', 'Set ε to 0.01%');
    const minutes = await tourMinutes(page);
    expect(minutes).toBeGreaterThanOrEqual(5);
    expect(minutes).toBeLessThanOrEqual(10);
    const nicely = page.locator('[data-widget="asking-nicely"]');
    await expect(page).toHaveURL(/asking-nicely\.calls=2000/);
    await expect(nicely.getByRole('spinbutton', { name: /Tool calls per session/ })).toHaveValue('2000');
    await expect(nicely.locator('[data-readout="expected-failures"]')).toHaveAttribute(
      'data-tour-highlight',
      '',
    );
    // A step with a transport time: step 3 ("Lis") settled, inside the city's free string.
    const logits = page.locator('[data-widget="mask-logits"]');
    await openStep(page, '07.08', 'Step to Lis');
    await expect(logits.locator('[data-readout="step-context"]')).toHaveAttribute(
      'data-value',
      'free-string',
    );
    await expect(logits.locator('[data-readout="masked-mass"]')).toHaveAttribute('data-tour-highlight', '');
    // A new preset and a time: the seek waits for the new run instead of being undone by it.
    await openStep(page, '07.08', 'Pick run_shell');
    await expect(page).toHaveURL(/mask-logits\.preset=run-shell/);
    await expect(logits.locator('[data-readout="step-context"]')).toHaveAttribute('data-value', 'number');
    expect(await dataValue(logits.locator('[data-readout="allowed"]'))).toBeLessThan(20);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('07.09: the batch step raises the batch past 128 and highlights the threads read-out', async ({
    page,
    watch,
  }) => {
    await gotoLessonReady(page, '/lessons/07-09-what-grammars-cost', 3);
    await openStep(page, '07.09', 'Raise the batch past 128');
    const minutes = await tourMinutes(page);
    expect(minutes).toBeGreaterThanOrEqual(5);
    expect(minutes).toBeLessThanOrEqual(10);
    const widget = page.locator('[data-widget="mask-overlap"]');
    await expect(page).toHaveURL(/mask-overlap\.batch=200/);
    await expect(widget.getByRole('spinbutton', { name: /Constrained sequences/ })).toHaveValue('200');
    await expect(widget.locator('[data-readout="threads-to-hide"]')).toHaveAttribute(
      'data-tour-highlight',
      '',
    );
    expect(watch.consoleErrors).toEqual([]);
  });
});
