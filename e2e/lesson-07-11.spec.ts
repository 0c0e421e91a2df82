import { dataValue, expect, gotoLessonReady, setNumber, test } from './fixtures';
import type { Page } from '@playwright/test';

const PATH = '/lessons/07-11-context-compaction';
const gotoReady = (page: Page) => gotoLessonReady(page, PATH, 2);

test.describe('Lesson 07.11 Context Compaction', () => {
  test('loads without console errors or foreign requests; widgets ready; every inline figure computed', async ({
    page,
    watch,
  }) => {
    await gotoReady(page);
    await expect(
      page.locator('[data-widget="edit-the-prompt"] svg[data-chart="prompt-blocks"]'),
    ).toBeAttached();
    await expect(page.locator('[data-widget="compaction-payback"] svg[data-chart]').first()).toBeAttached();
    await expect(page.locator('article span[aria-busy="true"]')).toHaveCount(0);
    await expect(page.locator('article')).not.toContainText('NaN');
    await expect(page.locator('article')).not.toContainText('undefined');
    // The prose quotes the first widget's default: 27,488 tokens still hit, 37,012 to re-prefill.
    await expect(page.locator('article')).toContainText('27,488 tokens');
    await expect(page.locator('article')).toContainText('37,012 tokens');
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('edit the prompt: the defaults re-prefill far more than the latest result, and an earlier edit raises it', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="edit-the-prompt"]');
    const reprefill = w.locator('[data-readout="reprefill-tokens"]');
    const hit = w.locator('[data-readout="hit-tokens"]');
    expect(await dataValue(reprefill)).toBe(37_012);
    expect(await dataValue(hit)).toBe(27_488);
    await expect(w.locator('[data-marker="edit-point"]')).toHaveCount(1);
    await expect(w.locator('[data-status="miss"]')).toHaveCount(1);
    const at10 = await dataValue(reprefill);
    await setNumber(w, /Edit at turn/, '2');
    await expect(page).toHaveURL(/edit-the-prompt\.editTurn=2/);
    await expect.poll(async () => dataValue(reprefill)).toBeGreaterThan(at10);
    expect(await dataValue(hit)).toBeLessThan(27_488);
    // Later: less to prefill.
    await setNumber(w, /Edit at turn/, '28');
    await expect.poll(async () => dataValue(reprefill)).toBeLessThan(at10);
    // One token at the top of the prompt: nothing hits.
    await w.getByLabel('Edit', { exact: true }).selectOption('token');
    await setNumber(w, /Changed token at position/, '10');
    await expect.poll(async () => dataValue(hit)).toBe(0);
    await setNumber(w, /Changed token at position/, '79000');
    await expect.poll(async () => dataValue(hit)).toBeGreaterThan(78_000);
  });

  test('payback: the summary pays back in dollars and in GPU time, never in prefilled tokens', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="compaction-payback"]');
    const s = w.locator('[data-readout="summary-break-even"]');
    expect(await dataValue(s)).toBe(12);
    await expect(w.locator('svg[data-chart]').first().locator('[data-marker="x"]')).toHaveCount(3);
    await w.getByLabel('Cost counted').selectOption('prefillTokens');
    await expect(s).toHaveAttribute('data-value', '');
    await w.getByLabel('Cost counted').selectOption('prefillSeconds');
    await expect.poll(async () => Number((await s.getAttribute('data-value')) || 'NaN')).toBeLessThan(12);
  });

  test('exercise: the widget gives the answer, the exercise accepts it and rejects a wrong one', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="compaction-payback"]');
    await w.getByLabel('Model', { exact: true }).selectOption('llama-3.1-8b');
    await setNumber(w, /GPUs per replica/, '1');
    await expect(page).toHaveURL(/compaction-payback\.gpus=1/);
    const r = w.locator('[data-readout="compaction-reprefill"]');
    await expect.poll(async () => dataValue(r)).toBeGreaterThan(0.3);
    const ms = (await dataValue(r)) * 1e3;
    const ex = page.locator('[data-exercise="07-11-compaction-reprefill"]');
    const input = ex.getByLabel(/Your answer/);
    await expect(ex.getByRole('button', { name: 'Check' })).toBeEnabled();
    await input.fill('40');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'wrong');
    await input.fill(ms.toFixed(0));
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
    await page.reload();
    await expect(ex).toHaveAttribute('data-result', 'correct');
  });
});
