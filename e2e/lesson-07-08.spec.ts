import { dataValue, expect, gotoLessonReady, seriousAxeViolations, setNumber, test } from './fixtures';
import type { Page } from '@playwright/test';

const PATH = '/lessons/07-08-structured-output';
const gotoReady = (page: Page) => gotoLessonReady(page, PATH, 3);

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
    // ε = 0.05%, N = 400 (SlipExercise's QUESTION_ARGS, a setting the prose does not quote): 0.9995^400.
    const p = Math.pow(1 - 0.0005, 400);
    const ex = page.locator('[data-exercise="07-08-valid-tool-call"]');
    const input = ex.getByLabel(/Your answer/);
    await expect(ex.getByRole('button', { name: 'Check' })).toBeEnabled();
    await input.fill('80');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'wrong');
    await input.fill((p * 100).toFixed(2));
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
    await page.reload();
    await expect(ex).toHaveAttribute('data-result', 'correct');
  });
});

const V = 200_019;

/** The mask grid as the learner sees it: share of token-id pixels that are bright (lit), and a hash. */
function gridState(page: Page) {
  return page.locator('[data-widget="mask-logits"] canvas').evaluate((c: HTMLCanvasElement, v: number) => {
    const g = c.getContext('2d')!;
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let lit = 0;
    let h = 2166136261;
    for (let i = 0; i < d.length; i += 4) {
      const id = i >> 2;
      if (id < v && 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2] > 128) lit++;
      h = Math.imul(h ^ (d[i] | (d[i + 1] << 8) | (d[i + 2] << 16)), 16777619);
    }
    return { lit: lit / v, hash: h >>> 0 };
  }, V);
}

async function openMaskLogits(page: Page) {
  await gotoReady(page);
  const w = page.locator('[data-widget="mask-logits"]');
  await w.scrollIntoViewIfNeeded();
  await expect(w.locator('[data-autoplayed="true"]')).toBeAttached();
  return w;
}

/** Everything the picture shows at the current time: grid pixels, the bars' shown probabilities, read-outs. */
async function picture(page: Page) {
  const w = page.locator('[data-widget="mask-logits"]');
  return {
    grid: (await gridState(page)).hash,
    bars: await w
      .locator('[data-figure="logit-bars"] [data-shown-p]')
      .evaluateAll((els) =>
        els.map(
          (e) => `${e.getAttribute('data-allowed')}:${e.getAttribute('data-shown-p')}:${e.textContent}`,
        ),
      ),
    allowed: await w.locator('[data-readout="allowed"]').getAttribute('data-value'),
    reply: await w.locator('[data-figure="reply"]').textContent(),
  };
}

test.describe('Lesson 07.08: the mask falls on the logits', () => {
  test('untouched, within five seconds the grid goes dark at the opening brace and lights up in the free string', async ({
    page,
    watch,
  }) => {
    await gotoReady(page);
    const w = page.locator('[data-widget="mask-logits"]');
    await expect(w.locator('[data-readout="illustrative"]')).toContainText('Illustrative logits');
    await w.scrollIntoViewIfNeeded();
    // "Within five seconds" of playing, in the animation's own time (1.25 steps/s at 1×): the grid has gone dark and
    // lit again by step 6. Wall-clock time is not asserted (a loaded machine only adds to it; npm run bench times it).
    await expect.poll(async () => (await gridState(page)).lit, { timeout: 20_000 }).toBeLessThan(0.01);
    await expect.poll(async () => (await gridState(page)).lit, { timeout: 20_000 }).toBeGreaterThan(0.9);
    expect(Number(await w.locator('.so-logits').getAttribute('data-step'))).toBeLessThanOrEqual(6);
    // Playing moved the picture along: the reply grew and the step changed.
    await expect
      .poll(async () => Number(await w.locator('.so-logits').getAttribute('data-step')))
      .toBeGreaterThan(2);
    await expect(page.locator('article span[aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
    expect(watch.consoleErrors).toEqual([]);
  });

  test('on screen before its trace arrives, it still plays by itself once the picture is up', async ({
    page,
  }) => {
    await page.goto(PATH);
    const w = page.locator('[data-widget="mask-logits"]');
    await w.waitFor();
    await w.scrollIntoViewIfNeeded(); // before its result: the picture mounts later, while the widget is in view
    const view = w.locator('.so-logits');
    await expect
      .poll(
        async () => {
          await w.scrollIntoViewIfNeeded(); // keep it in view while the widgets above it grow
          return Number(await view.getAttribute('data-step'));
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(1);
  });

  test('playing changes the picture; scrubbing or stepping back restores an earlier frame exactly', async ({
    page,
  }) => {
    const w = await openMaskLogits(page);
    await w.focus();
    await page.keyboard.press('Home');
    const start = await picture(page);
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    const step3 = await picture(page);
    expect(step3.allowed).not.toBe(start.allowed);
    expect(step3.grid).not.toBe(start.grid);
    // A frame in the middle of a step (the mask falling), reached with the scrubber.
    const scrub = w.getByLabel('Time');
    await scrub.fill('2.45');
    const mid = await picture(page);
    expect(mid.bars).not.toEqual(step3.bars);
    // Mid-step the bars are between the softmax before and after the mask, but the figures are the step's: a
    // masked candidate reads "… → 0%", never the in-between value.
    const masked = mid.bars.filter((b) => b.startsWith('false:'));
    expect(masked.length).toBeGreaterThan(0);
    for (const b of masked) expect(b).toMatch(/→ 0%$/);
    await w.getByRole('button', { name: 'Play' }).click();
    await expect.poll(async () => (await picture(page)).reply).not.toBe(mid.reply);
    await w.getByRole('button', { name: 'Pause' }).click();
    await scrub.fill('2.45');
    expect(await picture(page)).toEqual(mid);
    await w.focus();
    await page.keyboard.press('End');
    expect((await picture(page)).grid).not.toBe(step3.grid);
    await page.keyboard.press('Home');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    expect(await picture(page)).toEqual(step3);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    expect(await picture(page)).toEqual(step3);
  });

  test('constraining only the tool call leaves the prose fully lit until the trigger, as the lesson says', async ({
    page,
  }) => {
    const w = await openMaskLogits(page);
    const allowed = w.locator('[data-readout="allowed"]');
    await w.focus();
    await page.keyboard.press('Home');
    await expect(allowed).toHaveAttribute('data-value', '2');
    await w.getByLabel('Constrain').selectOption('tool-span');
    await expect.poll(async () => dataValue(allowed)).toBeGreaterThan(0.9999 * V);
    expect(await dataValue(w.locator('[data-readout="masked-mass"]'))).toBeLessThan(1e-4);
    await w.focus();
    await page.keyboard.press('ArrowRight');
    expect((await gridState(page)).lit).toBeGreaterThan(0.99);
    // Step on until the grammar takes over: the tag is forced and the grid goes dark.
    for (let i = 0; i < 40; i++) {
      if ((await w.locator('[data-readout="step-context"]').getAttribute('data-value')) === 'tag') break;
      await page.keyboard.press('ArrowRight');
    }
    await expect(w.locator('[data-readout="step-context"]')).toHaveAttribute('data-value', 'tag');
    expect(await dataValue(allowed)).toBeLessThan(10);
    expect((await gridState(page)).lit).toBeLessThan(0.01);
    await expect(page.locator('article')).toContainText('at least');
  });

  test('the mask widget has no serious accessibility violations, in light and dark themes', async ({
    page,
  }) => {
    const w = await openMaskLogits(page);
    await w.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
      const bad = await seriousAxeViolations(page, '[data-widget="mask-logits"]');
      expect(bad.map((v) => `${theme}: ${v}`)).toEqual([]);
    }
  });
});
