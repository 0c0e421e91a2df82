import { KEYBOARD_HELP } from '../src/app/keyboard/keyboardHelp';
import { expect, expectWidgetsReady, seriousAxeViolations, test } from './fixtures';

test('"?" lists the keyboard, on a lesson and on a widget alone; never while typing', async ({
  page,
  watch,
}) => {
  await page.goto('/lessons/07-12-agents-per-megawatt');
  await expectWidgetsReady(page);
  const dialog = page.getByRole('dialog', { name: 'The keyboard' });
  await expect(dialog).toBeHidden();
  await page.locator('h1').click(); // focus on the page, not a control
  await page.keyboard.press('?');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('section')).toHaveCount(KEYBOARD_HELP.length);
  await expect(dialog).toContainText('Leave presentation mode');
  expect(await seriousAxeViolations(page, '.keyboard-help')).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  // Typing: "?" is a character of the answer.
  const answer = page
    .locator('[data-exercise]')
    .first()
    .getByLabel(/Your answer/);
  await answer.fill('');
  await answer.press('?');
  await expect(dialog).toBeHidden();
  // The footer's button opens it too, and Close closes it.
  await page.getByRole('button', { name: 'Keyboard (?)' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  // A widget alone (a slide, an iframe) answers "?" as well.
  await page.goto('/widget/slo-sweep');
  await expectWidgetsReady(page);
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'The keyboard' })).toBeVisible();
  expect(watch.consoleErrors).toEqual([]);
});

test('presenting, "?" shows the list over the slides, which then keep still until it closes', async ({
  page,
  watch,
}) => {
  await page.goto('/lessons/07-06-tool-calls-in-the-loop?present');
  await expectWidgetsReady(page);
  // The screen shown (the count after "/" may still grow as the lesson's parts register).
  const screen = async () =>
    Number(
      (await page.locator('[data-present-position]').getAttribute('data-present-position'))!.split('/')[0],
    );
  const at = await screen();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'The keyboard' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('PageDown'); // a clicker's key: the dialog has it (it scrolls the list), not the slides
  await page.waitForTimeout(300);
  expect(await screen()).toBe(at);
  await page.keyboard.press('Escape'); // closes the list, and leaves presentation mode on
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-present]')).toHaveCount(1);
  await page.keyboard.press('PageDown');
  await expect.poll(screen).toBeGreaterThan(at);
  expect(watch.consoleErrors).toEqual([]);
});
