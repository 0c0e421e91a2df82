import { expect, expectWidgetsReady, figureValue, setNumber, test } from './fixtures';

const PATH = '/lessons/07-10-long-context-prefill';

test.describe('Lesson 07.10 Long-Context Prefill', () => {
  test('loads without console errors; every widget reaches ready; figures and exercises are there', async ({
    page,
    watch,
  }) => {
    await page.goto(PATH);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Long-Context Prefill');
    await expect(page.locator('[data-widget]')).toHaveCount(3);
    expect(await expectWidgetsReady(page)).toBe(3);
    await expect(page.locator('[data-exercise="07-10-largest-gap"]')).toBeVisible();
    await expect(page.locator('[data-exercise="07-10-kernel-to-match"]')).toBeVisible();
    await expect(page.locator('.katex').first()).toBeAttached();
    // Inline figures, computed in the worker: none missing, none left pending.
    await expect(page.locator('.figure-missing')).toHaveCount(0);
    await expect(page.locator('.figure-pending')).toHaveCount(0, { timeout: 30_000 });
    // The fleet scenarios: four rows, the stall hides from the p99 without chunking, and disaggregation keeps the
    // decodes' longest gap and chat's TPOT below chunking's.
    const table = page.locator('[data-figure="prefill-scenarios"]');
    await expect(table).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    await expect(table.locator('tbody tr')).toHaveCount(4);
    const noChunk = table.locator('[data-scenario="no-chunking"]');
    expect(await figureValue(noChunk.locator('[data-cell="gap-max"]'))).toBeGreaterThan(
      50 * (await figureValue(noChunk.locator('[data-cell="gap-p99"]'))),
    );
    const chunk512 = table.locator('[data-scenario="chunk-512"]');
    const disagg = table.locator('[data-scenario="disaggregated"]');
    expect(await figureValue(disagg.locator('[data-cell="gap-max"]'))).toBeLessThan(
      await figureValue(chunk512.locator('[data-cell="gap-max"]')),
    );
    expect(await figureValue(disagg.locator('[data-cell="chat-tpot"]'))).toBeLessThan(
      await figureValue(chunk512.locator('[data-cell="chat-tpot"]')),
    );
    // Chunked against disaggregated for one 100k prompt: the disaggregated rows keep the decodes' gap small.
    const cmp = page.locator('[data-figure="disagg-comparison"]');
    await expect(cmp).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    await expect(cmp.locator('tbody tr')).toHaveCount(6);
    expect(await figureValue(cmp.locator('[data-row="disagg-fast"] [data-cell="gap-max"]'))).toBeLessThan(
      await figureValue(cmp.locator('[data-row="chunk-512"] [data-cell="gap-max"]')),
    );
    expect(await figureValue(cmp.locator('[data-row="disagg-fast"] [data-cell="ttft"]'))).toBeLessThan(
      await figureValue(cmp.locator('[data-row="chunk-512"] [data-cell="ttft"]')),
    );
    const body = (await page.locator('main').textContent()) ?? '';
    expect(body).not.toMatch(/NaN|undefined|Infinity/);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('timeline: a smaller chunk lowers the decodes’ largest gap and raises the long prompt’s TTFT', async ({
    page,
    watch,
  }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="chunked-prefill-timeline"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    const gap = widget.locator('[data-readout="max-gap"]');
    const ttft = widget.locator('[data-readout="ttft"]');

    // Defaults: 512-token chunks beside 32 decodes. No decode waits 100 ms; TTFT ~2 s above the 6.9 s of the
    // prompt alone (196 iterations, each paying the all-reduce latencies and the overhead).
    const gap512 = await figureValue(gap);
    const ttft512 = await figureValue(ttft);
    expect(gap512).toBeLessThan(0.1);
    expect(ttft512).toBeGreaterThan(8.5);
    expect(ttft512).toBeLessThan(9.2);

    // A larger chunk: longer gaps, shorter TTFT.
    await setNumber(widget, /^Prefill chunk per iteration/, 4096);
    await expect(page).toHaveURL(/chunked-prefill-timeline\.chunk=4096/);
    await expect.poll(() => figureValue(gap)).toBeGreaterThan(4 * gap512);
    const ttft4096 = await figureValue(ttft);
    expect(ttft4096).toBeLessThan(ttft512);

    // A smaller chunk than the default: a smaller largest gap, a longer TTFT.
    await setNumber(widget, /^Prefill chunk per iteration/, 256);
    await expect.poll(() => figureValue(gap)).toBeLessThan(gap512);
    expect(await figureValue(ttft)).toBeGreaterThan(ttft512);

    // Chunking off: one iteration of several seconds in which the decodes get nothing.
    await widget.getByRole('switch', { name: 'Chunked prefill' }).uncheck();
    await expect.poll(() => figureValue(gap)).toBeGreaterThan(5);
    await expect(widget.locator('[data-kind="whole"]')).toHaveCount(1);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('timeline: the transport steps from iteration to iteration, and back', async ({ page }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="chunked-prefill-timeline"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    const plot = widget.locator('[data-current-iteration]');
    const last = Number(await plot.getAttribute('data-iterations')) - 1;
    // Opens on the whole picture.
    await expect(plot).toHaveAttribute('data-current-iteration', String(last));
    await widget.getByRole('button', { name: 'Go to start' }).click();
    await expect(plot).toHaveAttribute('data-current-iteration', '0');
    await widget.getByRole('button', { name: 'Step forward' }).click();
    await expect(plot).toHaveAttribute('data-current-iteration', '1');
    await widget.focus();
    await page.keyboard.press('ArrowRight');
    await expect(plot).toHaveAttribute('data-current-iteration', '2');
    await page.keyboard.press('ArrowLeft');
    await expect(plot).toHaveAttribute('data-current-iteration', '1');
    await expect(widget.locator('[data-readout="progress"]')).toHaveText('0%');
    // Four steps in, the prompt's first chunk is done.
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await expect
      .poll(async () => figureValue(widget.locator('[data-readout="progress"]')))
      .toBeGreaterThan(0);
    await page.keyboard.press('End');
    await expect(plot).toHaveAttribute('data-current-iteration', String(last));
    await expect(widget.locator('[data-readout="progress"]')).toHaveText('100%');
    await widget.getByRole('button', { name: 'Play' }).click();
    await expect
      .poll(async () => Number(await plot.getAttribute('data-current-iteration')))
      .toBeGreaterThan(0);
    await widget.getByRole('button', { name: 'Pause' }).click();
  });

  test('trade-off: a range of chunk sizes meets both SLOs; a tighter gap SLO narrows it from above', async ({
    page,
    watch,
  }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="chunk-size-tradeoff"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    const feasible = widget.locator('[data-readout="feasible"]');
    const range = async () => {
      const m = /([\d,]+)\s*–\s*([\d,]+)/.exec((await feasible.textContent()) ?? '');
      return m ? [Number(m[1].replace(/,/g, '')), Number(m[2].replace(/,/g, ''))] : [NaN, NaN];
    };
    const [lo, hi] = await range();
    expect(lo).toBeLessThan(512);
    expect(hi).toBeGreaterThan(512);
    expect(hi).toBeLessThan(2048);
    await expect(widget.locator('[data-marker="band"]')).toHaveCount(1);
    await setNumber(widget, /^p99 inter-token SLO/, 60);
    await expect.poll(async () => (await range())[1]).toBeLessThan(hi);
    expect((await range())[0]).toBe(lo);
    // The read-out chunk moves the key outputs the taught way.
    const ttftAt = widget.locator('[data-readout="ttft-at"]');
    const gapAt = widget.locator('[data-readout="gap-at"]');
    const t512 = await figureValue(ttftAt);
    const g512 = await figureValue(gapAt);
    await setNumber(widget, /^Chunk to read out/, 2048);
    await expect.poll(() => figureValue(gapAt)).toBeGreaterThan(g512);
    expect(await figureValue(ttftAt)).toBeLessThan(t512);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('hit rate beats kernels: 90% → 95% saves more than a 2× attention kernel', async ({ page, watch }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="hit-rate-vs-kernel"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    const hitSaving = await figureValue(widget.locator('[data-readout="hit-saving"]'));
    const kernelSaving = await figureValue(widget.locator('[data-readout="kernel-saving"]'));
    expect(hitSaving).toBeGreaterThan(kernelSaving);
    expect(await figureValue(widget.locator('[data-readout="speedup-match"]'))).toBeGreaterThan(2);
    // A faster kernel saves more, but at 4× still less than the hit rate.
    await setNumber(widget, /^Attention kernel speed-up/, 4);
    await expect
      .poll(() => figureValue(widget.locator('[data-readout="kernel-saving"]')))
      .toBeGreaterThan(kernelSaving);
    expect(await figureValue(widget.locator('[data-readout="kernel-saving"]'))).toBeLessThan(hitSaving);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('the exercises reject a wrong answer and accept the right one', async ({ page }) => {
    await page.goto(PATH);
    const gapEx = page.locator('[data-exercise="07-10-largest-gap"]');
    const gapInput = gapEx.getByLabel(/Your answer/);
    const gapCheck = gapEx.getByRole('button', { name: 'Check' });
    await expect(gapCheck).toBeEnabled({ timeout: 30_000 });
    await gapInput.fill('6800');
    await gapCheck.click();
    await expect(gapEx).toHaveAttribute('data-result', 'wrong');
    await gapEx.getByRole('button', { name: 'Hint' }).click();
    await expect(gapEx).toContainText('98,000');
    await gapInput.fill('200');
    await gapCheck.click();
    await expect(gapEx).toHaveAttribute('data-result', 'correct');
    await expect(gapEx).toContainText('206 ms');

    const kEx = page.locator('[data-exercise="07-10-kernel-to-match"]');
    const kInput = kEx.getByLabel(/Your answer/);
    const kCheck = kEx.getByRole('button', { name: 'Check' });
    await expect(kCheck).toBeEnabled({ timeout: 30_000 });
    await kInput.fill('2');
    await kCheck.click();
    await expect(kEx).toHaveAttribute('data-result', 'wrong');
    await kInput.fill('6.1');
    await kCheck.click();
    await expect(kEx).toHaveAttribute('data-result', 'correct');
    await expect(kEx).toContainText('6.11×');
    // Saved with progress: still correct after a reload.
    await page.reload();
    await expect(page.locator('[data-exercise="07-10-largest-gap"]')).toHaveAttribute(
      'data-result',
      'correct',
    );
    await expect(page.locator('[data-exercise="07-10-kernel-to-match"]')).toHaveAttribute(
      'data-result',
      'correct',
    );
  });
});
