import { expect, gotoLessonReady, test } from './fixtures';
import type { Page } from '@playwright/test';

const PATH = '/lessons/07-04-kv-memory-hierarchy';

/** Rendered height of the first tick label of the widget's bar chart, in screen pixels. */
async function tickHeight(page: Page): Promise<number> {
  const tick = page.locator('[data-widget="kv-footprint"] svg[data-chart="bar"] .chart-tick').first();
  const box = await tick.boundingBox();
  return box!.height;
}

const position = (page: Page) => page.locator('[data-present-position]');

/** The screen position once scrolling has settled (it is read on the next frame after a scroll). */
async function settledPosition(page: Page): Promise<string> {
  let settled = '';
  await expect
    .poll(async () => {
      const a = await position(page).getAttribute('data-present-position');
      await page.waitForTimeout(400);
      const b = await position(page).getAttribute('data-present-position');
      settled = a === b ? (b ?? '') : '';
      return settled;
    })
    .not.toBe('');
  return settled;
}

test.describe('presentation mode', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

  test('?present gives the projector layout with chart text at 1.5×, and the clicker keys move one screen at a time', async ({
    page,
    watch,
  }) => {
    await gotoLessonReady(page, PATH, 3);
    const reading = await tickHeight(page);
    await expect(page.locator('.site-header')).toBeVisible();

    await gotoLessonReady(page, `${PATH}?present`, 3);
    await expect(page.locator('html')).toHaveAttribute('data-present', '');
    await expect(page.locator('.site-header')).toBeHidden();
    expect(await tickHeight(page)).toBeGreaterThanOrEqual(reading * 1.45);
    // Widgets take the screen's width; prose keeps a reading measure (56 rem, 1,344 px at 24-pixel type).
    const paragraph = (await page.locator('.prose > p').first().boundingBox())!.width;
    const widget = (await page.locator('[data-widget="kv-footprint"]').boundingBox())!.width;
    expect(paragraph).toBeLessThanOrEqual(56 * 24 + 1);
    expect(widget).toBeGreaterThan(1.3 * paragraph);

    await expect(position(page)).toHaveAttribute('data-present-position', /^1\//);
    await page.keyboard.press('PageDown');
    await expect(position(page)).toHaveAttribute('data-present-position', /^2\//);
    await page.keyboard.press('ArrowRight');
    await expect(position(page)).toHaveAttribute('data-present-position', /^3\//);
    await page.keyboard.press('ArrowLeft');
    await expect(position(page)).toHaveAttribute('data-present-position', /^2\//);
    await page.keyboard.press('End');
    const total = Number((await position(page).getAttribute('data-present-position'))!.split('/')[1]);
    expect(total).toBeGreaterThan(4);
    await expect(position(page)).toHaveAttribute('data-present-position', `${total}/${total}`);
    await page.keyboard.press('Home');
    await expect(position(page)).toHaveAttribute('data-present-position', `1/${total}`);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('a focused slider keeps its arrow keys; PageDown still moves the screen; Escape leaves presentation', async ({
    page,
  }) => {
    await gotoLessonReady(page, `${PATH}?present`, 3);
    const widget = page.locator('[data-widget="kv-footprint"]');
    const slider = widget.getByRole('slider', { name: /GPUs per replica/ });
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveAttribute('aria-valuetext', '9 GPUs');
    // Focusing scrolled the slider into view; from here on the arrows must not move the screen.
    const before = await settledPosition(page);
    await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveAttribute('aria-valuetext', '10 GPUs');
    await expect(position(page)).toHaveAttribute('data-present-position', before);
    await page.keyboard.press('PageDown');
    await expect(position(page)).not.toHaveAttribute('data-present-position', before);
    await expect(slider).toHaveAttribute('aria-valuetext', '10 GPUs');
    // The widget kept its state: presentation never remounts it.
    await expect(page).toHaveURL(/kv-footprint\.gpus=10/);
    await page.keyboard.press('Escape');
    await expect(page.locator('html')).not.toHaveAttribute('data-present', '');
    await expect(page).not.toHaveURL(/present/);
    await expect(page.locator('.site-header')).toBeVisible();
    await expect(widget).toHaveAttribute('data-state', 'ready');
  });

  test('a clicker’s blank-screen key blanks the screen; any key brings it back without moving', async ({
    page,
  }) => {
    await gotoLessonReady(page, `${PATH}?present`, 3);
    await page.keyboard.press('PageDown');
    const at = await settledPosition(page);
    const blank = page.locator('.present-blank');
    await page.keyboard.press('b');
    await expect(blank).toHaveAttribute('data-blank', 'black');
    expect(await blank.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 0, 0)');
    // It covers the whole window, the presentation bar included.
    expect(await blank.boundingBox()).toMatchObject({ x: 0, y: 0, width: 1920, height: 1080 });
    await page.keyboard.press('PageDown');
    await expect(blank).toHaveCount(0);
    expect(await settledPosition(page)).toBe(at);
    await page.keyboard.press('w');
    await expect(blank).toHaveAttribute('data-blank', 'white');
    await blank.click();
    await expect(blank).toHaveCount(0);
  });

  test('the Present button starts it', async ({ page }) => {
    await gotoLessonReady(page, PATH, 3);
    await page.getByRole('button', { name: 'Present' }).click();
    await expect(page).toHaveURL(/\?present$/);
    await expect(page.locator('html')).toHaveAttribute('data-present', '');
    await page.getByRole('button', { name: 'Exit presentation' }).click();
    await expect(page.locator('html')).not.toHaveAttribute('data-present', '');
  });

  test('the presentation bar fades while the pointer and keys rest, and comes back on a move or key', async ({
    page,
  }) => {
    await gotoLessonReady(page, `${PATH}?present`, 3);
    const bar = page.locator('[data-present-bar]');
    const opacity = () => bar.evaluate((el) => Number(getComputedStyle(el).opacity));
    await page.mouse.move(10, 10);
    await expect.poll(opacity).toBe(1);
    await expect(bar).toHaveAttribute('data-idle', '', { timeout: 6_000 });
    await expect.poll(opacity).toBe(0);
    await page.mouse.move(200, 200);
    await expect(bar).not.toHaveAttribute('data-idle');
    await expect.poll(opacity).toBe(1);
    await expect(bar).toHaveAttribute('data-idle', '', { timeout: 6_000 });
    await page.keyboard.press('ArrowRight');
    await expect(bar).not.toHaveAttribute('data-idle');
    // Still announced while faded: the position is in the accessibility tree.
    await expect(page.getByRole('navigation', { name: 'Presentation' })).toBeAttached();
  });
});

test.describe('presentation mode: a widget taller than the screen', () => {
  test.use({ viewport: { width: 1280, height: 720 } });

  test('PageDown shows the lower part of 07.02’s replay widget before the next heading; PageUp comes back', async ({
    page,
    watch,
  }) => {
    await gotoLessonReady(page, '/lessons/07-02-session-affinity?present', 2);
    const widget = page.locator('[data-widget="affinity-replay"]');
    // Its lower part: the TTFT chart, the transport bar and the "Try this" list.
    const ttft = widget.locator('svg[data-chart="line"]');
    const transport = widget.locator('.transport');
    const lastTry = widget.locator('.try-this > li').last();
    const next = page.locator('#round-robin-spreads-every-session-over-every-replica');
    const box = (loc: typeof widget) =>
      loc.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, height: r.height };
      });
    const inView = async (loc: typeof widget) => {
      const b = await box(loc);
      return b.top >= -1 && b.bottom <= 721;
    };
    // The clicker brings the widget up as a screen of its own: its top at the window's top.
    for (let i = 0; i < 12 && Math.abs((await box(widget)).top) > 8; i++)
      await page.keyboard.press('PageDown');
    expect(Math.abs((await box(widget)).top)).toBeLessThanOrEqual(8);
    expect((await box(widget)).height).toBeGreaterThan(1.5 * 720);
    for (const part of [ttft, transport, lastTry]) expect(await inView(part)).toBe(false);
    const at = await settledPosition(page);
    // The presentation bar's buttons do what the keys do.
    await expect(page.getByRole('button', { name: 'Next screen' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Previous screen' })).toBeEnabled();

    // PageDown now scrolls within the widget, a window at a time with some overlap, never past its end, until
    // its lower part has been shown; then to the next heading.
    const seen = { ttft: false, transport: false, lastTry: false };
    let windows = 0;
    for (; windows < 6; windows++) {
      const before = await box(widget);
      await page.keyboard.press('PageDown');
      const after = await box(widget);
      if (after.top > 0) break; // moved past it
      expect(before.top - after.top).toBeLessThanOrEqual(720 - 48);
      expect(after.bottom).toBeGreaterThanOrEqual(720 - 1);
      expect((await box(next)).top).toBeGreaterThan(8);
      await expect(position(page)).toHaveAttribute('data-present-position', at);
      seen.ttft ||= await inView(ttft);
      seen.transport ||= await inView(transport);
      seen.lastTry ||= await inView(lastTry);
      if (Math.abs(after.bottom - 720) <= 1) {
        windows++;
        break;
      }
    }
    expect(seen).toEqual({ ttft: true, transport: true, lastTry: true });
    expect(windows).toBeGreaterThanOrEqual(2);
    expect(Math.abs((await box(widget)).bottom - 720)).toBeLessThanOrEqual(1);
    await page.keyboard.press('PageDown');
    expect(Math.abs((await box(next)).top)).toBeLessThanOrEqual(8);
    await expect(position(page)).not.toHaveAttribute('data-present-position', at);

    // PageUp undoes it: the widget's last window, then up through it to its top, then the screen before it.
    await page.keyboard.press('PageUp');
    expect(Math.abs((await box(widget)).bottom - 720)).toBeLessThanOrEqual(1);
    await expect(position(page)).toHaveAttribute('data-present-position', at);
    for (let i = 0; i < 6 && (await box(widget)).top < -8; i++) {
      const before = await box(widget);
      await page.keyboard.press('PageUp');
      const after = await box(widget);
      expect(after.top - before.top).toBeGreaterThan(0);
      expect(after.top - before.top).toBeLessThanOrEqual(720 - 48);
      expect(after.top).toBeLessThanOrEqual(1);
    }
    expect(Math.abs((await box(widget)).top)).toBeLessThanOrEqual(8);
    await page.keyboard.press('PageUp');
    expect((await box(widget)).top).toBeGreaterThan(8);
    expect(watch.consoleErrors).toEqual([]);
  });
});

test.describe('presentation mode on a smaller projector', () => {
  test('type and charts zoom with the window: type 1.5× on 1920 × 1080 and charts 2.25×, in proportion on others, never under reading size', async ({
    page,
  }) => {
    const rootType = () =>
      page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
    const chartZoom = () =>
      page.locator('[data-widget="kv-footprint"] svg[data-chart="bar"]').evaluate((svg) => {
        const box = svg.getBoundingClientRect();
        return box.width / Number(svg.getAttribute('viewBox')!.split(' ')[2]);
      });
    for (const [width, height, zoom, charts] of [
      [2560, 1440, 2, 3],
      [1920, 1080, 1.5, 2.25],
      [1600, 900, 1.25, 1.85],
      [1280, 800, 1, 1.5],
    ] as const) {
      await page.setViewportSize({ width, height });
      await gotoLessonReady(page, `${PATH}?present`, 3);
      await expect.poll(rootType, `${width} × ${height}`).toBeCloseTo(16 * zoom, 1);
      await expect.poll(chartZoom, `${width} × ${height}`).toBeCloseTo(charts, 1);
    }
    // Resizing the window rezooms without a reload.
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(rootType).toBeCloseTo(24, 1);
  });
});

test.describe('presentation mode: chart text a lecture hall reads', () => {
  /** Font sizes on screen (px) of the first element matching each selector: its computed size times its zoom. */
  const screenSizes = (page: Page, selectors: Record<string, string>) =>
    page.evaluate((sel) => {
      const out: Record<string, number> = {};
      for (const [name, s] of Object.entries(sel)) {
        const el = document.querySelector(s);
        if (!el) continue;
        const m = el instanceof SVGGraphicsElement ? el.getScreenCTM() : null;
        out[name] = parseFloat(getComputedStyle(el).fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
      }
      return out;
    }, selectors);
  const SELECTORS = {
    tick: '[data-widget="kv-footprint"] svg[data-chart="bar"] .chart-tick',
    axis: '[data-widget="kv-footprint"] svg[data-chart="bar"] .chart-axis-label',
    marker: '[data-widget="memory-ladder"] svg .chart-marker-label',
    value: '[data-widget="memory-ladder"] svg .chart-value-label',
    table: '[data-widget="memory-ladder"] .ruled-table td',
  };

  for (const [width, height, least] of [
    [1280, 720, 16],
    [1920, 1080, 24],
  ] as const) {
    test(`ticks, axis titles, annotations and tables at least ${least} px on a ${width} × ${height} screen`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height });
      await gotoLessonReady(page, `${PATH}?present`, 3);
      const sizes = await screenSizes(page, SELECTORS);
      expect(Object.keys(sizes)).toEqual(Object.keys(SELECTORS));
      for (const [name, px] of Object.entries(sizes)) expect(px, name).toBeGreaterThanOrEqual(least);
    });
  }

  test('reading mode keeps its sizes (an 11-pixel tick)', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await gotoLessonReady(page, PATH, 3);
    const sizes = await screenSizes(page, SELECTORS);
    expect(sizes.tick).toBeCloseTo(11, 1);
    expect(sizes.table).toBeLessThan(16);
  });
});

test.describe('presentation mode on a 1920 × 1080 projector', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

  test('a playing tour folds its controls away while the pointer rests, keeping the caption', async ({
    page,
  }) => {
    await gotoLessonReady(page, '/lessons/07-03-cache-aware-routing?present', 3);
    await page.getByRole('button', { name: 'Play the tour' }).click();
    const bar = page.locator('.tour-bar');
    const next = bar.getByRole('button', { name: 'Next step' });
    await expect(bar.locator('[data-tour-caption]')).toBeVisible();
    await page.mouse.move(300, 300);
    const awake = (await bar.boundingBox())!.height;
    await expect(bar).toHaveAttribute('data-idle', '', { timeout: 6_000 });
    await expect.poll(async () => (await bar.boundingBox())!.height).toBeLessThan(awake - 30);
    await expect(bar.locator('[data-tour-caption]')).toBeVisible();
    // Still reachable: in the accessibility tree, and a move brings the controls back.
    await expect(next).toBeAttached();
    await page.mouse.move(320, 320);
    await expect(bar).not.toHaveAttribute('data-idle');
    await expect.poll(async () => (await bar.boundingBox())!.height).toBeGreaterThan(awake - 2);
    await next.click();
    await expect(bar.locator('[data-tour-caption]')).toHaveAttribute('data-tour-caption', '1');
  });

  test('a select too narrow for its choice at projector type shows the choice whole in its box, on two lines', async ({
    page,
  }) => {
    await page.goto('/widget/cache-router?present');
    const widget = page.locator('[data-widget="cache-router"]');
    await expect(widget).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    const control = widget.locator('[data-param="cacheView"]');
    const chosen = await control
      .locator('select')
      .evaluate((s: HTMLSelectElement) => s.options[s.selectedIndex].text);
    // The box is narrower than the text with its padding and arrow (28 px): a native select would cut it unmarked ...
    expect(await control.locator('select').evaluate((s) => s.clientWidth)).toBeLessThan(
      await control.locator('select').evaluate((s: HTMLSelectElement) => {
        const c = document.createElement('canvas').getContext('2d')!;
        const cs = getComputedStyle(s);
        c.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        return c.measureText(s.options[s.selectedIndex].text).width + 28;
      }),
    );
    // ... so the box (Select's face, over which the select lies) shows it whole, wrapped, nothing cut or overflowing.
    const face = control.locator('[data-select-face]');
    await expect(face).toHaveText(chosen);
    const fits = (el: Element) =>
      el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1;
    expect(await face.evaluate(fits)).toBe(true);
    const lines = (el: Element) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    };
    expect(await face.evaluate(lines)).toBeGreaterThan(1);
    // The select covers its face, so a click opens it; a short choice takes one line.
    const [sel, box] = [await control.locator('select').boundingBox(), await face.boundingBox()];
    expect(Math.abs(sel!.height - box!.height)).toBeLessThan(1.5);
    expect(Math.abs(sel!.width - box!.width)).toBeLessThan(1.5);
    await expect(widget.locator('[data-param="policy"] select')).toBeVisible();
    expect(await widget.locator('[data-param="policy"] [data-select-face]').evaluate(lines)).toBe(1);
  });

  test('the controls’ column grows with the type, so a slider keeps its reading-size proportions', async ({
    page,
  }) => {
    const sliderWidth = async (query: string) => {
      await page.goto(`/widget/cache-router${query}`);
      const widget = page.locator('[data-widget="cache-router"]');
      await expect(widget).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
      return widget.locator('[data-param="replicas"] input[type="range"]').evaluate((el) => el.clientWidth);
    };
    const reading = await sliderWidth('');
    const presenting = await sliderWidth('?present');
    expect(presenting / reading).toBeGreaterThan(1.3);
  });

  test('the share panel’s check boxes grow with the type when presenting', async ({ page }) => {
    const boxSize = async (query: string) => {
      await page.goto(`/widget/cache-router${query}`);
      const widget = page.locator('[data-widget="cache-router"]');
      await widget.getByRole('button', { name: /Share/ }).click();
      const box = await widget.locator('.share-panel input[type="checkbox"]').first().boundingBox();
      return box!.height;
    };
    const reading = await boxSize('');
    const presenting = await boxSize('?present');
    expect(presenting / reading).toBeGreaterThan(1.4);
  });
});

test.describe('presentation mode: read-outs of several figures', () => {
  for (const [width, height] of [
    [1920, 1080],
    [1280, 720],
  ] as const) {
    test(`break between figures, never inside one or before a "·" (${width} × ${height})`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height });
      // 07.12's cost widget has four read-outs; at projector size they used to sit four to a row, too narrow for
      // "$0.00543 ·", which broke into a figure and a lone "·".
      await gotoLessonReady(page, '/lessons/07-12-agents-per-megawatt?present', 2);
      for (const readout of ['cost-split', 'reuse']) {
        const parts = page.locator(`[data-widget="cost-levers"] [data-readout="${readout}"] .figure-part`);
        await expect(parts).toHaveCount(3);
        const lines = await parts.evaluateAll((els) =>
          els.map((el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
        );
        for (const n of lines) expect(n).toBeLessThan(1.5);
      }
    });
  }
});

test.describe('presentation mode: pictures a widget draws itself', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

  // These lay themselves out in chart units like the kit's charts; before, they took those units for screen
  // pixels, so presenting drew them at two thirds of their box with reading-size text.
  const PICTURES: { lesson: string; widgets: number; figure: string; box: string }[] = [
    {
      lesson: '07-04-kv-memory-hierarchy',
      widgets: 3,
      figure: '[data-widget="kv-footprint"] [data-figure="budget-fill"] canvas',
      box: '[data-widget="kv-footprint"] [data-figure="budget-fill"]',
    },
    {
      lesson: '07-04-kv-memory-hierarchy',
      widgets: 3,
      figure: '[data-widget="kv-hierarchy"] canvas.kvh-canvas',
      box: '[data-widget="kv-hierarchy"] [data-figure="kv-hierarchy"]',
    },
    {
      lesson: '07-11-context-compaction',
      widgets: 2,
      figure: '[data-widget="edit-the-prompt"] svg[data-chart="prompt-blocks"]',
      box: '[data-widget="edit-the-prompt"] .cc-picture',
    },
  ];

  for (const p of PICTURES) {
    test(`${p.figure} fills its box when presenting, as when reading`, async ({ page }) => {
      for (const query of ['', '?present']) {
        await gotoLessonReady(page, `/lessons/${p.lesson}${query}`, p.widgets);
        const figure = await page.locator(p.figure).boundingBox();
        const box = await page.locator(p.box).boundingBox();
        expect(figure!.width / box!.width, query || 'reading').toBeGreaterThan(0.97);
      }
    });
  }
});
