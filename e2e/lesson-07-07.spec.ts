import { dataValue, expect, gotoLessonReady, setNumber, test } from './fixtures';
import type { Page } from '@playwright/test';

const PATH = '/lessons/07-07-tool-schema-tax';
const gotoReady = (page: Page) => gotoLessonReady(page, PATH, 2);

test.describe('Lesson 07.07 The Tool Schema Tax', () => {
  test('loads without console errors or foreign requests; widgets ready; every inline figure computed', async ({
    page,
    watch,
  }) => {
    await gotoReady(page);
    await expect(page.locator('[data-widget="tool-schema-tax"] svg[data-chart]').first()).toBeAttached();
    await expect(page.locator('article span[aria-busy="true"]')).toHaveCount(0);
    await expect(page.locator('article')).not.toContainText('NaN');
    await expect(page.locator('article')).not.toContainText('undefined');
    // The prose quotes the real tokenizer's count of the shipped tools.
    await expect(page.locator('article')).toContainText('4,427 tokens');
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('tool schema tax: adding tools raises the tokens on every request', async ({ page }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="tool-schema-tax"]');
    const tokens = w.locator('[data-readout="tool-tokens"]');
    expect(await dataValue(tokens)).toBe(4427);
    await setNumber(w, /Tools in the request/, '5');
    await expect.poll(async () => dataValue(tokens)).toBeLessThan(1000);
    const five = await dataValue(tokens);
    await setNumber(w, /Tools in the request/, '20');
    await expect.poll(async () => dataValue(tokens)).toBeGreaterThan(five);
    // The cache saves most of the bill; a block that changes every turn makes the cache cost more.
    expect(await dataValue(w.locator('[data-readout="saving"]'))).toBeGreaterThan(0.8);
    await setNumber(w, /Tool block changes every/, '1');
    await expect.poll(async () => dataValue(w.locator('[data-readout="saving"]'))).toBeLessThan(0);
  });

  for (const width of [1280, 390])
    test(`tool schema tax at ${width} px: every one of the 36 tools' bars carries its name and its tokens`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await gotoReady(page);
      const bars = page.locator('[data-widget="tool-schema-tax"] svg[data-chart]').first();
      await expect(bars.locator('.chart-bar')).toHaveCount(36);
      const names = await bars.locator('.chart-axis-y .chart-tick').allTextContents();
      expect(names).toHaveLength(36);
      expect(names).toContain('git_status');
      expect(names.some((n) => n.endsWith('…'))).toBe(false);
      // ...and its count of tokens.
      await expect(bars.locator('.chart-value-label')).toHaveCount(36);
    });

  test('tool schema tax: invalid pasted JSON shows a located error and the widget stays usable', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="tool-schema-tax"]');
    const box = w.getByLabel(/Your own tool definitions/);
    await box.fill('[\n  {"name": "ping", "description": "x",}\n]');
    await w.getByRole('button', { name: 'Count these' }).click();
    const err = w.getByRole('alert');
    await expect(err).toContainText(/Invalid JSON at line 2, column \d+/);
    await expect(w).toHaveAttribute('data-state', 'ready');
    expect(await dataValue(w.locator('[data-readout="tool-tokens"]'))).toBe(4427);
    // Fix it: the widget counts the pasted tool.
    await box.fill(
      '[{"name": "ping", "description": "Ping a host.", "input_schema": {"type": "object", "properties": {"host": {"type": "string"}}}}]',
    );
    await w.getByRole('button', { name: 'Count these' }).click();
    await expect(w.getByRole('alert')).toHaveCount(0);
    await expect(w.getByText('Counting your 1 tool.')).toBeVisible();
    await expect.poll(async () => dataValue(w.locator('[data-readout="tool-tokens"]'))).toBeLessThan(100);
    // A wrong shape is reported too, and "Use the shipped tools" brings the set back.
    await box.fill('{"tools": [{"name": "bad name"}]}');
    await w.getByRole('button', { name: 'Count these' }).click();
    await expect(w.getByRole('alert')).toContainText('letters, digits');
    await w.getByRole('button', { name: 'Use the shipped tools' }).click();
    await expect.poll(async () => dataValue(w.locator('[data-readout="tool-tokens"]'))).toBe(4427);
  });

  test('where the tool block sits: a timestamp above the tools collapses the hit rate', async ({ page }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="tool-block-layout"]');
    const hit = w.locator('[data-readout="hit-rate"]');
    expect(await dataValue(hit)).toBeGreaterThan(0.9);
    await w.getByLabel('Prompt layout (read-outs)').selectOption('timestamp-top');
    await expect(page).toHaveURL(/tool-block-layout\.layout=timestamp-top/);
    await expect.poll(async () => dataValue(hit)).toBe(0);
    expect(await dataValue(w.locator('[data-readout="prefilled"]'))).toBe(500940);
    // The strip shows the tool block re-prefilled on the last turn.
    await expect(w.locator('[data-figure="prompt-strip"] li[data-kind="tools"]')).toHaveAttribute(
      'data-hit',
      '0',
    );
    await w.getByLabel('Prompt layout (read-outs)').selectOption('tools-first');
    await expect.poll(async () => dataValue(hit)).toBeGreaterThan(0.9);
    await expect(w.locator('[data-figure="prompt-strip"] li[data-kind="tools"]')).toHaveAttribute(
      'data-hit',
      '4427',
    );
  });

  test('exercise: accepts the core answer, rejects a wrong one', async ({ page }) => {
    await gotoReady(page);
    const ex = page.locator('[data-exercise="07-07-timestamp-above-tools"]');
    const input = ex.getByLabel(/Your answer/);
    await expect(ex.getByRole('button', { name: 'Check' })).toBeEnabled();
    await input.fill('36556');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'wrong');
    // The exercise's 30-turn session (the page shows the 20-turn default's 500,940):
    // 30 × (20 + 4,427 + 2,000 + 1,500) + 1,800 × 435 = 1,021,410.
    await input.fill('1021410');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
    await expect(ex).toContainText('times less');
  });
});
