import { expect, expectWidgetsReady, figureValue, setNumber, test } from './fixtures';

const PATH = '/lessons/07-02-session-affinity';
/** The replay's synthetic trajectory (the default is the recorded SWE-agent session). */
const SYNTHETIC = `${PATH}?affinity-replay.source=synthetic`;

test.describe('Lesson 07.02 Session Affinity', () => {
  test('loads without console errors; every widget reaches ready; the exercise is there', async ({
    page,
    watch,
  }) => {
    await page.goto(PATH);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Session Affinity');
    await expect(page.locator('[data-widget]')).toHaveCount(2);
    expect(await expectWidgetsReady(page)).toBe(2);
    await expect(page.locator('[data-exercise="07-02-cold-turn-extra-ttft"]')).toBeVisible();
    await expect(page.locator('.katex').first()).toBeAttached();
    // Inline figures computed from the catalog, never missing.
    await expect(page.locator('.figure-missing')).toHaveCount(0);
    const body = (await page.locator('main').textContent()) ?? '';
    expect(body).not.toMatch(/NaN|undefined|Infinity/);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
  });

  test('replay: affinity off re-prefills tokens and costs TTFT; more replicas lower the hit rate under round-robin', async ({
    page,
    watch,
  }) => {
    await page.goto(SYNTHETIC);
    const widget = page.locator('[data-widget="affinity-replay"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    const rePrefilled = widget.locator('[data-readout="re-prefilled"]');
    const hit = widget.locator('[data-readout="hit-rate"]');
    const cold = widget.locator('[data-readout="cold-extra"]');

    // Defaults: round-robin over 4 replicas, affinity off. Turn 1 lands cold.
    await expect(cold).toContainText('+');
    const offRe = await figureValue(rePrefilled);
    const offHit = await figureValue(hit);
    const offExtra = await figureValue(cold);
    expect(offRe).toBeGreaterThan(100_000);
    expect(offExtra).toBeGreaterThan(0.2);
    await expect(widget.locator('[data-kind="cold"]').first()).toBeAttached();

    // Affinity on: nothing is prefilled twice, the hit rate rises, no turn lands cold.
    const toggle = widget.getByRole('switch', { name: 'Session affinity' });
    await toggle.check();
    await expect(page).toHaveURL(/affinity-replay\.affinity=true/);
    await expect(rePrefilled).toHaveText('0 tokens');
    await expect(cold).toContainText('none');
    expect(await figureValue(hit)).toBeGreaterThan(offHit + 10);
    await expect(widget.locator('[data-kind="cold"]')).toHaveCount(0);

    // Off again, and the re-prefill comes back.
    await toggle.uncheck();
    await expect.poll(() => figureValue(rePrefilled)).toBe(offRe);

    // Round-robin over more replicas: each turn finds an older prefix, so the hit rate falls.
    await setNumber(widget, /^Replicas/, 2);
    await expect(widget.locator('[data-holds="1"]')).toBeAttached();
    await expect(widget.locator('[data-holds="2"]')).toHaveCount(0);
    const hit2 = await figureValue(hit);
    await setNumber(widget, /^Replicas/, 8);
    await expect(widget.locator('[data-holds="7"]')).toBeAttached();
    await expect.poll(() => figureValue(hit)).toBeLessThan(hit2);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('replay: the transport steps through the turns, by button and by keyboard, and back', async ({
    page,
  }) => {
    await page.goto(SYNTHETIC);
    const widget = page.locator('[data-widget="affinity-replay"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    const current = widget.locator('[data-current-turn]');
    await expect(current).toHaveAttribute('data-current-turn', '0');
    await widget.getByRole('button', { name: 'Step forward' }).click();
    await expect(current).toHaveAttribute('data-current-turn', '1');
    await expect(widget.getByRole('slider', { name: 'Time' })).toHaveAttribute(
      'aria-valuetext',
      'turn 1 of turn 23',
    );
    // Turn 1 of round-robin over 4 replicas lands cold on replica 1.
    await expect(widget.locator('[data-readout="turn-ttft"]')).toBeVisible();
    await expect(widget).toContainText('Turn 1 TTFT (at the playhead)');
    await widget.focus();
    await page.keyboard.press('ArrowRight');
    await expect(current).toHaveAttribute('data-current-turn', '2');
    await page.keyboard.press('End');
    await expect(current).toHaveAttribute('data-current-turn', '23');
    await page.keyboard.press('ArrowLeft');
    await expect(current).toHaveAttribute('data-current-turn', '22');
    await widget.getByRole('button', { name: 'Go to start' }).click();
    await expect(current).toHaveAttribute('data-current-turn', '0');
    // Play runs forward on its own.
    await widget.getByRole('button', { name: 'Play' }).click();
    await expect.poll(async () => Number(await current.getAttribute('data-current-turn'))).toBeGreaterThan(1);
    await widget.getByRole('button', { name: 'Pause' }).click();
  });

  test('replay: the shipped SWE-agent trajectory by default; picking its full-history session raises affinity', async ({
    page,
    watch,
  }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="affinity-replay"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    await expect(widget.locator('[data-trace-state="ready"]')).toContainText(
      'swe-agent-marshmallow-1867.jsonl',
    );
    const picker = widget.getByLabel('Session, by turns (1 = the longest)');
    await expect(picker.locator('option')).toHaveCount(2);
    await expect(widget).toContainText('Session swe-agent/marshmallow-1867: 11 turns');
    const hit = widget.locator('[data-readout="hit-rate"]');
    const toggle = widget.getByRole('switch', { name: 'Session affinity' });
    await toggle.check();
    const asSent = await figureValue(hit);
    // Per turn: reused and recomputed tokens; turn 8 rewrote what turn 7 computed.
    for (let i = 0; i < 8; i++) await widget.getByRole('button', { name: 'Step forward' }).click();
    await expect(widget).toContainText('Turn 8: reused / recomputed');
    await expect(widget).toContainText('the prompt rewrote');
    await picker.selectOption('2');
    await expect(page).toHaveURL(/affinity-replay\.session=2/);
    await expect(widget).toContainText('Session swe-agent/marshmallow-1867/full-history');
    await expect.poll(() => figureValue(hit)).toBeGreaterThan(asSent + 20);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('replay: a session rank beyond the trace is shown as its last session, and said so', async ({
    page,
  }) => {
    await page.goto(`${PATH}?affinity-replay.session=5`);
    const widget = page.locator('[data-widget="affinity-replay"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    await expect(widget.locator('[data-session-clamped]')).toContainText(
      'This trace lists 2 sessions, not 5',
    );
    await expect(widget).toContainText('Session swe-agent/marshmallow-1867/full-history');
  });

  test('replay: a Mooncake file is refused with the reason; the shipped trajectory comes back', async ({
    page,
  }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="affinity-replay"]');
    await expect(widget).toHaveAttribute('data-state', 'ready');
    await widget.locator('input[type="file"]').setInputFiles({
      name: 'mc.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from('{"timestamp": 0, "input_length": 10, "output_length": 2, "hash_ids": [0]}\n'),
    });
    await expect(widget.locator('[data-trace-state="error"]')).toContainText(
      'this is a Mooncake trace: its requests carry no session id',
    );
    await widget.getByRole('button', { name: 'Load the shipped SWE-agent trajectory' }).first().click();
    await expect(widget.locator('[data-trace-state="ready"]')).toBeVisible();
  });

  test('fleet view: request-level routing loses hit rate as the fleet grows; affinity keeps it', async ({
    page,
    watch,
  }) => {
    await page.goto(PATH);
    const widget = page.locator('[data-widget="affinity-fleet"]');
    await expect(widget).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    const at2 = await figureValue(widget.locator('[data-readout="hit-request-2"]'));
    const at16 = await figureValue(widget.locator('[data-readout="hit-request"]'));
    const aff16 = await figureValue(widget.locator('[data-readout="hit-affinity"]'));
    expect(at16).toBeLessThan(at2);
    expect(aff16).toBeGreaterThan(at16 + 30);
    expect(await figureValue(widget.locator('[data-readout="p90-request"]'))).toBeGreaterThan(
      await figureValue(widget.locator('[data-readout="p90-affinity"]')),
    );
    // Two charts, each with its series drawn.
    await expect(widget.locator('svg[data-chart="line"]')).toHaveCount(2);
    await expect(widget.locator('[data-series="session affinity"]').first()).toBeAttached();
    // Another policy recomputes (and the URL keeps it).
    await widget.getByLabel('Request-level routing').selectOption('random');
    await expect(page).toHaveURL(/affinity-fleet\.routing=random/);
    await expect(widget.locator('[data-series="random"]').first()).toBeAttached({ timeout: 30_000 });
    await expect(widget).not.toHaveAttribute('aria-busy', 'true', { timeout: 30_000 });
    expect(await figureValue(widget.locator('[data-readout="hit-request"]'))).toBeLessThan(at2);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('the exercise rejects a wrong answer and accepts the right one', async ({ page }) => {
    await page.goto(PATH);
    const ex = page.locator('[data-exercise="07-02-cold-turn-extra-ttft"]');
    const input = ex.getByLabel(/Your answer/);
    const check = ex.getByRole('button', { name: 'Check' });
    await expect(check).toBeEnabled();
    await input.fill('0.12');
    await check.click();
    await expect(ex).toHaveAttribute('data-result', 'wrong');
    await ex.getByRole('button', { name: 'Hint' }).click();
    await expect(ex).toContainText('middle of the 38,000');
    await input.fill('1.9');
    await check.click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
    await expect(ex).toContainText('1.92 s');
    // Saved with progress: still correct after a reload.
    await page.reload();
    await expect(page.locator('[data-exercise="07-02-cold-turn-extra-ttft"]')).toHaveAttribute(
      'data-result',
      'correct',
    );
  });
});
