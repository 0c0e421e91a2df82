import type { Locator } from '@playwright/test';
import { expect, expectWidgetsReady, test } from './fixtures';

const PATH = '/lessons/07-09-what-grammars-cost';

/** The cost table's rows as measured: compile (ms), median and slowest mask step (µs), smallest schema first. */
async function costRows(w: Locator) {
  const value = (row: Locator, cell: string) =>
    row.locator(`td[data-cell="${cell}"]`).getAttribute('data-value').then(Number);
  const rows = await w.locator('[data-figure="cost-table"] tbody tr').all();
  return Promise.all(
    rows.map(async (row) => ({
      compileMs: await value(row, 'compile-ms'),
      maskP50Us: await value(row, 'mask-p50-us'),
      maskMaxUs: await value(row, 'mask-max-us'),
    })),
  );
}

test.describe('Lesson 07.09 What Grammars Cost', () => {
  test('loads clean; the real engine measures compile far above the per-step mask; the maxLength trap; the exercise', async ({
    page,
    watch,
  }) => {
    test.setTimeout(240_000);
    await page.goto(PATH);
    await expect(page.locator('[data-widget]')).toHaveCount(3);
    const w = page.locator('[data-widget="grammar-cost"]');
    // Try this, items 1 and 3 (measured here, on this machine): compile and median mask three to four orders of
    // magnitude apart at every size (the ratio's log10 rounds to 3 or 4), and only the compile grows with the number
    // of tools. A live timing: a machine busy for a whole row slows that row's microsecond masks several times over
    // (seen at 390 px beside a second test run: 87-125 µs against 22-25), so, as item 3 says, the page is reloaded
    // and measured again (for up to 150 s), and every claim must hold on one measurement.
    let attempt = 0;
    await expect(async () => {
      if (attempt++ > 0) await page.reload();
      await expectWidgetsReady(page);
      await expect(w.locator('[data-figure="cost-table"] tbody tr')).toHaveCount(6);
      const ratio = Number(await w.locator('[data-readout="compile-in-steps"]').getAttribute('data-value'));
      expect(ratio).toBeGreaterThan(100); // one compile costs hundreds of mask steps or more
      const tools = await costRows(w);
      for (const r of tools) {
        const orders = Math.log10((r.compileMs * 1000) / r.maskP50Us);
        expect(Math.round(orders)).toBeGreaterThanOrEqual(3);
        expect(Math.round(orders)).toBeLessThanOrEqual(4);
      }
      const [fewest, most] = [tools[0], tools[tools.length - 1]];
      const compileGrowth = most.compileMs / fewest.compileMs;
      expect(compileGrowth).toBeGreaterThan(2);
      // The mask "barely moves": it grows far less than the compile (measured here 0.9–1.3× against 5–7×).
      expect(compileGrowth).toBeGreaterThan(2 * (most.maskP50Us / fewest.maskP50Us));
    }).toPass({ timeout: 150_000, intervals: [0] });
    await expect(page.locator('article span[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator('article')).not.toContainText('NaN');
    await expect(page.locator('article')).toContainText('the p99 mask happens 50 per second');
    // Masks against the decode step: at the XGrammar mean, 16 serial masks outlast the step; vLLM's serial fill
    // ignores the threads; one sequence per task hides them.
    const mo = page.locator('[data-widget="mask-overlap"]');
    const tpot = async () =>
      Number(await mo.locator('[data-readout="tpot-overlapped"]').getAttribute('data-value'));
    const serialTpot = await tpot();
    expect(serialTpot).toBeCloseTo(16 * 728e-6, 6);
    const threads = mo.getByRole('spinbutton', { name: /CPU threads for masks/ });
    await threads.fill('32');
    await threads.press('Enter');
    await expect.poll(tpot).toBeCloseTo(serialTpot, 9);
    await mo.getByLabel('How masks reach the threads').selectOption('perSequence');
    await expect.poll(tpot).toBeLessThan(serialTpot);
    // The trap: the largest bound compiles slower than no bound.
    await w.getByLabel('Schemas to compile').selectOption('maxLength');
    await expect(w.locator('[data-figure="cost-table"] tr[data-size="16"]')).toBeAttached({
      timeout: 90_000,
    });
    await expect(w).toHaveAttribute('data-state', 'ready');
    const compile = async (size: number) =>
      Number(
        (
          (await w.locator(`[data-figure="cost-table"] tr[data-size="${size}"] td`).nth(1).textContent()) ??
          ''
        ).replace(/[^\d.]/g, ''),
      );
    expect(await compile(16)).toBeGreaterThan(await compile(0));
    // Try this, item 2: from no bound to the largest the compile multiplies, and some mask steps slow down too.
    const bounds = await costRows(w);
    const unbounded = bounds[0];
    expect(bounds[bounds.length - 1].compileMs).toBeGreaterThan(2 * unbounded.compileMs);
    expect(Math.max(...bounds.slice(1).map((r) => r.maskMaxUs))).toBeGreaterThan(unbounded.maskMaxUs);
    // Exercise.
    const ex = page.locator('[data-exercise="07-09-tail-masks"]');
    const input = ex.getByLabel(/Your answer/);
    await input.fill('1');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'wrong');
    await input.fill('50');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('grammar cache: with fixed tools the cache takes the compile out of p99 TTFT; one-shot schemas bring it back', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.goto(PATH);
    await expectWidgetsReady(page);
    const w = page.locator('[data-widget="grammar-cache"]');
    const p99 = w.locator('[data-readout="p99-with"]');
    const cached = Number(await p99.getAttribute('data-value'));
    expect(cached).toBeLessThan(5);
    expect(Number(await w.locator('[data-readout="hit-rate"]').getAttribute('data-value'))).toBeGreaterThan(
      0.9,
    );
    const box = w.getByRole('spinbutton', { name: /Distinct schemas/ });
    await box.fill('100000');
    await box.press('Enter');
    await expect.poll(async () => Number(await p99.getAttribute('data-value'))).toBeGreaterThan(10 * cached);
    await w.getByLabel('Grammar engine (compile times)').selectOption('llguidance');
    await expect.poll(async () => Number(await p99.getAttribute('data-value'))).toBeLessThan(5);
  });
});
