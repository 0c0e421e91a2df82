import { expect, expectWidgetsReady, test } from './fixtures';

const PATH = '/lessons/07-03-cache-aware-routing';

test.describe('07.03 Cache-Aware Routing', () => {
  test('loads without console errors; every widget and the live table get their numbers', async ({
    page,
    watch,
  }) => {
    await page.goto(PATH);
    await expect(page.getByRole('heading', { level: 1, name: 'Cache-Aware Routing' })).toBeVisible();
    await expect(page.locator('[data-widget]')).toHaveCount(3);
    expect(await expectWidgetsReady(page)).toBe(3);
    await expect(page.locator('[data-widget="cache-router"] svg[data-chart="router"]')).toBeVisible();
    // The table in the prose is simulated too: every row filled.
    const table = page.locator('[data-figure="policy-table"]');
    await expect(table).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    await expect(table.locator('tbody tr')).toHaveCount(6);
    await expect(table.locator('tbody')).not.toContainText('…');
    // KaTeX rendered the formulas.
    expect(await page.locator('.katex').count()).toBeGreaterThan(10);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('switching round-robin → cache-aware raises the hit rate and lowers p90 TTFT', async ({ page }) => {
    await page.goto(PATH);
    const w = page.locator('[data-widget="cache-router"]');
    await expect(w).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    // Ready is the picture at the playhead (the run streams in); the whole-run figures once it is no longer busy.
    await expect(w).not.toHaveAttribute('aria-busy', 'true', { timeout: 30_000 });
    await expect(w.getByLabel('Routing policy')).toHaveValue('round-robin');
    const hit = w.locator('[data-readout="hit-rate"]');
    const p90 = w.locator('[data-readout="ttft-p90"]');
    const rrHit = Number(await hit.getAttribute('data-final'));
    const rrP90 = Number(await p90.getAttribute('data-final'));
    await w.getByLabel('Routing policy').selectOption('cache-aware');
    await expect(page).toHaveURL(/cache-router\.policy=cache-aware/);
    await expect
      .poll(async () => Number(await hit.getAttribute('data-final')), { timeout: 30_000 })
      .toBeGreaterThan(rrHit + 0.1);
    const caP90 = Number(await p90.getAttribute('data-final'));
    expect(caP90).toBeLessThan(rrP90 * 0.7);
    // Round-robin holds copies of sessions on several replicas; cache-aware keeps a session on one.
    await w
      .getByRole('button', { name: /Pause|Play/ })
      .first()
      .focus();
    await page.keyboard.press('End');
    await w.getByLabel('Follow a session').selectOption('0');
    await expect(w.locator('[data-follow-copies]')).toHaveAttribute('data-follow-copies', '1');
    await w.getByLabel('Routing policy').selectOption('round-robin');
    await expect
      .poll(async () => Number(await hit.getAttribute('data-final')), { timeout: 30_000 })
      .toBeCloseTo(rrHit, 6);
    const time = w.getByRole('slider', { name: 'Time' });
    await time.fill('60');
    await expect
      .poll(async () => Number(await w.locator('[data-follow-copies]').getAttribute('data-follow-copies')))
      .toBeGreaterThan(1);
  });

  test('the transport plays, pauses, steps and scrubs back; the picture is a function of t', async ({
    page,
  }) => {
    await page.goto(PATH);
    const w = page.locator('[data-widget="cache-router"]');
    await expect(w).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    // Ready is the picture at the playhead (the run streams in); the whole-run figures once it is no longer busy.
    await expect(w).not.toHaveAttribute('aria-busy', 'true', { timeout: 30_000 });
    const time = w.getByRole('slider', { name: 'Time' });
    // Autoplay: the clock moves by itself; pause stops it.
    await expect.poll(async () => Number(await time.inputValue())).toBeGreaterThan(0.5);
    await w.getByRole('button', { name: 'Pause' }).click();
    await expect(w.getByRole('button', { name: 'Play' })).toBeVisible();
    const paused = await time.inputValue();
    await page.waitForTimeout(400);
    expect(await time.inputValue()).toBe(paused);
    // Scrub to about 60 s, read the picture and the live read-outs, scrub back to about 20 s, then forward again.
    // (The range input snaps to its step, so the expected time is read back from it.)
    const desc = w.locator('svg[data-chart="router"] desc');
    const hitLive = w.locator('[data-readout="hit-rate"]');
    const scrub = async (to: string) => {
      await time.fill(to);
      const at = Number(await time.inputValue());
      await expect(desc).toContainText(`At ${at.toFixed(1)} s.`);
      return at;
    };
    const t60 = await scrub('60');
    const at60 = { desc: await desc.textContent(), hit: await hitLive.textContent() };
    await scrub('20');
    expect(await desc.textContent()).not.toBe(at60.desc);
    expect(await hitLive.textContent()).not.toBe(at60.hit);
    await scrub('60');
    await expect(desc).toHaveText(at60.desc!);
    await expect(hitLive).toHaveText(at60.hit!);
    // Step forward and back by one second with the buttons and the keyboard.
    await w.getByRole('button', { name: 'Step forward' }).click();
    await expect(desc).toContainText(`At ${(t60 + 1).toFixed(1)} s.`);
    await w.getByRole('button', { name: 'Step back' }).click();
    await w.getByRole('button', { name: 'Step back' }).click();
    await expect(desc).toContainText(`At ${(t60 - 1).toFixed(1)} s.`);
    await w.focus(); // keys aimed at a button or field are left to it
    await page.keyboard.press('ArrowLeft');
    await expect(desc).toContainText(`At ${(t60 - 2).toFixed(1)} s.`);
    await page.keyboard.press('Home');
    await expect(desc).toContainText('At 0.0 s.');
    // Play again, at 4×.
    await w.getByLabel('Playback speed').selectOption('4');
    await w.getByRole('button', { name: 'Play' }).click();
    await expect.poll(async () => Number(await time.inputValue())).toBeGreaterThan(5);
    await w.getByRole('button', { name: 'Pause' }).click();
  });

  test('router picture: HBM fills within five seconds untouched; playing redraws; scrubbing back restores a frame exactly; reasons and a pool', async ({
    page,
  }) => {
    await page.goto(PATH);
    const w = page.locator('[data-widget="cache-router"]');
    await expect(w).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    // Ready is the picture at the playhead (the run streams in); the whole-run figures once it is no longer busy.
    await expect(w).not.toHaveAttribute('aria-busy', 'true', { timeout: 30_000 });
    const svg = w.locator('svg[data-chart="router"]');
    const fill = w.locator('[data-readout="hbm-fill"]');
    // Out of view it holds its frame (an animation nobody sees costs the page nothing), though it is playing.
    const clock = w.getByRole('slider', { name: 'Time' });
    await expect(w.getByRole('button', { name: 'Pause' })).toBeVisible();
    const heldAt = await clock.inputValue();
    await page.waitForTimeout(800);
    expect(await clock.inputValue()).toBe(heldAt);
    await w.scrollIntoViewIfNeeded();
    // In view and untouched, soon (the defaults play at 6 simulated s per s): round-robin has filled HBM.
    await expect
      .poll(async () => parseFloat((await fill.textContent()) ?? ''), { timeout: 20_000 })
      .toBeGreaterThan(85);
    // Playing changes the picture: new frames drawn, new marks, trails and arrivals.
    const frame0 = Number(await svg.getAttribute('data-frame'));
    const html0 = await svg.innerHTML();
    await page.waitForTimeout(500);
    expect(Number(await svg.getAttribute('data-frame'))).toBeGreaterThan(frame0);
    expect(await svg.innerHTML()).not.toBe(html0);
    await w.getByRole('button', { name: 'Pause' }).click();
    // Every replica shows its latest arrival split into cached and to-prefill tokens; trails lead to them.
    const time = w.getByRole('slider', { name: 'Time' });
    await time.fill('62');
    await expect(svg.locator('[data-arrival]')).toHaveCount(4);
    for (const bar of await svg.locator('[data-arrival]').all()) {
      const hit = Number(await bar.getAttribute('data-hit'));
      const miss = Number(await bar.getAttribute('data-miss'));
      expect(hit + miss).toBeGreaterThan(0);
    }
    expect(await svg.locator('[data-trail]').count()).toBeGreaterThan(0);
    await expect(w.locator('[data-readout="decision"]')).toContainText(
      /^round-robin: replica \d is next in turn$/,
    );
    // Scrubbing back restores an earlier frame exactly (trails and fades are functions of t).
    const at62 = await svg.innerHTML();
    await time.fill('45');
    await expect.poll(() => svg.innerHTML()).not.toBe(at62);
    await time.fill('62');
    await expect.poll(() => svg.innerHTML()).toBe(at62);
    // Cache-aware: the reason names the replica holding the prefix.
    const hit = w.locator('[data-readout="hit-rate"]');
    const rrHit = Number(await hit.getAttribute('data-final'));
    await w.getByLabel('Routing policy').selectOption('cache-aware');
    await expect(w.locator('[data-readout="decision"]')).toContainText(/^cache-aware: /, { timeout: 30_000 });
    await w.getByLabel('Routing policy').selectOption('round-robin');
    await expect
      .poll(async () => Number(await hit.getAttribute('data-final')), { timeout: 30_000 })
      .toBeCloseTo(rrHit, 6);
    // A shared pool: cold round-robin turns reload instead of prefilling, so the hit rate climbs (the lesson's claim).
    const pool = w.getByRole('spinbutton', { name: /Shared KV pool/ });
    await pool.fill('500');
    await pool.press('Enter');
    await expect(page).toHaveURL(/cache-router\.poolGB=500/);
    await expect
      .poll(async () => Number(await hit.getAttribute('data-final')), { timeout: 30_000 })
      .toBeGreaterThan(rrHit + 0.2);
    await time.fill((await time.getAttribute('max')) ?? '600');
    await expect
      .poll(async () => Number(await svg.locator('[data-pool-reloads]').getAttribute('data-pool-reloads')))
      .toBeGreaterThan(50);
    await expect(w.locator('[data-readout="pool-hits"]')).toContainText(/\d+ turns/);
  });

  test('policy sweep: every policy at every load; cache-aware carries more load within the TTFT target', async ({
    page,
  }) => {
    await page.goto(`${PATH}#router-sweep`);
    const w = page.locator('[data-widget="router-sweep"]');
    await expect(w).toHaveAttribute('data-state', 'ready', { timeout: 45_000 });
    // Ready is the coarse pass (both ends of the load range); the read-outs below need the whole sweep.
    await expect(w).not.toHaveAttribute('aria-busy', 'true', { timeout: 45_000 });
    const charts = w.locator('svg[data-chart="line"]');
    await expect(charts).toHaveCount(2);
    for (const name of [
      'Round-robin',
      'Random',
      'Least load',
      'Power of two',
      'Session affinity',
      'Cache-aware',
    ]) {
      await expect(charts.first().locator(`[data-series="${name}"]`)).toHaveCount(1);
      await expect(charts.nth(1).locator(`[data-series="${name}"]`)).toHaveCount(1);
    }
    const ratio = w.locator('[data-readout="capacity-ratio"]');
    const rr = Number(await ratio.getAttribute('data-rr'));
    const ca = Number(await ratio.getAttribute('data-ca'));
    expect(ca).toBeGreaterThan(1.5 * rr);
  });

  test('round-robin over R replicas: warm turns follow 1/R', async ({ page }) => {
    await page.goto(`${PATH}#round-robin-spread`);
    const w = page.locator('[data-widget="round-robin-spread"]');
    await expect(w).toHaveAttribute('data-state', 'ready', { timeout: 45_000 });
    await expect(w).not.toHaveAttribute('aria-busy', 'true', { timeout: 45_000 });
    const warm = w.locator('[data-readout="warm-share"]');
    expect(Math.abs(Number(await warm.getAttribute('data-value')) - 1 / 8)).toBeLessThan(0.05);
    await w.getByRole('spinbutton', { name: /Fleet size to read out/ }).fill('2');
    await w.getByRole('spinbutton', { name: /Fleet size to read out/ }).press('Enter');
    await expect
      .poll(async () => Math.abs(Number(await warm.getAttribute('data-value')) - 1 / 2))
      .toBeLessThan(0.08);
    const dup = Number(await w.locator('[data-readout="duplicate-bytes"]').getAttribute('data-value'));
    expect(dup).toBeGreaterThan(0);
  });

  test('the exercises reject a wrong answer and accept the computed one', async ({ page }) => {
    await page.goto(PATH);
    const ex = page.locator('[data-exercise="07-03-round-robin-hit-rate"]');
    const input = ex.getByLabel(/Your answer/);
    await input.fill('25');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'wrong');
    await input.fill('35.2');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
    await expect(ex).toContainText('35.2%');

    const dup = page.locator('[data-exercise="07-03-duplicate-kv"]');
    const dupInput = dup.getByLabel(/Your answer/);
    await dupInput.fill('10.5');
    await dup.getByRole('button', { name: 'Check' }).click();
    await expect(dup).toHaveAttribute('data-result', 'wrong');
    await dupInput.fill('73.4');
    await dup.getByRole('button', { name: 'Check' }).click();
    await expect(dup).toHaveAttribute('data-result', 'correct');
    await expect(dup).toContainText('73.4 GB');
    await page.reload();
    await expect(dup).toHaveAttribute('data-result', 'correct');
  });
});
