import { dataValue, expect, gotoLessonReady, setNumber, test } from './fixtures';
import type { Page } from '@playwright/test';

const PATH = '/lessons/07-08-structured-output';
const gotoReady = (page: Page) => gotoLessonReady(page, PATH, 2);

test.describe('Lesson 07.08 Structured Output', () => {
  test('loads without console errors or foreign requests; the real engine traces the default schema', async ({
    page,
    watch,
  }) => {
    await gotoReady(page);
    await expect(page.locator('[data-widget="mask-stepper"] svg[data-chart]').first()).toBeAttached();
    await expect(page.locator('article span[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator('article')).not.toContainText('NaN');
    await expect(page.locator('article')).not.toContainText('undefined');
    // Step 0 of the default get_weather schema: only `{` and `{"` of 200,019 tokens.
    const w = page.locator('[data-widget="mask-stepper"]');
    await expect(w.locator('[data-readout="allowed"]')).toHaveAttribute('data-value', '2');
    await expect(w.locator('[data-probe="Sure"]')).toHaveAttribute('data-allowed', 'false');
    await expect(w.locator('[data-probe="{"]')).toHaveAttribute('data-allowed', 'true');
    await expect(page.locator('article')).toContainText('allows 2 of the 200,019 tokens');
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('stepping forward changes the allowed count; a free string opens nearly the whole vocabulary; the end allows one token', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="mask-stepper"]');
    const allowed = w.locator('[data-readout="allowed"]');
    expect(await dataValue(allowed)).toBe(2);
    await w.getByRole('button', { name: 'Step forward' }).click();
    await expect.poll(async () => dataValue(allowed)).not.toBe(2);
    await w.getByRole('button', { name: 'Step forward' }).click();
    await w.getByRole('button', { name: 'Step forward' }).click();
    // Step 3 is the first token of the city's value: a free string.
    await expect.poll(async () => dataValue(allowed)).toBeGreaterThan(100_000);
    await w.getByRole('button', { name: 'Step back' }).click();
    await expect.poll(async () => dataValue(allowed)).toBeLessThan(20);
    await w.focus();
    await page.keyboard.press('End');
    await expect.poll(async () => dataValue(allowed)).toBe(1);
    await expect(w.locator('[data-readout="next-token"]')).toHaveText('<|endoftext|>');
  });

  test('an invalid schema shows a clear message, the page stays clean, and the widget recovers', async ({
    page,
    watch,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="mask-stepper"]');
    const schema = w.getByLabel("JSON Schema of the tool's arguments");
    await schema.fill('{"type": "object"');
    await w.getByRole('button', { name: 'Compile and trace' }).click();
    await expect(w.locator('[data-readout="schema-error"]')).toContainText('not valid JSON');
    await expect(w).toHaveAttribute('data-state', 'ready');
    await schema.fill('{"type": "strin"}');
    await w.getByRole('button', { name: 'Compile and trace' }).click();
    await expect(w.locator('[data-readout="schema-error"]')).toContainText('Unsupported type "strin"');
    await expect(w).toHaveAttribute('data-state', 'ready');
    // Recover: a preset compiles again.
    await w.getByLabel('Tool-call schema').selectOption('run-shell');
    await expect(w.locator('[data-readout="schema-error"]')).toHaveCount(0);
    await expect(w.locator('[data-readout="allowed"]')).toHaveAttribute('data-value', '2');
    // A document the schema forbids is refused at the first token that leaves the enum.
    await w.getByLabel('Tool-call schema').selectOption('get-weather');
    await w.getByLabel(/Document the model writes/).fill('{"city": "Lisbon", "unit": "kelvin"}');
    await w.getByRole('button', { name: 'Compile and trace' }).click();
    await expect(w.locator('[data-readout="rejected"]')).toContainText('refuses the document');
    expect(watch.consoleErrors).toEqual([]);
  });

  test('asking nicely: p_valid = (1 − ε)^N at the defaults, and longer calls are valid less often', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="asking-nicely"]');
    const p = w.locator('[data-readout="p-valid"]');
    expect(await dataValue(p)).toBeCloseTo(Math.pow(0.999, 120), 9);
    await setNumber(w, /Tokens per tool call/, '1000');
    await expect.poll(async () => dataValue(p)).toBeLessThan(0.4);
    const before = await dataValue(w.locator('[data-readout="expected-failures"]'));
    await setNumber(w, /Per-token slip probability/, '0.0001');
    await expect
      .poll(async () => dataValue(w.locator('[data-readout="expected-failures"]')))
      .toBeLessThan(before);
    await expect(w.locator('[data-figure="session-strip"] span')).toHaveCount(200);
  });

  test('the exercise accepts the right answer and rejects the 1 − Nε shortcut', async ({ page }) => {
    await gotoReady(page);
    const p = await dataValue(page.locator('[data-widget="asking-nicely"] [data-readout="p-valid"]'));
    const ex = page.locator('[data-exercise="07-08-valid-tool-call"]');
    const input = ex.getByLabel(/Your answer/);
    await expect(ex.getByRole('button', { name: 'Check' })).toBeEnabled();
    await input.fill('88');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'wrong');
    await input.fill((p * 100).toFixed(2));
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
    await page.reload();
    await expect(ex).toHaveAttribute('data-result', 'correct');
  });
});
