/** Shared browser-test plumbing: collect console errors and requests that leave the origin. */
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { WIDGETS } from '../src/widgets/registry';

export interface PageWatch {
  consoleErrors: string[];
  foreignRequests: string[];
  /** Content-Security-Policy violations the document reported so far ("directive blocked-uri"). */
  cspViolations(): Promise<string[]>;
}

export const test = base.extend<{ watch: PageWatch }>({
  watch: async ({ page, baseURL }, use) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __cspViolations: string[] };
      w.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        w.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const watch: PageWatch = {
      consoleErrors: [],
      foreignRequests: [],
      cspViolations: () =>
        page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []),
    };
    const origin = new URL(baseURL ?? 'http://127.0.0.1:4173').origin;
    page.on('console', (msg) => {
      if (msg.type() === 'error') watch.consoleErrors.push(msg.text());
    });
    page.on('pageerror', (err) => watch.consoleErrors.push(`pageerror: ${err.message}`));
    page.on('request', (req) => {
      const url = req.url();
      if (url.startsWith('data:') || url.startsWith('blob:')) return;
      if (new URL(url).origin !== origin) watch.foreignRequests.push(url);
    });
    await use(watch);
  },
});

export { expect };

/**
 * axe's serious and critical WCAG 2.1 A/AA violations on the page (or inside `include`), one line each
 * ("<id> (<nodes>) <help>"): expect it to equal [].
 */
export async function seriousAxeViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.nodes.length}) ${v.help}`);
}

/**
 * The test build's account of why widgets may still be waiting (`__salDebug.report()`, src/debugHandles.ts):
 * each simulation hook that is not ready or streams (its job, frames held, frames its result says, status), the
 * client's jobs and each worker's jobs in flight. Null where the build has no debug handles.
 */
export async function simReport(page: Page): Promise<string | null> {
  try {
    const report = await page.evaluate(async () => {
      const d = (window as unknown as { __salDebug?: { report?: () => Promise<Record<string, unknown>> } })
        .__salDebug;
      if (!d?.report) return null;
      const r = await d.report();
      const hooks = (r.hooks as Record<string, unknown>[]).filter(
        (h) => h.status !== 'ready' || 'framesHeld' in h,
      );
      return { ...r, hooks };
    });
    return report === null ? null : JSON.stringify(report, null, 1);
  } catch (e) {
    return `no report (${e instanceof Error ? e.message : String(e)})`;
  }
}

/** Wait until every widget on the page reports data-state="ready" (and none reports "error"). */
export async function expectWidgetsReady(page: Page) {
  const widgets = page.locator('[data-widget]');
  const n = await widgets.count();
  for (let i = 0; i < n; i++) {
    try {
      await expect(widgets.nth(i)).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    } catch (e) {
      const report = await simReport(page);
      if (report === null) throw e;
      const id = await widgets.nth(i).getAttribute('data-widget');
      throw new Error(
        `${e instanceof Error ? e.message : String(e)}\n\nwidget ${id} not ready; the simulation's state:\n${report}`,
        { cause: e },
      );
    }
  }
  return n;
}

/** Open a lesson and wait until its lazily loaded body shows `widgets` widgets, all ready. */
export async function gotoLessonReady(page: Page, path: string, widgets: number) {
  await page.goto(path);
  await expect(page.locator('[data-widget]')).toHaveCount(widgets);
  await expectWidgetsReady(page);
}

/** How many widgets a lesson's page shows (the registry's, by lesson slug). */
export function lessonWidgetCount(slug: string): number {
  return WIDGETS.filter((w) => w.lesson === slug).length;
}

/**
 * Open a lesson (with an optional query) and wait until every widget is ready and nothing in it is still computing:
 * a streamed sweep's last runs ended, its pending marks gone, every figure drawn for its settings.
 */
export async function gotoLessonIdle(page: Page, slug: string, query = '') {
  await gotoLessonReady(page, `/lessons/${slug}${query}`, lessonWidgetCount(slug));
  await expect(page.locator('article [aria-busy="true"]')).toHaveCount(0, { timeout: 60_000 });
}

/** The number a read-out or inline figure publishes in its data-value attribute. */
export async function dataValue(el: Locator): Promise<number> {
  return Number(await el.getAttribute('data-value'));
}

/** Type into a labelled number field and commit with Enter, as a learner does. */
export async function setNumber(scope: Locator, name: RegExp, value: number | string) {
  const field = scope.getByRole('spinbutton', { name });
  await field.fill(String(value));
  await field.press('Enter');
}

/**
 * A figure as the page prints it, as a number in base units: "52.8 ms" → 0.0528, "7.03 s" → 7.03,
 * "1.5 min" → 90, "189k tokens" → 189000, "73.4%" → 73.4, "4.2×" → 4.2; the first number when there are several.
 */
export function parseFigure(text: string): number {
  const t = text.replace(/,/g, '').trim();
  const m = /([-+]?[\d.]+)\s*(k|M)?\s*(ms|µs|s\b|min|%|×|tokens)?/.exec(t);
  if (!m) return NaN;
  let v = Number(m[1]);
  if (m[2] === 'k') v *= 1e3;
  if (m[2] === 'M') v *= 1e6;
  if (m[3] === 'ms') v /= 1e3;
  if (m[3] === 'µs') v /= 1e6;
  if (m[3] === 'min') v *= 60;
  return v;
}

/** The figure an element shows, parsed by parseFigure. */
export async function figureValue(loc: Locator): Promise<number> {
  return parseFigure((await loc.textContent()) ?? '');
}

/** The test build's debug handles (src/debugHandles.ts) load just after the app: wait for them. */
export async function waitForDebugHandles(page: Page) {
  await page.waitForFunction(() => '__salDebug' in window);
}
