/**
 * 07.08's mask stepper at its limits (src/sim/lessons/grammar/limits.ts): an oversize document and an over-deep
 * schema are answered under the editor they were typed in, before any work, and what was typed stays there; a
 * long trace shows its progress and Cancel goes back to the trace before it, the texts still in the editors.
 */
import { expect, gotoLessonReady, test } from './fixtures';

const PATH = '/lessons/07-08-structured-output';

test.describe('Lesson 07.08: the mask stepper at its limits', () => {
  test('an oversize document and an over-deep schema get a message where they were typed, and stay typed', async ({
    page,
    watch,
  }) => {
    await gotoLessonReady(page, PATH, 3);
    const w = page.locator('[data-widget="mask-stepper"]');
    await expect(w.locator('[data-readout="allowed"]')).toHaveAttribute('data-value', '2');
    const document = w.getByLabel(/Document the model writes/);
    const schema = w.getByLabel("JSON Schema of the tool's arguments");

    // A 2 MB document.
    const big = JSON.stringify({ city: 'Lisbon', notes: 'x'.repeat(2 * 1024 * 1024) });
    await document.fill(big);
    await w.getByRole('button', { name: 'Compile and trace' }).click();
    const docError = w.locator('[data-readout="document-error"]');
    await expect(docError).toContainText(
      `This document is ${big.length.toLocaleString('en-US')} characters; the mask stepper traces documents of up to 4,000 characters`,
    );
    expect((await document.inputValue()).length).toBe(big.length);
    // Nothing was sent: the trace on screen is still the preset's.
    await expect(w.locator('[data-readout="allowed"]')).toHaveAttribute('data-value', '2');

    // A schema nested 400 levels deep.
    const deep = '{"type":"object","properties":{"a":'.repeat(399) + '{"type":"integer"}' + '}}'.repeat(399);
    await document.fill('{"a": 1}');
    await schema.fill(deep);
    await w.getByRole('button', { name: 'Compile and trace' }).click();
    await expect(w.locator('[data-readout="schema-error"]')).toContainText(
      'This schema nests 400 levels deep; the grammar engine handles up to 32 levels',
    );
    await expect(docError).toHaveCount(0);
    expect(await schema.inputValue()).toBe(deep);
    // Both over at once: each message under its own editor.
    await document.fill(big);
    await w.getByRole('button', { name: 'Compile and trace' }).click();
    await expect(docError).toContainText(`This document is ${big.length.toLocaleString('en-US')} characters`);
    await expect(w.locator('[data-readout="schema-error"]')).toContainText('nests 400 levels deep');
    await expect(w).toHaveAttribute('data-state', 'ready');
    expect(watch.consoleErrors).toEqual([]);
  });

  test('a long trace shows its progress; Cancel goes back to the trace before it and keeps the texts', async ({
    page,
    watch,
  }) => {
    await gotoLessonReady(page, PATH, 3);
    const w = page.locator('[data-widget="mask-stepper"]');
    await expect(w.locator('[data-readout="allowed"]')).toHaveAttribute('data-value', '2');
    const schema = w.getByLabel("JSON Schema of the tool's arguments");
    const document = w.getByLabel(/Document the model writes/);
    // 751 tokens, under the limit: as many steps of at least 2 ms each.
    const items = Array.from({ length: 150 }, (_, i) => `item number ${i}`);
    const doc = JSON.stringify(items);
    await schema.fill('{"type": "array", "items": {"type": "string"}}');
    await document.fill(doc);
    await w.getByRole('button', { name: 'Compile and trace' }).click();
    const progress = w.locator('[data-readout="job-progress"]');
    await expect(progress).toContainText(/Compiling the schema|Masking: \d+ of \d+ steps/);
    await w.getByRole('button', { name: 'Cancel' }).click();
    await expect(progress).toHaveCount(0);
    await expect(w.locator('[data-readout="allowed"]')).toHaveAttribute('data-value', '2');
    await expect(w.getByLabel('Tool-call schema')).toHaveValue('get-weather');
    expect(await document.inputValue()).toBe(doc);
    expect(await schema.inputValue()).toBe('{"type": "array", "items": {"type": "string"}}');
    // The worker is free again: the same texts trace to the end when asked once more.
    await w.getByRole('button', { name: 'Compile and trace' }).click();
    await expect(w.locator('[data-readout="allowed"]')).not.toHaveAttribute('data-value', '2', {
      timeout: 60_000,
    });
    await expect(progress).toHaveCount(0, { timeout: 120_000 });
    expect(watch.consoleErrors).toEqual([]);
  });
});
