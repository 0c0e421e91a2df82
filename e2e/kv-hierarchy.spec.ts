/**
 * The KV hierarchy animation (07.04's widget, and 07.06's arena run page by page): it plays on its own and shows
 * pages going down within seconds, playing changes the picture, scrubbing back restores an earlier picture
 * exactly, and more HBM lowers the share of reuse served from below HBM, as the lesson says.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, gotoLessonReady, parseFigure, setNumber, test } from './fixtures';

const PATH = '/lessons/07-04-kv-memory-hierarchy';

const picture = (canvas: Locator) => canvas.evaluate((c) => (c as HTMLCanvasElement).toDataURL());

async function seek(w: Locator, t: number) {
  await w.locator('input.transport-scrub').fill(String(t));
}

async function pauseIfPlaying(w: Locator) {
  const pause = w.getByRole('button', { name: 'Pause' });
  if ((await pause.count()) > 0) await pause.first().click();
}

async function widget(page: Page) {
  await gotoLessonReady(page, PATH, 3);
  const w = page.locator('[data-widget="kv-hierarchy"]');
  await w.scrollIntoViewIfNeeded();
  await expect(w).toHaveAttribute('data-state', 'ready');
  return w;
}

test.describe('KV hierarchy animation', () => {
  test('plays by itself and within 5 s pages are written down to DRAM; playing changes the picture', async ({
    page,
    watch,
  }) => {
    const w = await widget(page);
    const canvas = w.locator('canvas.kvh-canvas');
    const dramWritten = w.locator('table[data-table="tiers"] tr[data-tier="1"] td').nth(2);
    await expect
      .poll(async () => parseFigure((await dramWritten.textContent()) ?? ''), { timeout: 20_000 })
      .toBeGreaterThan(0);
    const a = await picture(canvas);
    const drawnA = Number(await canvas.getAttribute('data-frame'));
    await page.waitForTimeout(600);
    expect(Number(await canvas.getAttribute('data-frame'))).toBeGreaterThan(drawnA);
    expect(await picture(canvas)).not.toBe(a);
    // The lanes carry a key: each phase's colour is the strip's (the series and chart variables) and its height
    // falls from prefill to a tool wait's hairline.
    const key = w.locator('.kvh-phase-key-item');
    await expect(key).toHaveText(['prefill', 'decode', 'queued or loading KV', 'tool wait']);
    const heights = await w
      .locator('.kvh-phase-swatch')
      .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
    for (let i = 1; i < heights.length; i++) expect(heights[i]).toBeLessThan(heights[i - 1]);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('scrubbing back and stepping back restore an earlier picture exactly', async ({ page }) => {
    const w = await widget(page);
    const canvas = w.locator('canvas.kvh-canvas');
    await pauseIfPlaying(w);
    await seek(w, 60.4);
    const at60 = await picture(canvas);
    const marks60 = await canvas.getAttribute('data-marks');
    await seek(w, 150);
    expect(await picture(canvas)).not.toBe(at60);
    await seek(w, 60.4);
    expect(await picture(canvas)).toBe(at60);
    expect(await canvas.getAttribute('data-marks')).toBe(marks60);
    // One step forward, one back: the same picture again.
    await w.getByRole('button', { name: 'Step forward' }).click();
    await expect.poll(() => picture(canvas)).not.toBe(at60);
    await w.getByRole('button', { name: 'Step back' }).click();
    await expect.poll(() => picture(canvas)).toBe(at60);
  });

  test('more HBM for KV: a smaller share of the reuse is served from below HBM (as the Try-this list says)', async ({
    page,
  }) => {
    const w = await widget(page);
    const share = w.locator('[data-readout="below-hbm"]');
    const atEnd = async () => {
      await pauseIfPlaying(w);
      await seek(w, 240);
      return parseFigure((await share.textContent()) ?? '');
    };
    const before = await atEnd();
    expect(before).toBeGreaterThan(0);
    await setNumber(w, /HBM for KV/, 60);
    await expect(page).toHaveURL(/kv-hierarchy\.hbmGB=60/);
    await expect(w).toHaveAttribute('data-state', 'ready');
    await expect.poll(atEnd, { timeout: 30_000 }).toBeLessThan(before);
  });
});

test.describe('07.06: the arena run, page by page', () => {
  test('the chosen policy’s run is drawn as pages in HBM and DRAM, and plays by itself once on screen', async ({
    page,
    watch,
  }) => {
    await page.goto('/lessons/07-06-tool-calls-in-the-loop');
    const section = page.locator('[data-figure="arena-hierarchy"]');
    await section.scrollIntoViewIfNeeded();
    await expect(section).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    const canvas = section.locator('canvas.kvh-canvas');
    await expect(section.locator('table[data-table="tiers"] tbody tr')).toHaveCount(2);
    const a = await picture(canvas);
    await expect(section.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect.poll(() => picture(canvas), { timeout: 20_000 }).not.toBe(a);
    await section.getByRole('button', { name: 'Pause' }).click();
    await expect(section.getByRole('button', { name: 'Play' })).toBeVisible();
    expect(watch.consoleErrors).toEqual([]);
  });
});
