import { dataValue, expect, gotoLessonReady, setNumber, test } from './fixtures';
import type { Locator, Page } from '@playwright/test';

const PATH = '/lessons/07-05-kv-offload-and-reload';
const gotoReady = (page: Page) => gotoLessonReady(page, PATH, 2);

/** The raw number a read-out carries in data-value. */

async function crossings(w: Locator): Promise<number[]> {
  return JSON.parse(
    (await w.locator('[data-readout="crossings"]').getAttribute('data-value')) ?? '[]',
  ) as number[];
}

test.describe('Lesson 07.05 KV Offload and Reload', () => {
  test('loads without console errors or foreign requests; widgets ready; every inline figure computed', async ({
    page,
    watch,
  }) => {
    await gotoReady(page);
    await expect(page.locator('[data-widget="reload-or-recompute"] svg[data-chart]').first()).toBeAttached();
    await expect(
      page.locator('[data-widget="min-link-bandwidth"] svg[data-chart] rect.chart-bar').first(),
    ).toBeAttached();
    await expect(page.locator('article span[aria-busy="true"]')).toHaveCount(0);
    await expect(page.locator('article')).not.toContainText('NaN');
    await expect(page.locator('article')).not.toContainText('undefined');
    // The prose quotes the widget's default break-evens.
    await expect(page.locator('article')).toContainText('1,071 tokens and 26,640 tokens');
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('reload or recompute: the defaults show a band where recompute wins, marked on the chart', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="reload-or-recompute"]');
    expect(await crossings(w)).toEqual([1071, 26640]);
    await expect(w.locator('[data-readout="regime"]')).toHaveAttribute(
      'data-regime',
      'recompute-wins-between',
    );
    // The read-out prefix (32k) lies just past the band: the drive wins it narrowly.
    await expect(w.locator('[data-readout="faster"]')).toHaveAttribute('data-value', 'reload');
    // Two break-even rules and a shaded band on the main chart.
    const main = w.locator('svg[data-chart]').first();
    await expect(main.locator('[data-marker="x"]')).toHaveCount(3); // two break-evens and the read-out prefix
    await expect(main.locator('[data-marker="band"]')).toHaveCount(1);
  });

  test('a faster link lowers the reload time and moves the upper break-even down, until reload wins everywhere', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="reload-or-recompute"]');
    const reload = w.locator('[data-readout="reload-time"]');
    await w.getByLabel('Where the KV comes back from').selectOption('custom');
    await expect(page).toHaveURL(/reload-or-recompute\.link=custom/);
    await setNumber(w, /Custom link latency/, '90');
    await setNumber(w, /Custom link bandwidth/, '5');
    await expect.poll(async () => (await crossings(w)).length).toBe(2);
    const slow = await crossings(w);
    const slowReload = await dataValue(reload);
    await setNumber(w, /Custom link bandwidth/, '7');
    await expect.poll(async () => (await crossings(w))[1]).toBeLessThan(slow[1]);
    expect(await dataValue(reload)).toBeLessThan(slowReload);
    // Past ≈ k/(2N/G + β) (7.7 GB/s exactly here) reload wins at every prefix length.
    await setNumber(w, /Custom link bandwidth/, '12');
    await expect(w.locator('[data-readout="regime"]')).toHaveAttribute('data-regime', 'reload-always-wins');
    await expect(w.locator('[data-readout="crossings"]')).toHaveText('none');
    await expect(w.locator('[data-readout="faster"]')).toHaveAttribute('data-value', 'reload');
    // Host DRAM over one PCIe Gen5 link per GPU: reload is an order of magnitude faster.
    await w.getByLabel('Where the KV comes back from').selectOption('pcie-gen5-x16');
    await expect(w.getByRole('spinbutton', { name: /Custom link bandwidth/ })).toHaveCount(0);
    await expect.poll(async () => dataValue(reload)).toBeLessThan(0.05);
    await expect(w.locator('[data-readout="faster"]')).toContainText(/reload by \d\d/);
  });

  test('minimum link bandwidth: FP8 halves it, more GPUs in a node raise it, past a node it more than doubles; the table ranks by KV bytes per FLOP', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="min-link-bandwidth"]');
    const focus = w.locator('[data-readout="focus-min-bandwidth"]');
    const bf16 = await dataValue(focus);
    expect(bf16 / 1e9).toBeCloseTo(6.65, 1);
    const rows = w.locator('table[data-figure="min-bandwidth-table"] tbody tr');
    await expect(rows.first()).toHaveAttribute('data-model', 'llama-3.1-8b');
    await expect(rows.last()).toHaveAttribute('data-model', 'llama-3.1-405b');
    await w.getByLabel('KV-cache dtype').selectOption('fp8');
    await expect.poll(async () => dataValue(focus)).toBeCloseTo(bf16 / 2, -6);
    await w.getByLabel('KV-cache dtype').selectOption('bf16');
    // 4 GPUs: a slower recompute, a lower bar, but not half (the all-reduce does not shrink with TP)
    await setNumber(w, /GPUs per replica/, '4');
    await expect.poll(async () => dataValue(focus)).toBeLessThan(bf16);
    expect(await dataValue(focus)).toBeGreaterThan(bf16 / 2);
    // 16 GPUs span two nodes: the all-reduce crosses the NICs, which a node's eight carry together, so recompute
    // gets faster, and the 70B's 8 KV heads are now stored twice (each GPU reloads its own copy): the bar more
    // than doubles
    await setNumber(w, /GPUs per replica/, '16');
    await expect.poll(async () => dataValue(focus)).toBeGreaterThan(2 * bf16);
    // A longer prefix needs a slower link (attention adds FLOPs, not KV).
    await setNumber(w, /GPUs per replica/, '8');
    await expect.poll(async () => dataValue(focus)).toBeCloseTo(bf16, -6);
    await setNumber(w, /Prefix length/, '131072');
    await expect.poll(async () => dataValue(focus)).toBeLessThan(bf16);
  });

  test('exercise 1: the widget gives the answer, the exercise accepts it and rejects a wrong one', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="reload-or-recompute"]');
    await w.getByLabel('Accelerator').selectOption('b200');
    await w.getByLabel('Where the KV comes back from').selectOption('rdma-100g');
    await expect.poll(async () => (await crossings(w)).length).toBe(2);
    const [, upper] = await crossings(w);
    expect(upper).toBeGreaterThan(88_000);
    expect(upper).toBeLessThan(97_000);
    const ex = page.locator('[data-exercise="07-05-nic-break-even"]');
    const input = ex.getByLabel(/Your answer/);
    await expect(ex.getByRole('button', { name: 'Check' })).toBeEnabled();
    await input.fill('26640');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'wrong');
    await input.fill(String(upper));
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
    await expect(ex).toContainText('the core solves the exact quadratic');
    await page.reload();
    await expect(ex).toHaveAttribute('data-result', 'correct');
  });

  test('exercise 2: the minimum bandwidth for a 32k prefix of the 8B on one GPU', async ({ page }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="min-link-bandwidth"]');
    await setNumber(w, /GPUs per replica/, '1');
    await w.getByLabel('Model for the read-outs').selectOption('llama-3.1-8b');
    await expect
      .poll(async () => dataValue(w.locator('[data-readout="focus-min-bandwidth"]')))
      .toBeLessThan(5e9);
    const answer = (await dataValue(w.locator('[data-readout="focus-min-bandwidth"]'))) / 1e9;
    const ex = page.locator('[data-exercise="07-05-min-bandwidth-8b"]');
    const input = ex.getByLabel(/Your answer/);
    await expect(ex.getByRole('button', { name: 'Check' })).toBeEnabled();
    await input.fill('23');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'wrong');
    await input.fill(answer.toFixed(2));
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
  });
});
