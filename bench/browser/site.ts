/**
 * The built site served and driven for the browser benches: `vite preview` on a free port, headless Chromium
 * (the system one, as the browser tests use), and CPU throttling through the DevTools protocol.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface Site {
  base: string;
  /** The directory served (dist/ unless told otherwise). */
  dist: string;
  browser: Browser;
  close(): Promise<void>;
}

export interface SiteOptions {
  /** A built site to serve instead of dist/ (a build of another commit, to compare side by side). */
  dist?: string;
  /** The preview server's port (default: a free one). `BENCH_PORT` sets it for `npm run bench`. */
  port?: number;
  /** Share one browser between sites, so two builds are measured under the same conditions. */
  browser?: Browser;
}

/** Build (once, when dist/ is missing), serve and launch. */
export async function openSite(options: SiteOptions = {}): Promise<Site> {
  const dist = options.dist ?? 'dist';
  if (dist === 'dist' && !existsSync('dist/index.html')) {
    const b = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (b.status !== 0) throw new Error('the build failed');
  }
  if (!existsSync(`${dist}/index.html`))
    throw new Error(`${dist}/index.html is missing: build the site first`);
  const port = options.port ?? (await freePort());
  const server: ChildProcess = spawn(
    'node_modules/.bin/vite',
    ['preview', '--outDir', dist, '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { stdio: 'ignore' },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(base)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const own = !options.browser;
  const browser =
    options.browser ??
    (await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], headless: true }));
  return {
    base,
    dist,
    browser,
    async close() {
      if (own) await browser.close();
      server.kill();
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], headless: true });
}

/**
 * A page for the benches' closures: tsx keeps function names with an `__name` helper that does not exist in the
 * page the closures run in, so every bench page gets an identity one.
 */
export async function benchPage(site: Site, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const page = await site.browser.newPage({ viewport });
  // __salJobTiming: the worker client leaves a User Timing measure per job (src/worker/client.ts).
  await page.addInitScript('window.__name = (f) => f; window.__salJobTiming = true;');
  return page;
}

/** Slow the page's CPU `rate`× (1 = off), as DevTools' performance panel does. */
export async function throttleCpu(page: Page, rate: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

export interface ReadyTimes {
  /** ms from navigation start until every widget was ready (NaN: not within the timeout). */
  allMs: number;
  /** Each widget's own time to ready, in page order. */
  widgets: { id: string; ms: number }[];
}

/**
 * Wait until every widget on the page is ready (or failed), returning ms since navigation start, overall and
 * per widget. "Ready" is the widgets' own contract (WidgetFrame): data-state leaves "loading" once the first
 * computed result is drawn.
 */
export async function widgetsReady(page: Page, timeoutMs = 60_000): Promise<ReadyTimes> {
  return page.evaluate(async (timeout) => {
    const t0 = performance.now();
    const seen = new Map<Element, number>();
    for (;;) {
      const widgets = Array.from(document.querySelectorAll('[data-widget]'));
      const now = performance.now();
      for (const w of widgets)
        if (!seen.has(w) && w.getAttribute('data-state') !== 'loading') seen.set(w, now);
      const body = document.querySelector('.prose > :not(.loading)');
      const done = body && widgets.length > 0 && widgets.every((w) => seen.has(w));
      if (done || now - t0 > timeout)
        return {
          allMs: done ? now : NaN,
          widgets: widgets.map((w) => ({ id: w.getAttribute('data-widget') ?? '?', ms: seen.get(w) ?? NaN })),
        };
      await new Promise((r) => setTimeout(r, 10));
    }
  }, timeoutMs);
}

export async function widgetsReadyMs(page: Page, timeoutMs = 60_000): Promise<number> {
  return (await widgetsReady(page, timeoutMs)).allMs;
}
