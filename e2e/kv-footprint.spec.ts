import { expect, test, waitForDebugHandles } from './fixtures';

const PATH = '/lessons/07-04-kv-memory-hierarchy';

test.describe('KV footprint calculator (the whole pipe: controls → store/URL → worker → core → chart)', () => {
  test('computes the published figure and moves the key output the way the lesson teaches', async ({
    page,
    watch,
  }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="kv-footprint"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    const contexts = widget.locator('[data-readout="concurrent-contexts"]');
    await expect(contexts).toHaveText('13');
    await expect(widget).toContainText('320 KiB');
    await expect(widget.locator('[data-figure="budget-fill"] canvas')).toBeAttached();
    await expect(widget.locator('svg[data-chart="bar"]')).toBeAttached();
    // FP8 KV halves the bytes per token: more contexts fit.
    await widget.getByLabel('KV-cache dtype').selectOption('fp8');
    await expect(widget).toContainText('160 KiB');
    await expect(contexts).toHaveText('26');
    // Longer contexts: fewer fit.
    await widget.getByRole('spinbutton', { name: /Agent context/ }).fill('200000');
    await widget.getByRole('spinbutton', { name: /Agent context/ }).press('Enter');
    await expect(contexts).toHaveText('13');
    expect(watch.consoleErrors).toEqual([]);
  });

  test('the URL round-trips the widget state, and hand-edited values are clamped with a notice', async ({
    page,
  }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="kv-footprint"]');
    await widget.getByLabel('Model').selectOption('qwen3-32b');
    await widget.getByLabel('Accelerator').selectOption('h200');
    await expect(page).toHaveURL(/kv-footprint\.model=qwen3-32b/);
    await expect(page).toHaveURL(/kv-footprint\.accelerator=h200/);
    // The read-out for these settings, once drawn (the URL is written when the settings rest, not when drawn).
    await expect(widget).not.toHaveAttribute('aria-busy', 'true');
    const before = await widget.locator('[data-readout="concurrent-contexts"]').textContent();
    await page.reload();
    await expect(widget).toHaveAttribute('data-state', 'ready');
    await expect(widget.getByLabel('Model')).toHaveValue('qwen3-32b');
    await expect(widget.locator('[data-readout="concurrent-contexts"]')).toHaveText(before!);
    await page.goto(`${PATH}?kv-footprint.gpus=999&kv-footprint.model=nonsense`);
    await expect(widget).toHaveAttribute('data-state', 'ready');
    await expect(widget.getByRole('spinbutton', { name: /GPUs per replica/ })).toHaveValue('16');
    await expect(widget.getByLabel('Model')).toHaveValue('llama-3.1-70b');
    await expect(widget.getByRole('status').first()).toContainText('outside the allowed range');
    await widget.getByRole('button', { name: 'Reset' }).click();
    await expect(widget.getByRole('spinbutton', { name: /GPUs per replica/ })).toHaveValue('8');
    await expect(page).not.toHaveURL(/kv-footprint\./);
  });

  test('the keyboard operates the slider', async ({ page }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="kv-footprint"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    const slider = widget.getByRole('slider', { name: /GPUs per replica/ });
    await expect(slider).toHaveAttribute('aria-valuetext', '8 GPUs');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await expect(slider).toHaveAttribute('aria-valuetext', '9 GPUs');
    await page.keyboard.press('Home');
    await expect(slider).toHaveAttribute('aria-valuetext', '1 GPU');
    // Llama 3.1 70B in BF16 does not fit on one H100.
    await expect(widget).toContainText('weights do not fit');
    await page.keyboard.press('End');
    await expect(slider).toHaveAttribute('aria-valuetext', '16 GPUs');
    await expect(page).toHaveURL(/kv-footprint\.gpus=16/);
    // The log-scale context slider moves by decades-aware steps and reports tokens.
    const ctx = widget.getByRole('slider', { name: /Agent context/ });
    await ctx.focus();
    await page.keyboard.press('PageUp');
    await expect(ctx).not.toHaveAttribute('aria-valuetext', '100k tokens');
  });

  test('the keyboard operates the transport; scrubbing back works', async ({ page }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="kv-footprint"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    const time = widget.locator('.transport-time');
    // It fills by itself once on screen (an empty budget showed nothing; off screen it holds its frame); Home stops
    // it at the start.
    await widget.scrollIntoViewIfNeeded();
    await expect(widget.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect.poll(async () => (await time.textContent())?.startsWith('0 tokens')).toBe(false);
    await widget.focus();
    await page.keyboard.press('Home');
    // The timeline is every drawn context written in turn: the 13 that fit and the 14th that finds no room.
    await expect(time).toHaveText('0 tokens / 1.4M tokens');
    const filling = widget.locator('[data-readout="filling"]');
    const fill = widget.locator('[data-figure="budget-fill"] canvas');
    // Before anything fills it, the budget is already drawn as its free blocks: the first cell is painted, and
    // differs from the one-pixel gap between cells.
    const [cellPixel, gapPixel] = await fill.evaluate((c: HTMLCanvasElement) => {
      const g = c.getContext('2d')!;
      const scale = c.width / c.getBoundingClientRect().width;
      const at = (x: number, y: number) => [
        ...g.getImageData(Math.floor(x * scale), Math.floor(y * scale), 1, 1).data,
      ];
      const cellPx = Number(c.dataset.cell);
      return [at(cellPx / 2, cellPx / 2), at(cellPx - 0.5, cellPx / 2)];
    });
    expect(cellPixel[3]).toBe(255);
    expect(cellPixel).not.toEqual(gapPixel);
    await widget.focus();
    await page.keyboard.press('ArrowRight');
    await expect(time).toHaveText('2.5k tokens / 1.4M tokens');
    await expect(filling).toHaveText('agent 1 of 14: 2.5k tokens');
    await page.keyboard.press('End');
    await expect(time).toHaveText('1.4M tokens / 1.4M tokens');
    await expect(filling).toHaveText('agent 14 of 14: 100k tokens');
    await expect(fill).not.toHaveAttribute('data-overflow', '0');
    const full = await fill.getAttribute('data-used');
    await page.keyboard.press('ArrowLeft');
    await expect(filling).toHaveText('agent 14 of 14: 97.5k tokens');
    await expect(fill).toHaveAttribute('data-used', full ?? '');
    await page.keyboard.press('Home');
    await expect(time).toHaveText('0 tokens / 1.4M tokens');
    await expect(fill).toHaveAttribute('data-used', '0');
    await page.keyboard.press('Space');
    await expect(widget.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect.poll(async () => (await time.textContent())?.startsWith('0 tokens')).toBe(false);
    await page.keyboard.press('Space');
    await expect(widget.getByRole('button', { name: 'Play' })).toBeVisible();
  });

  test('exports the data behind the figure and the figure itself', async ({ page }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="kv-footprint"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    await widget.getByRole('button', { name: 'Export' }).click();
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      widget.getByRole('menuitem', { name: 'Data (CSV)' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('kv-footprint.csv');
    const text = await (await csv.createReadStream()).toArray();
    const body = Buffer.concat(text).toString('utf8');
    expect(body.split('\n')[0]).toBe('model,kvBytesPerToken,contextTokens,contextBytes');
    expect(body).toContain('Llama 3.1 70B,327680,100000,32768000000');
    await widget.getByRole('button', { name: 'Export' }).click();
    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      widget.getByRole('menuitem', { name: 'Figure (SVG)' }).click(),
    ]);
    const svgText = Buffer.concat(await (await svg.createReadStream()).toArray()).toString('utf8');
    expect(svgText).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svgText).not.toContain('var(--');
  });

  test('a deep link scrolls to the widget', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 700 });
    await page.goto(`${PATH}#kv-footprint`);
    const widget = page.locator('[data-widget="kv-footprint"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    await expect(widget).toBeInViewport();
  });

  test('a crashed worker shows an error with a retry, and the retry recovers', async ({ page }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="kv-footprint"]').first();
    await expect(widget).toHaveAttribute('data-state', 'ready');
    await waitForDebugHandles(page);
    await page.evaluate(() =>
      (window as unknown as { __salDebug: { crashWorker(ms: number): void } }).__salDebug.crashWorker(500),
    );
    await widget.getByLabel('Accelerator').selectOption('b200');
    await expect(widget).toHaveAttribute('data-state', 'error');
    await expect(widget.getByRole('alert')).toContainText('stopped unexpectedly');
    await widget.getByRole('button', { name: 'Retry' }).click();
    await expect(widget).toHaveAttribute('data-state', 'ready');
    await expect(widget).toContainText('B200');
  });

  test('the worker bridge streams frames in order and a cancelled job stops', async ({ page }) => {
    await page.goto(PATH);
    await waitForDebugHandles(page);
    const r = await page.evaluate(() =>
      (
        window as unknown as {
          __salDebug: { cancelSelfTest(n: number): Promise<{ frames: number[]; outcome: string }> };
        }
      ).__salDebug.cancelSelfTest(3),
    );
    expect(r.frames).toEqual([0, 1, 2]);
    expect(r.outcome).toBe('rejected:cancelled');
  });

  test('the exercise rejects a wrong answer, accepts the computed one, and remembers it', async ({
    page,
  }) => {
    await page.goto(PATH);
    const ex = page.locator('[data-exercise="07-04-contexts-per-replica"]');
    const input = ex.getByLabel(/Your answer/);
    await expect(ex.getByRole('button', { name: 'Check' })).toBeEnabled();
    // 13 is what the calculator shows at its default 100,000 tokens; the question asks about 64,000.
    await input.fill('13');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'wrong');
    await input.fill('20');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
    await expect(ex).toContainText('⌊budget / context⌋ = 20');
    await page.reload();
    await expect(ex).toHaveAttribute('data-result', 'correct');
    await expect(ex.getByLabel(/Your answer/)).toHaveValue('20');
  });
});
