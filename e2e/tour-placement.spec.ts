/**
 * A tour step shows what it talks about clear of its caption: 07.01's step 5 ("The lower chart puts the same session
 * on a clock…") highlights the lower chart and scrolls it above the caption bar, presented on a projector as when
 * reading; on a phone the caption bar is compact (at most 40% of the screen; its text in full for screen readers,
 * "More" shows it). The placement itself: tests/tour-placement.test.ts.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, gotoLessonReady, test } from './fixtures';

const PATH = '/lessons/07-01-the-agent-workload';
const STEP5 = 'The lower chart puts the same session on a clock';

/** Play the tour and go on to its fifth step; returns the caption bar. */
async function playToStep5(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Play the tour' }).click();
  const bar = page.getByRole('region', { name: 'Tour step' });
  await expect(bar).toContainText('Step 1 of');
  await bar.getByRole('button', { name: 'Pause' }).click();
  for (let i = 0; i < 4; i++) await bar.getByRole('button', { name: 'Next step' }).click();
  await expect(bar.locator('[data-tour-caption]')).toHaveAttribute('data-tour-caption', '4');
  await expect(bar.locator('[data-tour-caption]')).toContainText(STEP5);
  return bar;
}

/** The share of `el`'s box that is on screen and not under `cover`'s box. */
async function visibleShare(page: Page, el: Locator, cover: Locator): Promise<number> {
  const a = await el.boundingBox();
  const c = await cover.boundingBox();
  const view = page.viewportSize()!;
  if (!a || !c || a.width * a.height === 0) return 0;
  const overlap = (
    r: { x: number; y: number; width: number; height: number },
    s: { x: number; y: number; width: number; height: number },
  ) => ({
    x: Math.max(r.x, s.x),
    y: Math.max(r.y, s.y),
    width: Math.max(0, Math.min(r.x + r.width, s.x + s.width) - Math.max(r.x, s.x)),
    height: Math.max(0, Math.min(r.y + r.height, s.y + s.height) - Math.max(r.y, s.y)),
  });
  const onScreen = overlap(a, { x: 0, y: 0, width: view.width, height: view.height });
  const covered = overlap(onScreen, c);
  return (onScreen.width * onScreen.height - covered.width * covered.height) / (a.width * a.height);
}

test.describe('a tour step shows its target clear of the caption', () => {
  for (const [width, height] of [
    [1280, 720],
    [1920, 1080],
  ] as const)
    test(`07.01 step 5, presented at ${width} × ${height}: the lower chart is highlighted and shown above the caption`, async ({
      page,
      watch,
    }) => {
      await page.setViewportSize({ width, height });
      await gotoLessonReady(page, `${PATH}?present`, 2);
      const bar = await playToStep5(page);
      const widget = page.locator('[data-widget="trajectory-anatomy"]');
      const chart = widget.locator('[data-mark="session-timeline"]');
      await expect(chart).toHaveAttribute('data-tour-highlight', '');
      // The step highlights the chart it talks about, not a read-out card.
      await expect(widget.locator('[data-tour-highlight]')).toHaveCount(1);
      await expect(chart.locator('svg[data-chart="session-timeline"]')).toBeVisible();
      await expect.poll(() => visibleShare(page, chart, bar)).toBeGreaterThan(0.9);
      // Once the pointer rests the controls fold away; the chart stays clear of the caption.
      await page.mouse.move(5, 5);
      await expect(bar).toHaveAttribute('data-idle', '', { timeout: 6_000 });
      expect(await visibleShare(page, chart, bar)).toBeGreaterThan(0.9);
      expect(watch.consoleErrors).toEqual([]);
    });

  test('on a 390 × 844 phone the caption bar takes at most 40% of the screen and step 5 shows the lower chart', async ({
    page,
    watch,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoLessonReady(page, PATH, 2);
    const bar = await playToStep5(page);
    const box = (await bar.boundingBox())!;
    expect(box.height).toBeLessThanOrEqual(0.4 * 844);
    // Every control is still there, under its name.
    for (const name of ['Previous step', 'Play', 'Next step', 'End tour'])
      await expect(bar.getByRole('button', { name, exact: true })).toBeVisible();
    const chart = page.locator('[data-widget="trajectory-anatomy"] [data-mark="session-timeline"]');
    await expect.poll(() => visibleShare(page, chart, bar)).toBeGreaterThan(0.9);
    // The caption is cut to a few lines on screen, whole for screen readers; "More" shows the rest, and "Less" cuts it again.
    const caption = bar.locator('[data-tour-caption]');
    await expect(caption).toContainText('but a mean of');
    const more = bar.getByRole('button', { name: 'More' });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    const cut = (await caption.boundingBox())!.height;
    await more.click();
    await expect(bar.getByRole('button', { name: 'Less' })).toHaveAttribute('aria-expanded', 'true');
    expect((await caption.boundingBox())!.height).toBeGreaterThan(cut + 10);
    await bar.getByRole('button', { name: 'Less' }).click();
    expect((await caption.boundingBox())!.height).toBeLessThan(cut + 1);
    expect(watch.consoleErrors).toEqual([]);
  });
});
