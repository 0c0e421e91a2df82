import { dataValue, expect, gotoLessonReady, test } from './fixtures';
import type { Page } from '@playwright/test';

const PATH = '/lessons/07-12-agents-per-megawatt';
const gotoReady = (page: Page) => gotoLessonReady(page, PATH, 2);

test.describe('Lesson 07.12 Agents per Megawatt', () => {
  test('loads without console errors or foreign requests; widgets, table and inline figures are computed', async ({
    page,
    watch,
  }) => {
    await gotoReady(page);
    await expect(page.locator('[data-widget="slo-sweep"] svg[data-chart="line"]')).toHaveCount(1);
    const table = page.locator('[data-widget="cost-levers"] table[data-table="levers"]');
    await expect(table.locator('tbody tr')).toHaveCount(8);
    await expect(table.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator('article span[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator('article')).not.toContainText('NaN');
    // The third lever: the split node carries fewer agents under the default SLOs, more under the tight TPOT.
    const lever = page.locator('[data-figure="disagg-lever"]');
    await expect(lever).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await expect(lever.locator('tbody tr')).toHaveCount(4);
    const perNode = async (row: string) =>
      Number(
        (await lever.locator(`[data-row="${row}"] [data-cell="per-node"]`).textContent())?.replace(/,/g, ''),
      );
    expect(await perNode('default-disaggregated')).toBeLessThan(await perNode('default-aggregated'));
    expect(await perNode('tight-disaggregated')).toBeGreaterThan(await perNode('tight-aggregated'));
    // What the router knows: every router's row computed; September 2025's window leaves replicas without a turn.
    const views = page.locator('[data-figure="router-views"]');
    await expect(views.locator('tbody tr')).toHaveCount(5);
    await expect(views.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 60_000 });
    await expect(views.locator('[data-row="llm-d-approximate-2025"] [data-cell="idle"]')).not.toHaveText(
      /^0 of/,
    );
    await expect(views.locator('[data-row="cache-aware"] [data-cell="idle"]')).toHaveText(/^0 of/);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('SLOs first: tightening the TTFT objective lowers agents per replica and per MW', async ({ page }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="slo-sweep"]');
    const perReplica = w.locator('[data-readout="agents-per-replica"]');
    const perMW = w.locator('[data-readout="agents-per-mw"]');
    // wait for the whole sweep (it stops past the first failure)
    await expect(w).not.toContainText('Computing:', { timeout: 30_000 });
    const loose = await dataValue(perReplica);
    const looseMW = await dataValue(perMW);
    expect(loose).toBeGreaterThanOrEqual(8);
    const ttft = w.getByRole('spinbutton', { name: /TTFT p90 objective/ });
    await ttft.fill('0.7');
    await ttft.press('Enter');
    await expect(page).toHaveURL(/slo-sweep\.ttftP90S=0\.7/);
    await expect.poll(async () => dataValue(perReplica), { timeout: 30_000 }).toBeLessThan(loose);
    await expect.poll(async () => dataValue(perMW)).toBeLessThan(looseMW);
  });

  test('levers: round-robin → cache-aware raises agents per MW and lowers the cost per session', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="cost-levers"]');
    const mw = w.locator('[data-readout="lever-agents-per-mw"]');
    const cost = w.locator('[data-readout="cost-per-session"]');
    await w.getByLabel('Router', { exact: true }).selectOption('round-robin');
    await expect(page).toHaveURL(/cost-levers\.router=round-robin/);
    await expect(w.locator('tr[data-cell="round-robin|ttl-offload"]')).toHaveAttribute(
      'aria-current',
      'true',
    );
    await expect(w.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
    const rrMW = await dataValue(mw);
    const rrCost = await dataValue(cost);
    await w.getByLabel('Router', { exact: true }).selectOption('cache-aware');
    await expect.poll(async () => dataValue(mw), { timeout: 30_000 }).toBeGreaterThan(rrMW + 1000);
    await expect.poll(async () => dataValue(cost)).toBeLessThan(rrCost);
  });

  test('the exercises accept the right answer and reject a wrong one', async ({ page }) => {
    await gotoReady(page);
    // Answer once the page has settled: figures still computing reflow the prose as they fill in, and a click
    // dispatched across a reflow can land beside its button (seen once on a loaded CI host).
    await expect(page.locator('article [aria-busy="true"]')).toHaveCount(0, { timeout: 60_000 });
    const q = page.locator('[data-exercise="07-12-agents-per-mw"]');
    const input = q.getByLabel(/Your answer/);
    await input.fill('4706'); // forgot the PUE: 48 / 10.2 kW
    await q.getByRole('button', { name: 'Check' }).click();
    await expect(q).toHaveAttribute('data-result', 'wrong');
    // 12 × 4 = 48 per node; 48 × 1e6 / (10,200 W × 1.3) = 3,619.9 (tests/lesson-07-12.test.ts)
    await input.fill('3620');
    await q.getByRole('button', { name: 'Check' }).click();
    await expect(q).toHaveAttribute('data-result', 'correct');

    const c = page.locator('[data-exercise="07-12-session-cost"]');
    await c.getByLabel(/Your answer/).fill('0.03125'); // rent only
    await c.getByRole('button', { name: 'Check' }).click();
    await expect(c).toHaveAttribute('data-result', 'wrong');
    // 45 × 2.5 / 3600 = 0.03125 + 45 × 1,275 W × 1.3 / 3.6e6 kWh × $0.12 = 0.0024863 → 0.0337363
    await c.getByLabel(/Your answer/).fill('0.0337');
    await c.getByRole('button', { name: 'Check' }).click();
    await expect(c).toHaveAttribute('data-result', 'correct');
  });
});
