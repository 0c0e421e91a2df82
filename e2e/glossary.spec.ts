import { GLOSSARY } from '../src/app/glossary/terms';
import { expect, expectWidgetsReady, seriousAxeViolations, test } from './fixtures';

const LESSON = '/lessons/07-12-agents-per-megawatt';

test.describe('glossary', () => {
  test('a lesson’s first TTFT explains itself on hover and on Enter, and links to the glossary at the term', async ({
    page,
    watch,
  }) => {
    await page.goto(LESSON);
    await expectWidgetsReady(page);
    const term = page.locator('article [data-term="ttft"]');
    await expect(term).toHaveCount(1); // the first use only
    const word = term.getByRole('button', { name: 'TTFT' });
    const tip = page.locator('[data-term-tip="ttft"]');
    await expect(tip).toHaveCount(0); // not in the sentence's text until asked for
    // Hover opens it; leaving closes it.
    await word.hover();
    await expect(tip).toContainText('time to first token');
    const [w, t] = [await word.boundingBox(), await tip.boundingBox()];
    expect(Math.abs(t!.y - (w!.y + w!.height))).toBeLessThan(2); // just under the word
    await page.mouse.move(1, 1);
    await expect(tip).toHaveCount(0);
    // The keyboard: Enter opens, Escape closes and gives the focus back.
    await word.focus();
    await page.keyboard.press('Enter');
    await expect(word).toHaveAttribute('aria-expanded', 'true');
    await expect(tip).toBeVisible();
    // Tab goes from the word into its definition's link, not to the end of the page.
    await page.keyboard.press('Tab');
    await expect(tip.getByRole('link', { name: 'All terms' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(tip).toHaveCount(0);
    await expect(word).toBeFocused();
    // A click pins it (the pointer may leave); its link opens the glossary at the term.
    await word.click();
    await page.mouse.move(1, 1);
    await expect(tip).toBeVisible();
    // When something above the word grows (a widget drawing a taller result), the definition follows the word.
    const before = (await word.boundingBox())!.y;
    await term.evaluate((el) => {
      const spacer = document.createElement('div');
      spacer.style.height = '120px';
      spacer.dataset.testSpacer = '';
      el.closest('p')!.before(spacer);
    });
    await expect
      .poll(async () => {
        const [w2, t2] = [await word.boundingBox(), await tip.boundingBox()];
        return Math.abs(t2!.y - (w2!.y + w2!.height));
      })
      .toBeLessThan(2);
    expect((await word.boundingBox())!.y - before).toBeGreaterThanOrEqual(120); // the word did move
    await tip.getByRole('link', { name: 'All terms' }).click();
    await expect(page).toHaveURL(/\/glossary#ttft$/);
    const entry = page.locator('#ttft');
    await expect(entry).toHaveClass(/is-target/);
    await expect(entry).toBeInViewport();
    await expect(entry.getByRole('link', { name: 'Agents per Megawatt' })).toBeVisible();
    expect(watch.consoleErrors).toEqual([]);
  });

  test('the glossary lists every term alphabetically, reached from the site header', async ({
    page,
    watch,
  }) => {
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Glossary' }).click();
    await expect(page).toHaveURL(/\/glossary$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Glossary');
    const names = await page
      .locator('.glossary dt')
      .evaluateAll((els) => els.map((el) => el.firstChild?.textContent ?? ''));
    expect(names).toHaveLength(GLOSSARY.length);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(watch.consoleErrors).toEqual([]);
  });

  test('on a phone, a tapped definition stays inside the window, over the page, and a tap elsewhere closes it', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/lessons/07-04-kv-memory-hierarchy');
    await expectWidgetsReady(page);
    for (const id of ['kv-cache', 'hbm', 'gqa']) {
      const word = page.locator(`article [data-term="${id}"] button`);
      await word.scrollIntoViewIfNeeded();
      await word.click();
      const tip = page.locator(`[data-term-tip="${id}"]`);
      await expect(tip).toBeVisible();
      const box = (await tip.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      // On top: the point at its middle is the definition's, not the prose's beneath it.
      const onTop = await tip.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!hit && el.contains(hit);
      });
      expect(onTop, id).toBe(true);
      expect(await seriousAxeViolations(page, `[data-term-tip="${id}"]`)).toEqual([]);
      await page.mouse.click(5, 5);
      await expect(tip).toHaveCount(0);
    }
  });
});

test('presenting, Escape on an open definition closes the definition, not the presentation', async ({
  page,
}) => {
  await page.goto(`${LESSON}?present`);
  await expectWidgetsReady(page);
  const word = page.locator('article [data-term="ttft"] button');
  await word.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-term-tip="ttft"]')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('[data-term-tip="ttft"]')).toHaveCount(0);
  await expect(page.locator('[data-present]')).toHaveCount(1);
});
