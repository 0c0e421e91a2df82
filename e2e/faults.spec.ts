/** Faults a learner can meet: a worker that goes silent, a lesson chunk gone after a redeploy. */
import { expect, test, waitForDebugHandles } from './fixtures';

const PATH = '/lessons/07-04-kv-memory-hierarchy';

test('a worker that goes silent (no error event) becomes an error with Retry, and Retry recovers', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto(PATH);
  const widget = page.locator('[data-widget="kv-footprint"]').first();
  await expect(widget).toHaveAttribute('data-state', 'ready');
  await waitForDebugHandles(page);
  await page.evaluate(() =>
    (window as unknown as { __salDebug: { silenceWorker(): void } }).__salDebug.silenceWorker(),
  );
  await widget.getByLabel('Accelerator').selectOption('b200');
  // The watchdog waits 15 s for an answer to its pings.
  await expect(widget).toHaveAttribute('data-state', 'error', { timeout: 40_000 });
  await expect(widget.getByRole('alert')).toContainText('did not answer');
  await widget.getByRole('button', { name: 'Retry' }).click();
  await expect(widget).toHaveAttribute('data-state', 'ready');
  await expect(widget).toContainText('B200');
});

test('a lesson chunk that no longer exists (stale deploy) says so and offers a reload', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The lesson's lazily loaded chunk is gone from the server, as after a redeploy with new hashes.
  await page.route(/\/assets\/07-05[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.locator('a[href="/lessons/07-05-kv-offload-and-reload"]').first().click();
  const alert = page.locator('[data-error-boundary="stale-chunk"]');
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('updated since this page was opened');
  await page.unroute(/\/assets\/07-05[^/]*\.js$/);
  await alert.getByRole('button', { name: 'Reload the page' }).click();
  await expect(page.locator('[data-widget]').first()).toBeAttached();
  await expect(page.locator('[data-error-boundary]')).toHaveCount(0);
});

test('an exercise says how it read a decimal comma, and what it cannot read', async ({ page }) => {
  await page.goto(PATH);
  const ex = page.locator('[data-exercise="07-04-contexts-per-replica"]');
  const input = ex.getByLabel(/Your answer/);
  await expect(ex.getByRole('button', { name: 'Check' })).toBeEnabled();
  await input.fill('0,5');
  await ex.getByRole('button', { name: 'Check' }).click();
  await expect(ex).toHaveAttribute('data-result', 'wrong');
  await expect(ex.locator('[data-read-as]')).toHaveText('Read as 0.5.');
  await input.fill('13 contexts');
  await ex.getByRole('button', { name: 'Check' }).click();
  await expect(ex).toHaveAttribute('data-result', 'invalid');
  await expect(ex).toContainText('“13 contexts” is not a number');
});

test('a long job in one widget does not make another widget wait', async ({ page }) => {
  await page.goto(PATH);
  const widget = page.locator('[data-widget="kv-footprint"]').first();
  await expect(widget).toHaveAttribute('data-state', 'ready');
  // Occupy a worker for 12 s with a job that never yields (under the watchdog's 15 s), then ask the widget for a new
  // result: it must come from the other worker long before the busy one is free.
  await waitForDebugHandles(page);
  const started = await page.evaluate(() => {
    void (
      window as unknown as { __salDebug: { busyWorker(ms: number): Promise<string> } }
    ).__salDebug.busyWorker(12_000);
    return performance.now();
  });
  await widget.getByLabel('Accelerator').selectOption('b200');
  await expect(widget).toContainText('B200', { timeout: 10_000 });
  await expect(widget).toHaveAttribute('data-state', 'ready');
  const waited = (await page.evaluate(() => performance.now())) - started;
  expect(waited).toBeLessThan(12_000);
});

test('a streamed widget whose control moves away and straight back settles on the run it shows', async ({
  page,
}) => {
  // Back to the arguments of the result shown before the newer run ends: the result is reused without a job, so
  // no frames come; the run's own frames must still be there, or the widget says "Computing…" for good.
  await page.goto('/widget/kv-hierarchy');
  const widget = page.locator('[data-widget="kv-hierarchy"]');
  await expect(widget).toHaveAttribute('data-state', 'ready');
  const policy = widget.getByLabel('Pause policy');
  const shown = await policy.inputValue();
  const other = await policy
    .locator('option')
    .evaluateAll((os, cur) => (os as HTMLOptionElement[]).map((o) => o.value).find((v) => v !== cur)!, shown);
  for (let i = 0; i < 3; i++) {
    await policy.selectOption(other);
    await policy.selectOption(shown);
    // Long enough for the newer run to have started and been cancelled (a ready read earlier proves nothing).
    await page.waitForTimeout(400);
    await expect(widget).toHaveAttribute('data-state', 'ready', { timeout: 10_000 });
  }
  // And the newer arguments still run whole when they are kept.
  await policy.selectOption(other);
  await expect(widget).toHaveAttribute('data-state', 'ready', { timeout: 10_000 });
  await expect(policy).toHaveValue(other);
});
