/**
 * Progress for long jobs (#12 item 1): 07.07's tool-block layout at large settings replays six sessions of up to
 * millions of prompt tokens (≈19 s at the controls' maxima under load). While it runs, the widget shows the
 * worker's progress above the old picture, with Cancel; Cancel puts the controls back to the settings of the
 * picture shown, which is drawn again at once, and the worker is free for the next job.
 */
import { dataValue, expect, gotoLessonReady, setNumber, test } from './fixtures';

// A long session already (100 turns, 5,000 tokens of output each), still quick to compute.
const PATH = '/lessons/07-07-tool-schema-tax?tool-block-layout.turns=100&tool-block-layout.outputTokens=5000';

test('tool-block-layout at large settings shows its progress, and Cancel goes back to the picture before', async ({
  page,
  watch,
}) => {
  await gotoLessonReady(page, PATH, 2);
  const w = page.locator('[data-widget="tool-block-layout"]');
  const prefilled = w.locator('[data-readout="prefilled"]');
  const before = await dataValue(prefilled);
  expect(before).toBeGreaterThan(0);
  const drawn = Number(await w.getAttribute('data-drawn'));
  // The largest new turn makes every prompt far longer: millions of tokens per layout.
  await setNumber(w, /New tokens per turn/, '20000');
  const progress = w.locator('.job-progress');
  await expect(progress).toBeVisible();
  await expect(progress.locator('[data-readout="job-progress"]')).toContainText(
    /Step [1-6] of 6 · Replaying the prompt layouts: .+ of .+ prompt tokens…/,
  );
  // The old picture stays while the new one computes.
  await expect(w).toHaveAttribute('aria-busy', 'true');
  expect(await dataValue(prefilled)).toBe(before);
  // Frames keep coming: the share done grows.
  const done = async () => {
    const p = progress;
    return (
      Number(await p.getAttribute('data-progress-stage')) * 1e15 +
      Number(await p.getAttribute('data-progress-done'))
    );
  };
  const first = await done();
  await expect.poll(done, { timeout: 30_000 }).toBeGreaterThan(first);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress).toHaveCount(0);
  await expect(w.getByRole('spinbutton', { name: /New tokens per turn/ })).toHaveValue('1500');
  await expect(w).not.toHaveAttribute('aria-busy', 'true');
  await expect(w).toHaveAttribute('data-state', 'ready');
  expect(await dataValue(prefilled)).toBe(before);
  // Drawn again (the result kept for those settings), without a new job.
  expect(Number(await w.getAttribute('data-drawn'))).toBeGreaterThan(drawn);
  // The worker stopped the cancelled job: a quick change is computed at once after it.
  await setNumber(w, /Turns in the session/, '50');
  await expect.poll(async () => dataValue(prefilled), { timeout: 30_000 }).toBeLessThan(before);
  await expect(w.locator('.job-progress')).toHaveCount(0);
  expect(watch.consoleErrors).toEqual([]);
});
