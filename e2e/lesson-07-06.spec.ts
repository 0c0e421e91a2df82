import { dataValue, expect, gotoLessonReady, test } from './fixtures';
import type { Locator, Page } from '@playwright/test';

const PATH = '/lessons/07-06-tool-calls-in-the-loop';
const gotoReady = (page: Page) => gotoLessonReady(page, PATH, 2);

/** "81%" → 81 */
async function percent(el: Locator): Promise<number> {
  return Number(((await el.textContent()) ?? '').replace(/[%,\s]/g, ''));
}

test.describe('Lesson 07.06 Tool Calls in the Loop', () => {
  test('loads without console errors or foreign requests; widgets, table and inline figures are computed', async ({
    page,
    watch,
  }) => {
    await gotoReady(page);
    await expect(page.locator('[data-widget="tool-latency"] svg[data-chart="line"]')).toHaveCount(2);
    await expect(
      page.locator('[data-widget="pause-arena"] svg[data-chart="occupancy"] [data-layer="hbmIdlePinned"]'),
    ).toBeAttached();
    // every policy of the arena streams in, and every inline figure of the prose is filled
    const table = page.locator('[data-widget="pause-arena"] table[data-table="policies"]');
    await expect(table.locator('tbody tr')).toHaveCount(7);
    await expect(table.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator('article span[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator('article')).not.toContainText('NaN');
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('arena: switching hold → evict frees the idle HBM and slows the resumes', async ({ page }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="pause-arena"]');
    const idle = w.locator('[data-readout="idle-hbm"]');
    const p50 = w.locator('[data-readout="resume-ttft-p50"]');
    const holdIdle = await dataValue(idle);
    const holdP50 = await dataValue(p50);
    expect(holdIdle).toBeGreaterThan(5e9); // gigabytes of idle sessions pinned
    await expect(w.locator('[data-readout="arena-in-hbm"]')).toHaveText(/^(9\d(\.\d+)?|100)%$/);
    await w.getByLabel('Pause policy', { exact: true }).selectOption('evict');
    await expect(page).toHaveURL(/pause-arena\.policy=evict/);
    await expect.poll(async () => dataValue(idle)).toBeLessThan(holdIdle / 10);
    await expect.poll(async () => dataValue(p50)).toBeGreaterThan(3 * holdP50);
    await expect(w.locator('tr[data-policy="evict"]')).toHaveAttribute('aria-current', 'true');
  });

  test('arena: writing through keeps resumes in HBM and moves a fraction of what offloading moves', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="pause-arena"]');
    const pcie = w.locator('[data-readout="pcie"]');
    await w.getByLabel('Pause policy', { exact: true }).selectOption('offload');
    await expect(w.locator('tr[data-policy="offload"]')).toHaveAttribute('aria-current', 'true');
    await expect.poll(async () => dataValue(pcie), { timeout: 30_000 }).toBeGreaterThan(1e12); // terabytes of reloads
    const offload = await dataValue(pcie);
    await w.getByLabel('Pause policy', { exact: true }).selectOption('write-through');
    await expect(page).toHaveURL(/pause-arena\.policy=write-through/);
    await expect.poll(async () => dataValue(pcie)).toBeLessThan(offload / 5);
    await expect(w.locator('[data-readout="arena-in-hbm"]')).toHaveText(/^(9\d(\.\d+)?|100)%$/);
  });

  test('a longer TTL resumes more pauses in HBM: closed form and arena', async ({ page }) => {
    await gotoReady(page);
    const t = page.locator('[data-widget="tool-latency"]');
    const share = t.locator('[data-readout="resumed-in-hbm"]');
    const at2 = await percent(share);
    expect(at2).toBeGreaterThan(75);
    expect(at2).toBeLessThan(85);
    const ttl = t.getByRole('spinbutton', { name: /Time-to-live/ });
    await ttl.fill('30');
    await ttl.press('Enter');
    await expect(page).toHaveURL(/tool-latency\.ttlS=30/);
    await expect.poll(async () => percent(share)).toBeGreaterThan(at2 + 5);

    const w = page.locator('[data-widget="pause-arena"]');
    await w.getByLabel('Pause policy', { exact: true }).selectOption('ttl-offload');
    const inHbm = w.locator('[data-readout="arena-in-hbm"]');
    await expect.poll(async () => dataValue(inHbm)).toBeLessThan(0.9);
    const short = await dataValue(inHbm);
    const arenaTtl = w.getByRole('spinbutton', { name: /TTL τ/ });
    await arenaTtl.fill('30');
    await arenaTtl.press('Enter');
    await expect.poll(async () => dataValue(inHbm), { timeout: 30_000 }).toBeGreaterThan(short + 0.05);
  });

  test('the exercises accept the right answer and reject a wrong one', async ({ page }) => {
    await gotoReady(page);
    const q = page.locator('[data-exercise="07-06-ttl-for-90"]');
    const input = q.getByLabel(/Your answer/);
    await input.fill('3');
    await q.getByRole('button', { name: 'Check' }).click();
    await expect(q).toHaveAttribute('data-result', 'wrong');
    // 7.746 s · e^{0.582 · 1.2816} = 16.33 s (tests/lesson-07-06.test.ts)
    await input.fill('16.3');
    await q.getByRole('button', { name: 'Check' }).click();
    await expect(q).toHaveAttribute('data-result', 'correct');
    await expect(q).toContainText('16.3 s');

    const h = page.locator('[data-exercise="07-06-held-byte-seconds"]');
    await h.getByLabel(/Your answer/).fill('89');
    await h.getByRole('button', { name: 'Check' }).click();
    await expect(h).toHaveAttribute('data-result', 'wrong');
    // 30,000 × 262,144 B × E[min(T, 5 s)] = 7.864 GB × 1.231 s
    await h.getByLabel(/Your answer/).fill('9.68');
    await h.getByRole('button', { name: 'Check' }).click();
    await expect(h).toHaveAttribute('data-result', 'correct');
  });
});
