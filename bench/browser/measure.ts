/** What the browser benches measure on a page: one slider step to repaint, long tasks while dragging. */
import type { Locator, Page } from '@playwright/test';

/** Start collecting long main-thread tasks (PerformanceObserver 'longtask'); read with `longestTaskMs`. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
}

export async function longestTaskMs(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __longest: number }).__longest);
}

/**
 * Press → repaint, in ms: from one ArrowRight on the widget's first slider until the widget has changed, is
 * not busy (aria-busy cleared, data-state ready) and two animation frames have passed (the change is painted).
 * Returns NaN when nothing changed within the timeout (the slider was at its end, or the widget is stuck).
 */
export async function sliderRepaintMs(widget: Locator, timeoutMs = 10_000): Promise<number> {
  const slider = widget.locator('input[type="range"]').first();
  await slider.focus();
  const armed = widget.evaluate((root, timeout) => {
    return new Promise<number>((resolve) => {
      let changed = false;
      const obs = new MutationObserver(() => {
        changed = true;
      });
      obs.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
      const t0 = performance.now();
      const poll = () => {
        const idle = !root.getAttribute('aria-busy') && root.getAttribute('data-state') === 'ready';
        if (changed && idle) {
          obs.disconnect();
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
        } else if (performance.now() - t0 > timeout) {
          obs.disconnect();
          resolve(NaN);
        } else setTimeout(poll, 1);
      };
      (window as unknown as { __armedAt: number }).__armedAt = t0;
      // The key press is sent right after this promise is set up; the poll starts with it.
      setTimeout(poll, 0);
    });
  }, timeoutMs);
  await slider.press('ArrowRight');
  return armed;
}

/** Drag the widget's first slider across its track in `steps` moves over `durationMs` (a hand at normal speed). */
export async function dragSlider(page: Page, widget: Locator, steps = 20, durationMs = 1_000): Promise<void> {
  const slider = widget.locator('input[type="range"]').first();
  const box = await slider.boundingBox();
  if (!box) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 2, y);
  await page.mouse.down();
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(box.x + 2 + ((box.width - 4) * i) / steps, y);
    await page.waitForTimeout(durationMs / steps);
  }
  await page.mouse.up();
}
