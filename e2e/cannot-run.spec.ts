/**
 * Settings that cannot run are a state of the picture (#12, "controls and core agree"): the picture area says why in
 * the reader's words, a button applies the nearest change that runs, the controls stay live, read-outs show "—";
 * after the fix the picture comes back. The cases the issue names: the replay at one GPU (its slider's minimum), a
 * 70B model in the fleet view on its one GPU, an analytic widget (07.10, 07.07) whose replica cannot hold its model,
 * and a DRAM pause policy with no DRAM in 07.04's hierarchy.
 */
import type { Locator } from '@playwright/test';
import { expect, setNumber, test } from './fixtures';

async function expectCannotRun(widget: Locator, reason: RegExp) {
  await expect(widget).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(widget).toHaveAttribute('data-outcome', 'cannot-run');
  const picture = widget.locator('[data-cannot-run]');
  await expect(picture).toContainText('This setting cannot run.');
  await expect(picture).toContainText(reason);
  // Nothing internal, and no error box: the widget is not broken, the setting is.
  await expect(widget.locator('.widget-error')).toHaveCount(0);
  await expect(picture).not.toContainText(/hbmBlocks|hardware\.tp|must be a whole number/);
  // The controls stay live.
  await expect(widget.locator('.widget-controls select, .widget-controls input').first()).toBeEnabled();
}

async function expectPictureBack(widget: Locator) {
  await expect(widget).not.toHaveAttribute('data-outcome', 'cannot-run', { timeout: 90_000 });
  await expect(widget).toHaveAttribute('data-state', 'ready', { timeout: 90_000 });
  await expect(widget.locator('[data-cannot-run]')).toHaveCount(0);
  await expect(widget.locator('.widget-figure svg, .widget-figure canvas').first()).toBeVisible({
    timeout: 90_000,
  });
}

test.describe('settings that cannot run', () => {
  test('affinity-replay at one GPU: the reason, then "Use 2 GPUs per replica" brings the picture back', async ({
    page,
    watch,
  }) => {
    await page.goto(
      '/lessons/07-02-session-affinity?affinity-replay.source=synthetic&affinity-replay.gpus=1',
    );
    const widget = page.locator('[data-widget="affinity-replay"]');
    await expectCannotRun(widget, /Llama 3\.1 70B does not fit on 1 × H100 SXM: its weights \(141\.\d GB\)/);
    // Read-outs (where the widget keeps them) show "—", never an older setting's numbers.
    for (const v of await widget.locator('.readout-value').allInnerTexts()) expect(v).toBe('—');
    await widget.getByRole('button', { name: 'Use 2 GPUs per replica' }).click();
    await expectPictureBack(widget);
    await expect(widget.getByRole('spinbutton', { name: /GPUs per replica/ })).toHaveValue('2');
    await expect(page).toHaveURL(/affinity-replay\.gpus=2/);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('moving the replay to one GPU: its read-outs say "—" rather than the 8-GPU numbers; back at 8 they return', async ({
    page,
    watch,
  }) => {
    await page.goto('/lessons/07-02-session-affinity?affinity-replay.source=synthetic');
    const widget = page.locator('[data-widget="affinity-replay"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    const hit = widget.locator('[data-readout="hit-rate"]');
    await expect(hit).toBeVisible();
    await setNumber(widget, /GPUs per replica/, 1);
    await expectCannotRun(widget, /does not fit on 1 × H100 SXM/);
    const values = await widget.locator('.readout-value').allInnerTexts();
    expect(values.length).toBeGreaterThan(0);
    for (const v of values) expect(v).toBe('—');
    await expect(hit).toHaveCount(0);
    await expect(widget.locator('.widget-caption')).toHaveCount(0);
    await setNumber(widget, /GPUs per replica/, 8);
    await expectPictureBack(widget);
    await expect(hit).toBeVisible();
    expect(watch.consoleErrors).toEqual([]);
  });

  test('affinity-fleet with a 70B model: the picture says why; the fix runs the sweep on 2 GPUs', async ({
    page,
    watch,
  }) => {
    test.setTimeout(180_000);
    await page.goto('/lessons/07-02-session-affinity?affinity-fleet.model=llama-3.1-70b');
    const widget = page.locator('[data-widget="affinity-fleet"]');
    await expectCannotRun(widget, /Llama 3\.1 70B does not fit on 1 × H100 SXM/);
    // Two ways out: more GPUs per replica, or the largest model that fits the one GPU.
    await expect(widget.locator('[data-fix]')).toHaveCount(2);
    await widget.getByRole('button', { name: 'Use 2 GPUs per replica' }).click();
    await expectPictureBack(widget);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('an analytic widget (07.10 timeline): 405B on 8 GPUs says so; "Use 12 GPUs per replica" draws the timeline', async ({
    page,
    watch,
  }) => {
    await page.goto('/lessons/07-10-long-context-prefill?chunked-prefill-timeline.model=llama-3.1-405b');
    const widget = page.locator('[data-widget="chunked-prefill-timeline"]');
    await expectCannotRun(widget, /Llama 3\.1 405B does not fit on 8 × H100 SXM/);
    await widget.getByRole('button', { name: 'Use 12 GPUs per replica' }).click();
    await expectPictureBack(widget);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('07.07 tool-schema-tax: 70B on one GPU says why; "Use 2 GPUs per replica" brings the charts back', async ({
    page,
    watch,
  }) => {
    await page.goto('/lessons/07-07-tool-schema-tax?tool-schema-tax.gpus=1');
    const widget = page.locator('[data-widget="tool-schema-tax"]');
    await expectCannotRun(widget, /Llama 3\.1 70B does not fit on 1 × H100 SXM: its weights \(141\.\d GB\)/);
    await widget.getByRole('button', { name: 'Use 2 GPUs per replica' }).click();
    await expectPictureBack(widget);
    await expect(page).toHaveURL(/tool-schema-tax\.gpus=2/);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('kv-hierarchy: write-through with no DRAM says so; "Give host DRAM" brings the animation back', async ({
    page,
    watch,
  }) => {
    await page.goto('/lessons/07-04-kv-memory-hierarchy?kv-hierarchy.dramGB=0');
    const widget = page.locator('[data-widget="kv-hierarchy"]');
    await expectCannotRun(widget, /moves idle KV to host DRAM, and this setting has no DRAM \(0 GB\)/);
    await widget.getByRole('button', { name: /^Give host DRAM \d+ GB$/ }).click();
    await expectPictureBack(widget);
    expect(watch.consoleErrors).toEqual([]);
  });
});
