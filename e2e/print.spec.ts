import { expect, expectWidgetsReady, test } from './fixtures';

test('a lesson prints in dark text on white without the site’s navigation, even in the dark theme', async ({
  page,
  watch,
}) => {
  await page.goto('/lessons/07-04-kv-memory-hierarchy');
  await expectWidgetsReady(page);
  await page.getByLabel('Theme').selectOption('dark');
  const style = (selector: string, property: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);
  // On screen: the dark theme.
  expect(await style('body', 'color')).toBe('rgb(233, 233, 236)');
  const darkChartBg = await style(':root', '--chart-bg');
  await page.emulateMedia({ media: 'print' });
  expect(await style('body', 'color')).toBe('rgb(27, 28, 31)');
  expect(await style('body', 'background-color')).toBe('rgb(251, 251, 250)');
  for (const hidden of ['.site-header', '.lesson-aside', '.lesson-nav', '.tour', '.widget-toolbar'])
    expect(await style(hidden, 'display'), hidden).toBe('none');
  // Every block is laid out (none skipped as out of view).
  const skipped = await page
    .locator('.prose > *')
    .evaluateAll((els) => els.filter((el) => getComputedStyle(el).contentVisibility === 'auto').length);
  expect(skipped).toBe(0);
  // The charts' palette follows: their background is not the dark one.
  expect(await style(':root', '--chart-bg')).not.toBe(darkChartBg);
  await page.emulateMedia({ media: 'screen' });
  expect(await style('body', 'color')).toBe('rgb(233, 233, 236)');
  expect(watch.consoleErrors).toEqual([]);
});
