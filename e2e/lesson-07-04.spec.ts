import { dataValue, expect, gotoLessonReady, setNumber, test } from './fixtures';
import type { Page } from '@playwright/test';

const PATH = '/lessons/07-04-kv-memory-hierarchy';
const gotoReady = (page: Page) => gotoLessonReady(page, PATH, 3);

/** The numeric data-value of a read-out. */

test.describe('Lesson 07.04 The KV Memory Hierarchy', () => {
  test('loads without console errors or foreign requests; both widgets and every inline figure are computed', async ({
    page,
    watch,
  }) => {
    await gotoReady(page);
    await expect(
      page.locator('[data-widget="kv-footprint"] [data-figure="budget-fill"] canvas'),
    ).toBeAttached();
    const ladder = page.locator('[data-widget="memory-ladder"]');
    await expect(ladder.locator('svg[data-chart="memory-ladder"] [data-tier]')).toHaveCount(4);
    await expect(ladder.locator('svg[data-chart="bar"]')).toBeAttached();
    // Inline figures of the prose come from the worker: none is left pending, none is NaN.
    await expect(page.locator('article span[aria-busy="true"]')).toHaveCount(0);
    await expect(page.locator('article')).not.toContainText('NaN');
    await expect(page.locator('article')).not.toContainText('undefined');
    await expect(page.locator('[data-figure="kv-per-model"] tr[data-model]')).toHaveCount(6);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('the ladder’s defaults: 13 contexts in HBM, 30 in DRAM, every tier below reloads faster than recompute', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="memory-ladder"]');
    await expect(w.locator('[data-readout="contexts-hbm"]')).toHaveAttribute('data-value', '13');
    await expect(w.locator('[data-readout="contexts-dram"]')).toHaveAttribute('data-value', '30');
    await expect(w.locator('[data-readout="placement"]')).toHaveText('13 HBM · 30 DRAM · 122 pool · 35 NVMe');
    await expect(w.locator('[data-readout="reload-dram"]')).toHaveText('81.9 ms');
    const recompute = await dataValue(w.locator('[data-readout="recompute"]'));
    for (const t of ['dram', 'nvme', 'remote'])
      expect(await dataValue(w.locator(`[data-readout="reload-${t}"]`))).toBeLessThan(recompute);
    // The same HBM count as the calculator above it.
    await expect(
      page.locator('[data-widget="kv-footprint"] [data-readout="concurrent-contexts"]'),
    ).toHaveText('13');
  });

  test('more host DRAM holds more contexts (at the same reload time), and takes agents from the slower tiers', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="memory-ladder"]');
    const holds = w.locator('[data-readout="holds-dram"]');
    const before = await dataValue(holds);
    const reload = await dataValue(w.locator('[data-readout="reload-dram"]'));
    const nvmeWaiting = await dataValue(w.locator('[data-readout="wait-nvme"]'));
    await setNumber(w, /Host DRAM for KV/, 2);
    await expect(page).toHaveURL(/memory-ladder\.dramTB=2/);
    await expect.poll(() => dataValue(holds)).toBeGreaterThan(before);
    expect(await dataValue(holds)).toBe(61);
    expect(await dataValue(w.locator('[data-readout="reload-dram"]'))).toBe(reload);
    await expect.poll(() => dataValue(w.locator('[data-readout="wait-nvme"]'))).toBeLessThan(nvmeWaiting);
  });

  test('a faster link lowers the reload time: TCP → Mooncake’s RDMA engine for the pool, Gen4 → Gen5 drives', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="memory-ladder"]');
    const pool = w.locator('[data-readout="reload-remote"]');
    await w.getByLabel('Path to the remote pool').selectOption('tcp-8x400g');
    await expect(page).toHaveURL(/memory-ladder\.remote=tcp-8x400g/);
    await expect.poll(() => dataValue(pool)).toBeGreaterThan(0.7);
    const tcp = await dataValue(pool);
    // Over TCP the pool is slower than the drives: its agents wait on NVMe instead.
    await expect(w.locator('[data-readout="wait-remote"]')).toHaveAttribute('data-value', '0');
    await w.getByLabel('Path to the remote pool').selectOption('mooncake-8x400g');
    await expect.poll(() => dataValue(pool)).toBeLessThan(tcp / 4);
    const nvme = w.locator('[data-readout="reload-nvme"]');
    const gen4 = await dataValue(nvme);
    await w.getByLabel('Local NVMe').selectOption('gen5');
    await expect.poll(() => dataValue(nvme)).toBeLessThan(gen4 / 1.9);
  });

  test('the ladder chart reads out a tier from the keyboard, and the state survives a reload', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="memory-ladder"]');
    const chart = w.locator('svg[data-chart="memory-ladder"]');
    // The chart's polite live region repeats the read-out as a sentence.
    const live = w.locator('[aria-live="polite"][aria-atomic="true"]').first();
    await chart.focus();
    await page.keyboard.press('ArrowRight');
    // 8 × (81,559 MiB × 0.9 − 4.84 GiB reserve) − 141.2 GB weights = 433 GB (engine/hbm.ts)
    await expect(live).toContainText('HBM; KV capacity: 433 GB');
    await page.keyboard.press('ArrowRight');
    await expect(live).toContainText(
      'Host DRAM; KV capacity: 1 TB; Bandwidth into HBM: 400 GB/s; Contexts it holds: 30; Reload one context: 81.9 ms',
    );
    await w.getByLabel('Node', { exact: true }).selectOption('dgx-b200');
    await expect(w.locator('[data-readout="contexts-hbm"]')).toHaveAttribute('data-value', '36');
    await page.reload();
    await expect(w).toHaveAttribute('data-state', 'ready');
    await expect(w.getByLabel('Node', { exact: true })).toHaveValue('dgx-b200');
    await expect(w.locator('[data-readout="contexts-hbm"]')).toHaveAttribute('data-value', '36');
    await w.getByRole('button', { name: 'Reset' }).click();
    await expect(w.locator('[data-readout="contexts-hbm"]')).toHaveAttribute('data-value', '13');
    await expect(page).not.toHaveURL(/memory-ladder\./);
  });

  test('exports the ladder as CSV', async ({ page }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="memory-ladder"]');
    await w.getByRole('button', { name: 'Export' }).click();
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      w.getByRole('menuitem', { name: 'Data (CSV)' }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe('memory-ladder.csv');
    const body = Buffer.concat(await (await csv.createReadStream()).toArray()).toString('utf8');
    expect(body.split('\n')[0]).toBe(
      'tier,capacityBytes,bandwidthBytesPerS,latencyS,path,contexts,reloadS,recomputeS,agentsWaiting',
    );
    expect(body).toContain('Host DRAM,1000000000000,400000000000');
  });

  test('the exercises: 20 contexts of 64,000 tokens in HBM, and one 128,000-token context back from DRAM in about 105 ms', async ({
    page,
  }) => {
    await gotoReady(page);
    const ex = page.locator('[data-exercise="07-04-contexts-per-replica"]');
    // The default 100,000-token context's 13 is not this context's.
    await ex.getByLabel(/Your answer/).fill('13');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'wrong');
    await ex.getByLabel(/Your answer/).fill('20');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
    const ex2 = page.locator('[data-exercise="07-04-reload-from-dram"]');
    await expect(ex2.getByRole('button', { name: 'Check' })).toBeEnabled();
    await ex2.getByLabel(/Your answer/).fill('655');
    await ex2.getByRole('button', { name: 'Check' }).click();
    await expect(ex2).toHaveAttribute('data-result', 'wrong');
    // The default 100,000-token context's 82 ms is not this context's.
    await ex2.getByLabel(/Your answer/).fill('82');
    await ex2.getByRole('button', { name: 'Check' }).click();
    await expect(ex2).toHaveAttribute('data-result', 'wrong');
    await ex2.getByLabel(/Your answer/).fill('105');
    await ex2.getByRole('button', { name: 'Check' }).click();
    await expect(ex2).toHaveAttribute('data-result', 'correct');
    await expect(ex2).toContainText('9.88 s');
  });
});
