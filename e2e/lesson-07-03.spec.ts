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

  test('policy sweep: every policy at every load; cache-aware carries more load within the TTFT target', async ({
    page,
  }) => {
    await page.goto(`${PATH}#router-sweep`);
    const w = page.locator('[data-widget="router-sweep"]');
    await expect(w).toHaveAttribute('data-state', 'ready', { timeout: 45_000 });
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
