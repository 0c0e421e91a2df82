import { expect, gotoLessonReady, test } from './fixtures';

const PATH = '/lessons/07-04-kv-memory-hierarchy';

test.describe('exercises that teach when you are wrong', () => {
  test('two wrong answers open the worked solution, computed by the core', async ({ page }) => {
    await gotoLessonReady(page, PATH, 3);
    const ex = page.locator('[data-exercise="07-04-contexts-per-replica"]');
    const input = ex.getByLabel(/Your answer/);
    await input.fill('3');
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex.getByRole('status')).toContainText('Not quite');
    await expect(ex.locator('[data-solution]')).toHaveCount(0);
    await input.fill('4');
    await ex.getByRole('button', { name: 'Check' }).click();
    const solution = ex.locator('[data-solution]');
    await expect(solution).toContainText('Worked solution');
    await expect(solution).toContainText('The answer is 20');
    await expect(solution).toContainText('⌊budget / context⌋ = 20');
  });

  test('the solution on request, before any answer', async ({ page }) => {
    await gotoLessonReady(page, PATH, 3);
    const ex = page.locator('[data-exercise="07-04-contexts-per-replica"]');
    await ex.getByRole('button', { name: 'Show the solution' }).click();
    await expect(ex.locator('[data-solution]')).toContainText('The answer is 20');
  });

  test('predict the shape: a wrong pick shows the computed curve and why; the right pick is marked', async ({
    page,
  }) => {
    await gotoLessonReady(page, PATH, 3);
    const ex = page.locator('[data-exercise="07-04-contexts-shape"]');
    const choices = ex.getByRole('radio');
    await expect(choices).toHaveCount(4);
    // Pick until the wrong one: the labels do not say which is which before checking.
    await choices.nth(0).check();
    await ex.getByRole('button', { name: 'Check' }).click();
    const computed = ex.locator('[data-shape="computed"]');
    await expect(computed).toHaveCount(1);
    const right = await computed
      .locator('input')
      .evaluate((el) =>
        Array.from(el.closest('[role="radiogroup"]')!.querySelectorAll('input')).indexOf(
          el as HTMLInputElement,
        ),
      );
    const result = await ex.getAttribute('data-result');
    expect(result).toBe(right === 0 ? 'correct' : 'wrong');
    await expect(ex.getByRole('status')).toContainText('hyperbola');
    await choices.nth(right).check();
    await ex.getByRole('button', { name: 'Check' }).click();
    await expect(ex).toHaveAttribute('data-result', 'correct');
  });
});
