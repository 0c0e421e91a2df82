import { expect, expectWidgetsReady, test } from './fixtures';

// The other specs block service workers (playwright.config.ts); this one is about the one the build registers.
test.use({ serviceWorkers: 'allow' });

test('after one visit the lab works without a network: lessons load, their widgets compute, a new path opens', async ({
  page,
  context,
  watch,
}) => {
  test.setTimeout(120_000);
  await page.goto('/');
  // Stored: the worker activates only once every file of the build is in its store, then takes the page.
  await expect(page.locator('[data-offline="ready"]')).toBeVisible({ timeout: 60_000 });
  const stored = await page.evaluate(async () => {
    const keys = await caches.keys();
    const cache = await caches.open(keys.find((k) => k.startsWith('sal-offline-'))!);
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  });
  expect(stored).toContain('/'); // the shell, stored at the address every host serves it at
  expect(stored.some((p) => /^\/assets\/07-04-kv-memory-hierarchy-.*\.js$/.test(p))).toBe(true);

  const failed: { path: string; error?: string }[] = [];
  page.on('requestfailed', (r) => {
    // A load the next navigation cancels (a worker's chunk still arriving as the page is left) is not a failure.
    const error = r.failure()?.errorText;
    if (error !== 'net::ERR_ABORTED') failed.push({ path: new URL(r.url()).pathname, error });
  });
  await context.setOffline(true);
  // The premise: nothing reaches the network now (a file the build does not have fails).
  const probe = await page.evaluate(() =>
    fetch('/not-in-the-build.txt').then(
      () => 'reached',
      () => 'failed',
    ),
  );
  expect(probe).toBe('failed');
  // A lesson never opened before, with a widget that runs the simulation core in the workers.
  await page.goto('/lessons/07-04-kv-memory-hierarchy');
  await expectWidgetsReady(page);
  await expect(page.locator('h1')).toHaveText('The KV Memory Hierarchy');
  await expect(page.locator('[data-widget="kv-footprint"] [data-readout]').first()).not.toHaveText('—');
  // The grammar engine (WebAssembly in a worker) and a sample trace from the store too.
  await page.goto('/lessons/07-08-structured-output');
  await expectWidgetsReady(page);
  await page.goto('/widget/traffic-shape');
  await page.getByRole('button', { name: 'Load the sample trace' }).click();
  await expect(page.locator('[data-widget="traffic-shape"] .trace-summary')).toBeVisible({ timeout: 30_000 });
  await context.setOffline(false);
  // Nothing failed to load but the probe, and nothing else went wrong.
  expect(
    failed.map((f) => f.path),
    JSON.stringify(failed),
  ).toEqual(['/not-in-the-build.txt']);
  const loadErrors = watch.consoleErrors.filter((e) => e.startsWith('Failed to load resource'));
  expect(loadErrors.length).toBeLessThanOrEqual(1);
  expect(watch.consoleErrors.filter((e) => !loadErrors.includes(e))).toEqual([]);
});
