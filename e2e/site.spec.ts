import { LESSONS } from '../src/app/lessons';
import { expect, expectWidgetsReady, seriousAxeViolations, test } from './fixtures';

test('the course home lists the twelve lessons', async ({ page, watch }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Serving Agents' })).toBeVisible();
  const cards = page.locator('[data-lesson]');
  await expect(cards).toHaveCount(12);
  await expect(cards.first()).toContainText('The Agent Workload');
  await expect(cards.first()).toContainText('min');
  expect(watch.consoleErrors).toEqual([]);
  expect(watch.foreignRequests).toEqual([]);
});

for (const lesson of LESSONS) {
  test(`lesson ${lesson.number} loads, with its objectives and ready widgets`, async ({ page, watch }) => {
    await page.goto(`/lessons/${lesson.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: lesson.title })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Learning objectives' }).getByRole('listitem')).toHaveCount(
      lesson.objectives.length,
    );
    await expect(page.getByRole('navigation', { name: 'On this page' })).toBeAttached();
    await expectWidgetsReady(page);
    expect(watch.consoleErrors).toEqual([]);
    expect(watch.foreignRequests).toEqual([]);
    // The built site's policy is in force and blocks nothing the lesson needs.
    await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute(
      'content',
      /script-src 'self' 'wasm-unsafe-eval'/,
    );
    expect(await watch.cspViolations()).toEqual([]);
  });
}

test('lesson prose renders math with KaTeX and highlights code', async ({ page }) => {
  await page.goto('/lessons/07-04-kv-memory-hierarchy');
  await expect(page.locator('math').first()).toBeAttached();
  expect(await page.locator('math').count()).toBeGreaterThan(4);
  const code = page.getByText('npm run sim -- kv --model llama-3.1-70b --dtype bf16');
  await expect(code).toBeVisible();
  // Build-time highlighting wraps tokens in spans: the comment line is its own element.
  await expect(page.getByText('# "kvBytesPerToken": 327680,', { exact: true })).toBeVisible();
});

test('navigation: cards, next/previous, reload on a deep path, unknown path', async ({ page, watch }) => {
  await page.goto('/');
  await page.getByRole('link', { name: /The Agent Workload/ }).click();
  await expect(page).toHaveURL(/\/lessons\/07-01-the-agent-workload$/);
  await page.getByRole('link', { name: /Next →/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Session Affinity' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Session Affinity' })).toBeVisible();
  await page.getByRole('link', { name: /← Previous/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'The Agent Workload' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Session Affinity' })).toBeVisible();
  await page.goto('/lessons/no-such-lesson');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  expect(watch.consoleErrors).toEqual([]);
});

test('progress: mark as done survives a reload and shows on the home page', async ({ page }) => {
  await page.goto('/lessons/07-02-session-affinity');
  await page.getByRole('button', { name: 'Mark lesson as done' }).click();
  await expect(page.getByRole('button', { name: /Done \(click to undo\)/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.reload();
  await expect(page.getByRole('button', { name: /Done \(click to undo\)/ })).toBeVisible();
  await page.goto('/');
  await expect(page.locator('[data-lesson="07-02-session-affinity"]')).toContainText('Done');
  await expect(page.getByText('1 of 12 lessons done')).toBeVisible();
});

test('progress: a corrupt saved record is recovered with a notice, not a crash', async ({ page, watch }) => {
  await page.goto('/');
  await page.evaluate(() =>
    localStorage.setItem(
      'serving-agents-lab.progress',
      '{"version":2,"lessons":{"07-01-the-agent-workload":{"status":"done"},"x":42',
    ),
  );
  await page.reload();
  const notice = page.locator('[data-notice="progress"]');
  await expect(notice).toContainText('could not be read');
  await expect(page.locator('[data-lesson]')).toHaveCount(12);
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(page.locator('[data-notice="progress"]')).toHaveCount(0);
  expect(watch.consoleErrors).toEqual([]);
});

test('theme preference applies and persists', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test('accessibility: no serious or critical axe violations on the home and a widget page', async ({
  page,
}) => {
  for (const path of ['/', '/lessons/07-04-kv-memory-hierarchy']) {
    await page.goto(path);
    await expectWidgetsReady(page);
    expect((await seriousAxeViolations(page)).map((v) => `${path}: ${v}`)).toEqual([]);
  }
});

for (const scheme of ['light', 'dark'] as const)
  test(`on a phone (${scheme}), a formula or table wider than its column shows an edge that scrolls, painted to match its box`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/lessons/07-05-kv-offload-and-reload');
    await expect(page.locator('.katex-display').first()).toBeAttached();
    await expectWidgetsReady(page);
    const blocks = await page.evaluate(() => {
      // Off-screen prose skips layout (content-visibility: auto), which would hide how wide it is.
      for (const el of document.querySelectorAll<HTMLElement>('.prose > *'))
        el.style.contentVisibility = 'visible';
      const rgb = (color: string) => {
        const probe = document.createElement('i');
        probe.style.color = color;
        document.body.append(probe);
        const out = getComputedStyle(probe).color;
        probe.remove();
        return out;
      };
      const surfaceOf = (el: Element) => {
        for (let p = el.parentElement; p; p = p.parentElement) {
          const bg = getComputedStyle(p).backgroundColor;
          if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg;
        }
        return getComputedStyle(document.body).backgroundColor;
      };
      return [...document.querySelectorAll('.katex-display, .prose table, .table-scroll')].map((el) => {
        const style = getComputedStyle(el);
        return {
          overflows: el.scrollWidth > el.clientWidth + 1,
          attachment: style.backgroundAttachment,
          cover: rgb(style.getPropertyValue('--scroll-cover').trim()),
          surface: surfaceOf(el),
        };
      });
    });
    // The lesson's long formulas do not fit 390 px: they scroll, and carry the edge shadows.
    expect(blocks.filter((b) => b.overflows).length).toBeGreaterThan(0);
    for (const b of blocks) {
      expect(b.attachment).toBe('local, local, scroll, scroll');
      // A cover of another colour would show as a stripe at each end of a block that fits.
      expect(b.cover).toBe(b.surface);
    }
  });
