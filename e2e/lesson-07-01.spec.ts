import { expect, gotoLessonReady, test } from './fixtures';
import type { Locator, Page } from '@playwright/test';

const PATH = '/lessons/07-01-the-agent-workload';
const gotoReady = (page: Page) => gotoLessonReady(page, PATH, 2);

/** "132×" or "1,234.5×" → 132, 1234.5 */
async function ratio(el: Locator): Promise<number> {
  const t = (await el.textContent()) ?? '';
  return Number(t.replace(/[×,\s]/g, ''));
}

/** A Mooncake trace of `n` requests of one growing session, with line `badLine` replaced by a malformed one. */
function traceWithBadLine(n: number, badLine: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const blocks = 4 + i;
    const ids = Array.from({ length: blocks }, (_, k) => k);
    lines.push(
      JSON.stringify({ timestamp: i * 1000, input_length: blocks * 512, output_length: 100, hash_ids: ids }),
    );
  }
  lines[badLine - 1] = '{"timestamp": 5, "input_length": -3, "output_length": 10, "hash_ids": [0]}';
  return lines.join('\n') + '\n';
}

test.describe('Lesson 07.01 The Agent Workload', () => {
  test('loads without console errors or foreign requests; every widget and inline figure is computed', async ({
    page,
    watch,
  }) => {
    await gotoReady(page);
    await expect(
      page
        .locator('[data-widget="trajectory-anatomy"] svg[data-chart="turn-columns"] rect[data-turn]')
        .first(),
    ).toBeAttached();
    await expect(page.locator('[data-widget="traffic-shape"] svg[data-chart="cdf"]').first()).toBeAttached();
    // Inline figures of the prose and the table come from the worker: none is left pending.
    await expect(page.locator('article span[aria-busy="true"]')).toHaveCount(0);
    const table = page.getByRole('table');
    await expect(table.getByRole('rowheader', { name: 'Prompts are short next to outputs' })).toBeVisible();
    await expect(table).not.toContainText('NaN');
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('trajectory: switching agent → chat drops the input:output ratio by more than an order of magnitude', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="trajectory-anatomy"]');
    const io = w.locator('[data-readout="io-ratio"]');
    const agent = await ratio(io);
    expect(agent).toBeGreaterThan(50);
    const share = Number(
      ((await w.locator('[data-readout="prefix-share"]').textContent()) ?? '').replace('%', ''),
    );
    expect(share).toBeGreaterThan(90);
    await w.getByLabel('Session', { exact: true }).selectOption('chat');
    await expect(page).toHaveURL(/trajectory-anatomy\.kind=chat/);
    await expect.poll(async () => ratio(io)).toBeLessThan(agent / 10);
    // Longer agent sessions: a higher ratio (Σ I grows with the square of the turns).
    await w.getByLabel('Session', { exact: true }).selectOption('agent');
    await expect.poll(async () => ratio(io)).toBe(agent);
    const turns = w.getByRole('spinbutton', { name: /Median turns/ });
    await turns.fill('80');
    await turns.press('Enter');
    await expect.poll(async () => ratio(io)).toBeGreaterThan(agent);
  });

  test('traffic shape: chat traffic has a ratio an order of magnitude below agent traffic', async ({
    page,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="traffic-shape"]');
    const io = w.locator('[data-readout="io-ratio"]');
    const agent = await ratio(io);
    await expect(w.locator('[data-readout="hit-ratio"]')).toHaveText(/^9\d(\.\d)?%$/);
    await w.getByLabel('Generated workload').selectOption('chat');
    await expect.poll(async () => ratio(io)).toBeLessThan(agent / 10);
  });

  test('the file picker reads a trace with a malformed line: the line is reported, the rest is measured', async ({
    page,
    watch,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="traffic-shape"]');
    const box = w.locator('[data-trace-state]');
    await w.getByLabel(/Trace file/).setInputFiles({
      name: 'my-trace.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from(traceWithBadLine(12, 3)),
    });
    await expect(box).toHaveAttribute('data-trace-state', 'ready');
    await expect(box.locator('[data-trace-errors]')).toHaveAttribute('data-trace-errors', '1');
    await expect(box.locator('[data-error-line="3"]')).toContainText('line 3');
    await expect(box).toContainText('11 requests');
    // One session growing by a block per turn: 11 requests, every block after the first request's is new.
    await expect(w.locator('[data-readout="trace-io-ratio"]')).not.toHaveText('—');
    await expect(w.locator('[data-readout="trace-hit-ratio"]')).toHaveText(/%$/);
    await expect(w.locator('svg[data-chart="cdf"]').first()).toContainText('Your trace: my-trace.jsonl');
    // The picker is drawn as a button (the browser's own says "No file chosen" beside a loaded trace); the
    // input under it stays focusable, so the keyboard still reaches it.
    await expect(box.getByText('Choose a file…')).toBeVisible();
    await w.getByLabel(/Trace file/).focus();
    await expect(w.getByLabel(/Trace file/)).toBeFocused();
    // A file that is not a trace: a reason, not a crash; the widget stays ready.
    await w
      .getByLabel(/Trace file/)
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\nworld\n') });
    await expect(box).toHaveAttribute('data-trace-state', 'error');
    await expect(box).toContainText('line 1');
    await expect(w).toHaveAttribute('data-state', 'ready');
    expect(watch.consoleErrors).toEqual([]);
  });

  test('drag and drop, and the sample trace button', async ({ page, watch }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="traffic-shape"]');
    const box = w.locator('[data-trace-state]');
    const text = traceWithBadLine(6, 2);
    const dt = await page.evaluateHandle((t) => {
      const d = new DataTransfer();
      d.items.add(new File([t], 'dropped.jsonl', { type: 'application/json' }));
      return d;
    }, text);
    await box.dispatchEvent('dragover', { dataTransfer: dt });
    await box.dispatchEvent('drop', { dataTransfer: dt });
    await expect(box).toHaveAttribute('data-trace-state', 'ready');
    await expect(box).toContainText('dropped.jsonl');
    await expect(box.locator('[data-error-line="2"]')).toBeVisible();
    await w.getByRole('button', { name: 'Load the sample trace' }).click();
    await expect(box).toHaveAttribute('data-trace-state', 'ready');
    await expect(box).toContainText('agent-mix.mooncake.jsonl');
    await expect(box).toContainText('Every line was read.');
    await w.getByRole('button', { name: 'Remove trace' }).click();
    await expect(box).toHaveAttribute('data-trace-state', 'idle');
    expect(watch.foreignRequests).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('the exercises accept the right answer and reject a wrong one', async ({ page }) => {
    await gotoReady(page);
    const hit = page.locator('[data-exercise="07-01-ideal-hit-ratio"]');
    const input = hit.getByLabel(/Your answer/);
    await input.fill('75');
    await hit.getByRole('button', { name: 'Check' }).click();
    await expect(hit).toHaveAttribute('data-result', 'wrong');
    // 5,120 of 9,216 prompt tokens hit (hand replay in tests/lesson-07-01.test.ts).
    await input.fill('55.6');
    await hit.getByRole('button', { name: 'Check' }).click();
    await expect(hit).toHaveAttribute('data-result', 'correct');
    await expect(hit).toContainText('5.12k tokens');

    const io = page.locator('[data-exercise="07-01-io-ratio"]');
    await io.getByLabel(/Your answer/).fill('4');
    await io.getByRole('button', { name: 'Check' }).click();
    await expect(io).toHaveAttribute('data-result', 'wrong');
    await io.getByLabel(/Your answer/).fill('17.07');
    await io.getByRole('button', { name: 'Check' }).click();
    await expect(io).toHaveAttribute('data-result', 'correct');
  });
});
